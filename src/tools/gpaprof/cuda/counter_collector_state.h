// CounterCollector's state per profiled context (counter_collector.h), shared by the files that implement the
// collector: counter_collector.cpp (launches one by one) and graph_launch_collector.cpp (CUDA graph launches).
#pragma once

#include <cuda.h>
#include <cupti_profiler_target.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "backends/cuda/range_profiler.h"
#include "tools/gpaprof/cuda/counter_collector.h"

namespace gpaprof::cuda {

struct CounterCollector::ContextState {
    CUcontext context = nullptr;
    CUdevice device = 0;
    std::unique_ptr<gpa::cuda::RangeProfiler> profiler;
    CounterSetup* chip = nullptr;
    bool failed = false;
    // A configuration holds this context's ranges (pending rows) until FlushLocked decodes it.
    bool configured = false;
    CUpti_ProfilerReplayMode replay = CUPTI_KernelReplay;
    size_t capacity = 0;               // ranges the configuration's image holds
    bool running = false;              // between cuptiRangeProfilerStart and Stop
    bool allSubmitted = false;         // the last Stop said every pass of the cycle was submitted
    std::string poisoned;              // why the configuration's ranges cannot be trusted (its rows are NA)
    // Own replay of a multi-pass set: the application's launch is the last pass of this dispatch.
    bool ownDispatch = false;
    std::string dispatchFailed;        // why this dispatch's counters are NA (its launch still runs once)
    // CUPTI refused to start a second kernel's cycle in a configuration: one configuration per dispatch.
    bool oneDispatchPerConfiguration = false;
    // User replay with user ranges (pushed around each launch) instead of auto ranges, where CUPTI refuses
    // the auto ranges or GPAPROF_CUDA_RANGES=user asks for them.
    bool userRanges = false;
    bool rangeOpen = false;
    uint64_t rangesPushed = 0;
    std::vector<uint8_t> counterData;  // the image being filled
    // The configuration's ranges not decoded yet, in order: launched kernels, and gpaprof's cache flushes.
    std::vector<PendingRange> pending;
    // Deferred own replay: the configuration's first pass runs the application's launches of a batch; the
    // other passes run when the batch ends, over what these kept (a cache flush before each where the first
    // pass had one).
    struct Deferred {
        LaunchCopy launch;
        Snapshot snapshot;
        std::string rangeName;
        bool launched = true;
        bool flushed = false;
    };
    bool dispatchFlushed = false;  // immediate own replay: the first pass had a cache flush before the kernel
    bool deferredBatch = false;
    std::vector<Deferred> deferred;
    std::optional<Deferred> current;  // between BeforeLaunch and AfterLaunch
    gpa::Outcome decoded;
    // Recorded after the last waiting kernel launched here (several devices): until it has happened, launches of
    // this context run unprofiled.
    CUevent waiter = nullptr;
    bool waiterRecorded = false;
    // The configuration holds a CUDA graph launch's ranges (graph_launch_collector.cpp): its ranges must match its
    // rows one for one, whatever the passes.
    bool graphBatch = false;
    // Node mode, deferred (graph_launch_collector.cpp): graph launches whose passes run when the batch ends, each
    // with its memory as it was at its launch; the configuration has room for `graphDispatchRoom` kernels.
    struct DeferredGraph {
        std::shared_ptr<const GraphProgram> program;
        std::vector<GraphLaunch::Use> uses;
        std::vector<DispatchRow> rows;
        Snapshot snapshot;
    };
    bool graphDeferredBatch = false;
    std::vector<DeferredGraph> deferredGraphs;
    size_t deferredGraphDispatches = 0, graphDispatchRoom = 0;
    // Graph mode: the application's own graph launch is the measured pass (between BeforeGraphLaunch and
    // AfterGraphLaunch), its row here; and whether the context used user ranges before the graph's configuration.
    std::optional<DispatchRow> graphRow;
    bool userRangesBeforeGraph = false;
};

}  // namespace gpaprof::cuda
