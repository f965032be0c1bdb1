// Past 600 lines on purpose: the four ways a dispatch's passes run (one pass, CUPTI's kernel replay, own replay
// deferred to a batch's end, own replay inside the launch call) share one state machine per context
// (ContextState: configured, running, pending ranges, the cycle's passes), and each way's failure paths must
// leave that machine usable for the next dispatch; split, the invariants would span files.
#include "tools/gpaprof/cuda/counter_collector.h"
#include "tools/gpaprof/cuda/counter_collector_state.h"
#include "tools/gpaprof/cuda/waiting_kernels.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string_view>
#include <limits>
#include <unordered_map>
#include <unordered_set>

#include "backends/cuda/cupti_host.h"
#include "backends/cuda/cupti_pass_planner.h"
#include "backends/cuda/gpa_compute_counters.h"
#include "backends/cuda/metric_catalog.h"
#include "backends/cuda/elapsed_time.h"
#include "backends/cuda/range_profiler.h"
#include "counters/counter_catalog.h"

namespace gpaprof::cuda {
namespace {

using gpa::cuda::NowNs;
using Timed = gpa::cuda::AddElapsed;  // adds the time a scope took to a statistics field

}  // namespace

std::optional<ReplayMethod> ParseReplayMethod(const std::string& text) {
    if (text == "own") return ReplayMethod::Own;
    if (text == "cupti") return ReplayMethod::Cupti;
    return std::nullopt;
}

CounterCollector::CounterCollector(agent::Agent* agent, std::vector<std::string> requested, uint32_t batch,
                                   ReplayMethod method, LaunchReplayer* replayer)
    : agent_(agent),
      requested_(std::move(requested)),
      batch_(batch == 0 ? 1 : batch),
      method_(method),
      replayer_(method == ReplayMethod::Own ? replayer : nullptr) {
    if (const char* ranges = std::getenv("GPAPROF_CUDA_RANGES"); ranges && std::string(ranges) == "user") userRanges_ = true;
    if (const char* own = std::getenv("GPAPROF_CUDA_OWN_REPLAY"); own && std::string(own) == "immediate") immediate_ = true;
    if (const char* ms = std::getenv("GPAPROF_CUDA_REPLAY_COST_NOTE_MS")) costlyReplayNs_ = std::strtoull(ms, nullptr, 10) * 1000000ull;
}

CounterCollector::~CounterCollector() = default;

void CounterCollector::NoteOnce(const std::string& message) {
    for (const std::string& known : notes_) {
        if (known == message) return;
    }
    notes_.push_back(message);
    agent_->Note(message);
}

CounterRequest CounterCollector::Request() const {
    CounterRequest request;
    request.counters = requested_;
    request.columns = columns_;
    request.planThreads = gpa::cuda::PlanningThreads();
    request.singlePass = agent_->config().forceSinglePass;
    return request;
}

std::unique_ptr<CounterSetup> CounterCollector::SetupMadeAhead(const gpa::cuda::CuptiApi& cupti, const std::string& chip,
                                                               const std::vector<uint8_t>& availability) {
    if (!ahead_) return nullptr;
    uint64_t waited = 0;
    std::unique_ptr<CounterSetup> setup = ahead_->Take(chip, &waited);
    statistics_.aheadWaitNs += waited;
    if (!setup || !setup->usable) return nullptr;  // made anew here: its notes then come again
    // Made before a chip chose the columns: only for the first one (or one that chose the same).
    if (columns_ && setup->columns != *columns_) return nullptr;
    Timed bind(&statistics_.bindNs);
    std::string why;
    if (!BindToAvailability(cupti, availability, setup.get(), &why)) {
        NoteOnce("the CUDA counter set-up made ahead did not fit the device (" + why + "); made again for it");
        return nullptr;
    }
    statistics_.madeAhead = true;
    return setup;
}

CounterSetup* CounterCollector::ChipFor(const std::string& chip, CUdevice device, const std::vector<uint8_t>& availability) {
    // One per device, not per chip: CUPTI's host object takes the device's attributes from the first counter data
    // it evaluates, and then evaluates another board's SM counters to nothing (two H100s or H200s of one process:
    // the device decoded second had every SM counter NA, its L2 counters right, 2026-11-27). Boards of one chip
    // may also differ in counter availability.
    const ChipKey key{chip, device, availability};
    auto found = chips_.find(key);
    if (found != chips_.end()) return found->second.get();
    const bool chipSeen = std::any_of(chips_.begin(), chips_.end(), [&](const auto& entry) { return std::get<0>(entry.first) == chip; });
    const gpa::cuda::CuptiApi* cupti = nullptr;
    if (gpa::Outcome o = gpa::cuda::LoadCupti(&cupti); !o.ok()) {
        NoteOnce("CUDA counters are unavailable: " + o.reason());
        auto none = std::make_unique<CounterSetup>();
        none->chip = chip;
        return (chips_[key] = std::move(none)).get();
    }
    std::unique_ptr<CounterSetup> setup = SetupMadeAhead(*cupti, chip, availability);
    if (!setup) setup = MakeCounterSetup(*cupti, chip, availability, Request());
    statistics_.catalogNs += setup->catalogNs;
    statistics_.planNs += setup->planNs;
    for (const std::string& note : setup->notes) NoteOnce(note);
    if (!columns_ && setup->columnsChosen) {
        columns_ = setup->columns;
        agent_->Write(spool::CounterListRecord{"CUDA", *columns_});
    }
    if (setup->usable && !chipSeen) {
        agent_->Note("CUDA counters on " + chip + ": " + std::to_string(columns_->size()) + " columns from " +
                     std::to_string(setup->plan.groups[0].metrics.size()) + " NVIDIA metrics, " +
                     std::to_string(setup->plan.passCount) + " replay pass(es) per kernel");
        // --force-passes splits OpenCL dispatches only: a CUDA kernel's passes are what CUPTI's plan needs.
        if (const uint32_t forced = agent_->config().forcePasses; forced > setup->plan.passCount) {
            agent_->Note("--force-passes " + std::to_string(forced) +
                         " applies to OpenCL dispatches only: CUDA kernels are replayed in the passes their counters "
                         "need (" + std::to_string(setup->plan.passCount) + " here); for more, choose counters that "
                         "need more (`gpa-counters --chip " + chip + " --hardware` lists them)");
        }
    }
    return (chips_[key] = std::move(setup)).get();
}

CounterCollector::ContextState* CounterCollector::StateFor(CUcontext context) {
    auto found = contexts_.find(context);
    if (found != contexts_.end()) return found->second.get();
    Timed timed(&statistics_.setupNs);
    auto state = std::make_unique<ContextState>();
    state->context = context;
    ContextState* result = state.get();
    contexts_[context] = std::move(state);
    result->failed = true;

    const gpa::cuda::DriverApi* driver = nullptr;
    const gpa::cuda::CuptiApi* cupti = nullptr;
    if (gpa::Outcome o = gpa::cuda::LoadDriver(&driver); !o.ok()) {
        NoteOnce("CUDA counters are unavailable: " + o.reason());
        return result;
    }
    if (gpa::Outcome o = gpa::cuda::LoadCupti(&cupti); !o.ok()) {
        NoteOnce("CUDA counters are unavailable: " + o.reason());
        return result;
    }
    CUdevice device = 0;
    {
        gpa::cuda::ScopedContext current(*driver, context);
        if (CUresult r = driver->cuCtxGetDevice(&device); r != CUDA_SUCCESS) {
            NoteOnce("CUDA counters are unavailable: " + driver->Failure("cuCtxGetDevice", r).reason());
            return result;
        }
    }
    result->device = device;
    FlushOthersOnDevice(result);  // making the profiler below releases the device's other profilers
    std::string chip;
    if (gpa::Outcome o = gpa::cuda::CheckProfilingSupported(*cupti, device); !o.ok()) {
        NoteOnce("CUDA counters are unavailable on device " + std::to_string(device) + ": " + o.reason());
        return result;
    }
    if (gpa::Outcome o = gpa::cuda::QueryChipName(*cupti, device, &chip); !o.ok()) {
        NoteOnce("CUDA counters are unavailable on device " + std::to_string(device) + ": " + o.reason());
        return result;
    }
    std::vector<uint8_t> availability;
    {
        Timed availabilityTime(&statistics_.profilerNs);
        availability = gpa::cuda::QueryCounterAvailability(*cupti, *driver, context);
    }
    if (const char* debug = std::getenv("GPAPROF_CUDA_DEBUG"); debug && std::strstr(debug, "counters")) {
        std::fprintf(stderr, "gpaprof counters: context %p device %d chip %s, counter availability %zu bytes, hash %016zx\n",
                     static_cast<void*>(context), static_cast<int>(device), chip.c_str(), availability.size(),
                     std::hash<std::string_view>{}(std::string_view(reinterpret_cast<const char*>(availability.data()), availability.size())));
    }
    CounterSetup* set = ChipFor(chip, device, availability);
    if (!set->usable) return result;
    Timed profilerTime(&statistics_.profilerNs);
    // Own replay flushes the L2 before each measured kernel: a profiler that pauses around the flush spares it a
    // range (GPAPROF_CUDA_PROFILER_API=range keeps the Range Profiler API).
    const char* api = std::getenv("GPAPROF_CUDA_PROFILER_API");
    const bool pausable = replayer_ && !(api && std::string(api) == "range");
    if (gpa::Outcome o = gpa::cuda::RangeProfiler::Create(*cupti, *driver, context, &result->profiler,
                                                          pausable ? gpa::cuda::ProfilerApi::Pausable : gpa::cuda::ProfilerApi::Range);
        !o.ok()) {
        NoteOnce("CUDA counters are unavailable: " + o.reason());
        return result;
    }
    result->chip = set;
    result->failed = false;
    return result;
}

bool CounterCollector::Configure(ContextState* state, CUpti_ProfilerReplayMode replay, size_t dispatches) {
    const bool pause = PausesFor(state, replay, dispatches);
    size_t ranges = dispatches * RangesPerDispatch(replay, pause);
    auto lock = gpa::cuda::RangeProfiler::Lock();
    Timed timed(&statistics_.configureNs);
    const gpa::cuda::ConfigGroup& group = state->chip->plan.groups[0];
    if (replay == CUPTI_UserReplay && userRanges_) state->userRanges = true;
    auto configure = [&](CUpti_ProfilerRange range) {
        state->decoded = gpa::Outcome::Ok();
        gpa::cuda::RangeProfiler::Pending pending;
        pending.owner = this;
        pending.decoded = [state](const gpa::Outcome& outcome) { state->decoded = outcome; };
        return state->profiler->Configure(group.configImage, group.metrics, ranges, &state->counterData, range, replay,
                                          std::move(pending), pause);
    };
    const bool user = replay == CUPTI_UserReplay && state->userRanges;
    gpa::Outcome o = configure(user ? CUPTI_UserRange : CUPTI_AutoRange);
    if (o.ok() && pause && !state->profiler->CanPause()) {
        ranges = dispatches * RangesPerDispatch(replay, false);  // no session after all: room for the flushes too
        o = configure(user ? CUPTI_UserRange : CUPTI_AutoRange);
    }
    if (!o.ok() && replay == CUPTI_UserReplay && !user) {
        NoteOnce("CUPTI refused auto ranges in user replay (" + o.reason() + "); gpaprof brackets each launch in a "
                 "user range instead (GPUTime then spans the range, launch latency included)");
        state->userRanges = true;
        o = configure(CUPTI_UserRange);
    }
    if (!o.ok()) {
        NoteOnce("CUDA counters: " + o.reason());
        return false;
    }
    if (pause && !state->profiler->pauseLost().empty()) {
        NoteOnce("gpaprof's L2 cache flush before each measured kernel is a range of its own (slower): CUPTI's "
                 "Profiler API session failed: " + state->profiler->pauseLost());
    }
    ++statistics_.configurations;
    state->configured = true;
    state->replay = replay;
    state->capacity = ranges;
    state->running = false;
    state->allSubmitted = false;
    state->rangeOpen = false;
    state->deferredBatch = false;
    state->poisoned.clear();
    return true;
}

bool CounterCollector::PushRange(ContextState* state, const std::string& name) {
    if (state->replay != CUPTI_UserReplay || !state->userRanges) return true;
    auto lock = gpa::cuda::RangeProfiler::Lock();
    gpa::Outcome pushed = state->profiler->PushRange(name);
    if (!pushed.ok()) {
        NoteOnce("CUDA counters: " + pushed.reason());
        return false;
    }
    state->rangeOpen = true;
    return true;
}

void CounterCollector::PopRange(ContextState* state) {
    if (!state->rangeOpen) return;
    auto lock = gpa::cuda::RangeProfiler::Lock();
    state->rangeOpen = false;
    if (gpa::Outcome popped = state->profiler->PopRange(); !popped.ok()) NoteOnce("CUDA counters: " + popped.reason());
}

bool CounterCollector::FlushTakesRange(const ContextState* state) const {
    return replayer_ && !(state->profiler && state->profiler->CanPause());
}

bool CounterCollector::PausesFor(const ContextState* state, CUpti_ProfilerReplayMode replay, size_t dispatches) const {
    // A pausing configuration (a session of CUPTI's older Profiler API) costs about 0.3 s more to set up than the
    // Range Profiler API's, and spares each dispatch-pass its flush's range, about 1.2 ms with SM counters (H100,
    // docs/benchmarks.md): worth it from a few hundred dispatch-passes, so for batches of multi-pass sets only.
    constexpr size_t kMinDispatchPasses = 512;
    return replay == CUPTI_UserReplay && replayer_ && state->profiler && state->profiler->Pausable() &&
           dispatches * state->chip->plan.groups[0].passes >= kMinDispatchPasses;
}

size_t CounterCollector::RangesPerDispatch(CUpti_ProfilerReplayMode replay, bool pauses) const {
    // Own replay flushes the cache before each kernel: a range of its own unless the configuration pauses.
    return replay == CUPTI_UserReplay && replayer_ && !pauses ? 2 : 1;
}

bool CounterCollector::Full(const ContextState* state) const {
    return state->pending.size() + RangesPerDispatch(state->replay, state->profiler->CanPause()) > state->capacity;
}

bool CounterCollector::FlushUnprofiled(ContextState* state, const LaunchCall* launch) {
    // With auto ranges the flush kernel would be a range of its own: profiling pauses around it where CUPTI lets
    // it (then it costs no range), else the collector skips its range.
    const bool pause = state->running && !state->userRanges && !FlushTakesRange(state);
    if (pause) {
        auto lock = gpa::cuda::RangeProfiler::Lock();
        if (gpa::Outcome paused = state->profiler->Pause(); !paused.ok()) {
            state->poisoned = "pausing the profiler around the L2 cache flush failed: " + paused.reason();
            return false;
        }
    }
    const bool flushed = launch ? replayer_->FlushCacheBefore(*launch) : replayer_->FlushCacheBeforeRelaunch();
    if (pause) {
        auto lock = gpa::cuda::RangeProfiler::Lock();
        if (gpa::Outcome resumed = state->profiler->Resume(); !resumed.ok()) {
            state->poisoned = "resuming the profiler after the L2 cache flush failed: " + resumed.reason();
        }
    }
    return flushed;
}

bool CounterCollector::FlushCacheBefore(ContextState* state, const LaunchCall* launch) {
    const bool flushed = FlushUnprofiled(state, launch);
    // While the profiler runs with auto ranges and cannot pause, the flush kernel is a range: its place among the rows.
    if (flushed && state->running && !state->userRanges && FlushTakesRange(state)) state->pending.push_back(PendingRange{});
    return flushed;
}

bool CounterCollector::StartBatch(ContextState* state, CUpti_ProfilerReplayMode replay, const LaunchCall* flushBefore) {
    if (state->configured && (state->replay != replay || !state->running || Full(state))) {
        FlushLocked(state);
    }
    if (!state->configured && !StartRunning(state, replay)) return false;
    if (replay == CUPTI_KernelReplay) ++statistics_.cuptiReplayed;
    // Measured from a clean L2, as every replayed pass is (l2_flush.h); before the user range, outside it.
    if (flushBefore) FlushCacheBefore(state, flushBefore);
    if (!PushRange(state, std::to_string(state->rangesPushed++))) return false;
    launchStartNs_ = NowNs();
    return true;
}

bool CounterCollector::StartRunning(ContextState* state, CUpti_ProfilerReplayMode replay) {
    for (int attempt = 0; !state->configured && attempt < 2; ++attempt) {
        if (!Configure(state, replay, batch_)) return false;
        gpa::Outcome started;
        {
            auto lock = gpa::cuda::RangeProfiler::Lock();
            Timed timed(&statistics_.startNs);
            ++statistics_.starts;
            started = state->profiler->Start();
            if (!started.ok()) {
                state->profiler->Abandon(this);
                state->configured = false;
            }
        }
        if (started.ok()) {
            state->running = true;
            break;
        }
        if (replay == CUPTI_UserReplay && !state->userRanges) {
            NoteOnce("CUPTI refused auto ranges in user replay (" + started.reason() + "); gpaprof brackets each launch "
                     "in a user range instead (GPUTime then spans the range, launch latency included)");
            state->userRanges = true;
            continue;
        }
        NoteOnce("CUDA counters: " + started.reason());
        return false;
    }
    return state->configured;
}

void CounterCollector::FinishCycle(ContextState* state, uint32_t passesDone) {
    // Empty passes until CUPTI has every pass of the cycle: a configuration in the middle of a cycle can be
    // neither decoded nor continued.
    auto lock = gpa::cuda::RangeProfiler::Lock();
    const uint32_t passes = state->chip->plan.groups[0].passes;
    for (uint32_t pass = passesDone; pass < passes + 2 && !state->allSubmitted; ++pass) {
        if (!state->running && !state->profiler->Start().ok()) break;
        state->running = true;
        bool all = false;
        if (!state->profiler->Stop(&all).ok()) break;
        state->running = false;
        state->allSubmitted = all;
    }
    if (!state->allSubmitted) {
        // Nothing more to do for this configuration: drop it (a fresh CUPTI object follows).
        state->profiler->Abandon(this);
        state->profiler->Reset();
        state->configured = false;
        state->running = false;
        for (PendingRange& range : state->pending) {
            if (range.row) WriteRow(std::move(*range.row), state->chip, nullptr);
        }
        state->pending.clear();
    }
}

bool CounterCollector::ReplayPasses(ContextState* state, const LaunchCall& launch) {
    const uint32_t passes = state->chip->plan.groups[0].passes;
    std::string why;
    if (!replayer_->Begin(launch, &why)) {
        NoteOnce("CUDA counters of some dispatches are collected by CUPTI's kernel replay instead of gpaprof's own "
                 "replay (slower; GPAPROF_CUDA_STATS=1 counts them): " + why);
        return StartBatch(state, CUPTI_KernelReplay);
    }
    const uint64_t begun = NowNs();
    state->dispatchFailed.clear();
    if (state->configured && (state->replay != CUPTI_UserReplay || state->running || Full(state) ||
                              state->oneDispatchPerConfiguration || state->graphDeferredBatch)) {
        FlushLocked(state);
    }
    const size_t dispatches = state->oneDispatchPerConfiguration ? 1 : batch_;
    if (!state->configured && !Configure(state, CUPTI_UserReplay, dispatches)) {
        replayer_->End();
        return false;
    }
    state->ownDispatch = true;
    ++statistics_.ownReplayed;
    const std::string rangeName = std::to_string(state->rangesPushed++);
    auto start = [&] { return StartPass(state); };
    auto stop = [&] {
        auto lock = gpa::cuda::RangeProfiler::Lock();
        Timed timed(&statistics_.stopNs);
        bool all = false;
        gpa::Outcome stopped = state->profiler->Stop(&all);
        state->running = false;
        state->allSubmitted = stopped.ok() && all;
        return stopped;
    };
    // A pass that went wrong: its launch still runs once, on memory as it was before the dispatch.
    auto abandon = [&](const std::string& reason, uint32_t passesDone, bool restore) {
        state->dispatchFailed = reason;
        NoteOnce("CUDA counters of a dispatch are NA: " + reason);
        std::string ignored;
        if (restore && replayer_->Restore(&ignored)) replayer_->Settle(&ignored);
        FinishCycle(state, passesDone);
        statistics_.launchNs += NowNs() - begun;
        launchStartNs_ = NowNs();
        return true;
    };
    bool dirty = false;  // a pass ran since memory was last restored
    for (uint32_t pass = 0; pass < passes; ++pass) {
        if (pass > 0) {
            if (!replayer_->Restore(&why)) {
                NoteOnce("gpaprof could not restore memory between replay passes; the application's results may be "
                         "wrong");
                return abandon(why, pass, false);
            }
            dirty = false;
        }
        gpa::Outcome started = start();
        if (!started.ok() && pass == 0 && state->pending.empty() && !state->userRanges) {
            NoteOnce("CUPTI refused auto ranges in user replay (" + started.reason() + "); gpaprof brackets each launch "
                     "in a user range instead (GPUTime then spans the range, launch latency included)");
            state->userRanges = true;
            {
                auto lock = gpa::cuda::RangeProfiler::Lock();
                state->profiler->Abandon(this);
            }
            state->configured = false;
            if (!Configure(state, CUPTI_UserReplay, dispatches)) {
                replayer_->End();
                state->ownDispatch = false;
                return false;
            }
            started = start();
        }
        if (!started.ok() && pass == 0 && !state->pending.empty()) {
            // CUPTI does not take a second kernel's cycle into this configuration: decode what it holds, and
            // give every dispatch a configuration of its own from now on.
            NoteOnce("CUPTI's user replay takes one kernel per configuration here (" + started.reason() +
                     "); each dispatch gets its own");
            state->oneDispatchPerConfiguration = true;
            FlushLocked(state);
            if (!Configure(state, CUPTI_UserReplay, 1)) {
                replayer_->End();
                state->ownDispatch = false;
                return false;
            }
            started = start();
        }
        if (!started.ok()) return abandon(started.reason(), pass, dirty);
        // Every pass holds the same kernels: a cache flush before the dispatch in each, or in none.
        const bool flushed = FlushUnprofiled(state, nullptr);
        if (pass == 0) {
            state->dispatchFlushed = flushed;
        } else if (flushed != state->dispatchFlushed) {
            return abandon("the L2 cache flush failed between replay passes", pass, dirty);
        }
        // With user ranges every pass holds the same range, named after the dispatch.
        if (!PushRange(state, rangeName)) return abandon("cuptiRangeProfilerPushRange failed", pass, dirty);
        if (pass + 1 == passes) break;  // the last pass is the application's own launch
        const CUresult relaunched = replayer_->Relaunch();
        dirty = dirty || relaunched == CUDA_SUCCESS;
        PopRange(state);
        const gpa::Outcome stopped = stop();
        if (relaunched != CUDA_SUCCESS) {
            return abandon("issuing the launch again failed: " + replayer_->DescribeRelaunch(relaunched), pass + 1, dirty);
        }
        if (!stopped.ok()) return abandon(stopped.reason(), pass + 1, dirty);
        if (state->allSubmitted) {
            return abandon("CUPTI ended the replay cycle after " + std::to_string(pass + 1) + " of the " +
                               std::to_string(passes) + " passes it planned",
                           pass + 1, dirty);
        }
    }
    // Memory is restored and no copy is in flight once the gate opens again.
    if (!replayer_->Settle(&why)) NoteOnce("CUDA counters: " + why);
    statistics_.launchNs += NowNs() - begun;
    launchStartNs_ = NowNs();
    return true;
}

bool CounterCollector::DeferDispatch(ContextState* state, const LaunchCall& launch) {
    ContextState::Deferred next;
    std::string why = replayer_->UnsafeMemory(launch);
    if (!why.empty()) {
        // Before anything ends the batch in progress: a run of such dispatches stays one kernel-replay batch.
        NoteOnce("CUDA counters of some dispatches are collected by CUPTI's kernel replay instead of gpaprof's own "
                 "replay (slower; GPAPROF_CUDA_STATS=1 counts them): " + why);
        return StartBatch(state, CUPTI_KernelReplay);
    }
    if (!replayer_->CopyLaunch(launch, &next.launch, &why)) {
        NoteOnce("gpaprof replays some dispatches one at a time (slower): " + why);
        return ReplayPasses(state, launch);
    }
    // A batch in another mode, or a full one, ends first (ending a batch puts memory back as it is now).
    if (state->configured && (!state->deferredBatch || !state->running || Full(state))) {
        FlushLocked(state);
    }
    LaunchReplayer::SnapshotResult kept = replayer_->TakeSnapshot(launch, &next.snapshot, &why);
    if (kept == LaunchReplayer::SnapshotResult::NoRoom && state->configured) {
        FlushLocked(state);
        kept = replayer_->TakeSnapshot(launch, &next.snapshot, &why);
    }
    if (kept == LaunchReplayer::SnapshotResult::Unsafe) {
        NoteOnce("CUDA counters of some dispatches are collected by CUPTI's kernel replay instead of gpaprof's own "
                 "replay (slower; GPAPROF_CUDA_STATS=1 counts them): " + why);
        return StartBatch(state, CUPTI_KernelReplay);
    }
    if (kept != LaunchReplayer::SnapshotResult::Taken) {
        NoteOnce("gpaprof replays some dispatches one at a time (slower): " + why);
        return ReplayPasses(state, launch);
    }
    if (!state->configured) {
        if (!StartRunning(state, CUPTI_UserReplay)) {
            replayer_->ReleaseSnapshot(&next.snapshot);
            return false;
        }
        state->deferredBatch = true;
    }
    next.flushed = FlushCacheBefore(state, &launch);  // the application's launch, the first pass, comes next
    next.rangeName = std::to_string(state->rangesPushed++);
    if (!PushRange(state, next.rangeName)) {
        replayer_->ReleaseSnapshot(&next.snapshot);
        return false;
    }
    state->current = std::move(next);
    ++statistics_.ownReplayed;
    launchStartNs_ = NowNs();
    return true;
}

std::string CounterCollector::RunDeferredPasses(ContextState* state) {
    const uint32_t passes = state->chip->plan.groups[0].passes;
    std::vector<ContextState::Deferred> deferred = std::move(state->deferred);
    state->deferred.clear();
    state->deferredBatch = false;
    std::string failure;
    uint32_t passesDone = 0;
    if (state->running) {
        auto lock = gpa::cuda::RangeProfiler::Lock();
        Timed timed(&statistics_.stopNs);
        bool all = false;
        const gpa::Outcome stopped = state->profiler->Stop(&all);
        state->running = false;
        state->allSubmitted = stopped.ok() && all;
        if (!stopped.ok()) failure = stopped.reason();
        if (failure.empty() && state->allSubmitted && passes > 1) {
            failure = "CUPTI ended the replay cycle after 1 of the " + std::to_string(passes) + " passes it planned";
        }
        passesDone = 1;
    }
    const uint64_t begun = NowNs();
    const uint64_t bytesBefore = replayer_->statistics().batchBytes;
    if (failure.empty() && !state->allSubmitted) {
        std::string why;
        std::vector<const LaunchCopy*> launches;
        for (const ContextState::Deferred& dispatch : deferred) launches.push_back(&dispatch.launch);
        if (crashing_) {
            failure = "the process ended on a signal before the batch's other passes ran";
        } else if (!replayer_->BeginBatchReplay(state->context, launches, &why)) {
            failure = why;
        } else {
            for (uint32_t pass = 1; pass < passes && failure.empty(); ++pass) {
                if (const gpa::Outcome started = StartPass(state); !started.ok()) {
                    failure = started.reason();
                    break;
                }
                for (ContextState::Deferred& dispatch : deferred) {
                    uint64_t mark = NowNs();
                    auto lap = [&mark](uint64_t* total) {
                        const uint64_t now = NowNs();
                        *total += now - mark;
                        mark = now;
                    };
                    const bool restored = replayer_->RestoreSnapshot(dispatch.snapshot, &why);
                    lap(&statistics_.restoreNs);
                    if (!restored) {
                        failure = why;
                        break;
                    }
                    const bool flushFailed = dispatch.flushed && !FlushUnprofiled(state, nullptr);
                    lap(&statistics_.flushNs);
                    if (flushFailed) {
                        failure = "the L2 cache flush failed between replay passes";
                        break;
                    }
                    if (!PushRange(state, dispatch.rangeName)) {
                        failure = "cuptiRangeProfilerPushRange failed";
                        break;
                    }
                    if (dispatch.launched) {
                        if (const CUresult r = replayer_->Relaunch(dispatch.launch); r != CUDA_SUCCESS) {
                            failure = "issuing a launch again failed: " + replayer_->DescribeRelaunch(dispatch.launch, r);
                        }
                    }
                    lap(&statistics_.relaunchNs);
                    PopRange(state);
                    if (!failure.empty()) break;
                }
                passesDone = pass + 1;
                if (const std::string stopped = StopPass(state, pass, passes); !stopped.empty() && failure.empty()) {
                    failure = stopped;
                }
            }
            EndBatchReplay("a batch of dispatches", &failure);
        }
    }
    for (ContextState::Deferred& dispatch : deferred) replayer_->ReleaseSnapshot(&dispatch.snapshot);
    const uint64_t batchNs = NowNs() - begun;
    statistics_.launchNs += batchNs;
    if (failure.empty() && passesDone > 1) NoteReplayCost(deferred.size(), passesDone, batchNs, replayer_->statistics().batchBytes - bytesBefore);
    if (!failure.empty()) {
        NoteOnce("CUDA counters of a batch of dispatches are NA: " + failure);
        if (!state->allSubmitted) {
            state->configured = true;  // FinishCycle works on the configuration
            FinishCycle(state, passesDone);
            state->configured = false;
        }
    }
    return failure;
}

void CounterCollector::NoteReplayCost(size_t dispatches, uint32_t passes, uint64_t batchNs, uint64_t bytes) {
    if (costNoted_ || dispatches == 0 || batchNs / dispatches < costlyReplayNs_) return;
    costNoted_ = true;
    char text[512];
    std::snprintf(text, sizeof text,
                  "replaying a batch of %zu dispatch(es) in %u passes took %.0f ms, %.1f ms a dispatch (%.0f MiB of "
                  "device memory its kernels can write saved and restored): under counters of several passes this "
                  "program runs about that much slower a dispatch; counters that fit one pass, --kernel or "
                  "--launch-count keep it shorter",
                  dispatches, passes, static_cast<double>(batchNs) / 1e6,
                  static_cast<double>(batchNs) / 1e6 / static_cast<double>(dispatches),
                  static_cast<double>(bytes) / static_cast<double>(1u << 20));
    agent_->Note(text);
}

bool CounterCollector::BeforeLaunch(CUcontext context, const LaunchCall& launch) {
    ContextState* state = StateFor(context);
    if (state->failed) return false;
    FlushOthersOnDevice(state);
    if (method_ == ReplayMethod::Cupti) return StartBatch(state, CUPTI_KernelReplay);
    if (state->chip->plan.groups[0].passes <= 1) {
        // Nothing to replay; measured from a clean L2 as every replayed pass is (l2_flush.h).
        return StartBatch(state, CUPTI_UserReplay, replayer_ ? &launch : nullptr);
    }
    if (const std::string why = LaunchReplayer::CannotReplay(launch); !why.empty()) {
        NoteOnce("CUDA counters of some dispatches are collected by CUPTI's kernel replay instead of gpaprof's own "
                 "replay: " + why);
        return StartBatch(state, CUPTI_KernelReplay);
    }
    if (immediate_) return ReplayPasses(state, launch);
    return DeferDispatch(state, launch);
}

void CounterCollector::AfterLaunch(CUcontext context, bool launched, DispatchRow row) {
    auto found = contexts_.find(context);
    ContextState* state = found == contexts_.end() ? nullptr : found->second.get();
    if (state && state->current) {
        // A deferred dispatch: the application's launch was the batch's first pass of it.
        ContextState::Deferred dispatch = std::move(*state->current);
        state->current.reset();
        const bool userRange = state->rangeOpen;
        PopRange(state);
        statistics_.launchNs += NowNs() - launchStartNs_;
        dispatch.launched = launched;
        if (!launched && !userRange) {
            // No kernel, no range; but a cache flush that is a range was one, and every later pass must have it too.
            replayer_->ReleaseSnapshot(&dispatch.snapshot);
            WriteRow(std::move(row), state->chip, nullptr);
            if (dispatch.flushed && FlushTakesRange(state)) state->deferred.push_back(std::move(dispatch));
            return;
        }
        if (launched) ++statistics_.kernels;
        state->pending.push_back(PendingRange{std::move(row), launched});
        state->deferred.push_back(std::move(dispatch));
        if (Full(state)) FlushLocked(state);
        return;
    }
    if (state && state->ownDispatch) {
        // The application's launch was the last pass.
        state->ownDispatch = false;
        PopRange(state);
        std::string failed = state->dispatchFailed;
        if (state->running) {
            auto lock = gpa::cuda::RangeProfiler::Lock();
            bool all = false;
            gpa::Outcome stopped;
            {
                Timed timed(&statistics_.stopNs);
                stopped = state->profiler->Stop(&all);
            }
            state->running = false;
            state->allSubmitted = stopped.ok() && all;
            if (!stopped.ok()) {
                failed = stopped.reason();
            } else if (!all) {
                failed = "CUPTI wants more passes than the " + std::to_string(state->chip->plan.groups[0].passes) +
                         " it planned";
            } else if (!launched) {
                // Earlier passes made a range the last one did not complete.
                failed = "the launch failed";
                state->poisoned = "a launch failed in its last replay pass";
            }
            if (!failed.empty() && !state->allSubmitted) {
                lock.unlock();
                FinishCycle(state, 0);
            }
        }
        replayer_->End();
        statistics_.launchNs += NowNs() - launchStartNs_;
        if (!failed.empty() || !launched) {
            if (launched && failed != state->dispatchFailed) NoteOnce("CUDA counters of a dispatch are NA: " + failed);
            // The dispatch may have left a range of its own: the configuration's ranges no longer match its rows.
            if (state->configured && state->allSubmitted) state->poisoned = "a dispatch's replay went wrong";
            WriteRow(std::move(row), state->chip, nullptr);
            return;
        }
        ++statistics_.kernels;
        if (state->dispatchFlushed && !state->userRanges && FlushTakesRange(state)) state->pending.push_back(PendingRange{});
        state->pending.push_back(PendingRange{std::move(row), true});
        if (Full(state)) FlushLocked(state);
        return;
    }
    const bool userRange = state && state->rangeOpen;
    if (state) PopRange(state);
    if (!state || state->failed || !state->configured || !state->running || !launched) {
        if (userRange && state->configured && state->running) {
            state->pending.push_back(PendingRange{std::move(row), false});  // its range holds no kernel
        } else {
            WriteRow(std::move(row), state ? state->chip : nullptr, nullptr);
        }
        return;
    }
    ++statistics_.kernels;
    statistics_.launchNs += NowNs() - launchStartNs_;
    state->pending.push_back(PendingRange{std::move(row), true});
    if (Full(state)) FlushLocked(state);
}

void CounterCollector::Flush(CUcontext context) {
    auto found = contexts_.find(context);
    if (found != contexts_.end()) FlushLocked(found->second.get());
}

void CounterCollector::FlushAll() {
    for (auto& [context, state] : contexts_) {
        FlushLocked(state.get());
        if (state->profiler && !crashing_) {
            auto lock = gpa::cuda::RangeProfiler::Lock();
            state->profiler->EndKeptSession();  // the process is ending: no session left begun (RangeProfiler)
        }
    }
}

void CounterCollector::FlushOthersOnDevice(const ContextState* state) {
    for (auto& [context, other] : contexts_) {
        if (other.get() != state && !other->failed && other->device == state->device && other->configured) {
            FlushLocked(other.get());
        }
    }
}

void CounterCollector::FlushAllForCrash() {
    crashing_ = true;
    FlushAll();
}

void CounterCollector::FlushDeferred() {
    for (auto& [context, state] : contexts_) {
        if (state->configured && (state->deferredBatch || state->graphDeferredBatch)) FlushLocked(state.get());
    }
}

void CounterCollector::BeforeLaunchSetting(const LaunchSetting& setting, CUcontext current) {
    const bool sharedLimit = !setting.contextWide && setting.what == CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES;
    // (Every value is remembered, the shared memory limit's too, so that the next call compares with this one.)
    if (!settings_.Changes(setting, current) && !sharedLimit) return;
    if (setting.contextWide) {
        // (Looked up, not made: a context gpaprof has not profiled in has no batch.)
        if (auto found = contexts_.find(current); found != contexts_.end() && found->second->configured &&
                                                  found->second->deferredBatch) {
            FlushLocked(found->second.get());
        }
        return;
    }
    // A launch names its function by the handle it was given or the CUfunction that ran; a cuKernel... call's
    // kernel is either, or resolves to the latter in the current context.
    CUfunction handles[3] = {setting.function, reinterpret_cast<CUfunction>(setting.kernel), nullptr};
    if (setting.kernel && replayer_->api()->cuKernelGetFunction &&
        replayer_->api()->cuKernelGetFunction(&handles[2], setting.kernel) != CUDA_SUCCESS) {
        handles[2] = nullptr;
    }
    auto named = [&](CUfunction f) { return f && std::find(std::begin(handles), std::end(handles), f) != std::end(handles); };
    const unsigned limit = static_cast<unsigned>(std::max<int64_t>(setting.value, 0));
    for (auto& [context, state] : contexts_) {
        if (!state->configured || !state->deferredBatch) continue;
        const bool affected = std::any_of(state->deferred.begin(), state->deferred.end(), [&](const ContextState::Deferred& d) {
            return d.launched && (named(d.launch.function) || named(d.launch.resolved)) &&
                   (!sharedLimit || d.launch.sharedBytes > limit);
        });
        if (affected) FlushLocked(state.get());
    }
}

std::string CounterCollector::UnprofiledReason(CUcontext context, bool waits, bool severalDevices) {
    ContextState* state = StateFor(context);
    if (state->failed) return {};
    LaunchFacts launch;
    launch.waits = waits;
    launch.severalDevices = severalDevices;
    launch.kernelReplay = method_ == ReplayMethod::Cupti;
    launch.passes = state->chip->plan.groups[0].passes;
    if (severalDevices && state->waiterRecorded) {
        const gpa::cuda::DriverApi* driver = nullptr;
        launch.waiterRunning = gpa::cuda::LoadDriver(&driver).ok() && driver->cuEventQuery(state->waiter) == CUDA_ERROR_NOT_READY;
        state->waiterRecorded = launch.waiterRunning;
    }
    return RuleNote(RuleFor(launch), launch.passes);
}

std::string CounterCollector::KernelReplayHazard(CUcontext context, const LaunchCall& launch) {
    if (!communicationMemory_ || !communicationMemory_->HasCommunicationMemory()) return {};
    ContextState* state = StateFor(context);
    if (state->failed || state->chip->plan.groups[0].passes <= 1) return {};
    std::string why = method_ == ReplayMethod::Cupti || !replayer_ ? "GPAPROF_CUDA_REPLAY=cupti" : LaunchReplayer::CannotReplay(launch);
    if (why.empty()) why = replayer_->UnsafeMemory(launch);
    if (why.empty()) return {};
    return "CUDA counters of some dispatches are NA: in a process that uses NCCL (or another communication library), "
           "gpaprof's own replay cannot take them (" + why + "), and CUPTI's kernel replay would put NCCL's buffers "
           "back between passes, erasing what its peers wrote meanwhile (a collective then never ends). A set of one "
           "pass measures them";
}

void CounterCollector::Unprofiled(CUcontext context, DispatchRow row, const std::string& reason) {
    auto found = contexts_.find(context);
    ContextState* state = found == contexts_.end() ? nullptr : found->second.get();
    // The configuration ends before it: the kernel is no range, and nothing decoded later waits for it.
    if (state) FlushLocked(state);
    NoteOnce(reason);
    WriteRow(std::move(row), state ? state->chip : nullptr, nullptr);
}

void CounterCollector::AfterWaitingLaunch(CUcontext context, CUstream stream) {
    auto found = contexts_.find(context);
    if (found == contexts_.end() || found->second->failed) return;
    ContextState* state = found->second.get();
    const gpa::cuda::DriverApi* driver = nullptr;
    if (!gpa::cuda::LoadDriver(&driver).ok()) return;
    if (!state->waiter && driver->cuEventCreate(&state->waiter, CU_EVENT_DISABLE_TIMING) != CUDA_SUCCESS) {
        state->waiter = nullptr;
        return;
    }
    state->waiterRecorded = driver->cuEventRecord(state->waiter, stream) == CUDA_SUCCESS;
}

void CounterCollector::ForgetContext(CUcontext context) {
    auto found = contexts_.find(context);
    if (found == contexts_.end()) return;
    FlushLocked(found->second.get());
    contexts_.erase(found);  // the range profiler is disabled while the context still exists
}

void CounterCollector::BeforeContextSwitch() {
    for (auto& [context, state] : contexts_) {
        if (!state->failed && state->configured && state->replay == CUPTI_KernelReplay) FlushLocked(state.get());
    }
}

void CounterCollector::FlushLocked(ContextState* state) {
    if (!state) return;
    std::string graphFailure;
    if (state->graphDeferredBatch) {
        if (state->configured) {
            graphFailure = RunDeferredGraphPasses(state);  // their rows join the pending ranges
        } else {
            // The configuration went away before the passes ran: the rows are NA, never dropped.
            for (ContextState::DeferredGraph& graph : state->deferredGraphs) {
                replayer_->ReleaseSnapshot(&graph.snapshot);
                for (DispatchRow& row : graph.rows) state->pending.push_back(PendingRange{std::move(row), false});
            }
            state->deferredGraphs.clear();
            state->graphDeferredBatch = false;
        }
    }
    if (!state->configured) {
        // Rows left by a configuration that is gone (its profiler did not start again): NA, never dropped.
        for (PendingRange& range : state->pending) {
            if (range.row) WriteRow(std::move(*range.row), state->chip, nullptr);
        }
        state->pending.clear();
        return;
    }
    std::vector<PendingRange> rows = std::move(state->pending);
    state->pending.clear();
    PopRange(state);
    std::string poisoned = state->poisoned;
    if (poisoned.empty()) poisoned = graphFailure;
    if (state->deferredBatch) {
        const std::string failure = RunDeferredPasses(state);
        if (poisoned.empty()) poisoned = failure;
    }
    auto writeAllNA = [&] {
        for (PendingRange& range : rows) {
            if (range.row) WriteRow(std::move(*range.row), state->chip, nullptr);
        }
    };
    if (!state->configured) {
        // The deferred passes failed and the configuration was dropped.
        writeAllNA();
        return;
    }
    state->configured = false;
    const bool ownReplay = state->replay == CUPTI_UserReplay && state->chip->plan.groups[0].passes > 1;
    state->poisoned.clear();
    const gpa::cuda::CuptiApi& cupti = state->profiler->cupti();
    gpa::Outcome stopped;
    bool allSubmitted = state->allSubmitted;
    {
        auto lock = gpa::cuda::RangeProfiler::Lock();
        if (state->running) {
            Timed timed(&statistics_.stopNs);
            stopped = state->profiler->Stop(&allSubmitted);
            state->running = false;
        }
        Timed timed(&statistics_.decodeNs);
        state->profiler->FinishPendingOf(this);
    }
    std::vector<std::string> ranges;
    gpa::Outcome problem = stopped;
    if (problem.ok() && !allSubmitted) {
        problem = gpa::Fail(GPA_STATUS_ERROR_FAILED, state->replay == CUPTI_KernelReplay
                                                         ? "CUPTI's kernel replay did not complete every pass"
                                                         : "CUPTI's user replay did not complete every pass");
    }
    if (problem.ok() && !poisoned.empty()) problem = gpa::Fail(GPA_STATUS_ERROR_FAILED, poisoned);
    if (problem.ok()) problem = state->decoded;
    if (problem.ok()) problem = gpa::cuda::CounterDataRangeNames(cupti, state->counterData, &ranges);
    size_t kernels = 0;
    for (const PendingRange& range : rows) kernels += range.row ? 1 : 0;
    const bool graphBatch = state->graphBatch;
    state->graphBatch = false;
    if (problem.ok() && (ownReplay || state->userRanges || graphBatch) && ranges.size() != rows.size()) {
        // Each replayed dispatch (and each cache flush before one) is one range; any other count means the
        // ranges cannot be matched to rows.
        problem = gpa::Fail(GPA_STATUS_ERROR_FAILED, "CUPTI returned " + std::to_string(ranges.size()) + " range(s) for " +
                                                         std::to_string(rows.size()) + " (" + std::to_string(kernels) +
                                                         " replayed dispatch(es) and gpaprof's cache flushes)");
        if (!graphBatch) state->oneDispatchPerConfiguration = true;
    }
    if (!problem.ok()) {
        NoteOnce("CUDA counters of " + std::to_string(kernels) + " kernel(s) are NA: " + problem.reason());
        writeAllNA();
        return;
    }
    if (ranges.size() != rows.size()) {
        NoteOnce("CUPTI returned " + std::to_string(ranges.size()) + " profiled range(s) for " + std::to_string(rows.size()) +
                 " (launches and gpaprof's cache flushes); launches without a range have NA counters");
    }
    const std::vector<std::string>& metrics = state->chip->plan.groups[0].metrics;
    for (size_t i = 0; i < rows.size(); ++i) {
        if (!rows[i].row) continue;  // gpaprof's cache flush
        if (i >= ranges.size() || !rows[i].kernel) {
            WriteRow(std::move(*rows[i].row), state->chip, nullptr);
            continue;
        }
        std::vector<double> evaluated;
        gpa::Outcome outcome;
        {
            Timed timed(&statistics_.evaluateNs);
            outcome = state->chip->host->Evaluate(state->counterData, i, metrics, &evaluated);
        }
        if (!outcome.ok()) {
            NoteOnce("CUDA counters could not be evaluated: " + outcome.reason());
            WriteRow(std::move(*rows[i].row), state->chip, nullptr);
            continue;
        }
        std::map<std::string, double> values;
        for (size_t m = 0; m < metrics.size() && m < evaluated.size(); ++m) values[metrics[m]] = evaluated[m];
        WriteRow(std::move(*rows[i].row), state->chip, &values);
    }
}

void CounterCollector::WriteRow(DispatchRow row, const CounterSetup* chip, const std::map<std::string, double>* values) {
    if (!columns_) {
        // Counters could not be set up on any device: the columns asked for, all NA.
        columns_ = requested_.empty() ? DefaultCudaCounters() : requested_;
        agent_->Write(spool::CounterListRecord{"CUDA", *columns_});
    }
    if (values) {
        auto duration = values->find(kKernelDurationMetric);
        if (duration != values->end()) row.timeMs = duration->second / 1e6;
    }
    // The measured metrics by hardware counter index.
    std::vector<double> hardware;
    std::vector<bool> measured;
    if (chip && values) {
        hardware.assign(chip->hardware.size(), 0.0);
        measured.assign(chip->hardware.size(), false);
        for (const auto& [name, value] : *values) {
            auto index = chip->hardwareIndex.find(name);
            if (index == chip->hardwareIndex.end() || std::isnan(value)) continue;
            hardware[index->second] = value;
            measured[index->second] = true;
        }
    }
    const std::vector<std::string>& columns = *columns_;
    row.counters.clear();
    for (size_t c = 0; c < columns.size(); ++c) {
        const std::optional<uint32_t> index =
            chip && c < chip->columnIndex.size() ? chip->columnIndex[c] : std::optional<uint32_t>{};
        bool complete = values && index;
        if (complete) {
            for (uint32_t input : chip->catalog.at(*index).hardware) complete = complete && measured[input];
        }
        if (!complete) {
            row.counters.push_back(CounterValue::NA(columns[c]));
            continue;
        }
        const gpa::ExposedCounter& counter = chip->catalog.at(*index);
        const double value = chip->catalog.Evaluate(*index, hardware);
        if ((counter.type == GPA_TYPE_UINT64 || counter.type == GPA_TYPE_UINT32) && value >= 0) {
            row.counters.push_back(CounterValue::Int(columns[c], static_cast<uint64_t>(std::llround(value))));
        } else if (counter.usage == GPA_USAGE_TYPE_MILLISECONDS || counter.usage == GPA_USAGE_TYPE_NANOSECONDS) {
            row.counters.push_back(CounterValue::Time(columns[c], value));
        } else {
            row.counters.push_back(CounterValue::Real(columns[c], value));
        }
    }
    agent_->Write(spool::DispatchRecord{"CUDA", std::move(row)});
}

}  // namespace gpaprof::cuda
