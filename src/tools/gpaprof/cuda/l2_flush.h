// Before a kernel is measured, the device's L2 cache is left clean and holding none of the application's data,
// as Nsight Compute does by default (--cache-control all): otherwise a kernel measured right after gpaprof
// saved or restored its memory starts with the L2 full of dirty lines of that copy, writes them back while it
// runs and takes longer (a 64 MiB saxpy on an H100: 8% longer than ncu's figure; docs/gpaprof.md).
//
// How: once the application's stream has done what it holds, a kernel of gpaprof's own reads a buffer of twice
// the L2's size, in a context of gpaprof's own on the same device, so that no profiler of the application's
// context counts it, and is waited for. (Ordering it through events instead makes the driver put a wait kernel
// of its own into the application's stream, which the range profiler then counts as a kernel.)
// Switching to gpaprof's context costs milliseconds while the application's context is profiled, so by default
// (GPAPROF_CUDA_CACHE_CONTROL=auto) only kernels whose last launch took 50 µs or more, or that were not timed
// yet, are measured after a flush. The events that time a launch also take in the profiler's own work around
// it, so a launch times longer than the kernel runs: every kernel of 50 µs and more is flushed for, and small
// ones, for which the flush would cost far more than they run, are not. What a copy left dirty in the L2 costs
// a kernel at most the write-back of the L2 (about 17 µs on an H100). =all flushes before every measured kernel,
// =none never.
#pragma once

#include <cuda.h>

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
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
    // Whether a kernel whose last launch took `kernelUs` (unknown: not timed yet) is measured after a flush.
    bool Wanted(std::optional<double> kernelUs) const;
    static constexpr double kAutoMinimumUs = 50.0;
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
    bool always_ = false;  // GPAPROF_CUDA_CACHE_CONTROL=all
    std::map<CUdevice, Device> devices_;
    mutable std::mutex mutex_;              // the ids are read by CUPTI's activity thread
    std::set<uint32_t> cuptiContextIds_;
};

}  // namespace gpaprof::cuda
