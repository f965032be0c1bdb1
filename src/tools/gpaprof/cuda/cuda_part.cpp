// CudaPart's start (subscribing to CUPTI's callbacks and activity), the counter set-up made ahead of the first
// profiled launch, and the end of the process (cuda_part.h).
#include <cupti_activity.h>
#include <cupti_callbacks.h>
#include <cupti_driver_cbid.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "backends/cuda/cuda_driver_loader.h"
#include "backends/cuda/range_profiler.h"
#include "tools/gpaprof/agent/agent.h"
#include "tools/gpaprof/cuda/counter_setup.h"
#include "tools/gpaprof/cuda/cuda_part.h"
#include "tools/gpaprof/cuda/raw_call_line.h"

namespace gpaprof::cuda::injection {
namespace {

constexpr uint32_t kActivityFlushPeriodMs = 100;  // bounds what a crash or kill -9 can lose
// Kernels whose counter ranges are decoded together: each decode costs a new CUPTI configuration and start
// (about 0.15 s on an H200 for the GPA compute set), so rows are written in batches; at exit, context
// teardown and crashes the batch in progress is decoded (GPAPROF_CUDA_COUNTER_BATCH changes the size).
constexpr uint32_t kDefaultCounterBatch = 64;
// With own replay a batch costs one configuration and no pass of its own: larger batches cost less.
constexpr uint32_t kDefaultOwnReplayBatch = 256;

}  // namespace

CudaPart* CudaPart::instance_ = nullptr;

bool CudaPart::Start(std::string* problem) {
    Agent* agent = Agent::Get();
    if (!agent) {
        *problem = "not started by gpaprof";
        return false;
    }
    const TracingApi* api = LoadTracingApi(problem);
    if (!api) return false;
    auto* part = new CudaPart(agent, api);  // lives as long as the process
    if (!part->Initialize(problem)) {
        delete part;
        return false;
    }
    return true;
}

bool CudaPart::Initialize(std::string* problem) {
    const AgentConfig& config = agent_->config();
    trace_ = config.trace;
    counters_ = config.counters;
    occupancy_ = config.occupancy;
    excludesApis_ = !config.excludedApis.empty();
    if (counters_ || occupancy_) {
        graphs_ = std::make_unique<GraphPrograms>(api_);
        wholeGraphs_ = config.graphProfiling == "graph";
    }
    symbols_ = config.sourceSymbols && config.trace;
    if (config.pmSamplingIntervalNs > 0) {
        pmSampling_ = std::make_unique<PmSamplingRecorder>(agent_, config.pmSamplingIntervalNs, config.pmMetrics);
    }
    if (const char* diag = std::getenv("GPAPROF_CUDA_DIAG")) {
        diagEmptyCallbacks_ = std::strcmp(diag, "empty-callbacks") == 0;
        diagNoActivity_ = std::strcmp(diag, "no-activity") == 0;
        diagSkipRecords_ = std::strcmp(diag, "skip-records") == 0;
    }
    if (trace_) {
        const char* rings = std::getenv("GPAPROF_CUDA_CALL_RINGS");
        if (!(rings && std::strcmp(rings, "0") == 0)) {
            Agent* agent = agent_;
            // Its rounds also move the launches staged on the threads into the join table, so that their rings
            // (staged_launches.h) seldom fill between two activity buffers.
            rawRings_ = std::make_unique<RawCallRings>([agent](std::string_view lines) { agent->WriteEncoded(lines); },
                                                       [this] {
                                                           if (!stageLaunches_) return;
                                                           std::lock_guard<std::mutex> lock(enqueueMutex_);
                                                           DrainStagedLaunches();
                                                       });
            RawCallRings* kept = rawRings_.get();
            agent_->AddBeforeExec([kept] { kept->Drain(); });  // an exec would take what they hold with it
        }
    }
    std::string waitingError;
    waitingKernels_ = std::make_unique<WaitingKernels>(std::getenv("GPAPROF_CUDA_WAITING_KERNELS"), &waitingError);
    if (!waitingError.empty()) agent_->Note(waitingError);
    if (const char* debug = std::getenv("GPAPROF_CUDA_DEBUG")) {
        debugRecords_ = std::strstr(debug, "records") != nullptr;
        debugCallbacks_ = std::strstr(debug, "callbacks") != nullptr;
        debugMemory_ = std::strstr(debug, "memory") != nullptr;
        debugGraphs_ = std::strstr(debug, "graphs") != nullptr;
    }
    unusualCallbacks_ = diagEmptyCallbacks_ || debugCallbacks_;
    const char* staged = std::getenv("GPAPROF_CUDA_STAGED_LAUNCHES");
    stageLaunches_ = trace_ && !counters_ && !(staged && std::strcmp(staged, "0") == 0);
    stageOnlyNestedLaunches_ = stageLaunches_ && !occupancy_;
    rawParamsSizes_.fill(-1);
    if (const char* raw = std::getenv("GPAPROF_CUDA_RAW_CALLS"); !(raw && std::strcmp(raw, "0") == 0)) {
        for (const CudaApiInfo& info : AllApis()) {
            const int size = RawParamsSize(info.domain, info.cbid);
            if (info.apiType < rawParamsSizes_.size() && size >= 0 && static_cast<size_t>(size) <= kMaxRawParamsBytes &&
                ReturnsStatusCode(info.domain, info.name)) {
                rawParamsSizes_[info.apiType] = static_cast<int16_t>(size);
            }
        }
    }
    if (std::getenv("GPAPROF_CUDA_STATS")) costs_.Enable();
    ReplayMethod method = ReplayMethod::Own;
    if (counters_) {
        if (const char* text = std::getenv("GPAPROF_CUDA_REPLAY"); text && *text) {
            if (const std::optional<ReplayMethod> chosen = ParseReplayMethod(text)) {
                method = *chosen;
            } else {
                agent_->Note(std::string("GPAPROF_CUDA_REPLAY=") + text + " is neither 'own' nor 'cupti'; using 'own'");
            }
        }
        uint32_t batch = method == ReplayMethod::Own ? kDefaultOwnReplayBatch : kDefaultCounterBatch;
        if (const char* text = std::getenv("GPAPROF_CUDA_COUNTER_BATCH"); text && *text) {
            batch = static_cast<uint32_t>(std::max(1l, std::strtol(text, nullptr, 10)));
        }
        // Both replays need to know whose memory there is: a communication library's must never be put back
        // (device_memory_map.h, MemoryOwner), and CUPTI's kernel replay would.
        memory_ = std::make_unique<DeviceMemoryMap>();
        if (method == ReplayMethod::Own) {
            replayer_ = std::make_unique<LaunchReplayer>(api_, memory_.get());
            if (trace_) {
                replayer_->SetReplayObserver([this](bool replaying) {
                    const uint64_t now = ActivityNow();
                    std::lock_guard<std::mutex> lock(enqueueMutex_);
                    if (replaying) {
                        replayWindows_.Open(now);
                    } else {
                        replayWindows_.Close(now);
                    }
                });
            }
        }
        collector_ = std::make_unique<CounterCollector>(agent_, config.counterNames, batch, method, replayer_.get());
        collector_->WatchCommunicationMemory(memory_.get());
        const char* ahead = std::getenv("GPAPROF_CUDA_SETUP_AHEAD");
        if (!(ahead && std::string(ahead) == "0")) {
            collector_->UseSetupsAhead(&setupAhead_);
            setupAheadPending_ = true;
        }
    }
    callers_.SkipModuleOf(reinterpret_cast<const void*>(&Callback));
    callers_.SkipModuleOf(reinterpret_cast<const void*>(&Agent::Now));
    callers_.SkipModuleOf(reinterpret_cast<const void*>(api_->cuptiSubscribe));
    callers_.SkipModuleOf(reinterpret_cast<const void*>(api_->cuDeviceGet));
    callers_.SkipModuleNamed("libcupti.so");
    callers_.SkipModuleNamed("libcuda.so");

    instance_ = this;
    // The part itself is the callbacks' user data: one cache line fewer a callback than reading instance_.
    CUptiResult result = api_->cuptiSubscribe(&subscriber_, reinterpret_cast<CUpti_CallbackFunc>(&Callback), this);
    if (result != CUPTI_SUCCESS) {
        instance_ = nullptr;
        *problem = "cuptiSubscribe failed: " + api_->Describe(result) +
                   (result == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED
                        ? " (another CUPTI tool, such as Nsight Systems or Nsight Compute, is attached; profile with one tool at a time)"
                        : "");
        return false;
    }
    // The API calls only where they are recorded or launches profiled: --pm-sampling alone needs no more than the
    // contexts' creation (the resource domain, below), and each API callback costs a launch-bound program about 10%
    // of its loop (bench/pm_sampling_cost.sh, 2026-11-28: 1.118 with them).
    const bool apiCallbacks = trace_ || counters_ || occupancy_;
    for (CUpti_CallbackDomain domain : {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_CB_DOMAIN_DRIVER_API}) {
        if (!apiCallbacks) break;
        result = api_->cuptiEnableDomain(1, subscriber_, domain);
        if (result != CUPTI_SUCCESS) {
            *problem = "cuptiEnableDomain failed: " + api_->Describe(result);
            return false;
        }
    }
    // The CUDA runtime asks the driver for the kernel's name (cuKernelGetName) before every launch, outside any
    // runtime call: a pair of callbacks a launch that records nothing. Left unsubscribed from the start unless
    // every call is wanted (--cuda-trace-all-apis). Never switched off later: a thread inside the call then kept its
    // correlation id for all its later kernels (docs/gpaprof.md, 2026-11-27).
    if (apiCallbacks && !config.cudaTraceAllApis) {
        result = api_->cuptiEnableCallback(0, subscriber_, CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuKernelGetName);
        if (result != CUPTI_SUCCESS) {
            *problem = "cuptiEnableCallback failed: " + api_->Describe(result);
            return false;
        }
    }
    // Runtime functions left out with -F that enqueue nothing: not heard of at all (cuda_api_table.h says why).
    for (uint32_t cbid : apiCallbacks ? UnheardRuntimeCallbacks(config.excludedApis) : std::vector<uint32_t>{}) {
        result = api_->cuptiEnableCallback(0, subscriber_, CUPTI_CB_DOMAIN_RUNTIME_API, cbid);
        if (result != CUPTI_SUCCESS) {
            *problem = "cuptiEnableCallback failed: " + api_->Describe(result);
            return false;
        }
    }
    // Of the resource domain only what gpaprof uses: the whole domain also calls back once per kernel launch
    // (about 0.6 us of CUPTI's per launch on an H100, docs/benchmarks.md).
    for (CUpti_CallbackId resource : {CUPTI_CBID_RESOURCE_CONTEXT_CREATED, CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING,
                                      CUPTI_CBID_RESOURCE_MODULE_LOADED, CUPTI_CBID_RESOURCE_MODULE_UNLOAD_STARTING}) {
        result = api_->cuptiEnableCallback(1, subscriber_, CUPTI_CB_DOMAIN_RESOURCE, resource);
        if (result != CUPTI_SUCCESS) {
            *problem = "cuptiEnableCallback failed: " + api_->Describe(result);
            return false;
        }
    }
    // CUDA graphs: instantiation clones every node into the executable graph, whose ids the kernels' activity
    // records carry; the clones say which node became which (graph_launches.cpp).
    if (graphs_) {
        result = api_->cuptiEnableCallback(1, subscriber_, CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_GRAPHNODE_CLONED);
        if (result != CUPTI_SUCCESS) {
            *problem = "cuptiEnableCallback failed: " + api_->Describe(result);
            return false;
        }
    }
    if (trace_ && !diagNoActivity_) {
        // Device times on gpaprof's clock (CLOCK_MONOTONIC), converted by CUPTI itself; older CUPTIs keep
        // their own clock and gpaprof calibrates it against CLOCK_MONOTONIC.
        cpuClock_ = api_->cuptiActivityRegisterTimestampCallback &&
                    api_->cuptiActivityRegisterTimestampCallback(&CpuTimestamp) == CUPTI_SUCCESS;
        UseZeroedActivityBuffers(*api_);
        result = api_->cuptiActivityRegisterCallbacks(&BufferRequested, &BufferCompleted);
        if (result != CUPTI_SUCCESS) {
            *problem = "cuptiActivityRegisterCallbacks failed: " + api_->Describe(result);
            return false;
        }
        for (CUpti_ActivityKind kind :
             {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMCPY, CUPTI_ACTIVITY_KIND_MEMCPY2,
              CUPTI_ACTIVITY_KIND_MEMSET}) {  // MEMCPY2: copies between devices (cudaMemcpyPeer, cuMemcpyPeer)
            result = api_->cuptiActivityEnable(kind);
            if (result != CUPTI_SUCCESS) agent_->Note("CUDA activity kind " + std::to_string(kind) + " unavailable: " + api_->Describe(result));
        }
        if (api_->cuptiActivityFlushPeriod) api_->cuptiActivityFlushPeriod(kActivityFlushPeriodMs);
        if (!cpuClock_) Calibrate();
        if (counters_ && method == ReplayMethod::Cupti) {
            zeroTimesNoted_ = true;
            agent_->Note("with -p, CUPTI replays each kernel to collect its counters and its activity records carry no "
                         "kernel times: kernel start and end are 0 in the .atp (trace without -p for the timeline; the "
                         ".csv Time column has each kernel's duration)");
        }
    }
    agent_->AddFinalizer([this] { Finish(); });
    // Without gpaprof's exit hooks (a program that does not let itself be preloaded), atexit is the last
    // chance: registered now, after CUPTI was loaded, it runs before CUPTI's own static objects are destroyed.
    std::atexit([] {
        if (CudaPart* part = CudaPart::Get()) part->Finish();
    });
    InstallCrashHandlers();
    return true;
}

void CudaPart::StartSetupAhead(CUpti_CallbackDomain domain, CUpti_CallbackId cbid) {
    // Not from cuInit's own callback: the driver is still starting there.
    if (domain == CUPTI_CB_DOMAIN_DRIVER_API && cbid == CUPTI_DRIVER_TRACE_CBID_cuInit) return;
    if (!setupAheadPending_.exchange(false)) return;
    Internal internal;
    const gpa::cuda::DriverApi* driver = nullptr;
    const gpa::cuda::CuptiApi* cupti = nullptr;
    CUdevice device = 0;
    std::string chip;
    // The chip is asked for here, on the application's thread: the set-up thread then needs CUPTI's host API alone.
    if (!gpa::cuda::LoadDriver(&driver).ok() || !gpa::cuda::LoadCupti(&cupti).ok() ||
        driver->cuDeviceGet(&device, 0) != CUDA_SUCCESS || !gpa::cuda::QueryChipName(*cupti, device, &chip).ok()) {
        return;  // the first profiled launch sets up (and says what is wrong)
    }
    CounterRequest request;
    {
        auto lock = collector_->Lock();
        request = collector_->Request();
    }
    setupAheadDevice_ = device;
    setupAhead_.Start(chip, [this, cupti, chip, request](const std::atomic<bool>& cancel) {
        std::unique_ptr<CounterSetup> setup = MakeCounterSetup(*cupti, chip, {}, request, &cancel);
        // Bound here to the availability of the application's context once it exists, the launch has nothing
        // left to do; asked for before that, the launch binds (and says why not where it cannot).
        if (!setup->usable) return setup;
        if (const std::optional<std::vector<uint8_t>> availability = setupAhead_.AwaitAvailability(); availability && !cancel) {
            std::string why;
            BindToAvailability(*cupti, *availability, setup.get(), &why);
        }
        return setup;
    });
}

void CudaPart::OfferAvailabilityAhead(CUcontext context) {
    if (!setupAhead_.started() || availabilityOffered_.exchange(true)) return;
    Internal internal;
    const gpa::cuda::DriverApi* driver = nullptr;
    const gpa::cuda::CuptiApi* cupti = nullptr;
    if (!gpa::cuda::LoadDriver(&driver).ok() || !gpa::cuda::LoadCupti(&cupti).ok()) return;
    CUdevice device = -1;
    {
        gpa::cuda::ScopedContext current(*driver, context);
        if (!current.outcome().ok() || driver->cuCtxGetDevice(&device) != CUDA_SUCCESS) return;
    }
    if (device == setupAheadDevice_) setupAhead_.OfferAvailability(gpa::cuda::QueryCounterAvailability(*cupti, *driver, context));
}

void CudaPart::HoldWhileExiting() {
    // The process ends while this thread waits. A thread the exiting one waits for (a join in a static
    // destructor) goes on after a while, its dispatches profiled and written one at a time.
    std::unique_lock<std::mutex> lock(exitMutex_);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (exitWait_.wait_until(lock, deadline) != std::cv_status::timeout) {
    }
}

void CudaPart::Finish() {
    Internal internal;
    const bool first = !exiting_.exchange(true);
    if (first) exitingThread_ = Agent::ThreadId();
    // The calls kept in the threads' rings; from now on each call is written as it returns (ApiExit, exiting_).
    if (rawRings_) {
        if (first) rawRings_->StopWriter();
        rawRings_->Drain();
    }
    // Before CUPTI's libraries can be torn down: the set-up thread is in them.
    setupAheadPending_ = false;
    setupAhead_.Stop();
    if (collector_) {
        auto lock = collector_->Lock();
        if (first) collector_->EnterExitMode();
        collector_->FlushAll();
        if (first && std::getenv("GPAPROF_CUDA_STATS")) {
            const CounterCollector::Statistics s = collector_->statistics();
            std::fprintf(stderr,
                         "gpaprof: CUDA counter statistics: %llu kernels (%llu replayed by gpaprof, %llu by CUPTI's "
                         "kernel replay; %llu CUDA graph launches deferred), %llu configurations, %llu passes "
                         "started; in the launches (save, replay passes, restore) %.3f ms, "
                         "configure %.3f ms, start %.3f ms, stop %.3f ms, decode %.3f ms, evaluate %.3f ms in total; "
                         "set-up %.3f ms (catalog and counters %.3f, plans %.3f%s, waited for them %.3f, bound to the "
                         "device %.3f, the device's profiler %.3f); of the batch replays: restoring %.3f ms, L2 flushes "
                         "%.3f ms, launches %.3f ms\n",
                         static_cast<unsigned long long>(s.kernels), static_cast<unsigned long long>(s.ownReplayed),
                         static_cast<unsigned long long>(s.cuptiReplayed),
                         static_cast<unsigned long long>(s.graphLaunchesDeferred),
                         static_cast<unsigned long long>(s.configurations), static_cast<unsigned long long>(s.starts),
                         s.launchNs / 1e6, s.configureNs / 1e6, s.startNs / 1e6, s.stopNs / 1e6, s.decodeNs / 1e6,
                         s.evaluateNs / 1e6, s.setupNs / 1e6, s.catalogNs / 1e6, s.planNs / 1e6,
                         s.madeAhead ? " made ahead on a thread of their own" : "", s.aheadWaitNs / 1e6, s.bindNs / 1e6,
                         s.profilerNs / 1e6, s.restoreNs / 1e6, s.flushNs / 1e6, s.relaunchNs / 1e6);
            {
                auto profilerLock = gpa::cuda::RangeProfiler::Lock();
                const gpa::cuda::RangeProfiler::StepTimes t = gpa::cuda::RangeProfiler::ProcessStepTimes();
                std::fprintf(stderr,
                             "gpaprof: CUDA profiler steps: %llu empty counter data images %.3f ms (the largest %.1f MB), "
                             "%llu sessions begun %.3f ms, gone on %.3f ms, ended %.3f ms\n",
                             static_cast<unsigned long long>(t.emptyImages), t.emptyImageNs / 1e6, t.largestImageBytes / 1e6,
                             static_cast<unsigned long long>(t.sessionsBegun), t.sessionBeginNs / 1e6,
                             t.sessionRestartNs / 1e6, t.sessionEndNs / 1e6);
            }
            if (replayer_) {
                const LaunchReplayer::Statistics r = replayer_->statistics();
                std::fprintf(stderr,
                             "gpaprof: CUDA replay statistics: %llu dispatches kept for %llu batch replays (%.1f MiB "
                             "each on average), %llu dispatches replayed one at a time, %llu restores, %llu launches "
                             "issued again, %.1f MiB of shadow copies, %.3f ms waiting, looking up and saving; %zu "
                             "allocations tracked at exit\n",
                             static_cast<unsigned long long>(r.snapshots), static_cast<unsigned long long>(r.batches),
                             r.snapshots ? r.snapshotBytes / 1048576.0 / r.snapshots : 0.0,
                             static_cast<unsigned long long>(r.dispatches), static_cast<unsigned long long>(r.restores),
                             static_cast<unsigned long long>(r.relaunches), r.shadowBytes / 1048576.0, r.beginNs / 1e6,
                             memory_->AllocationCount());
            }
        }
    }
    if (first && pmSampling_) {
        pmSampling_->Finish();
        if (std::getenv("GPAPROF_CUDA_STATS")) {
            const PmSamplingRecorder::Statistics s = pmSampling_->statistics();
            std::fprintf(stderr,
                         "gpaprof: PM sampling: %llu samples in %llu decodes, %llu overflows, %llu samples longer than two "
                         "intervals left out, %llu holes, %llu restarts, %llu impossible readings withheld; %.3f ms draining (decode %.3f, "
                         "evaluate %.3f, image initialisation %.3f)\n",
                         static_cast<unsigned long long>(s.samples), static_cast<unsigned long long>(s.decodes),
                         static_cast<unsigned long long>(s.overflows), static_cast<unsigned long long>(s.longDropped),
                         static_cast<unsigned long long>(s.holes), static_cast<unsigned long long>(s.restarts),
                         static_cast<unsigned long long>(s.withheld),
                         s.drainNs / 1e6, s.decodeNs / 1e6, s.evaluateNs / 1e6, s.initializeNs / 1e6);
            std::fprintf(stderr, "gpaprof: PM sampling start: the application waited %.3f ms; %s\n", s.waitedNs / 1e6,
                         s.startSteps.c_str());
        }
    }
    // No periodic flush from now on: one that CUPTI's thread began after the last flush below would be cut off by
    // the process's end, half its records written (the exiting thread's flushes are the last).
    if (first && trace_ && api_->cuptiActivityFlushPeriod) api_->cuptiActivityFlushPeriod(0);
    // Later calls flush CUPTI's activity only when there can be something new: by then CUPTI may be
    // tearing down.
    if (trace_ && (first || unflushedEnqueues_.load())) FlushActivity();
    if (first && trace_) {
        // Work the application did not wait for may still run: its records come once it completes. Waiting
        // for it, not for the contexts (a kernel that never ends must not keep the process alive).
        // Up to 2 s, and no longer than 200 ms without a record coming (some commands are never reported).
        size_t pending = PendingEnqueues();
        for (int waited = 0, still = 0; pending > 0 && waited < 2000 && still < 200; ++waited) {
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
            FlushActivity();
            const size_t now = PendingEnqueues();
            still = now < pending ? 0 : still + 1;
            pending = now;
        }
        if (pending > 0) {
            agent_->Note(std::to_string(pending) + " CUDA command(s) of the application had no activity record from CUPTI "
                         "when the process began to end (still running, or not reported): they have no device times "
                         "in the .atp");
        }
        size_t dropped = 0;
        if (api_->cuptiActivityGetNumDroppedRecords(nullptr, 0, &dropped) == CUPTI_SUCCESS && dropped > 0) {
            agent_->Note(std::to_string(dropped) + " CUDA activity records were dropped by CUPTI; the kernel timestamps "
                         "section misses them");
        }
    }
    if (first && costs_.enabled()) {
        // After the last flush: the activity buffers' processing is in the summary.
        std::fprintf(stderr, "gpaprof: CUDA callback costs: %s; %llu activity records\n", costs_.Summary().c_str(),
                     static_cast<unsigned long long>(activityRecords_.load()));
        std::fprintf(stderr, "gpaprof: CUDA joins: %s\n", joinMisses_.Summary().c_str());
        if (rawRings_) {
            std::fprintf(stderr, "gpaprof: CUDA call rings: %llu calls kept, %llu written by their threads, %zu rings\n",
                         static_cast<unsigned long long>(rawRings_->pushed()),
                         static_cast<unsigned long long>(rawRings_->refused()), rawRings_->rings());
        }
        // The driver calls made outside any runtime call, most frequent first: what CalledByRuntime decides.
        std::vector<std::pair<uint32_t, uint32_t>> outside;
        for (uint32_t cbid = 0; cbid < runtimeCallers_.size(); ++cbid) {
            if (const uint32_t calls = runtimeCallers_[cbid].calls.load()) outside.emplace_back(calls, cbid);
        }
        std::sort(outside.rbegin(), outside.rend());
        std::string line;
        for (size_t i = 0; i < outside.size() && i < 5; ++i) {
            const CudaApiInfo* info = FindApi(CudaDomain::Driver, outside[i].second);
            line += (line.empty() ? "" : ", ") + std::string(info ? info->name : "?") + " " + std::to_string(outside[i].first);
        }
        if (!line.empty()) std::fprintf(stderr, "gpaprof: CUDA driver calls outside runtime calls: %s\n", line.c_str());
    }
}

}  // namespace gpaprof::cuda::injection
