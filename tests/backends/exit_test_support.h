// For the graphics backends' tests of programs that call exit() with GPA's context open
// (exit_with_open_context_test.cpp, death tests that run each case in a fresh process).
#pragma once

#include <cstdlib>
#include <string>

#include "GPUPerfAPI.h"

namespace ogpa::backend_tests {

// Those processes leave the driver's objects alive on purpose (the device is never destroyed): in a sanitizer build
// LeakSanitizer would report the driver's allocations at their exit and change their exit code. The death tests'
// processes are started with this process's environment, so leak checking is turned off for them here (this
// process's own LeakSanitizer read its options at start and keeps checking).
inline void TurnOffLeakCheckInChildren() {
    const char* options = std::getenv("LSAN_OPTIONS");
    const std::string value = std::string(options ? options : "") + (options && *options ? ":" : "") + "detect_leaks=0";
    setenv("LSAN_OPTIONS", value.c_str(), 1);
}

// Reads every counter of one sample through the GPA C API, as a program that dumps a whole sample does; what each
// read returns is not checked (a sampled counter may be refused when the PM sampler missed its window).
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
