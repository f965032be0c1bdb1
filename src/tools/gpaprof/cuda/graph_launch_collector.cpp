// CounterCollector for CUDA graph launches (counter_collector.h, GraphLaunch).
//
// CUPTI's range profiler does not make a graph's kernels ranges of their own: with auto ranges a graph launch is
// left out and, with any hardware counter in the configuration, makes the profiler's Stop fail
// (docs/cuda_backend.md). So gpaprof measures a graph launch by running it again itself, before the application's
// launch runs it for real:
//
//   node mode   every pass replays the graph's steps one by one on gpaprof's stream — each kernel node as an
//               ordinary launch (an auto range, as an eager launch), copies and sets as they are — over the memory
//               as it was when the launch came; the application's graph runs unprofiled on the memory it would
//               have seen. Deferred (the default): the launch's memory is kept in a snapshot and the passes run
//               when the batch ends, over every graph launch of the batch (restore its snapshot, run its steps),
//               so that CUPTI's start and stop of a pass (milliseconds each) are paid per batch, as for eager
//               launches (launch_replayer.h); memory as it is then is put back after the last pass. Immediate
//               (rows written inside the launch call: batch 1, the process ending; a graph that copies from host
//               memory, whose copy run later would read what the host holds then; no room for a snapshot): the
//               passes run inside the launch call, over the memory saved there and put back after the last.
//   graph mode  one user range around the whole graph: the passes but the last replay the executable graph on
//               gpaprof's stream the same way; the application's own launch is the last pass (with one pass, the
//               only one: nothing is saved or replayed).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "backends/cuda/elapsed_time.h"
#include "backends/cuda/range_profiler.h"
#include "tools/gpaprof/cuda/counter_collector.h"
#include "tools/gpaprof/cuda/counter_collector_state.h"

namespace gpaprof::cuda {
namespace {

using Timed = gpa::cuda::AddElapsed;

// A copy into host memory is left out of a replay: kernels of the graph cannot read pageable host memory, and
// writing the application's host buffers is the application's graph's business, once.
bool CopiesToHost(const TracingApi* api, const CUDA_MEMCPY3D& copy) {
    if (copy.dstMemoryType == CU_MEMORYTYPE_HOST) return true;
    if (copy.dstMemoryType != CU_MEMORYTYPE_UNIFIED) return false;
    unsigned int type = 0;
    if (api->cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, copy.dstDevice) != CUDA_SUCCESS) return true;
    return type == CU_MEMORYTYPE_HOST;
}

// A copy that reads host memory (pageable, pinned or managed memory on the host).
bool ReadsHost(const TracingApi* api, const CUDA_MEMCPY3D& copy) {
    if (copy.srcMemoryType == CU_MEMORYTYPE_HOST) return true;
    if (copy.srcMemoryType != CU_MEMORYTYPE_UNIFIED) return false;
    unsigned int type = 0;
    if (api->cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, copy.srcDevice) != CUDA_SUCCESS) return true;
    return type == CU_MEMORYTYPE_HOST;
}

bool DebugGraphs() {
    static const bool on = [] {
        const char* debug = std::getenv("GPAPROF_CUDA_DEBUG");
        return debug && std::strstr(debug, "graphs");
    }();
    return on;
}

}  // namespace

namespace {

// `launch` as a cooperative launch.
LaunchCopy Cooperative(LaunchCopy launch) {
    CUlaunchAttribute cooperative{};
    cooperative.id = CU_LAUNCH_ATTRIBUTE_COOPERATIVE;
    cooperative.value.cooperative = 1;
    launch.attributes.push_back(cooperative);
    if (!launch.hasConfig) {
        launch.config = CUlaunchConfig{};
        ShapeLaunchConfig(&launch);
    }
    return launch;
}

}  // namespace

LaunchCopy CounterCollector::GraphKernelLaunch::Apply(const LaunchCopy& launch) const {
    LaunchCopy copy = launch;
    copy.function = function;
    return cooperative ? Cooperative(std::move(copy)) : copy;
}

