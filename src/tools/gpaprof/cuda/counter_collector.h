// gpaprof -p on CUDA: the counters of each kernel dispatch, collected by CUPTI's range profiler with auto
// ranges (one range per kernel, CUPTI serialises the kernels), evaluated on the host into GPA counters
// (src/backends/cuda/gpa_compute_counters) or raw NVIDIA metrics. The application runs once and its results
// are unchanged. Two ways to run the passes a counter set needs (GPAPROF_CUDA_REPLAY):
//
//   own (default)  user replay, gpaprof replays. A one-pass set needs no replay: the profiler stays started
//                  over a batch of launches and nothing is saved. A set of several passes: gpaprof saves what
//                  the kernel can write, runs the launch again for every pass but the last, restoring memory
//                  before each, and the application's own launch is the last pass (launch_replayer.h). A
//                  dispatch gpaprof cannot replay reliably falls back to CUPTI's kernel replay, with a note.
//   cupti          kernel replay: CUPTI saves and restores device memory and runs every pass itself inside
//                  the launch call, also for one pass (about 25 ms per kernel on an H200).
//
// Launches are serialised while counters are collected (the range order is the launch order). Ranges are
// decoded `batch` kernels at a time (1: every launch writes its .csv row before it returns), and whatever is
// pending when a context goes away, at exit and from the crash handlers.
#pragma once

#include <cuda.h>
#include <cupti_profiler_target.h>

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include "tools/gpaprof/agent/agent.h"
#include "tools/gpaprof/cuda/counter_setup.h"
#include "tools/gpaprof/cuda/counter_setup_ahead.h"
#include "tools/gpaprof/cuda/cuda_api_table.h"
#include "tools/gpaprof/cuda/graph_programs.h"
#include "tools/gpaprof/cuda/launch_replayer.h"
#include "tools/gpaprof/cuda/launch_settings.h"
#include "tools/gpaprof/files/profile_model.h"

namespace gpaprof::cuda {

enum class ReplayMethod { Own, Cupti };

// One range of a configuration, in launch order: a launched kernel's row, or gpaprof's cache flush before a
// measured kernel (l2_flush.h: a kernel of its own, which auto ranges profile too; no row).
struct PendingRange {
    std::optional<DispatchRow> row;
    bool kernel = true;  // false: a range without a kernel (a failed launch in a user range), NA
};
// GPAPROF_CUDA_REPLAY: "own" or "cupti"; nullopt for anything else.
std::optional<ReplayMethod> ParseReplayMethod(const std::string& text);

class CounterCollector {
public:
    // `replayer` (own replay) is used for counter sets of several passes; nullptr: CUPTI's kernel replay.
    CounterCollector(agent::Agent* agent, std::vector<std::string> requested, uint32_t batch, ReplayMethod method,
                     LaunchReplayer* replayer);
    ~CounterCollector();

    // What the set-up of a chip is made from (the counters asked for, and the columns once a chip chose them).
    CounterRequest Request() const;
    // Set-ups made ahead (counter_setup_ahead.h): the first context on their chip takes them.
    void UseSetupsAhead(CounterSetupAhead* ahead) { ahead_ = ahead; }

    // Held by the launching thread from before the launch until after it.
    std::unique_lock<std::mutex> Lock() { return std::unique_lock<std::mutex>(mutex_); }
    std::unique_lock<std::mutex> Lock(std::try_to_lock_t) { return std::unique_lock<std::mutex>(mutex_, std::try_to_lock); }

