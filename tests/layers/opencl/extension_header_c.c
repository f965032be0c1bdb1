/* The extension's public header compiled as C11 (-Wall -Wextra -Wpedantic), as C programs include it. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include "CL/cl_codeplay_performance_counters.h"

#include <stddef.h>

_Static_assert(sizeof(cl_performance_counter_result_codeplay) == 8, "one 64-bit union member");
_Static_assert(offsetof(cl_performance_counter_codeplay, name) == 12, "unit, storage, uuid, then name");

/* The layout seen from C, for the C++ test to compare with its own. */
size_t CodeplayLayoutFromC(int which) {
    switch (which) {
        case 0: return sizeof(cl_performance_counter_codeplay);
        case 1: return offsetof(cl_performance_counter_codeplay, description);
        case 2: return sizeof(cl_performance_counter_desc_codeplay);
        case 3: return sizeof(cl_performance_counter_config_codeplay);
        case 4: return offsetof(cl_performance_counter_config_codeplay, descs);
        default: return sizeof(cl_performance_counter_result_codeplay);
    }
}
