// cl_codeplay_performance_counters (OpenCL extension proposal, revision 2; shared/seeds/004): the enums and
// structures the backend needs, with the extension's values and layouts. The Khronos headers do not ship
// them, so they live here, in a namespace, so that they never clash with a header that does one day.
#pragma once

#include "backends/opencl/cl_headers.h"

// Enumerants as the extension defines them (guarded: a newer cl_ext.h may define them too).

// clGetDeviceInfo: cl_performance_counter_codeplay[] (size 0 when the device has none).
#ifndef CL_DEVICE_PERFORMANCE_COUNTERS_CODEPLAY
#define CL_DEVICE_PERFORMANCE_COUNTERS_CODEPLAY 0x4260
#endif
// clCreateCommandQueueWithPropertiesKHR key; value: cl_performance_counter_config_codeplay*.
#ifndef CL_QUEUE_PERFORMANCE_COUNTERS_CODEPLAY
#define CL_QUEUE_PERFORMANCE_COUNTERS_CODEPLAY 0x4261
#endif
// clGetEventProfilingInfo: cl_performance_counter_result_codeplay[], in the order the queue enabled them.
#ifndef CL_PROFILING_COMMAND_PERFORMANCE_COUNTERS_CODEPLAY
#define CL_PROFILING_COMMAND_PERFORMANCE_COUNTERS_CODEPLAY 0x4262
#endif

#ifndef CL_PERFORMANCE_COUNTER_UNIT_GENERIC_CODEPLAY
#define CL_PERFORMANCE_COUNTER_UNIT_GENERIC_CODEPLAY 0x0
#endif
#ifndef CL_PERFORMANCE_COUNTER_UNIT_PERCENTAGE_CODEPLAY
#define CL_PERFORMANCE_COUNTER_UNIT_PERCENTAGE_CODEPLAY 0x1
#endif
#ifndef CL_PERFORMANCE_COUNTER_UNIT_NANOSECONDS_CODEPLAY
#define CL_PERFORMANCE_COUNTER_UNIT_NANOSECONDS_CODEPLAY 0x2
#endif
#ifndef CL_PERFORMANCE_COUNTER_UNIT_BYTES_CODEPLAY
#define CL_PERFORMANCE_COUNTER_UNIT_BYTES_CODEPLAY 0x3
#endif
#ifndef CL_PERFORMANCE_COUNTER_UNIT_BYTES_PER_SECOND_CODEPLAY
#define CL_PERFORMANCE_COUNTER_UNIT_BYTES_PER_SECOND_CODEPLAY 0x4
#endif
#ifndef CL_PERFORMANCE_COUNTER_UNIT_KELVIN_CODEPLAY
#define CL_PERFORMANCE_COUNTER_UNIT_KELVIN_CODEPLAY 0x5
#endif
#ifndef CL_PERFORMANCE_COUNTER_UNIT_WATTS_CODEPLAY
#define CL_PERFORMANCE_COUNTER_UNIT_WATTS_CODEPLAY 0x6
#endif
#ifndef CL_PERFORMANCE_COUNTER_UNIT_VOLTS_CODEPLAY
#define CL_PERFORMANCE_COUNTER_UNIT_VOLTS_CODEPLAY 0x7
#endif
#ifndef CL_PERFORMANCE_COUNTER_UNIT_AMPS_CODEPLAY
#define CL_PERFORMANCE_COUNTER_UNIT_AMPS_CODEPLAY 0x8
#endif
#ifndef CL_PERFORMANCE_COUNTER_UNIT_HERTZ_CODEPLAY
#define CL_PERFORMANCE_COUNTER_UNIT_HERTZ_CODEPLAY 0x9
#endif
#ifndef CL_PERFORMANCE_COUNTER_UNIT_CYCLES_CODEPLAY
#define CL_PERFORMANCE_COUNTER_UNIT_CYCLES_CODEPLAY 0xA
#endif

#ifndef CL_PERFORMANCE_COUNTER_RESULT_TYPE_INT32_CODEPLAY
#define CL_PERFORMANCE_COUNTER_RESULT_TYPE_INT32_CODEPLAY 0x0
#endif
#ifndef CL_PERFORMANCE_COUNTER_RESULT_TYPE_INT64_CODEPLAY
#define CL_PERFORMANCE_COUNTER_RESULT_TYPE_INT64_CODEPLAY 0x1
#endif
#ifndef CL_PERFORMANCE_COUNTER_RESULT_TYPE_UINT32_CODEPLAY
#define CL_PERFORMANCE_COUNTER_RESULT_TYPE_UINT32_CODEPLAY 0x2
#endif
#ifndef CL_PERFORMANCE_COUNTER_RESULT_TYPE_UINT64_CODEPLAY
#define CL_PERFORMANCE_COUNTER_RESULT_TYPE_UINT64_CODEPLAY 0x3
#endif
#ifndef CL_PERFORMANCE_COUNTER_RESULT_TYPE_FLOAT32_CODEPLAY
#define CL_PERFORMANCE_COUNTER_RESULT_TYPE_FLOAT32_CODEPLAY 0x4
#endif
#ifndef CL_PERFORMANCE_COUNTER_RESULT_TYPE_FLOAT64_CODEPLAY
#define CL_PERFORMANCE_COUNTER_RESULT_TYPE_FLOAT64_CODEPLAY 0x5
#endif

// OpenCL 3.0 clGetCommandQueueInfo query: the properties array the queue was created with. The backend
// compiles against the 1.2 API and probes it at run time.
#ifndef CL_QUEUE_PROPERTIES_ARRAY
#define CL_QUEUE_PROPERTIES_ARRAY 0x1098
#endif

namespace gpa::cl::codeplay {

inline constexpr const char* kExtensionName = "cl_codeplay_performance_counters";

using cl_performance_counter_unit_codeplay = cl_uint;
using cl_performance_counter_storage_codeplay = cl_uint;

struct cl_performance_counter_codeplay {
    cl_performance_counter_unit_codeplay unit;
    cl_performance_counter_storage_codeplay storage;
    cl_uint uuid;
    char name[256];
    char category[256];
    char description[256];
};

struct cl_performance_counter_desc_codeplay {
    cl_uint uuid;
    void* data;
};

struct cl_performance_counter_config_codeplay {
    cl_uint count;
    cl_performance_counter_desc_codeplay* descs;
};

struct cl_performance_counter_result_codeplay {
    union {
        cl_int int32;
        cl_long int64;
        cl_uint uint32;
        cl_ulong uint64;
        cl_float float32;
        cl_double float64;
    };
};

}  // namespace gpa::cl::codeplay