    // Before a kernel launch that is profiled, on `context` (current on this thread): starts collection and,
    // with own replay of a multi-pass set, runs every pass but the last (the calling thread must be marked
    // internal: the launches issued again are gpaprof's). False when counters cannot be collected on this
    // context (the reason was noted once).
    bool BeforeLaunch(CUcontext context, const LaunchCall& launch);
    // After it: `row` gets its Time and counter values (NA where unknown) and is written, now or when its
    // batch is decoded. `launched`: the launch call succeeded.
    void AfterLaunch(CUcontext context, bool launched, DispatchRow row);
    // Kernels that wait for other devices or processes (waiting_kernels.h): why the launch of such a kernel
    // (`waits`), or of any kernel while one still runs in its context, must run unprofiled, or empty where it is
    // measured like any other. `severalDevices`: the process has contexts on more than one device, where holding
    // a launching thread until its kernel ends (CUPTI serialises profiled kernels) may keep it from launching the
    // peer of a waiting kernel. Never replayed: with several passes, or CUPTI's kernel replay, it runs unprofiled.
    std::string UnprofiledReason(CUcontext context, bool waits, bool severalDevices);
    // Why a launch of a multi-pass set must run unprofiled in a process that has a communication library's
    // memory (device_memory_map.h, MemoryOwner), or empty: CUPTI's kernel replay, where gpaprof's own replay
    // cannot take the launch, puts back all of the device's memory between passes, that library's buffers too,
    // which erases what its peers wrote meanwhile (a torchrun training step hung so, 2026-11-28).
    std::string KernelReplayHazard(CUcontext context, const LaunchCall& launch);
    // The map that says whether the process has such memory (both replay methods track it).
    void WatchCommunicationMemory(const DeviceMemoryMap* memory) { communicationMemory_ = memory; }
    // The launch runs unprofiled: the context's configuration decoded first (so that nothing decoded later waits
    // for the kernel), its row written with NA counters, `reason` noted once.
    void Unprofiled(CUcontext context, DispatchRow row, const std::string& reason);
    // After a waiting kernel's launch on `stream` (several devices): an event recorded after it, so that later
    // launches of the context know when it has ended.
    void AfterWaitingLaunch(CUcontext context, CUstream stream);
    // Before work that must not be profiled on `context` (a kernel that is not, a graph launch), and before
    // the context goes away: decodes and writes what is pending.
    void Flush(CUcontext context);
    // Every context (at exit).
    void FlushAll();
    // From a crash handler: what can be decoded without running anything on the GPU (deferred passes are not
    // run: those rows are NA).
    void FlushAllForCrash();
    // Deferred batches of every context, before memory they may restore goes away (a free, an unload).
    void FlushDeferred();
    // Before the application changes a setting that decides how a launch runs (launch_settings.h): a batch holding a
    // deferred launch that ran under the old value ends first, since its launches are issued again when the batch
    // ends, under the settings of that moment. A dynamic shared memory limit ends only a batch with a launch of that
    // function that used more (cuDNN sets the limit before each launch of some kernels, lower for smaller launches,
    // and a launch over it fails); any other setting, a batch with a launch of that function (or, for a context's
    // setting, any launch of that context), when the value differs from the last one set. `current`: the calling
    // thread's context.
    void BeforeLaunchSetting(const LaunchSetting& setting, CUcontext current);
    // The context is being destroyed: flush and release its profiler.
    void ForgetContext(CUcontext context);
    // Before a driver call that makes another context current on the calling thread (context_calls.h):
    // batches of CUPTI's kernel replay end here. One left started while its thread went to another context
    // made CUPTI stop calling back on that thread (its later launches neither traced nor profiled,
    // docs/gpaprof.md).
    void BeforeContextSwitch();
    // The process is ending (call FlushAll after): from now on each dispatch is collected and written inside
    // its launch call, since nothing may come later to write a batch.
    void EnterExitMode() {
        batch_ = 1;
        immediate_ = true;
    }

    // ---- CUDA graph launches (graph_launch_collector.cpp) ----
    // What a launch of a graph is measured as: each kernel node a dispatch (node mode), or the whole graph one
    // (graph mode, --graph-profiling graph).
    struct GraphLaunch {
        CUcontext context = nullptr;
        CUstream stream = nullptr;   // the application's
        CUgraphExec exec = nullptr;
        std::shared_ptr<const GraphProgram> program;  // nullptr: made before gpaprof attached
        bool wholeGraph = false;
        // Node mode: what each step of `program` is (a kernel measured, with rows[i] its row, in step order; a kernel
        // run but not measured, -k and the launch filters; a kernel never run again, one that waits for other
        // devices, whose row is in rows too, NA). Graph mode: rows holds the graph's one row.
        enum class Use { Measure, RunOnly, NotRun };
        std::vector<Use> uses;  // by step; kernels only
        std::vector<DispatchRow> rows;
        std::string unprofiled;  // set: every row NA, with this note
    };
    // Before the application's graph launch, on its thread with `launch.context` current. Node mode: every pass
    // runs here, replaying the kernels (and the copies and sets between them) on gpaprof's stream over the memory
    // as it is now, which is put back before the application's graph runs; rows are written. Graph mode: the passes
    // but the last run here the same way with the whole graph; the application's own launch is the last pass:
    // true when AfterGraphLaunch must follow it (the caller holds Lock() until then).
    bool BeforeGraphLaunch(GraphLaunch launch);
    void AfterGraphLaunch(CUcontext context, bool launched);

    // Whether dispatches may be replayed by gpaprof (other threads' writes then wait at the replayer's gate).
    bool ReplaysDispatches() const { return replayer_ != nullptr; }