CUresult CounterCollector::RelaunchGraphKernel(const GraphStep& step) {
    // Node handles are reused once a graph is gone: a way kept for a node holds for the same kernel only.
    if (auto kept = graphKernelLaunches_.find(step.node); kept != graphKernelLaunches_.end()) {
        if (kept->second.identity == step.identity) return replayer_->Relaunch(kept->second.Apply(step.launch));
        graphKernelLaunches_.erase(kept);
    }
    const CUresult plain = replayer_->Relaunch(step.launch);
    if (plain != CUDA_ERROR_INVALID_VALUE) return plain;
    // The driver refused the node's parameters as a plain launch, though the application's graph runs them. Launches
    // that may differ from the graph's in what the driver checks: another handle of the same kernel (the CUkernel, the
    // node's CUfunction, the context's), a dynamic shared memory limit the graph's node met and the function lacks,
    // a cooperative launch. The first that runs is kept for the node.
    const TracingApi& api = *replayer_->api();
    auto attempt = [&](const std::string& how, const GraphKernelLaunch& way) {
        const CUresult result = replayer_->Relaunch(way.Apply(step.launch));
        if (DebugGraphs()) {
            std::fprintf(stderr, "gpaprof debug: %s as %s: %s\n", DescribeStep(step).c_str(), how.c_str(),
                         replayer_->Describe(result).c_str());
        }
        if (result != CUDA_SUCCESS) return false;
        NoteOnce("gpaprof ran a CUDA graph kernel node (" + step.name + ") as " + how + ": as a plain launch the driver " +
                 "refused its parameters (" + replayer_->Describe(plain) + ")");
        graphKernelLaunches_[step.node] = way;
        return true;
    };
    for (CUfunction handle : {step.nodeFunction, reinterpret_cast<CUfunction>(step.kernel), step.function}) {
        if (!handle || handle == step.launch.function) continue;
        const bool kernel = handle == reinterpret_cast<CUfunction>(step.kernel);
        if (attempt(kernel ? "its CUkernel" : "another CUfunction of it", GraphKernelLaunch{step.identity, handle, false})) {
            return CUDA_SUCCESS;
        }
    }
    // Seen on an H200 (2026-11-28): cuDNN's batch-norm kernel in PyTorch's graph, 100,352 B of dynamic shared
    // memory, its CUfunction's limit 8,192 B; the graph ran it, the plain launch and its CUkernel were refused.
    for (CUfunction function : {step.nodeFunction, step.function}) {
        int limit = 0;
        if (!function || !api.cuFuncGetAttribute || !api.cuFuncSetAttribute ||
            api.cuFuncGetAttribute(&limit, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, function) != CUDA_SUCCESS ||
            limit >= static_cast<int>(step.launch.sharedBytes)) {
            continue;
        }
        // The application's graph runs the node with this much: the function given the same limit runs nothing
        // differently for the application.
        if (api.cuFuncSetAttribute(function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                   static_cast<int>(step.launch.sharedBytes)) != CUDA_SUCCESS) {
            continue;
        }
        if (attempt("its function with its dynamic shared memory limit raised from " + std::to_string(limit) +
                        " B to the node's " + std::to_string(step.launch.sharedBytes) + " B",
                    GraphKernelLaunch{step.identity, function, false})) {
            return CUDA_SUCCESS;
        }
    }
    if (attempt("a cooperative launch", GraphKernelLaunch{step.identity, step.launch.function, true})) return CUDA_SUCCESS;
    return plain;
}

void CounterCollector::EndBatchReplay(const std::string& what, std::string* failure) {
    std::string why;
    if (replayer_->EndBatchReplay(&why)) return;
    NoteOnce("gpaprof could not put memory back after replaying " + what + "; the application's results may be wrong: " +
             why);
    if (failure->empty()) *failure = why;
}

gpa::Outcome CounterCollector::StartPass(ContextState* state) {
    auto lock = gpa::cuda::RangeProfiler::Lock();
    Timed timed(&statistics_.startNs);
    ++statistics_.starts;
    gpa::Outcome started = state->profiler->Start();
    state->running = started.ok();
    return started;
}

std::string CounterCollector::StopPass(ContextState* state, uint32_t pass, uint32_t passes) {
    auto lock = gpa::cuda::RangeProfiler::Lock();
    Timed timed(&statistics_.stopNs);
    bool all = false;
    const gpa::Outcome stopped = state->profiler->Stop(&all);
    state->running = false;
    state->allSubmitted = stopped.ok() && all;
    if (!stopped.ok()) return stopped.reason();
    if (state->allSubmitted != (pass + 1 == passes)) {
        return state->allSubmitted ? "CUPTI ended the replay cycle after " + std::to_string(pass + 1) + " of the " +
                                         std::to_string(passes) + " passes it planned"
                                   : "CUPTI wants more passes than the " + std::to_string(passes) + " it planned";
    }
    return {};
}

