// Reads every counter of one sample through the GPA C API, as a program that dumps a whole sample does; what each
// read returns is not checked (a sampled counter may be refused when the PM sampler missed its window). For the
// graphics backends' tests of programs that end with GPA's context open (exit_with_open_context_test.cpp).
#pragma once

#include "GPUPerfAPI.h"

namespace ogpa::backend_tests {

inline void ReadEveryCounter(gpa_uint32 session, gpa_uint32 sample, gpa_uint32 counters) {
    for (gpa_uint32 counter = 0; counter < counters; ++counter) {
        GPA_Type type{};
        GPA_GetCounterDataType(counter, &type);
        double real = 0;
        gpa_uint64 whole = 0;
        if (type == GPA_TYPE_FLOAT64) GPA_GetSampleFloat64(session, sample, counter, &real);
        if (type == GPA_TYPE_UINT64) GPA_GetSampleUInt64(session, sample, counter, &whole);
    }
}

}  // namespace ogpa::backend_tests
