// Before a kernel is measured, the device's L2 cache is left clean and holding none of the application's data,
// as Nsight Compute does by default (--cache-control all): otherwise a kernel measured right after gpaprof
// saved or restored its memory starts with the L2 full of dirty lines of that copy, writes them back while it
// runs and takes longer (a 64 MiB saxpy on an H100: 8% longer than ncu's figure; docs/gpaprof.md).
//
// How: a kernel of gpaprof's own that reads a buffer of twice the L2's size, in the application's context, on
// the stream of the kernel measured next (the application's stream, or gpaprof's for a replayed launch):
// stream order puts it right before that kernel, with no wait on the host and no kernel of the driver's
// between them (a flush on another stream of the context made the driver add a cross-stream wait kernel,
// "WaitNs", to the application's stream under profiling). Its activity records are told apart by its name.
// The collector pauses profiling around it (RangeProfiler::Pause, CUPTI's older Profiler API), so that it is no
// range; where the profiler cannot pause, auto ranges make it a range of its own, which the collector skips
// (counter_collector.h). (A context of gpaprof's own kept the flush out of the application's ranges, but
// switching to it while the application's context is profiled cost about 1.8 ms per flush on an H100:
// bench/counter_flush_cost.sh, docs/benchmarks.md.)
// GPAPROF_CUDA_CACHE_CONTROL=none turns it off (ncu's --cache-control none), =all is the default.
#pragma once

#include <cuda.h>

#include <cstdint>
#include <map>
#include <string>

#include "tools/gpaprof/cuda/cupti_tracing_api.h"

namespace gpaprof::cuda {

class L2Flush {
public:
    // The flush kernel's name: its activity records are gpaprof's whatever stream or correlation id they carry.
    static constexpr const char* kKernelName = "gpaprof_l2_flush";

    explicit L2Flush(const TracingApi* api);
    L2Flush(const L2Flush&) = delete;
    L2Flush& operator=(const L2Flush&) = delete;

    bool enabled() const { return enabled_; }
    // In `context` (current): queues the flush on `stream`; the caller marks the thread internal. False with
    // the reason when it cannot (later calls for the context fail at once).
    bool Run(CUcontext context, CUstream stream, std::string* why);
    // The context is being destroyed: the driver frees the buffer and module with it.
    void ContextDestroyed(CUcontext context) { contexts_.erase(context); }

private:
    struct PerContext {
        CUfunction kernel = nullptr;
        CUdeviceptr buffer = 0;
        unsigned long long vectors = 0;  // 16-byte loads the kernel makes
        unsigned blocks = 0;
        std::string failure;  // why the context has no flush
    };
    bool Prepare(PerContext* state);
    std::string Describe(const char* call, CUresult result) const;

    const TracingApi* api_;
    bool enabled_ = true;
    std::map<CUcontext, PerContext> contexts_;
};

}  // namespace gpaprof::cuda