bool CounterCollector::BeforeGraphLaunch(GraphLaunch launch) {
    ContextState* state = StateFor(launch.context);
    auto allNA = [&](const std::string& note) {
        if (!note.empty()) NoteOnce(note);
        for (DispatchRow& row : launch.rows) WriteRow(std::move(row), state->failed ? nullptr : state->chip, nullptr);
        return false;
    };
    if (state->failed) return allNA("");
    FlushOthersOnDevice(state);
    // Whatever this context has pending is decoded before the graph's configuration; a batch of deferred graph
    // launches takes node mode's next one (ProfileGraphNodes ends it where it cannot).
    const bool joinsBatch = state->graphDeferredBatch && !launch.wholeGraph && launch.unprofiled.empty();
    if (!joinsBatch) FlushLocked(state);
    if (!launch.unprofiled.empty()) return allNA(launch.unprofiled);
    if (launch.rows.empty()) return false;
    if (launch.wholeGraph) return BeginWholeGraph(state, launch);
    ProfileGraphNodes(state, launch);
    return false;
}

void CounterCollector::ProfileGraphNodes(ContextState* state, GraphLaunch& launch) {
    auto allNA = [&](const std::string& note) {
        NoteOnce(note);
        for (DispatchRow& row : launch.rows) WriteRow(std::move(row), state->chip, nullptr);
    };
    const GraphProgram* program = launch.program.get();
    if (!replayer_) {
        return allNA("CUDA graph kernels have NA counters under GPAPROF_CUDA_REPLAY=cupti: CUPTI's kernel replay cannot "
                     "run a graph's kernels; gpaprof's own replay (the default) measures them");
    }
    if (!program) {
        return allNA("CUDA graph kernels have NA counters: the graph was instantiated before gpaprof attached, so "
                     "gpaprof does not know its kernels' parameters");
    }
    if (!program->unreplayable.empty()) {
        return allNA("CUDA graph kernels have NA counters: " + program->unreplayable +
                     " (--graph-profiling graph measures such a graph as a whole)");
    }
    const std::vector<uint64_t> words = program->ArgumentWords();
    if (const std::string unsafe = replayer_->UnsafeContextMemory(launch.context, &words); !unsafe.empty()) {
        return allNA("CUDA graph kernels have NA counters: gpaprof replays them on a copy of the context's memory, "
                     "which it cannot save and restore reliably here: " + unsafe);
    }
    size_t measured = 0, ranges = 0;  // kernels measured; kernels run (each a range with auto ranges)
    for (size_t i = 0; i < program->steps.size(); ++i) {
        const GraphStep& step = program->steps[i];
        if (step.kind != GraphStepKind::Kernel || !step.enabled) continue;
        if (launch.uses[i] == GraphLaunch::Use::Measure) ++measured;
        if (launch.uses[i] != GraphLaunch::Use::NotRun) ++ranges;
        if (launch.uses[i] != GraphLaunch::Use::NotRun && step.function) replayer_->KnowFunction(launch.context, step.function);
    }
    if (measured == 0) return allNA("");
    if (DeferGraphNodes(state, launch, words, ranges)) return;
    FlushLocked(state);  // a deferred batch in progress ends first
    if (!Configure(state, CUPTI_UserReplay, ranges)) return allNA("CUDA graph kernels have NA counters: the counter "
                                                                    "configuration failed");
    const uint64_t begun = gpa::cuda::NowNs();
    std::string why;
    if (!replayer_->BeginBatchReplay(launch.context, &why, &words)) {
        {
            auto lock = gpa::cuda::RangeProfiler::Lock();
            state->profiler->Abandon(this);
        }
        state->configured = false;
        return allNA("CUDA graph kernels have NA counters: " + why);
    }
    state->graphBatch = true;
    const uint32_t passes = state->chip->plan.groups[0].passes;
    std::string failure;
    uint32_t passesDone = 0;
    GraphPasses progress;
    for (uint32_t pass = 0; pass < passes && failure.empty(); ++pass) {
        if (pass > 0 && !replayer_->Restore(&failure)) break;
        if (const gpa::Outcome started = StartPass(state); !started.ok()) {
            failure = started.reason();
            break;
        }
        RunGraphSteps(state, *program, launch.uses, launch.rows, pass, &progress, &failure);
        if (const std::string stopped = StopPass(state, pass, passes); !stopped.empty() && failure.empty()) failure = stopped;
        passesDone = pass + 1;
    }
    EndBatchReplay("a CUDA graph's kernels", &failure);
    statistics_.launchNs += gpa::cuda::NowNs() - begun;
    ++statistics_.ownReplayed;
    if (!failure.empty()) {
        NoteOnce("CUDA counters of a graph launch's kernels are NA: " + failure);
        state->poisoned = failure;
        if (!state->allSubmitted) FinishCycle(state, passesDone);
        // Rows not reached in the first pass: NA too.
        for (size_t r = progress.rowsQueued; r < launch.rows.size(); ++r) {
            state->pending.push_back(PendingRange{std::move(launch.rows[r]), false});
        }
    }
    FlushLocked(state);
}

