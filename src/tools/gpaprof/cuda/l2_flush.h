// Before a kernel is measured, the device's L2 cache is left clean and holding none of the application's data,
// as Nsight Compute does by default (--cache-control all): otherwise a kernel measured right after gpaprof
// saved or restored its memory starts with the L2 full of dirty lines of that copy, writes them back while it
// runs and takes longer (a 64 MiB saxpy on an H100: 8% longer than ncu's figure; docs/gpaprof.md).
//
// How: a kernel of gpaprof's own reads a buffer of twice the L2's size, in a context of gpaprof's own on the
// same device, so that no profiler of the application's context counts it; events order it after what the
// application's stream holds and before what comes next there. GPAPROF_CUDA_CACHE_CONTROL=none turns it off.
#pragma once

#include <cuda.h>

#include <map>
#include <string>

#include "tools/gpaprof/cuda/cupti_tracing_api.h"

namespace gpaprof::cuda {

class L2Flush {
public:
    explicit L2Flush(const TracingApi* api);
    L2Flush(const L2Flush&) = delete;
    L2Flush& operator=(const L2Flush&) = delete;

    bool enabled() const { return enabled_; }
    // Enqueues the flush on `stream` of `context`, which must be current; the caller marks the thread
    // internal. False with the reason when it cannot (nothing was enqueued; later calls for the device fail
    // at once).
    bool Enqueue(CUcontext context, CUstream stream, std::string* why);
    // The application's context is being destroyed: its event goes with it.
    void ContextDestroyed(CUcontext context);

private:
    struct Device {
        CUcontext own = nullptr;
        CUfunction kernel = nullptr;
        CUdeviceptr buffer = 0;
        unsigned long long vectors = 0;  // 16-byte loads the kernel makes
        unsigned blocks = 0;
        CUstream stream = nullptr;
        CUevent done = nullptr;
        std::string failure;  // why the device has no flush
    };
    Device* DeviceOf(CUcontext context, std::string* why);
    bool Prepare(CUdevice device, Device* state);
    std::string Describe(const char* call, CUresult result) const;

    const TracingApi* api_;
    bool enabled_ = true;
    std::map<CUdevice, Device> devices_;
    std::map<CUcontext, CUevent> ready_;  // per application context: what its stream held before the flush
};

}  // namespace gpaprof::cuda