    // Cost of collection so far (for the statistics line of GPAPROF_CUDA_STATS).
    struct Statistics {
        uint64_t kernels = 0;
        uint64_t ownReplayed = 0;     // dispatches gpaprof replayed itself (several passes)
        uint64_t cuptiReplayed = 0;   // dispatches CUPTI's kernel replay ran
        uint64_t configurations = 0;  // CUPTI configurations set
        uint64_t setupNs = 0;  // a context's first profiled launch: CUPTI's catalog, the plan, the profiler object
        uint64_t catalogNs = 0, planNs = 0, profilerNs = 0;  // parts of it: catalog and counters, plans, the device
        bool madeAhead = false;     // catalog and plans were made ahead (their times then are the thread's)...
        uint64_t aheadWaitNs = 0;   // ...and the launch waited this long for them
        uint64_t bindNs = 0;        // binding them to the device's counter availability
        uint64_t configureNs = 0, startNs = 0, stopNs = 0, decodeNs = 0, evaluateNs = 0;
        uint64_t launchNs = 0;  // inside the launch calls: saving, the passes, restoring (CUPTI's or gpaprof's)
        uint64_t restoreNs = 0, flushNs = 0, relaunchNs = 0;  // parts of the batch replays (in launchNs)
        uint64_t starts = 0;                 // passes started (each start and stop costs milliseconds)
        uint64_t graphLaunchesDeferred = 0;  // node mode: graph launches measured at the end of a batch
    };
    Statistics statistics() const { return statistics_; }

private:
    struct ContextState;
    CounterSetup* ChipFor(const std::string& chip, CUdevice device, const std::vector<uint8_t>& availability);
    // The set-up made ahead for `chip`, bound to the device's availability; nullptr where there is none to use.
    std::unique_ptr<CounterSetup> SetupMadeAhead(const gpa::cuda::CuptiApi& cupti, const std::string& chip,
                                                 const std::vector<uint8_t>& availability);
    ContextState* StateFor(CUcontext context);
    // A batch of launches under one started configuration (kernel replay, or user replay of a one-pass set);
    // `flushBefore`: the launch to flush the L2 cache before.
    bool StartBatch(ContextState* state, CUpti_ProfilerReplayMode replay, const LaunchCall* flushBefore = nullptr);
    // Ranges one dispatch takes in a configuration (own replay flushes the cache before each kernel), and
    // whether the configuration has no room for one more.
    size_t RangesPerDispatch(CUpti_ProfilerReplayMode replay, bool pauses) const;
    bool Full(const ContextState* state) const;
    // Whether the cache flush is a range of its own (a profiler that cannot pause, l2_flush.h).
    bool FlushTakesRange(const ContextState* state) const;
    // The L2 cache flushed before the application's `launch`, or (nullptr) before a launch issued again, with
    // profiling paused around it where it can. Whether a flush ran.
    bool FlushUnprofiled(ContextState* state, const LaunchCall* launch);
    // FlushUnprofiled, and a place for the flush's range in `pending` when the profiler counts it.
    bool FlushCacheBefore(ContextState* state, const LaunchCall* launch);
    bool StartRunning(ContextState* state, CUpti_ProfilerReplayMode replay);
    // Own replay of a multi-pass set, deferred: the application's launch is the first pass of its batch.
    bool DeferDispatch(ContextState* state, const LaunchCall& launch);
    // The end of a deferred batch: the other passes over all its dispatches; the reason when they failed.
    std::string RunDeferredPasses(ContextState* state);
    // Says once what a batch's replay cost a dispatch, where that is costlyReplayNs_ or more.
    void NoteReplayCost(size_t dispatches, uint32_t passes, uint64_t batchNs, uint64_t bytes);
    // Own replay of a multi-pass set, immediate: every pass but the application's, inside its launch call.
    bool ReplayPasses(ContextState* state, const LaunchCall& launch);
    // A configuration for `dispatches` dispatches (room for their ranges, and the flushes' where it does not pause).
    bool Configure(ContextState* state, CUpti_ProfilerReplayMode replay, size_t dispatches);
    // Whether such a configuration pauses around the cache flushes (PausesFor's comment says when it pays).
    bool PausesFor(const ContextState* state, CUpti_ProfilerReplayMode replay, size_t dispatches) const;
    // User ranges (user replay where auto ranges are refused): around each launch.
    bool PushRange(ContextState* state, const std::string& name);
    void PopRange(ContextState* state);
    // Ends the CUPTI cycle of a dispatch that went wrong with empty passes, so that the profiler stays usable.
    void FinishCycle(ContextState* state, uint32_t passesDone);
    void FlushLocked(ContextState* state);
    // The batches of the other contexts of `state`'s device: one range profiler serves a device at a time
    // (RangeProfiler releases the others, dropping what they hold), so they are decoded before it moves.
    void FlushOthersOnDevice(const ContextState* state);
    void WriteRow(DispatchRow row, const CounterSetup* chip, const std::map<std::string, double>* values);
    // Graph launches: node mode, and graph mode's passes before the application's own (graph_launch_collector.cpp).
    void ProfileGraphNodes(ContextState* state, GraphLaunch& launch);
    // Node mode, deferred: the launch's memory kept, its rows held for the batch's passes; false where the launch
    // is measured inside its call instead. `dispatches`: the kernels it runs again.
    bool DeferGraphNodes(ContextState* state, GraphLaunch& launch, const std::vector<uint64_t>& words, size_t dispatches);
    bool Deferrable(const GraphProgram& program) const;
    // The end of a batch of deferred graph launches: every pass over all of them; the reason when they failed.
    std::string RunDeferredGraphPasses(ContextState* state);
    // One pass over one graph launch's steps on gpaprof's stream; in pass 0 the rows move into the pending ranges.
    struct GraphPasses {
        std::vector<bool> flushed;  // per measured kernel, in pass 0: every pass must hold the same kernels
        size_t rowsQueued = 0;      // rows moved into the pending ranges
    };
    void RunGraphSteps(ContextState* state, const GraphProgram& program, const std::vector<GraphLaunch::Use>& uses,
                       std::vector<DispatchRow>& rows, uint32_t pass, GraphPasses* progress, std::string* failure);
    bool BeginWholeGraph(ContextState* state, GraphLaunch& launch);
    // Ends a batch replay (memory put back, the gate released); where memory could not be put back, says so and
    // makes it the `failure` unless there is one.
    void EndBatchReplay(const std::string& what, std::string* failure);
    // Starts a pass of the current configuration; stops it, saying whether CUPTI wants the passes it planned.
    gpa::Outcome StartPass(ContextState* state);
    std::string StopPass(ContextState* state, uint32_t pass, uint32_t passes);
    void NoteOnce(const std::string& message);
    // A graph's kernel node run again: as a plain launch of its parameters, or, where the driver refuses those, the
    // first of the launches that may differ from the graph's in what it checks that runs (kept for the node).
    CUresult RelaunchGraphKernel(const GraphStep& step);