void CounterCollector::RunGraphSteps(ContextState* state, const GraphProgram& program,
                                     const std::vector<GraphLaunch::Use>& uses, std::vector<DispatchRow>& rows,
                                     uint32_t pass, GraphPasses* progress, std::string* failure) {
    size_t row = 0, kernel = 0;
    for (size_t i = 0; i < program.steps.size() && failure->empty(); ++i) {
        const GraphStep& step = program.steps[i];
        if (!step.enabled) continue;
        CUresult result = CUDA_SUCCESS;
        if (step.kind == GraphStepKind::Memcpy) {
            if (!CopiesToHost(replayer_->api(), step.copy)) result = replayer_->RunCopy(step.copy);
        } else if (step.kind == GraphStepKind::Memset) {
            result = replayer_->RunSet(step.set);
        } else if (step.kind == GraphStepKind::Kernel && uses[i] == GraphLaunch::Use::Measure) {
            // Every pass must hold the same kernels: a cache flush before a kernel in every pass or in none.
            const bool flush = pass == 0 ? FlushCacheBefore(state, nullptr) : FlushUnprofiled(state, nullptr);
            if (pass == 0) {
                progress->flushed.push_back(flush);
            } else if (kernel >= progress->flushed.size() || flush != progress->flushed[kernel]) {
                *failure = "the L2 cache flush failed between replay passes";
                break;
            }
            ++kernel;
            if (!PushRange(state, std::to_string(row))) {
                *failure = "cuptiRangeProfilerPushRange failed";
                break;
            }
            result = RelaunchGraphKernel(step);
            PopRange(state);
            if (pass == 0) {
                ++statistics_.kernels;
                state->pending.push_back(PendingRange{std::move(rows[row]), result == CUDA_SUCCESS});
                progress->rowsQueued = row + 1;
            }
            ++row;
        } else if (step.kind == GraphStepKind::Kernel && uses[i] == GraphLaunch::Use::RunOnly) {
            // Run, so that later kernels see what it writes, but not measured: with auto ranges it is a range of
            // its own (no row), as gpaprof's cache flush is.
            result = RelaunchGraphKernel(step);
            if (pass == 0 && !state->userRanges && result == CUDA_SUCCESS) state->pending.push_back(PendingRange{});
        }
        if (result != CUDA_SUCCESS) {
            *failure = "running a graph node again failed with " + replayer_->Describe(result) + ": " + DescribeStep(step);
        }
    }
}

bool CounterCollector::Deferrable(const GraphProgram& program) const {
    // A copy from host memory, run at the batch's end, would read what the host holds then, not what the
    // application's graph read.
    for (const GraphStep& step : program.steps) {
        if (step.enabled && step.kind == GraphStepKind::Memcpy && ReadsHost(replayer_->api(), step.copy)) return false;
    }
    return true;
}

bool CounterCollector::DeferGraphNodes(ContextState* state, GraphLaunch& launch, const std::vector<uint64_t>& words,
                                       size_t dispatches) {
    // Rows written inside the launch call (batch 1, the process ending) and graphs whose replay later could see
    // other data are measured inside the launch call.
    if (immediate_ || batch_ <= 1 || !Deferrable(*launch.program)) return false;
    // A batch of another kind, or one without room for this launch's ranges, ends first.
    if (state->configured &&
        (!state->graphDeferredBatch || state->deferredGraphDispatches + dispatches > state->graphDispatchRoom)) {
        FlushLocked(state);
    }
    ContextState::DeferredGraph next;
    std::string why;
    LaunchReplayer::SnapshotResult kept = replayer_->TakeGraphSnapshot(launch.context, launch.stream, words, &next.snapshot, &why);
    if (kept == LaunchReplayer::SnapshotResult::NoRoom && state->configured) {
        FlushLocked(state);
        kept = replayer_->TakeGraphSnapshot(launch.context, launch.stream, words, &next.snapshot, &why);
    }
    if (kept != LaunchReplayer::SnapshotResult::Taken) {
        NoteOnce("gpaprof replays some CUDA graph launches' kernels inside their launch call (slower): " + why);
        return false;
    }
    if (!state->configured) {
        const size_t room = std::max<size_t>(dispatches, batch_);
        if (!Configure(state, CUPTI_UserReplay, room)) {
            replayer_->ReleaseSnapshot(&next.snapshot);
            return false;
        }
        state->graphDeferredBatch = true;
        state->graphBatch = true;
        state->graphDispatchRoom = room;
        state->deferredGraphDispatches = 0;
    }
    next.program = launch.program;
    next.uses = launch.uses;
    next.rows = std::move(launch.rows);
    state->deferredGraphDispatches += dispatches;
    state->deferredGraphs.push_back(std::move(next));
    ++statistics_.ownReplayed;
    ++statistics_.graphLaunchesDeferred;
    return true;
}

