// The CUDA driver API (libcuda.so.1), loaded at run time so that OpenGPA's CUDA library loads on
// machines without the NVIDIA driver and says so at GPA_OpenContext.
#pragma once

#include <cuda.h>

#include <string>

#include "core/outcome.h"

namespace gpa::cuda {

#define OPENGPA_DRIVER_FUNCTIONS(X) \
    X(cuInit)                       \
    X(cuDriverGetVersion)           \
    X(cuGetErrorName)               \
    X(cuGetErrorString)             \
    X(cuDeviceGetCount)             \
    X(cuDeviceGet)                  \
    X(cuDeviceGetName)              \
    X(cuDeviceGetAttribute)         \
    X(cuDeviceGetPCIBusId)          \
    X(cuDeviceGetUuid)              \
    X(cuDevicePrimaryCtxRetain)     \
    X(cuDevicePrimaryCtxRelease)    \
    X(cuCtxGetCurrent)              \
    X(cuCtxGetDevice)               \
    X(cuCtxPushCurrent)             \
    X(cuCtxPopCurrent)              \
    X(cuCtxSynchronize)             \
    X(cuEventCreate)                \
    X(cuEventRecord)                \
    X(cuEventQuery)                 \
    X(cuEventSynchronize)           \
    X(cuEventDestroy)

struct DriverApi {
#define OPENGPA_DECLARE_POINTER(name) decltype(&::name) name = nullptr;
    OPENGPA_DRIVER_FUNCTIONS(OPENGPA_DECLARE_POINTER)
#undef OPENGPA_DECLARE_POINTER
    std::string path;
    int version = 0;  // cuDriverGetVersion, e.g. 13000

    std::string Describe(CUresult result) const;  // "CUDA_ERROR_X: text (n)"
    Outcome Failure(const char* what, CUresult result, GPA_Status status = GPA_STATUS_ERROR_FAILED) const;
};

// Loads libcuda.so.1 once per process and calls cuInit(0). Fails with GPA_STATUS_ERROR_HARDWARE_NOT_SUPPORTED
// and the reason (no driver installed, no device, driver too old...).
Outcome LoadDriver(const DriverApi** api);

// Makes a context current on this thread for a scope and restores the previous one.
class ScopedContext {
public:
    ScopedContext(const DriverApi& driver, CUcontext context);
    ~ScopedContext();
    ScopedContext(const ScopedContext&) = delete;
    ScopedContext& operator=(const ScopedContext&) = delete;
    const Outcome& outcome() const { return outcome_; }

private:
    const DriverApi& driver_;
    bool pushed_ = false;
    Outcome outcome_;
};

}  // namespace gpa::cuda