    agent::Agent* agent_;
    std::vector<std::string> requested_;
    uint32_t batch_;
    ReplayMethod method_;
    const DeviceMemoryMap* communicationMemory_ = nullptr;
    SettingsSeen settings_;  // BeforeLaunchSetting
    LaunchReplayer* replayer_;
    bool userRanges_ = false;  // GPAPROF_CUDA_RANGES=user
    bool immediate_ = false;   // GPAPROF_CUDA_OWN_REPLAY=immediate: every dispatch's passes inside its launch call
    // A batch replay that took this long a dispatch is said once (NoteReplayCost). With 6 passes on an H200 a batch
    // of 15 small dispatches took 8–9 ms a dispatch; one ended after a single dispatch (a setting changed) 52–55 ms,
    // and DDP ResNet-18, every batch saving the context's memory, about 45 (docs/benchmarks.md, 2026-11-30).
    // GPAPROF_CUDA_REPLAY_COST_NOTE_MS sets it (tests: 0).
    uint64_t costlyReplayNs_ = 20'000'000;
    bool costNoted_ = false;
    bool crashing_ = false;
    std::mutex mutex_;
    CounterSetupAhead* ahead_ = nullptr;
    using ChipKey = std::tuple<std::string, CUdevice, std::vector<uint8_t>>;  // chip, device, counter availability
    std::map<ChipKey, std::unique_ptr<CounterSetup>> chips_;
    std::map<CUcontext, std::unique_ptr<ContextState>> contexts_;
    std::optional<std::vector<std::string>> columns_;  // fixed by the first chip
    std::vector<std::string> notes_;
    Statistics statistics_;
    uint64_t launchStartNs_ = 0;
    struct GraphKernelLaunch {  // how a graph's kernel node runs where its plain launch is refused
        CUfunction identity = nullptr;  // GraphStep::identity: the kernel it holds for
        CUfunction function = nullptr;  // the handle launched
        bool cooperative = false;
        LaunchCopy Apply(const LaunchCopy& launch) const;  // `launch` (its arguments now) launched this way
    };
    std::unordered_map<CUgraphNode, GraphKernelLaunch> graphKernelLaunches_;  // RelaunchGraphKernel's, per node
};

}  // namespace gpaprof::cuda