std::string CounterCollector::RunDeferredGraphPasses(ContextState* state) {
    std::vector<ContextState::DeferredGraph> graphs = std::move(state->deferredGraphs);
    state->deferredGraphs.clear();
    state->graphDeferredBatch = false;
    state->deferredGraphDispatches = 0;
    const uint32_t passes = state->chip->plan.groups[0].passes;
    std::vector<GraphPasses> progress(graphs.size());
    std::string failure;
    uint32_t passesDone = 0;
    const uint64_t begun = gpa::cuda::NowNs();
    if (crashing_) {
        failure = "the process ended on a signal before the replay passes of its CUDA graph launches ran";
    } else {
        // Memory as it is now is saved first and put back at the end; each launch's kernels run over its snapshot.
        std::vector<uint64_t> words;
        for (const ContextState::DeferredGraph& graph : graphs) {
            const std::vector<uint64_t> more = graph.program->ArgumentWords();
            words.insert(words.end(), more.begin(), more.end());
        }
        std::sort(words.begin(), words.end());
        words.erase(std::unique(words.begin(), words.end()), words.end());
        std::string why;
        if (!replayer_->BeginBatchReplay(state->context, &why, &words)) {
            failure = why;
        } else {
            for (uint32_t pass = 0; pass < passes && failure.empty(); ++pass) {
                if (const gpa::Outcome started = StartPass(state); !started.ok()) {
                    failure = started.reason();
                    break;
                }
                for (size_t g = 0; g < graphs.size() && failure.empty(); ++g) {
                    uint64_t mark = gpa::cuda::NowNs();
                    if (!replayer_->RestoreSnapshot(graphs[g].snapshot, &failure)) break;
                    statistics_.restoreNs += gpa::cuda::NowNs() - mark;
                    RunGraphSteps(state, *graphs[g].program, graphs[g].uses, graphs[g].rows, pass, &progress[g], &failure);
                }
                if (const std::string stopped = StopPass(state, pass, passes); !stopped.empty() && failure.empty()) {
                    failure = stopped;
                }
                passesDone = pass + 1;
            }
            EndBatchReplay("a batch of CUDA graph launches' kernels", &failure);
        }
    }
    for (ContextState::DeferredGraph& graph : graphs) replayer_->ReleaseSnapshot(&graph.snapshot);
    statistics_.launchNs += gpa::cuda::NowNs() - begun;
    if (!failure.empty()) {
        NoteOnce("CUDA counters of a batch of CUDA graph launches' kernels are NA: " + failure);
        state->poisoned = failure;
        if (!state->allSubmitted) FinishCycle(state, passesDone);
        for (size_t g = 0; g < graphs.size(); ++g) {
            for (size_t r = progress[g].rowsQueued; r < graphs[g].rows.size(); ++r) {
                state->pending.push_back(PendingRange{std::move(graphs[g].rows[r]), false});
            }
        }
    }
    return failure;
}

