// The CUPTI callback and activity functions gpaprof's CUDA part calls, and the few driver functions it needs
// beyond the CUDA backend's list. Both libraries are opened at run time: CUPTI is the very library the CUDA
// backend loads (gpa::cuda::LoadCupti, so that one process never has two CUPTIs), the driver is the
// libcuda.so.1 the application already has.
#pragma once

#include <cuda.h>
#include <cupti_activity.h>
#include <cupti_callbacks.h>
#include <cupti_result.h>

#include <string>

namespace gpaprof::cuda {

#define GPAPROF_CUPTI_TRACING_FUNCTIONS(X)    \
    X(cuptiSubscribe)                         \
    X(cuptiUnsubscribe)                       \
    X(cuptiEnableDomain)                      \
    X(cuptiEnableCallback)                    \
    X(cuptiActivityEnable)                    \
    X(cuptiActivityDisable)                   \
    X(cuptiActivityRegisterCallbacks)         \
    X(cuptiActivityGetNextRecord)             \
    X(cuptiActivityFlushAll)                  \
    X(cuptiActivityGetNumDroppedRecords)      \
    X(cuptiGetTimestamp)                      \
    X(cuptiGetResultString)

// Optional: newer CUPTI only; each has a fallback.
#define GPAPROF_CUPTI_OPTIONAL_FUNCTIONS(X)   \
    X(cuptiActivityRegisterTimestampCallback) \
    X(cuptiActivityFlushPeriod)               \
    X(cuptiActivitySetAttribute)              \
    X(cuptiGetContextId)                      \
    X(cuptiGetDeviceId)                       \
    X(cuptiGetStreamIdEx)                     \
    X(cuptiGetGraphNodeId)                    \
    X(cuptiGetGraphExecId)

#define GPAPROF_DRIVER_FUNCTIONS(X)                  \
    X(cuDeviceGet)                                   \
    X(cuDeviceGetCount)                              \
    X(cuDeviceGetName)                               \
    X(cuDeviceGetAttribute)                          \
    X(cuDriverGetVersion)                            \
    X(cuCtxGetDevice)                                \
    X(cuCtxGetCurrent)                               \
    X(cuFuncGetAttribute)                            \
    X(cuFuncSetAttribute)                            \
    X(cuOccupancyMaxActiveBlocksPerMultiprocessor)   \
    X(cuGetErrorName)                                \
    X(cuCtxSynchronize)                              \
    X(cuStreamSynchronize)                           \
    X(cuLaunchKernel)                                \
    X(cuMemAlloc_v2)                                 \
    X(cuMemFree_v2)                                  \
    X(cuMemcpyDtoDAsync_v2)                          \
    X(cuModuleGetGlobal_v2)                          \
    X(cuMemGetAddressRange_v2)                       \
    X(cuPointerGetAttribute)                         \
    X(cuCtxPushCurrent_v2)                           \
    X(cuCtxPopCurrent_v2)                            \
    X(cuStreamCreate)                                \
    X(cuMemGetInfo_v2)

// Own replay (launch_replayer.h, l2_flush.h) uses these where the driver has them.
#define GPAPROF_DRIVER_OPTIONAL_FUNCTIONS(X) \
    X(cuFuncGetName)                        \
    X(cuKernelGetFunction)                  \
    X(cuLaunchKernelEx)                     \
    X(cuFuncGetModule)                      \
    X(cuFuncGetParamInfo)                   \
    X(cuKernelGetLibrary)                   \
    X(cuLibraryGetGlobal)                   \
    X(cuCtxCreate_v4)                       \
    X(cuModuleLoadData)                     \
    X(cuModuleGetFunction)                  \
    X(cuStreamIsCapturing)                  \
    GPAPROF_DRIVER_GRAPH_FUNCTIONS(X)

// CUDA graphs under -p (graph_programs.h): reading a graph, and running its nodes one by one. Versioned names:
// the loader resolves the very symbol named here.
#define GPAPROF_DRIVER_GRAPH_FUNCTIONS(X) \
    X(cuGraphGetNodes)                    \
    X(cuGraphGetEdges_v2)                 \
    X(cuGraphNodeGetType)                 \
    X(cuGraphKernelNodeGetParams_v2)      \
    X(cuGraphKernelNodeGetAttribute)      \
    X(cuGraphMemcpyNodeGetParams)         \
    X(cuGraphMemsetNodeGetParams)         \
    X(cuGraphChildGraphNodeGetGraph)      \
    X(cuGraphLaunch)                      \
    X(cuMemcpy3DAsync_v2)                 \
    X(cuMemsetD2D8Async)                  \
    X(cuMemsetD2D16Async)                 \
    X(cuMemsetD2D32Async)

struct TracingApi {
#define GPAPROF_DECLARE_POINTER(name) decltype(&::name) name = nullptr;
    GPAPROF_CUPTI_TRACING_FUNCTIONS(GPAPROF_DECLARE_POINTER)
    GPAPROF_CUPTI_OPTIONAL_FUNCTIONS(GPAPROF_DECLARE_POINTER)
    GPAPROF_DRIVER_FUNCTIONS(GPAPROF_DECLARE_POINTER)
    GPAPROF_DRIVER_OPTIONAL_FUNCTIONS(GPAPROF_DECLARE_POINTER)
#undef GPAPROF_DECLARE_POINTER
    std::string cuptiPath;
    uint32_t cuptiVersion = 0;

    std::string Describe(CUptiResult result) const;
};

// Loads once per process. nullptr with the reason when CUPTI or the driver cannot be used.
const TracingApi* LoadTracingApi(std::string* problem);

}  // namespace gpaprof::cuda
