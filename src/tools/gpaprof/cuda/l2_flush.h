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
//
// The kernel is launched as the one node of a CUDA graph: CUPTI's auto ranges leave graph launches out, so the
// flush costs no range (with the 45 metrics of the GPA compute set a range costs about 1 ms, as much as the
// measured kernel's pass; on an H100 with CUPTI 13.0, 200 launches with 200 graph flushes gave 200 ranges and
// the same cold-cache durations as the plain launch: bench/counter_flush_cost.sh, docs/benchmarks.md). Where the
// driver has no graphs, or GPAPROF_CUDA_CACHE_FLUSH=kernel, it is a plain launch, a range of its own, which
// the collector skips (counter_collector.h). (A context of gpaprof's own kept the flush out of the ranges too,
// but switching to it while the application's context is profiled cost about 1.8 ms per flush.)
// A memset or a copy over the same buffer is no range either, but leaves the L2 full of dirty lines: the
// kernel after it wrote them back and took 10% longer.
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
    // Whether each flush is a range of its own while the range profiler runs with auto ranges.
    bool TakesRange() const { return !graphs_; }
    // In `context` (current): queues the flush on `stream`; the caller marks the thread internal. False with
    // the reason when it cannot (later calls for the context fail at once).
    bool Run(CUcontext context, CUstream stream, std::string* why);
    // The context is being destroyed: the driver frees the buffer and module with it.
    void ContextDestroyed(CUcontext context) { contexts_.erase(context); }

private:
    struct PerContext {
        CUfunction kernel = nullptr;
        CUgraphExec graph = nullptr;  // the kernel as a graph's one node (graphs_)
        CUdeviceptr buffer = 0;
        unsigned long long vectors = 0;  // 16-byte loads the kernel makes
        unsigned blocks = 0;
        std::string failure;  // why the context has no flush
    };
    bool Prepare(PerContext* state);
    bool MakeGraph(PerContext* state);
    std::string Describe(const char* call, CUresult result) const;

    const TracingApi* api_;
    bool enabled_ = true;
    bool graphs_ = true;  // the flush is a graph launch (no range); decided once for the process
    std::map<CUcontext, PerContext> contexts_;
};

}  // namespace gpaprof::cuda