bool CounterCollector::BeginWholeGraph(ContextState* state, GraphLaunch& launch) {
    DispatchRow row = std::move(launch.rows.front());
    const uint32_t passes = state->chip->plan.groups[0].passes;
    auto na = [&](const std::string& note) {
        NoteOnce(note);
        WriteRow(std::move(row), state->chip, nullptr);
        return false;
    };
    if (passes > 1) {
        if (!replayer_) {
            return na("CUDA graphs have NA counters under GPAPROF_CUDA_REPLAY=cupti with several passes: CUPTI's kernel "
                      "replay cannot run a graph");
        }
        if (!launch.program || launch.program->hostNodes) {
            return na(std::string("CUDA graphs with several passes have NA counters where ") +
                      (launch.program ? "the graph has host nodes: each replay pass would run the application's host "
                                        "functions again"
                                      : "the graph was instantiated before gpaprof attached (its nodes are unknown)") +
                      "; a counter set of one pass measures the application's own launch");
        }
        const std::vector<uint64_t> words = launch.program->ArgumentWords();
        if (const std::string unsafe = replayer_->UnsafeContextMemory(launch.context, &words); !unsafe.empty()) {
            return na("CUDA graphs with several passes have NA counters here: gpaprof replays them on a copy of the "
                      "context's memory, which it cannot save and restore reliably: " + unsafe);
        }
    }
    // One user range around the graph, whatever the context's eager launches use.
    state->userRangesBeforeGraph = state->userRanges;
    state->userRanges = true;
    auto restoreRanges = [&] { state->userRanges = state->userRangesBeforeGraph; };
    if (!Configure(state, CUPTI_UserReplay, 1)) {
        restoreRanges();
        return na("CUDA graph counters are NA: the counter configuration failed");
    }
    state->graphBatch = true;
    const std::string rangeName = std::to_string(state->rangesPushed++);
    const uint64_t begun = gpa::cuda::NowNs();
    std::string failure;
    if (passes > 1) {
        std::string why;
        const std::vector<uint64_t> words = launch.program->ArgumentWords();
        if (!replayer_->BeginBatchReplay(launch.context, &why, &words)) {
            failure = why;
        } else {
            for (uint32_t pass = 0; pass + 1 < passes && failure.empty(); ++pass) {
                if (pass > 0 && !replayer_->Restore(&failure)) break;
                if (const gpa::Outcome started = StartPass(state); !started.ok()) {
                    failure = started.reason();
                    break;
                }
                FlushUnprofiled(state, nullptr);  // outside the range
                if (!PushRange(state, rangeName)) failure = "cuptiRangeProfilerPushRange failed";
                if (failure.empty()) {
                    if (const CUresult r = replayer_->LaunchGraph(launch.exec); r != CUDA_SUCCESS) {
                        failure = "launching the graph again failed (CUresult " + std::to_string(static_cast<int>(r)) + ")";
                    }
                    PopRange(state);
                }
                if (const std::string stopped = StopPass(state, pass, passes); !stopped.empty() && failure.empty()) {
                    failure = stopped;
                }
            }
            EndBatchReplay("a CUDA graph", &failure);
        }
    }
    statistics_.launchNs += gpa::cuda::NowNs() - begun;
    if (failure.empty()) {
        // The last pass: the application's own launch.
        if (const gpa::Outcome started = StartPass(state); !started.ok()) failure = started.reason();
    }
    if (failure.empty()) {
        if (replayer_) replayer_->FlushCacheOnStream(launch.context, launch.stream);  // before the range, outside it
        if (!PushRange(state, rangeName)) failure = "cuptiRangeProfilerPushRange failed";
    }
    if (!failure.empty()) {
        NoteOnce("CUDA counters of a graph launch are NA: " + failure);
        if (!state->allSubmitted) FinishCycle(state, 0);
        state->poisoned = failure;
        state->pending.push_back(PendingRange{std::move(row), false});
        FlushLocked(state);
        restoreRanges();
        return false;
    }
    state->graphRow = std::move(row);
    launchStartNs_ = gpa::cuda::NowNs();
    return true;
}

void CounterCollector::AfterGraphLaunch(CUcontext context, bool launched) {
    auto found = contexts_.find(context);
    if (found == contexts_.end() || !found->second->graphRow) return;
    ContextState* state = found->second.get();
    DispatchRow row = std::move(*state->graphRow);
    state->graphRow.reset();
    PopRange(state);
    const uint32_t passes = state->chip->plan.groups[0].passes;
    std::string failure = StopPass(state, passes - 1, passes);
    if (!launched && failure.empty()) failure = "the application's graph launch failed";
    statistics_.launchNs += gpa::cuda::NowNs() - launchStartNs_;
    if (!failure.empty()) {
        NoteOnce("CUDA counters of a graph launch are NA: " + failure);
        state->poisoned = failure;
        if (!state->allSubmitted) FinishCycle(state, passes);
    } else {
        ++statistics_.kernels;
    }
    state->pending.push_back(PendingRange{std::move(row), launched});
    FlushLocked(state);
    state->userRanges = state->userRangesBeforeGraph;
}

}  // namespace gpaprof::cuda
