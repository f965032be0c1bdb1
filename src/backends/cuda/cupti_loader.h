// CUPTI, loaded at run time. libGPUPerfAPICUDA.so does not link libcupti: the library loads and
// GPA_Initialize works on machines without it, and GPA_OpenContext says what is missing.
#pragma once

#include <cupti_pmsampling.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_result.h>
#include <cupti_target.h>
#include <cupti_version.h>

#include <string>

#include "core/outcome.h"

namespace gpa::cuda {

// Every CUPTI function OpenGPA calls. Host functions work without a GPU; the others need a CUcontext.
#define OPENGPA_CUPTI_FUNCTIONS(X)                 \
    X(cuptiGetResultString)                        \
    X(cuptiGetVersion)                             \
    X(cuptiProfilerHostGetSupportedChips)          \
    X(cuptiProfilerHostInitialize)                 \
    X(cuptiProfilerHostDeinitialize)               \
    X(cuptiProfilerHostGetBaseMetrics)             \
    X(cuptiProfilerHostGetSubMetrics)              \
    X(cuptiProfilerHostGetMetricProperties)        \
    X(cuptiProfilerHostConfigAddMetrics)           \
    X(cuptiProfilerHostGetConfigImageSize)         \
    X(cuptiProfilerHostGetConfigImage)             \
    X(cuptiProfilerHostGetNumOfPasses)             \
    X(cuptiProfilerHostEvaluateToGpuValues)        \
    X(cuptiRangeProfilerGetCounterDataInfo)        \
    X(cuptiRangeProfilerCounterDataGetRangeInfo)   \
    X(cuptiProfilerInitialize)                     \
    X(cuptiProfilerDeInitialize)                   \
    X(cuptiProfilerDeviceSupported)                \
    X(cuptiProfilerGetCounterAvailability)         \
    X(cuptiDeviceGetChipName)                      \
    X(cuptiRangeProfilerEnable)                    \
    X(cuptiRangeProfilerDisable)                   \
    X(cuptiRangeProfilerGetCounterDataSize)        \
    X(cuptiRangeProfilerCounterDataImageInitialize) \
    X(cuptiRangeProfilerSetConfig)                 \
    X(cuptiRangeProfilerStart)                     \
    X(cuptiRangeProfilerStop)                      \
    X(cuptiRangeProfilerPushRange)                 \
    X(cuptiRangeProfilerPopRange)                  \
    X(cuptiRangeProfilerDecodeData)

// CUPTI's older Profiler API (sessions and passes; deprecated in CUDA 13, may be missing later): null where the
// library lacks them. Used where profiling must pause around work of OpenGPA's own (legacy_profiler_session.h).
#define OPENGPA_CUPTI_LEGACY_PROFILER_FUNCTIONS(X)                \
    X(cuptiProfilerCounterDataImageCalculateScratchBufferSize)    \
    X(cuptiProfilerCounterDataImageInitializeScratchBuffer)       \
    X(cuptiProfilerBeginSession)                                  \
    X(cuptiProfilerEndSession)                                    \
    X(cuptiProfilerSetConfig)                                     \
    X(cuptiProfilerUnsetConfig)                                   \
    X(cuptiProfilerBeginPass)                                     \
    X(cuptiProfilerEndPass)                                       \
    X(cuptiProfilerEnableProfiling)                               \
    X(cuptiProfilerDisableProfiling)                              \
    X(cuptiProfilerFlushCounterData)                              \
    X(cuptiProfilerPushRange)                                     \
    X(cuptiProfilerPopRange)

// Device-level PM sampling (CUPTI 12.6 and newer, cupti_pmsampling.h; src/pm_sampling): null where the library
// lacks them.
#define OPENGPA_CUPTI_PM_SAMPLING_FUNCTIONS(X)      \
    X(cuptiPmSamplingEnable)                        \
    X(cuptiPmSamplingDisable)                       \
    X(cuptiPmSamplingSetConfig)                     \
    X(cuptiPmSamplingStart)                         \
    X(cuptiPmSamplingStop)                          \
    X(cuptiPmSamplingDecodeData)                    \
    X(cuptiPmSamplingGetCounterAvailability)        \
    X(cuptiPmSamplingGetCounterDataSize)            \
    X(cuptiPmSamplingCounterDataImageInitialize)    \
    X(cuptiPmSamplingGetCounterDataInfo)            \
    X(cuptiPmSamplingCounterDataGetSampleInfo)

struct CuptiApi {
#define OPENGPA_DECLARE_POINTER(name) decltype(&::name) name = nullptr;
    OPENGPA_CUPTI_FUNCTIONS(OPENGPA_DECLARE_POINTER)
    OPENGPA_CUPTI_LEGACY_PROFILER_FUNCTIONS(OPENGPA_DECLARE_POINTER)
    OPENGPA_CUPTI_PM_SAMPLING_FUNCTIONS(OPENGPA_DECLARE_POINTER)
#undef OPENGPA_DECLARE_POINTER
    bool legacyProfiler = false;  // every function of OPENGPA_CUPTI_LEGACY_PROFILER_FUNCTIONS is there
    bool pmSampling = false;      // every function of OPENGPA_CUPTI_PM_SAMPLING_FUNCTIONS is there
    std::string path;        // the library that was loaded
    uint32_t version = 0;    // cuptiGetVersion

    // "CUPTI_ERROR_X (what it means)" plus, for the errors users can fix, what to do.
    std::string Describe(CUptiResult result) const;
    // An Outcome for a failed call: `what` failed with the described result.
    Outcome Failure(const char* what, CUptiResult result, GPA_Status status = GPA_STATUS_ERROR_FAILED) const;
};

// Loads CUPTI once per process (later calls answer the same). Where it looks: $OPENGPA_CUPTI_LIBRARY
// alone when it is set; otherwise, in order, libcupti.so.13 and libcupti.so on the loader's path, $CUDA_HOME / $CUDA_PATH,
// /usr/local/cuda (lib64, extras/CUPTI/lib64, lib), and the directory CUPTI was found in at build time.
// On failure the reason names every place tried and how to point OpenGPA at CUPTI.
Outcome LoadCupti(const CuptiApi** api);

// A zeroed CUPTI parameter struct with its structSize set (CUPTI checks the size for compatibility).
template <typename Params>
Params MakeParams(size_t structSize) {
    Params params{};
    params.structSize = structSize;
    return params;
}
#define OPENGPA_CUPTI_PARAMS(Type) ::gpa::cuda::MakeParams<Type>(Type##_STRUCT_SIZE)

// What users should do when NVIDIA's counters are not accessible to them (ERR_NVGPUCTRPERM).
extern const char* const kCounterPermissionFix;

}  // namespace gpa::cuda
