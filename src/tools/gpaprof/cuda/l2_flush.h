// Before a kernel is measured, the device's L2 cache is left clean and holding none of the application's data,
// as Nsight Compute does by default (--cache-control all): otherwise a kernel measured right after gpaprof
// saved or restored its memory starts with the L2 full of dirty lines of that copy, writes them back while it
// runs and takes longer (a 64 MiB saxpy on an H100: 8% longer than ncu's figure; docs/gpaprof.md).
//
// How: once the application's stream has done what it holds, a kernel of gpaprof's own reads a buffer of twice
// the L2's size, in a context of gpaprof's own on the same device, so that no profiler of the application's
// context counts it, and is waited for. (Ordering it through events instead makes the driver put a wait kernel
// of its own into the application's stream, which the range profiler then counts as a kernel.)
// GPAPROF_CUDA_CACHE_CONTROL=none turns it off (ncu's --cache-control none), =all is the default.
//
// Cost: switching to gpaprof's context while the application's is profiled takes about 3 ms, before every
// measured kernel (H100, 2026-11-24: 300 launches under the GPA compute set, 11 passes: 15 s against ncu's
// 61 s; 5.8 s before the flush, on an H200, 2026-11-21). Timing launches with events, to flush only for long
// kernels, did not help: events around a profiled launch time the profiler's work too, so every launch timed
// long.
#pragma once

#include <cuda.h>

#include <cstdint>
#include <map>
#include <mutex>
#include <set>
#include <string>

#include "tools/gpaprof/cuda/cupti_tracing_api.h"

namespace gpaprof::cuda {

class L2Flush {
public:
    explicit L2Flush(const TracingApi* api);
    L2Flush(const L2Flush&) = delete;
    L2Flush& operator=(const L2Flush&) = delete;

    bool enabled() const { return enabled_; }
    // Waits for `stream` of the current context, then flushes; the caller marks the thread internal. False
    // with the reason when it cannot (later calls for the device fail at once).
    bool Run(CUstream stream, std::string* why);
    // Whether CUPTI's context id is one of gpaprof's flush contexts (its kernels are not the application's).
    bool OwnsContext(uint32_t cuptiContextId) const;

private:
    struct Device {
        CUcontext own = nullptr;
        CUfunction kernel = nullptr;
        CUdeviceptr buffer = 0;
        unsigned long long vectors = 0;  // 16-byte loads the kernel makes
        unsigned blocks = 0;
        CUstream stream = nullptr;
        std::string failure;  // why the device has no flush
    };
    Device* CurrentDevice(std::string* why);
    bool Prepare(CUdevice device, Device* state);
    std::string Describe(const char* call, CUresult result) const;

    const TracingApi* api_;
    bool enabled_ = true;
    std::map<CUdevice, Device> devices_;
    mutable std::mutex mutex_;              // the ids are read by CUPTI's activity thread
    std::set<uint32_t> cuptiContextIds_;
};

}  // namespace gpaprof::cuda
