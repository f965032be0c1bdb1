// libgpaprof_cuda_injection.so: gpaprof's way into a CUDA application. gpaprof names this library in
// CUDA_INJECTION64_PATH; the CUDA driver loads it in cuInit and calls InitializeInjection, which subscribes to
// CUPTI's callbacks (every runtime and driver call, context creation and destruction) and, for -t, its
// activity records (kernels, copies and sets with their device times).
//
//   -t  every runtime call, and every driver call the application makes itself (driver calls the runtime
//       makes on its behalf belong to the runtime call), with arguments and return value; kernels, copies
//       and sets with device times mapped onto the CPU clock; every kernel, from every thread, stream and
//       graph, in the kernel timestamp section; NVTX push/pop ranges and gpaprof's marker API as perf markers
//   -p  one .csv row per kernel launch, counters collected by CUPTI's range profiler; passes run by gpaprof's
//       own replay (launch_replayer.h, with what device_memory_map.h tracks) or CUPTI's kernel replay
//       (counter_collector.h)
//   -O  theoretical occupancy per launch (cuda_occupancy.h), cross-checked with the driver's calculator
//
// Everything goes through the shared agent (libgpaprof_agent.so): call numbering, dispatch order, filters,
// the spool, the end of the process.
//
// Past 600 lines on purpose: CudaPart is the one object CUPTI calls back into (API entries and exits, resources,
// activity buffers, the end of the process, crashes), and the ordering rules between those callbacks (open
// calls per thread, the replay gate, exit mode, enqueues waiting for their activity records) live in its
// private state; the parts that need none of it are apart (arguments, records, occupancy, the collector, the
// replayer, the flush, the callback costs).
#include <cuda.h>
#include <cupti_activity.h>
#include <cupti_callbacks.h>
#include <cupti_driver_cbid.h>
#include <cupti_runtime_cbid.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <memory_resource>
#include <optional>
#include <shared_mutex>
#include <sstream>
#include <string>
#include <system_error>
#include <thread>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <dlfcn.h>
#include <execinfo.h>
#include <unistd.h>

#include "backends/cuda/cuda_driver_loader.h"
#include "backends/cuda/device_identity.h"
#include "backends/cuda/range_profiler.h"
#include "tools/gpaprof/agent/agent.h"
#include "tools/gpaprof/agent/late_thread_local.h"
#include "tools/gpaprof/cuda/arg_format.h"
#include "tools/gpaprof/cuda/callback_costs.h"
#include "tools/gpaprof/cuda/caller_frames.h"
#include "tools/gpaprof/cuda/correlation_ids.h"
#include "tools/gpaprof/cuda/correlation_table.h"
#include "tools/gpaprof/cuda/counter_collector.h"
#include "tools/gpaprof/cuda/cuda_api_table.h"
#include "tools/gpaprof/cuda/cuda_occupancy.h"
#include "tools/gpaprof/cuda/cuda_records.h"
#include "tools/gpaprof/cuda/cubin_globals.h"
#include "tools/gpaprof/cuda/cupti_tracing_api.h"
#include "tools/gpaprof/cuda/device_memory_map.h"
#include "tools/gpaprof/cuda/launch_replayer.h"
#include "tools/gpaprof/cuda/raw_call_line.h"
#include "tools/gpaprof/cuda/memory_calls.h"
#include "tools/gpaprof/cuda/replay_windows.h"

namespace gpaprof::cuda {
namespace {

using agent::Agent;

// The activity buffers handed to CUPTI: 8 MiB (about 38,000 kernel records) unless GPAPROF_CUDA_ACTIVITY_BUFFER_MB
// says otherwise (1 to 1024). CUPTI hands a buffer back when it is full or flushed.
size_t ActivityBufferSize() {
    static const size_t size = [] {
        size_t megabytes = 8;
        if (const char* text = std::getenv("GPAPROF_CUDA_ACTIVITY_BUFFER_MB"); text && *text) {
            megabytes = static_cast<size_t>(std::clamp(std::strtol(text, nullptr, 10), 1l, 1024l));
        }
        return megabytes << 20;
    }();
    return size;
}
constexpr uint32_t kActivityFlushPeriodMs = 100;  // bounds what a crash or kill -9 can lose
// Kernels whose counter ranges are decoded together: each decode costs a new CUPTI configuration and start
// (about 0.15 s on an H200 for the GPA compute set), so rows are written in batches; at exit, context
// teardown and crashes the batch in progress is decoded (GPAPROF_CUDA_COUNTER_BATCH changes the size).
constexpr uint32_t kDefaultCounterBatch = 64;
// With own replay a batch costs one configuration and no pass of its own: larger batches cost less.
constexpr uint32_t kDefaultOwnReplayBatch = 256;
constexpr const char* kCpuClockKey = "";           // device times CUPTI already gives on gpaprof's clock

// The fields CUPTI's copy and set records share (the two record types have no common base).
template <typename Record>
TransferActivity TransferOf(const Record& record) {
    TransferActivity transfer;
    transfer.bytes = record.bytes;
    transfer.start = record.start;
    transfer.end = record.end;
    transfer.deviceId = record.deviceId;
    transfer.contextId = record.contextId;
    transfer.streamId = record.streamId;
    transfer.correlationId = record.correlationId;
    return transfer;
}
constexpr const char* kCuptiClockKey = "cupti";    // device times on CUPTI's own clock, calibrated

// ---------------------------------------------------------------------------------------------------------
// Per-thread state of the calls in progress.

// A kernel launch whose counters are collected, from its entry to its exit.
struct ProfiledLaunch {
    CUcontext context = nullptr;
    std::unique_lock<std::mutex> counterLock;
    DispatchRow row;
};

struct OpenCall {
    CudaDomain domain = CudaDomain::Runtime;
    uint32_t cbid = 0;
    CudaApiClass apiClass = CudaApiClass::Other;
    bool traced = false;                     // a call of the application (not one the runtime made for it)
    std::optional<uint64_t> index;           // CallIndex
    bool record = false;                     // its API trace record is written
    uint64_t start = 0;
    uint32_t correlationId = 0;
    CorrelationIds correlations;             // ids registered for its device work
    // A kernel launch that is profiled (-p); apart, so that the other calls stay small to move.
    std::unique_ptr<ProfiledLaunch> dispatch;
    // Held while a call that may write device memory runs, so that it waits for a replay in progress.
    std::shared_lock<std::shared_mutex> gate;
};

// The calls in progress on this thread: used by callbacks during thread and process teardown, hence not a
// thread_local (late_thread_local.h says why).
agent::LateThreadLocal<std::vector<OpenCall>> g_openCalls;
std::vector<OpenCall>& OpenCalls() { return g_openCalls.Get(); }
// What writing a call's record takes, kept per thread so that a traced call allocates nothing once the
// buffers have grown (a thread_local would be gone in the callbacks at exit: late_thread_local.h).
struct CallScratch {
    ArgList args;
    std::vector<std::string_view> views;
    std::string returnValue;
    std::string line;
};
agent::LateThreadLocal<CallScratch> g_callScratch;
thread_local int t_internal = 0;  // > 0 while gpaprof itself calls CUDA: its calls are not the application's
thread_local bool t_profilingLaunch = false;  // between a profiled launch's entry and exit on this thread

// Driver calls that release memory a deferred replay may still restore.
bool FreesReplayedMemory(uint32_t cbid) {
    switch (cbid) {
        case CUPTI_DRIVER_TRACE_CBID_cuMemFree_v2:
        case CUPTI_DRIVER_TRACE_CBID_cuMemFreeAsync:
        case CUPTI_DRIVER_TRACE_CBID_cuMemFreeAsync_ptsz:
        case CUPTI_DRIVER_TRACE_CBID_cuModuleUnload:
        case CUPTI_DRIVER_TRACE_CBID_cuLibraryUnload:
            return true;
        default:
            return false;
    }
}

bool ThreadHoldsGate() {
    for (const OpenCall& call : OpenCalls()) {
        if (call.gate.owns_lock()) return true;
    }
    return false;
}

class Internal {
public:
    Internal() { ++t_internal; }
    ~Internal() { --t_internal; }
    Internal(const Internal&) = delete;
    Internal& operator=(const Internal&) = delete;
};

// What gpaprof knows about a kernel function.
struct FunctionInfo {
    CUfunction function = nullptr;  // the function its attributes come from
    std::string name;
    uint32_t id = 0;
    KernelResources resources;
    bool resourcesKnown = false;
};

struct DeviceInfo {
    uint32_t ordinal = 0;
    std::string name;
    SmLimits limits;
};

// What an enqueue call registers for the activity record of its device work.
struct PendingEnqueue {
    EnqueueInfo info;
    CudaApiClass apiClass = CudaApiClass::Other;
    CorrelationIds ids;  // every correlation id that leads here (the runtime call's and the driver's)
    // A kernel launch: its kernel's (mangled) name, hashed; 0 when the callback did not name it. Under the range
    // profiler the driver runs kernels of its own (WaitNs) for a launch, with the launch's correlation id.
    uint64_t kernelNameHash = 0;
};

uint64_t NameHash(const char* name) {
    uint64_t hash = 14695981039346656037ull;  // FNV-1a
    for (; name && *name; ++name) hash = (hash ^ static_cast<unsigned char>(*name)) * 1099511628211ull;
    return hash;
}

class CudaPart {
public:
    static CudaPart* Get() { return instance_; }
    static bool Start(std::string* problem);

    void OnCallback(CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void* data);
    void OnBufferCompleted(uint8_t* buffer, size_t validSize);
    // At every point the process may end from: the exit hooks gpaprof preloads (return from main, exit(),
    // _exit(), quick_exit(): before any thread_local or static object is destroyed), and atexit. The first
    // call writes everything pending and switches to exit mode: each later dispatch is written as it is
    // launched (static destructors still launch kernels), and other threads' launches wait (a thread still
    // launching must not profile while the process tears CUPTI down). Later calls write what came since.
    void Finish();
    void FlushActivity();
    // From a crash handler: what CUPTI still holds (activity, undecoded counter ranges), best effort.
    void FlushForCrash();

private:
    CudaPart(Agent* agent, const TracingApi* api) : agent_(agent), api_(api) {}
    bool Initialize(std::string* problem);

    void ApiEnter(CudaDomain domain, uint32_t cbid, const CUpti_CallbackData* data);
    void ApiExit(CudaDomain domain, uint32_t cbid, const CUpti_CallbackData* data);
    // What follows a call's record: device times handed over while the process ends, the caller (--sym).
    void AfterCallRecord(const OpenCall& call, std::string_view name, const CUpti_CallbackData* data, uint64_t threadId,
                         uint64_t index);
    void LaunchEnter(OpenCall* call, uint32_t cbid, const CUpti_CallbackData* data);
    void LaunchExit(OpenCall* call, bool launched);
    void OnResource(CUpti_CallbackId cbid, const CUpti_ResourceData* data);
    // Module loads and unloads (also while gpaprof itself calls CUDA: its calls may load modules lazily).
    void OnModule(CUpti_CallbackId cbid, const CUpti_ResourceData* data);
    // Whether a driver call may write device memory while a replay restores it.
    bool WritesDeviceMemory(uint32_t driverCbid, CudaApiClass apiClass) const;

    bool Excluded(const CudaApiInfo& info);
    // Whether a driver call outside any runtime call comes from the CUDA runtime. Finding out takes a stack
    // walk (several microseconds); a function the runtime (or the application) called 32 times in a row is
    // taken to be the runtime's (the application's) without one, and checked again every 16th call, doubling
    // the interval every 32 checks that agree, up to every 1024th.
    bool CalledByRuntime(uint32_t driverCbid);
    // The runtime calls cuKernelGetName before every launch, outside any runtime call: once the stack walks gave
    // that many calls in a row to the runtime, gpaprof stops subscribing to it (two callbacks a launch, about
    // 0.4 us of CUPTI's and gpaprof's, docs/benchmarks.md). An application's own later calls of it go untraced.
    static constexpr uint32_t kStopListeningAfter = 32;
    void StopListening(CUpti_CallbackDomain domain, CUpti_CallbackId cbid);
    std::atomic<uint32_t> stoppedListening_{0};
    // The driver functions given up, by callback id: a call of one may see its entry and never its exit (the
    // subscription ends in between, from another thread), so its open entry is dropped (ApiEnter).
    std::array<std::atomic<bool>, kDriverApiTypeBase> givenUp_{};
    bool GivenUp(const OpenCall& call) const {
        return call.domain == CudaDomain::Driver && call.cbid < givenUp_.size() &&
               givenUp_[call.cbid].load(std::memory_order_relaxed);
    }
    OpenCall* InnermostTraced();
    // `ownerCorrelationId`: the owner's own id as well, when the command is registered from a call nested in it.
    void RegisterEnqueue(OpenCall* owner, uint32_t correlationId, std::optional<uint64_t> stream, CUcontext context,
                         uint64_t kernelHandle, const char* kernelName = nullptr, uint32_t ownerCorrelationId = 0);
    void ForgetEnqueue(const OpenCall& call);
    // The call a device command belongs to, taken (one command per call); with `apiClass`, only a call of
    // that class (a copy gpaprof made inside the application's launch call has that call's id).
    // A copy: the command itself is freed here, under the lock.
    std::optional<PendingEnqueue> TakeEnqueue(uint32_t correlationId, std::optional<CudaApiClass> apiClass = {});
    // Commands of the application whose activity record has not come yet.
    size_t PendingEnqueues();

    void RecordDevices();
    DeviceInfo* DeviceOf(CUcontext context);
    std::string DeviceName(uint32_t ordinal);
    FunctionInfo FunctionFor(CUfunction function, const char* symbolName);
    // The spool lines of one activity record appended to `lines`; `devices` names the devices seen in its buffer.
    struct DeviceNames {
        uint32_t ordinal = UINT32_MAX;
        std::string name;
    };
    void OnKernelRecord(const CUpti_ActivityKernel10& record, DeviceNames* devices, std::string* lines);
    void OnTransferRecord(const TransferActivity& transfer, DeviceNames* devices, std::string* lines);
    const std::string& CachedDeviceName(uint32_t ordinal, DeviceNames* devices) {
        if (devices->ordinal != ordinal) {
            devices->name = DeviceName(ordinal);
            devices->ordinal = ordinal;
        }
        return devices->name;
    }
    void Calibrate();
    const char* ClockKey() const { return cpuClock_ ? kCpuClockKey : kCuptiClockKey; }

    static CudaPart* instance_;
    Agent* agent_;
    const TracingApi* api_;
    const gpa::cuda::DriverApi* driver_ = nullptr;
    CUpti_SubscriberHandle subscriber_ = nullptr;
    bool trace_ = false, counters_ = false, occupancy_ = false, symbols_ = false;
    bool cpuClock_ = false;
    // GPAPROF_CUDA_DIAG (for the trace-overhead benchmark): "empty-callbacks" subscribes and enables activity
    // but returns from every callback at once; "no-activity" traces calls without activity records.
    bool diagEmptyCallbacks_ = false, diagNoActivity_ = false;
    bool debugRecords_ = false;  // GPAPROF_CUDA_DEBUG=records: every activity record left out, and why
    CallbackCosts costs_;        // GPAPROF_CUDA_STATS: where the callbacks' time goes
    std::unique_ptr<CounterCollector> collector_;
    // -p: the counter set-up of device 0's chip, made on a thread of its own from the first CUDA call after cuInit
    // on (GPAPROF_CUDA_SETUP_AHEAD=0: at the first profiled launch, as before).
    CounterSetupAhead setupAhead_;
    std::atomic<bool> setupAheadPending_{false};
    CUdevice setupAheadDevice_ = 0;
    std::atomic<bool> availabilityOffered_{false};
    void StartSetupAhead(CUpti_CallbackDomain domain, CUpti_CallbackId cbid);
    // The first context on the set-up's device: its counter availability for the set-up thread to bind to.
    void OfferAvailabilityAhead(CUcontext context);
    std::unique_ptr<DeviceMemoryMap> memory_;       // own replay: what kernels can write
    std::unique_ptr<LaunchReplayer> replayer_;      // own replay of multi-pass counter sets
    CallerLocator callers_;

    std::array<std::atomic<uint8_t>, 2 * kDriverApiTypeBase> excluded_{};  // 0 unknown, 1 traced, 2 excluded
    // By API type: the size of the parameter struct of a call written as a raw call line (raw_call_line.h), -1
    // for a call written as an 'A' line. GPAPROF_CUDA_RAW_CALLS=0 writes every call as an 'A' line.
    std::array<int16_t, 2 * kDriverApiTypeBase> rawParamsSizes_{};
    struct RuntimeStreak {
        std::atomic<uint32_t> streak{0};     // consecutive calls the stack walk gave to the runtime
        std::atomic<uint32_t> appStreak{0};  // ... to the application
        std::atomic<uint32_t> calls{0};
    };
    std::array<RuntimeStreak, kDriverApiTypeBase> runtimeCallers_{};

    std::mutex mutex_;  // devices and functions
    bool devicesRecorded_ = false;
    std::unordered_map<uint32_t, DeviceInfo> devices_;
    std::unordered_map<CUfunction, FunctionInfo> functions_;
    uint32_t nextKernelId_ = 1;
    std::map<std::tuple<CUfunction, uint64_t, uint64_t>, int> driverBlocks_;  // cuOccupancy... answers
    std::vector<std::string> occupancyNotes_;

    std::mutex enqueueMutex_;
    // The launches, copies and sets waiting for their activity records (which come a buffer, tens of thousands, at
    // a time), by every correlation id that leads to them. Each is made in memory of its own and freed when its
    // record takes it or its call fails, under enqueueMutex_ only: the activity thread frees what the
    // application's threads made, and through malloc each such free took the lock of the application thread's
    // arena, about once per launch.
    std::pmr::unsynchronized_pool_resource enqueuePool_;
    CorrelationTable<PendingEnqueue> enqueues_;
    PendingEnqueue* NewPending() {
        return std::pmr::polymorphic_allocator<PendingEnqueue>(&enqueuePool_).new_object<PendingEnqueue>();
    }
    void DeletePending(PendingEnqueue* pending) {
        std::pmr::polymorphic_allocator<PendingEnqueue>(&enqueuePool_).delete_object(pending);
    }
    std::unordered_set<uint32_t> replayedKernels_;  // -t with -p: launches already reported
    ReplayWindows replayWindows_;                   // -t with own replay: when gpaprof ran kernels of its own
    uint64_t ActivityNow() const {
        uint64_t now = 0;
        if (cpuClock_) return Agent::Now();
        return api_->cuptiGetTimestamp(&now) == CUPTI_SUCCESS ? now : 0;
    }
    std::atomic<bool> zeroTimesNoted_{false};
    // Exit mode (Finish): the thread that began it, and what other threads' launches wait on.
    std::atomic<bool> exiting_{false};
    std::atomic<uint64_t> exitingThread_{0};
    std::mutex exitMutex_;
    std::condition_variable exitWait_;
    void HoldWhileExiting();
    std::atomic<uint64_t> unflushedEnqueues_{0};  // device work enqueued since CUPTI's activity was last flushed
    std::atomic<uint64_t> activityRecords_{0};    // handed over by CUPTI (for GPAPROF_CUDA_STATS)
};

CudaPart* CudaPart::instance_ = nullptr;

// ---------------------------------------------------------------------------------------------------------
// CUPTI entry points.

void CUPTIAPI Callback(void*, CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void* data) {
    if (t_internal > 0) {
        // gpaprof's own calls are not traced, but modules they load lazily are needed. (-t tells the kernels
        // gpaprof launches apart by their streams and contexts: LaunchReplayer::OwnsActivity.)
        if (domain == CUPTI_CB_DOMAIN_RESOURCE &&
            (cbid == CUPTI_CBID_RESOURCE_MODULE_LOADED || cbid == CUPTI_CBID_RESOURCE_MODULE_UNLOAD_STARTING)) {
            if (CudaPart* part = CudaPart::Get()) part->OnCallback(domain, cbid, data);
        }
        return;
    }
    if (CudaPart* part = CudaPart::Get()) part->OnCallback(domain, cbid, data);
}

void CUPTIAPI BufferRequested(uint8_t** buffer, size_t* size, size_t* maxNumRecords) {
    *buffer = static_cast<uint8_t*>(std::aligned_alloc(8, ActivityBufferSize()));
    *size = *buffer ? ActivityBufferSize() : 0;
    *maxNumRecords = 0;
}

void CUPTIAPI BufferCompleted(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t validSize) {
    if (CudaPart* part = CudaPart::Get()) part->OnBufferCompleted(buffer, validSize);
    std::free(buffer);
}

uint64_t CpuTimestamp() { return Agent::Now(); }

// ---------------------------------------------------------------------------------------------------------
// Crashes: the agent records the signal; before that, hand CUPTI's buffered activity to the spool. CUPTI
// may be in a state where that hangs, so an alarm ends the process with the original signal after 2 s.

struct sigaction g_previous[NSIG];
volatile sig_atomic_t g_crashSignal = 0;
std::atomic<bool> g_flushing{false};
bool g_crashBacktrace = false;
constexpr int kCrashSignals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTERM, SIGINT, SIGQUIT};

void AlarmHandler(int) {
    const int signal = g_crashSignal;
    struct sigaction defaults;
    std::memset(&defaults, 0, sizeof defaults);
    defaults.sa_handler = SIG_DFL;
    sigaction(signal, &defaults, nullptr);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, signal);
    sigprocmask(SIG_UNBLOCK, &set, nullptr);
    raise(signal);
    _exit(128 + signal);
}

void CrashHandler(int signal, siginfo_t* info, void* context) {
    if (g_crashBacktrace) {
        // GPAPROF_CRASH_BACKTRACE=1: where the process was, for reports of crashes under gpaprof.
        void* frames[64];
        const int count = backtrace(frames, 64);
        static const char kHeader[] = "gpaprof: backtrace of the crash:\n";
        if (write(STDERR_FILENO, kHeader, sizeof kHeader - 1) < 0) {}
        backtrace_symbols_fd(frames, count, STDERR_FILENO);
    }
    if (!g_flushing.exchange(true)) {
        g_crashSignal = signal;
        struct sigaction alarmAction;
        std::memset(&alarmAction, 0, sizeof alarmAction);
        alarmAction.sa_handler = AlarmHandler;
        sigaction(SIGALRM, &alarmAction, nullptr);
        alarm(2);
        if (CudaPart* part = CudaPart::Get()) part->FlushForCrash();
        alarm(0);
    }
    // On to the handler before ours: the agent's, which records the signal and goes on to the default.
    struct sigaction previous = g_previous[signal];
    sigaction(signal, &previous, nullptr);
    if ((previous.sa_flags & SA_SIGINFO) && previous.sa_sigaction) {
        previous.sa_sigaction(signal, info, context);
    } else if (previous.sa_handler != SIG_IGN && previous.sa_handler != SIG_DFL && previous.sa_handler) {
        previous.sa_handler(signal);
    } else if (previous.sa_handler == SIG_DFL) {
        const bool fault = (signal == SIGSEGV || signal == SIGBUS || signal == SIGILL || signal == SIGFPE) && info &&
                           info->si_code > 0;
        if (!fault) raise(signal);
    }
}

void InstallCrashHandlers() {
    if (const char* text = std::getenv("GPAPROF_CRASH_BACKTRACE"); text && *text && *text != '0') {
        g_crashBacktrace = true;
        void* frames[2];
        backtrace(frames, 2);  // loads the unwinder now, not inside a signal handler
    }
    struct sigaction action;
    std::memset(&action, 0, sizeof action);
    action.sa_sigaction = CrashHandler;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    for (int signal : kCrashSignals) sigaction(signal, &action, &g_previous[signal]);
}

// ---------------------------------------------------------------------------------------------------------

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
    symbols_ = config.sourceSymbols && config.trace;
    if (const char* diag = std::getenv("GPAPROF_CUDA_DIAG")) {
        diagEmptyCallbacks_ = std::strcmp(diag, "empty-callbacks") == 0;
        diagNoActivity_ = std::strcmp(diag, "no-activity") == 0;
    }
    if (const char* debug = std::getenv("GPAPROF_CUDA_DEBUG")) debugRecords_ = std::strstr(debug, "records") != nullptr;
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
        if (method == ReplayMethod::Own) {
            memory_ = std::make_unique<DeviceMemoryMap>();
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
    CUptiResult result = api_->cuptiSubscribe(&subscriber_, reinterpret_cast<CUpti_CallbackFunc>(&Callback), nullptr);
    if (result != CUPTI_SUCCESS) {
        instance_ = nullptr;
        *problem = "cuptiSubscribe failed: " + api_->Describe(result) +
                   (result == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED
                        ? " (another CUPTI tool, such as Nsight Systems or Nsight Compute, is attached; profile with one tool at a time)"
                        : "");
        return false;
    }
    for (CUpti_CallbackDomain domain : {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_CB_DOMAIN_DRIVER_API}) {
        result = api_->cuptiEnableDomain(1, subscriber_, domain);
        if (result != CUPTI_SUCCESS) {
            *problem = "cuptiEnableDomain failed: " + api_->Describe(result);
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
    if (trace_ && !diagNoActivity_) {
        // Device times on gpaprof's clock (CLOCK_MONOTONIC), converted by CUPTI itself; older CUPTIs keep
        // their own clock and gpaprof calibrates it against CLOCK_MONOTONIC.
        cpuClock_ = api_->cuptiActivityRegisterTimestampCallback &&
                    api_->cuptiActivityRegisterTimestampCallback(&CpuTimestamp) == CUPTI_SUCCESS;
        result = api_->cuptiActivityRegisterCallbacks(&BufferRequested, &BufferCompleted);
        if (result != CUPTI_SUCCESS) {
            *problem = "cuptiActivityRegisterCallbacks failed: " + api_->Describe(result);
            return false;
        }
        for (CUpti_ActivityKind kind :
             {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMCPY, CUPTI_ACTIVITY_KIND_MEMSET}) {
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

bool CudaPart::Excluded(const CudaApiInfo& info) {
    if (info.apiType >= excluded_.size()) return agent_->IsExcludedApi(info.name);
    uint8_t known = excluded_[info.apiType].load(std::memory_order_relaxed);
    if (known == 0) {
        known = agent_->IsExcludedApi(info.name) ? 2 : 1;
        excluded_[info.apiType].store(known, std::memory_order_relaxed);
    }
    return known == 2;
}

bool CudaPart::CalledByRuntime(uint32_t driverCbid) {
    if (driverCbid >= runtimeCallers_.size()) return callers_.CalledByCudaRuntime();
    RuntimeStreak& known = runtimeCallers_[driverCbid];
    const uint32_t call = known.calls.fetch_add(1, std::memory_order_relaxed);
    // Checked again every 16th call, and less often the longer the streak (every 1024th at most): the runtime
    // calls cuKernelGetName before every launch, and a stack walk costs microseconds. (A faster ramp, up to
    // every 4096th call, gave 128 of a PyTorch loop's 551 application cuDeviceGetAttribute calls to the runtime.)
    const uint32_t streak = known.streak.load(std::memory_order_relaxed);
    const uint32_t appStreak = known.appStreak.load(std::memory_order_relaxed);
    const uint32_t interval = 16u << std::min<uint32_t>(6, std::max(streak, appStreak) / 32);
    if (call % interval != 0) {
        if (streak >= 32) return true;
        if (appStreak >= 32) return false;  // a driver-API application
    }
    Internal internal;
    CostScope walk(costs_, CostSite::StackWalk);
    const bool runtime = callers_.CalledByCudaRuntime();
    const uint32_t agreeing = (runtime ? known.streak : known.appStreak).fetch_add(1, std::memory_order_relaxed) + 1;
    (runtime ? known.appStreak : known.streak).store(0, std::memory_order_relaxed);
    if (runtime && agreeing == kStopListeningAfter && driverCbid == CUPTI_DRIVER_TRACE_CBID_cuKernelGetName) {
        StopListening(CUPTI_CB_DOMAIN_DRIVER_API, driverCbid);
    }
    return runtime;
}

void CudaPart::StopListening(CUpti_CallbackDomain domain, CUpti_CallbackId cbid) {
    // From a thread of its own: this runs inside one of CUPTI's callbacks, and whether CUPTI lets a callback
    // change the subscription is not documented. The thread waits for any lock CUPTI holds while calling back.
    const TracingApi* api = api_;
    CUpti_SubscriberHandle subscriber = subscriber_;
    if (domain == CUPTI_CB_DOMAIN_DRIVER_API && cbid < givenUp_.size()) givenUp_[cbid] = true;
    try {
        std::thread([api, subscriber, domain, cbid] { api->cuptiEnableCallback(0, subscriber, domain, cbid); }).detach();
        stoppedListening_.fetch_add(1, std::memory_order_relaxed);
    } catch (const std::system_error&) {
        // No thread: the callbacks go on, which costs time and nothing else.
    }
}

OpenCall* CudaPart::InnermostTraced() {
    std::vector<OpenCall>& calls = OpenCalls();
    for (auto it = calls.rbegin(); it != calls.rend(); ++it) {
        if (it->traced) return &*it;
    }
    return nullptr;
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

void CudaPart::OnCallback(CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void* data) {
    if (setupAheadPending_.load(std::memory_order_relaxed)) StartSetupAhead(domain, cbid);
    if (diagEmptyCallbacks_) return;
    if (domain == CUPTI_CB_DOMAIN_RESOURCE) {
        CostScope cost(costs_, CostSite::Resource);
        Internal internal;
        if (cbid == CUPTI_CBID_RESOURCE_MODULE_LOADED || cbid == CUPTI_CBID_RESOURCE_MODULE_UNLOAD_STARTING) {
            OnModule(cbid, static_cast<const CUpti_ResourceData*>(data));
        } else {
            OnResource(cbid, static_cast<const CUpti_ResourceData*>(data));
        }
        return;
    }
    if (domain != CUPTI_CB_DOMAIN_RUNTIME_API && domain != CUPTI_CB_DOMAIN_DRIVER_API) return;
    const auto* callback = static_cast<const CUpti_CallbackData*>(data);
    if (memory_ && domain == CUPTI_CB_DOMAIN_DRIVER_API && callback->callbackSite == CUPTI_API_EXIT && IsMemoryCall(cbid)) {
        int result = 0;
        if (callback->functionReturnValue) std::memcpy(&result, callback->functionReturnValue, sizeof result);
        TrackMemoryCall(memory_.get(), cbid, callback->functionParams, callback->context, result == CUDA_SUCCESS);
    }
    const CudaDomain api = domain == CUPTI_CB_DOMAIN_RUNTIME_API ? CudaDomain::Runtime : CudaDomain::Driver;
    if (callback->callbackSite == CUPTI_API_ENTER) {
        ApiEnter(api, cbid, callback);
    } else {
        ApiExit(api, cbid, callback);
    }
}

void CudaPart::ApiEnter(CudaDomain domain, uint32_t cbid, const CUpti_CallbackData* data) {
    CostScope cost(costs_, CostSite::EnterTraced);
    const CudaApiInfo* info = FindApi(domain, cbid);
    OpenCall call;
    call.domain = domain;
    call.cbid = cbid;
    call.apiClass = info ? info->apiClass : CudaApiClass::Other;
    call.correlationId = data->correlationId;
    // A call made while another is in progress on this thread is the runtime (or the driver) working for
    // the outer call: not traced, but its device work and its kernel belong to the outer call.
    std::vector<OpenCall>& calls = OpenCalls();
    // The entry of a call whose callbacks were given up between its entry and its exit stays open for ever: left
    // there, it made every later call of the thread look nested, and none of them was traced (a given-up function
    // makes no call that gpaprof sees, so an open entry of one on top is such a leftover).
    while (!calls.empty() && GivenUp(calls.back())) calls.pop_back();
    call.traced = calls.empty();
    // The CUDA runtime linked into the application makes driver calls of its own outside any runtime call
    // (while it starts, and cuKernelGetName before each launch): they are the runtime's, not the application's.
    if (!call.traced) cost.Retarget(CostSite::EnterNested);
    if (call.traced && domain == CudaDomain::Driver && CalledByRuntime(cbid)) {
        call.traced = false;
        cost.Retarget(CostSite::EnterRuntimeOwn);
    }
    if (exiting_.load(std::memory_order_relaxed) && call.traced &&
        (call.apiClass == CudaApiClass::KernelLaunch || call.apiClass == CudaApiClass::GraphLaunch) &&
        Agent::ThreadId() != exitingThread_.load(std::memory_order_relaxed)) {
        HoldWhileExiting();
    }
    const bool enqueues = call.apiClass == CudaApiClass::KernelLaunch || call.apiClass == CudaApiClass::Memcpy ||
                          call.apiClass == CudaApiClass::Memset;
    if (call.traced) {
        const agent::CallSlot slot = agent_->BeginCall(agent::Part::Cuda, info ? Excluded(*info) : false);
        call.index = slot.index;
        call.record = slot.record && slot.index && trace_ && info;
    }
    calls.push_back(std::move(call));
    OpenCall& open = calls.back();
    const bool driverLaunch = domain == CudaDomain::Driver && open.apiClass == CudaApiClass::KernelLaunch;
    // A runtime launch is registered once, by the driver launch it makes (LaunchEnter), under both calls' ids:
    // one registration per launch instead of two (each took about 0.3 us, docs/benchmarks.md).
    const bool runtimeLaunch = domain == CudaDomain::Runtime && open.apiClass == CudaApiClass::KernelLaunch;
    if (trace_ && enqueues && !driverLaunch && !runtimeLaunch) {
        if (OpenCall* owner = InnermostTraced(); owner && owner->record) {
            Internal internal;
            RegisterEnqueue(owner, data->correlationId, StreamArgument(domain, cbid, data->functionParams), data->context, 0);
        }
    }
    if (driverLaunch) {
        Internal internal;
        LaunchEnter(&open, cbid, data);
    } else if (open.apiClass == CudaApiClass::GraphLaunch && collector_ && data->context) {
        // Graph kernels are not profiled by kernel replay: finish what is pending first.
        Internal internal;
        auto lock = collector_->Lock();
        collector_->Flush(data->context);
    } else if (replayer_ && domain == CudaDomain::Driver && FreesReplayedMemory(cbid)) {
        // A batch of replayed dispatches puts memory back when it ends: before that memory goes away.
        Internal internal;
        auto lock = collector_->Lock();
        collector_->FlushDeferred();
    }
    // After the collector's lock, never before: a replay holds that lock while it waits for the gate. A free
    // holds it too: the memory map forgets the allocation when the free returns, and until then a snapshot
    // must not read memory that is going away.
    if (replayer_ && domain == CudaDomain::Driver && !driverLaunch &&
        (WritesDeviceMemory(cbid, open.apiClass) || FreesReplayedMemory(cbid))) {
        open.gate = replayer_->ShareGate();
    }
    if (open.traced) open.start = Agent::Now();
}

void CudaPart::ApiExit(CudaDomain domain, uint32_t cbid, const CUpti_CallbackData* data) {
    CostScope cost(costs_, CostSite::ExitNested);
    // The matching entry is the innermost open call of this function.
    std::vector<OpenCall>& calls = OpenCalls();
    auto it = calls.rbegin();
    while (it != calls.rend() && !(it->domain == domain && it->cbid == cbid)) ++it;
    if (it == calls.rend()) return;  // entered before gpaprof subscribed
    const uint64_t end = it->record ? Agent::Now() : 0;  // only a recorded call has an end to write
    OpenCall call = std::move(*it);
    calls.erase(std::next(it).base(), calls.end());

    int returnCode = 0;  // cudaError_t or CUresult; the few runtime functions that return something else are
                         // named below and have no device work
    if (data->functionReturnValue) std::memcpy(&returnCode, data->functionReturnValue, sizeof returnCode);
    if (call.dispatch) {
        Internal internal;
        LaunchExit(&call, returnCode == 0);
    }
    if (returnCode != 0) ForgetEnqueue(call);
    if (!call.record) return;
    cost.Retarget(CostSite::ExitTraced);

    const CudaApiInfo* info = FindApi(domain, cbid);
    const std::string_view name = info ? info->name : std::string_view(data->functionName ? data->functionName : "unknown");
    CallScratch& scratch = g_callScratch.Get();
    const int rawSize = info && info->apiType < rawParamsSizes_.size() ? rawParamsSizes_[info->apiType] : -1;
    if (rawSize == 0 || (rawSize > 0 && data->functionParams)) {
        // Arguments formatted from their bytes alone: the bytes go into the spool, gpaprof formats them.
        RawCallFields raw;
        raw.threadId = Agent::ThreadId();
        raw.index = *call.index;
        raw.apiType = info->apiType;
        raw.returnCode = returnCode;
        raw.start = call.start;
        raw.end = end;
        raw.params = data->functionParams;
        raw.paramsSize = static_cast<size_t>(rawSize);
        {
            CostScope encode(costs_, CostSite::Encode);
            scratch.line.clear();
            EncodeRawCallLine(raw, &scratch.line);
        }
        {
            CostScope append(costs_, CostSite::Append);
            agent_->WriteEncoded(scratch.line);
        }
        AfterCallRecord(call, name, data, raw.threadId, raw.index);
        return;
    }
    ArgContext context;
    context.succeeded = returnCode == 0;
    {
        CostScope arguments(costs_, CostSite::Arguments);
        FormatArguments(domain, cbid, data->functionParams, context, &scratch.args);
    }
    std::string& returnValue = scratch.returnValue;
    if (ReturnsStatusCode(domain, name)) {
        returnValue = StatusText(domain, returnCode);
    } else if (name == "cudaCreateChannelDesc") {
        returnValue = "{...}";  // returns a struct, not an error code
    } else {  // cudaGetErrorName, cudaGetErrorString
        const char* text = nullptr;
        if (data->functionReturnValue) std::memcpy(&text, data->functionReturnValue, sizeof text);
        returnValue = QuotedString(text);
    }
    scratch.views.clear();
    for (size_t i = 0; i < scratch.args.size(); ++i) scratch.views.push_back(scratch.args[i]);
    spool::CallLineFields fields;
    fields.part = "cuda";
    fields.threadId = Agent::ThreadId();
    fields.index = *call.index;
    fields.apiType = ApiType(domain, cbid);
    fields.name = name;
    fields.returnValue = returnValue;
    fields.args = scratch.views.data();
    fields.argCount = scratch.views.size();
    fields.start = call.start;
    fields.end = end;
    {
        CostScope encode(costs_, CostSite::Encode);
        scratch.line.clear();
        spool::EncodeCallLine(fields, &scratch.line);
    }
    {
        CostScope append(costs_, CostSite::Append);
        agent_->WriteEncoded(scratch.line);
    }
    AfterCallRecord(call, name, data, fields.threadId, fields.index);
}

void CudaPart::AfterCallRecord(const OpenCall& call, std::string_view name, const CUpti_CallbackData* data,
                               uint64_t threadId, uint64_t index) {
    // While the process ends, device times are handed over after every call: nothing flushes them later.
    if (exiting_.load(std::memory_order_relaxed) && unflushedEnqueues_.load(std::memory_order_relaxed) > 0) {
        Internal internal;
        FlushActivity();
    }
    if (symbols_) {
        Internal internal;
        // symbolName is valid only in launch callbacks: the kernel, whose host stub is not the caller either.
        const bool launch = call.apiClass == CudaApiClass::KernelLaunch;
        if (std::optional<spool::SourceRecord> source =
                callers_.Locate(std::string(name), launch && data->symbolName ? data->symbolName : "")) {
            source->threadId = threadId;
            source->index = index;
            agent_->Write(*source);
        }
    }
}

void CudaPart::LaunchEnter(OpenCall* call, uint32_t cbid, const CUpti_CallbackData* data) {
    const std::optional<LaunchParameters> launch = KernelLaunchParameters(cbid, data->functionParams);
    if (!launch) return;  // cuLaunch, cuLaunchGrid: deprecated launches without a .csv row
    const CUfunction function = launch->function;
    const uint64_t* grid = launch->grid;
    const uint64_t* block = launch->block;
    const uint64_t dynamicShared = launch->dynamicSharedBytes;
    const CUstream stream = launch->stream;
    const uint64_t executionOrder = agent_->NextExecutionOrder();
    if (trace_) {
        if (OpenCall* owner = InnermostTraced(); owner && owner->record) {
            RegisterEnqueue(owner, data->correlationId, reinterpret_cast<uintptr_t>(stream), data->context,
                            reinterpret_cast<uintptr_t>(function), data->symbolName, owner->correlationId);
        }
    }
    if (t_profilingLaunch) return;
    if (!(counters_ || occupancy_) || !function) {
        if (replayer_) call->gate = replayer_->ShareGate();
        return;
    }
    const FunctionInfo kernel = FunctionFor(function, data->symbolName);
    if (!agent_->ShouldProfileDispatch(kernel.name)) {
        if (collector_ && data->context) {
            auto lock = collector_->Lock();
            collector_->Flush(data->context);  // this kernel runs unprofiled
        }
        if (replayer_) call->gate = replayer_->ShareGate();
        return;
    }
    DeviceInfo* device = DeviceOf(data->context);
    const uint64_t threadId = Agent::ThreadId();
    const uint64_t blockSize = block[0] * block[1] * block[2];
    const uint64_t gridSize = grid[0] * grid[1] * grid[2];
    std::optional<OccupancyResult> occupancy;
    if (device && kernel.resourcesKnown) {
        KernelResources resources = kernel.resources;
        resources.dynamicSharedBytes = dynamicShared;
        occupancy = ComputeCudaOccupancy(threadId, kernel.name, device->limits, resources, {blockSize, gridSize});
        // The driver's own calculator has the last word; a disagreement is reported once per kernel.
        int blocks = -1;
        const auto key = std::make_tuple(function, blockSize, dynamicShared);
        {
            std::lock_guard<std::mutex> lock(mutex_);
            auto known = driverBlocks_.find(key);
            if (known != driverBlocks_.end()) blocks = known->second;
        }
        if (blocks < 0 && api_->cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel.function, static_cast<int>(blockSize),
                                                                             dynamicShared) == CUDA_SUCCESS) {
            std::lock_guard<std::mutex> lock(mutex_);
            driverBlocks_[key] = blocks;
        }
        if (blocks >= 0 && static_cast<uint64_t>(blocks) != occupancy->blocksPerSm && occupancy->row.maxWavesPerComputeUnit &&
            occupancy->row.wavesPerWorkGroup) {
            const std::string note = "occupancy of " + kernel.name + " (block " + std::to_string(blockSize) + "): the model gives " +
                                     std::to_string(occupancy->blocksPerSm) + " blocks per SM, the driver " +
                                     std::to_string(blocks) + "; the .occupancy file uses the driver's";
            bool known = false;
            {
                std::lock_guard<std::mutex> lock(mutex_);
                for (const std::string& seen : occupancyNotes_) known = known || seen == note;
                if (!known) occupancyNotes_.push_back(note);
            }
            if (!known) agent_->Note(note);
            const uint64_t warps = std::min<uint64_t>(static_cast<uint64_t>(blocks) * *occupancy->row.wavesPerWorkGroup,
                                                      *occupancy->row.maxWavesPerComputeUnit);
            occupancy->row.occupancyPercent = 100.0 * static_cast<double>(warps) /
                                              static_cast<double>(*occupancy->row.maxWavesPerComputeUnit);
            occupancy->blocksPerSm = static_cast<uint64_t>(blocks);
        }
        if (occupancy_) agent_->Write(spool::OccupancyRecord{executionOrder, occupancy->row});
    }
    if (!collector_) return;

    DispatchRow row;
    row.method = device ? MethodFor(kernel.name, kernel.id, device->name, device->ordinal)
                        : MethodFor(kernel.name, kernel.id, "CUDA", 0);
    row.executionOrder = executionOrder;
    row.threadId = threadId;
    if (OpenCall* owner = InnermostTraced()) row.callIndex = owner->index;
    row.globalWorkSize = WorkSize::Of({grid[0] * block[0], grid[1] * block[1], grid[2] * block[2]});
    row.workGroupSize = WorkSize::Of({block[0], block[1], block[2]});
    if (kernel.resourcesKnown) {
        row.localMemSize = kernel.resources.staticSharedBytes + dynamicShared;
        row.vgprs = kernel.resources.registersPerThread;
        row.scratchRegs = kernel.resources.localBytesPerThread / 4;
    } else {
        row.localMemSize = dynamicShared;
    }
    if (occupancy) row.kernelOccupancy = occupancy->row.occupancyPercent;
    call->dispatch = std::make_unique<ProfiledLaunch>();
    call->dispatch->context = data->context;
    call->dispatch->row = std::move(row);
    call->dispatch->counterLock = collector_->Lock();
    t_profilingLaunch = true;
    LaunchCall launchCall;
    launchCall.cbid = cbid;
    launchCall.params = data->functionParams;
    launchCall.context = data->context;
    launchCall.function = kernel.function;
    launchCall.threadHoldsGate = ThreadHoldsGate();
    collector_->BeforeLaunch(data->context, launchCall);
}

void CudaPart::LaunchExit(OpenCall* call, bool launched) {
    if (!collector_ || !call->dispatch || !call->dispatch->counterLock.owns_lock()) return;
    collector_->AfterLaunch(call->dispatch->context, launched, std::move(call->dispatch->row));
    t_profilingLaunch = false;
    call->dispatch->counterLock.unlock();
}

void CudaPart::RegisterEnqueue(OpenCall* owner, uint32_t correlationId, std::optional<uint64_t> stream, CUcontext context,
                               uint64_t kernelHandle, const char* kernelName, uint32_t ownerCorrelationId) {
    // The name tells the driver's own kernels from the launch's under the range profiler (-p) only.
    const uint64_t nameHash = counters_ && kernelName && *kernelName ? NameHash(kernelName) : 0;
    CostScope cost(costs_, CostSite::Enqueue);
    std::lock_guard<std::mutex> lock(enqueueMutex_);
    PendingEnqueue* pending = nullptr;
    owner->correlations.ForEach([&](uint32_t id) {
        if (PendingEnqueue* found = enqueues_.Find(id)) pending = found;
    });
    if (!pending) {
        pending = NewPending();
        pending->info.threadId = Agent::ThreadId();
        pending->info.index = *owner->index;
        pending->apiClass = owner->apiClass;
    }
    if (stream) pending->info.streamHandle = *stream;
    if (context) pending->info.contextHandle = reinterpret_cast<uintptr_t>(context);
    if (kernelHandle) pending->info.kernelHandle = kernelHandle;
    if (nameHash) pending->kernelNameHash = nameHash;
    unflushedEnqueues_.fetch_add(1, std::memory_order_relaxed);
    const uint32_t ids[] = {correlationId, ownerCorrelationId};
    for (size_t i = 0; i < (ownerCorrelationId ? 2 : 1); ++i) {
        const uint32_t id = ids[i];
        if (enqueues_.Insert(id, pending)) {  // the owner's id may be the same, or registered already
            pending->ids.push_back(id);
            owner->correlations.push_back(id);
        }
    }
    if (pending->ids.empty()) DeletePending(pending);  // every id was another command's: nothing refers to it
}

void CudaPart::ForgetEnqueue(const OpenCall& call) {
    if (call.correlations.empty()) return;
    std::lock_guard<std::mutex> lock(enqueueMutex_);
    // Every id of a command is its call's: once they are gone, nothing refers to it.
    PendingEnqueue* forgotten[2] = {nullptr, nullptr};
    std::vector<PendingEnqueue*> more;
    call.correlations.ForEach([&](uint32_t id) {
        PendingEnqueue* pending = enqueues_.Erase(id);
        if (!pending || pending == forgotten[0] || pending == forgotten[1]) return;
        if (!forgotten[0]) {
            forgotten[0] = pending;
        } else if (!forgotten[1]) {
            forgotten[1] = pending;
        } else if (std::find(more.begin(), more.end(), pending) == more.end()) {
            more.push_back(pending);
        }
    });
    for (PendingEnqueue* pending : forgotten) {
        if (pending) DeletePending(pending);
    }
    for (PendingEnqueue* pending : more) DeletePending(pending);
}

size_t CudaPart::PendingEnqueues() {
    std::lock_guard<std::mutex> lock(enqueueMutex_);
    std::unordered_set<const PendingEnqueue*> commands;
    enqueues_.ForEach([&](uint32_t, const PendingEnqueue* pending) { commands.insert(pending); });
    return commands.size();
}

std::optional<PendingEnqueue> CudaPart::TakeEnqueue(uint32_t correlationId, std::optional<CudaApiClass> apiClass) {
    std::lock_guard<std::mutex> lock(enqueueMutex_);
    PendingEnqueue* found = enqueues_.Find(correlationId);
    if (!found) return std::nullopt;
    if (apiClass && found->apiClass != *apiClass) return std::nullopt;
    std::optional<PendingEnqueue> pending = std::move(*found);
    pending->ids.ForEach([&](uint32_t id) { enqueues_.Erase(id); });  // one command per call
    DeletePending(found);
    return pending;
}

FunctionInfo CudaPart::FunctionFor(CUfunction function, const char* symbolName) {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        auto found = functions_.find(function);
        if (found != functions_.end()) return found->second;
    }
    FunctionInfo info;
    if (symbolName && *symbolName) {
        info.name = symbolName;
    } else if (const char* name = nullptr; api_->cuFuncGetName && api_->cuFuncGetName(&name, function) == CUDA_SUCCESS && name) {
        info.name = name;
    } else {
        info.name = "kernel_" + HexValue(reinterpret_cast<uintptr_t>(function));
    }
    int registers = 0, sharedBytes = 0, localBytes = 0, maxThreads = 0;
    // A launch may name a CUkernel (a library kernel) instead of a CUfunction: its function in this context.
    CUfunction attributed = function;
    if (api_->cuFuncGetAttribute(&registers, CU_FUNC_ATTRIBUTE_NUM_REGS, function) != CUDA_SUCCESS && api_->cuKernelGetFunction) {
        CUfunction resolved = nullptr;
        if (api_->cuKernelGetFunction(&resolved, reinterpret_cast<CUkernel>(function)) == CUDA_SUCCESS && resolved) {
            attributed = resolved;
        }
    }
    info.function = attributed;
    if (api_->cuFuncGetAttribute(&registers, CU_FUNC_ATTRIBUTE_NUM_REGS, attributed) == CUDA_SUCCESS &&
        api_->cuFuncGetAttribute(&sharedBytes, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, attributed) == CUDA_SUCCESS &&
        api_->cuFuncGetAttribute(&localBytes, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, attributed) == CUDA_SUCCESS &&
        api_->cuFuncGetAttribute(&maxThreads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, attributed) == CUDA_SUCCESS) {
        info.resources.registersPerThread = static_cast<uint64_t>(registers);
        info.resources.staticSharedBytes = static_cast<uint64_t>(sharedBytes);
        info.resources.localBytesPerThread = static_cast<uint64_t>(localBytes);
        info.resources.maxThreadsPerBlock = static_cast<uint64_t>(maxThreads);
        info.resourcesKnown = true;
    }
    std::lock_guard<std::mutex> lock(mutex_);
    auto [it, inserted] = functions_.emplace(function, info);
    if (inserted) it->second.id = nextKernelId_++;
    return it->second;
}

void CudaPart::RecordDevices() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (devicesRecorded_) return;
    devicesRecorded_ = true;
    if (!driver_ && !gpa::cuda::LoadDriver(&driver_).ok()) driver_ = nullptr;
    int count = 0;
    if (api_->cuDeviceGetCount(&count) != CUDA_SUCCESS) return;
    int driverVersion = 0;
    api_->cuDriverGetVersion(&driverVersion);
    std::string kernelDriver;
    {
        std::ifstream in("/proc/driver/nvidia/version");
        std::stringstream text;
        text << in.rdbuf();
        kernelDriver = KernelDriverVersion(text.str());
    }
    if (kernelDriver.empty()) {
        // Where /proc does not say (virtual machines, containers), NVML does; NVML is initialised already
        // when the CUDA backend looked up the PCI device id, and stays loaded.
        if (void* nvml = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL)) {
            using Init = int (*)();
            using DriverVersion = int (*)(char*, unsigned int);
            Init init = nullptr;
            DriverVersion version = nullptr;
            void* initSymbol = dlsym(nvml, "nvmlInit_v2");
            void* versionSymbol = dlsym(nvml, "nvmlSystemGetDriverVersion");
            std::memcpy(&init, &initSymbol, sizeof init);
            std::memcpy(&version, &versionSymbol, sizeof version);
            char text[96] = "";
            if (init && version && init() == 0 && version(text, sizeof text) == 0) kernelDriver = text;
        }
    }
    for (int ordinal = 0; ordinal < count; ++ordinal) {
        CUdevice device = 0;
        if (api_->cuDeviceGet(&device, ordinal) != CUDA_SUCCESS) continue;
        DeviceInfo info;
        info.ordinal = static_cast<uint32_t>(ordinal);
        char name[256] = "";
        api_->cuDeviceGetName(name, sizeof name, device);
        info.name = name;
        auto attribute = [&](CUdevice_attribute which) -> uint64_t {
            int value = 0;
            return api_->cuDeviceGetAttribute(&value, which, device) == CUDA_SUCCESS && value > 0 ? static_cast<uint64_t>(value) : 0;
        };
        SmLimits& limits = info.limits;
        limits.deviceName = info.name;
        limits.computeMajor = static_cast<uint32_t>(attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR));
        limits.computeMinor = static_cast<uint32_t>(attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR));
        limits.smCount = attribute(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
        limits.warpSize = attribute(CU_DEVICE_ATTRIBUTE_WARP_SIZE);
        limits.maxThreadsPerSm = attribute(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR);
        limits.maxBlocksPerSm = attribute(CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR);
        limits.registersPerSm = attribute(CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR);
        limits.registersPerBlock = attribute(CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK);
        limits.sharedMemoryPerSm = attribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR);
        limits.reservedSharedMemoryPerBlock = attribute(CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK);
        limits.maxThreadsPerBlock = attribute(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
        DeviceFacts facts;
        facts.ordinal = info.ordinal;
        facts.name = info.name;
        facts.driverApiVersion = driverVersion;
        facts.kernelDriverVersion = kernelDriver;
        if (driver_) facts.pciDeviceId = gpa::cuda::PciDeviceId(*driver_, device);
        agent_->Write(spool::DeviceRecord{"cuda:" + std::to_string(ordinal), MakeDeviceHeader(facts)});
        devices_[info.ordinal] = std::move(info);
    }
}

DeviceInfo* CudaPart::DeviceOf(CUcontext context) {
    RecordDevices();
    CUdevice device = 0;
    if (!context || api_->cuCtxGetDevice(&device) != CUDA_SUCCESS) return nullptr;
    std::lock_guard<std::mutex> lock(mutex_);
    auto found = devices_.find(static_cast<uint32_t>(device));
    return found == devices_.end() ? nullptr : &found->second;
}

std::string CudaPart::DeviceName(uint32_t ordinal) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto found = devices_.find(ordinal);
    return found == devices_.end() ? "CUDA device " + std::to_string(ordinal) : found->second.name;
}

bool CudaPart::WritesDeviceMemory(uint32_t driverCbid, CudaApiClass apiClass) const {
    if (apiClass == CudaApiClass::Memcpy || apiClass == CudaApiClass::Memset || apiClass == CudaApiClass::GraphLaunch) {
        return true;
    }
    const CudaApiInfo* info = FindApi(CudaDomain::Driver, driverCbid);
    if (!info) return false;
    return info->name.rfind("cuStreamWriteValue", 0) == 0 || info->name.rfind("cuStreamBatchMemOp", 0) == 0 ||
           info->name.rfind("cuMemPrefetch", 0) == 0;
}

void CudaPart::OnModule(CUpti_CallbackId cbid, const CUpti_ResourceData* data) {
    if (!memory_ || !data || !data->resourceDescriptor) return;
    const auto* module = static_cast<const CUpti_ModuleResourceData*>(data->resourceDescriptor);
    CUcontext context = data->context;
    if (!context) api_->cuCtxGetCurrent(&context);
    if (cbid == CUPTI_CBID_RESOURCE_MODULE_UNLOAD_STARTING) {
        memory_->CubinUnloaded(context, module->moduleId);
        return;
    }
    std::string problem;
    std::optional<std::vector<CubinDataSection>> sections =
        ReadCubinDataSections(module->pCubin, module->cubinSize, &problem);
    if (!sections) {
        // Its variables cannot be found: a placeholder section that is never placed makes replays of this
        // context fall back, rather than leave them unsaved.
        agent_->Note("the cubin of CUDA module " + std::to_string(module->moduleId) + " could not be read (" + problem +
                     "): counters needing several passes fall back to CUPTI's kernel replay");
        sections = std::vector<CubinDataSection>{CubinDataSection{".nv.global (unreadable cubin)", 1, {}}};
    }
    memory_->CubinLoaded(context, module->moduleId, std::move(*sections));
}

void CudaPart::OnResource(CUpti_CallbackId cbid, const CUpti_ResourceData* data) {
    if (cbid == CUPTI_CBID_RESOURCE_CONTEXT_CREATED) {
        RecordDevices();
        if (collector_) OfferAvailabilityAhead(data->context);
    } else if (cbid == CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING) {
        if (collector_) {
            auto lock = collector_->Lock();
            collector_->ForgetContext(data->context);
            if (replayer_) replayer_->ContextDestroyed(data->context);
            if (memory_) memory_->ContextDestroyed(data->context);
        }
        if (trace_) FlushActivity();
    }
}

void CudaPart::Calibrate() {
    uint64_t deviceTime = 0;
    const uint64_t before = Agent::Now();
    if (api_->cuptiGetTimestamp(&deviceTime) != CUPTI_SUCCESS) return;
    const uint64_t after = Agent::Now();
    agent_->Write(spool::CalibrationRecord{kCuptiClockKey, before, after, deviceTime});
}

void CudaPart::FlushForCrash() {
    Internal internal;
    if (collector_) {
        // Not when this thread is inside a profiled launch (it holds the collector): that launch is lost.
        std::unique_lock<std::mutex> lock = collector_->Lock(std::try_to_lock);
        if (lock.owns_lock()) collector_->FlushAllForCrash();
    }
    FlushActivity();
}

void CudaPart::FlushActivity() {
    if (!trace_) return;
    unflushedEnqueues_ = 0;
    api_->cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
}

void CudaPart::HoldWhileExiting() {
    // The process ends while this thread waits. A thread the exiting one waits for (a join in a static
    // destructor) goes on after a while, its dispatches profiled and written one at a time.
    std::unique_lock<std::mutex> lock(exitMutex_);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (exitWait_.wait_until(lock, deadline) != std::cv_status::timeout) {
    }
}

void CudaPart::OnBufferCompleted(uint8_t* buffer, size_t validSize) {
    if (!buffer || validSize == 0) return;
    CostScope cost(costs_, CostSite::ActivityBuffer);
    uint64_t count = 0;
    if (!cpuClock_) Calibrate();
    // One write per megabyte of lines: the activity thread would otherwise contend with the application's
    // threads for the spool three times per kernel.
    std::string lines;
    lines.reserve(size_t{1} << 20);
    DeviceNames devices;
    CUpti_Activity* record = nullptr;
    while (api_->cuptiActivityGetNextRecord(buffer, validSize, &record) == CUPTI_SUCCESS) {
        ++count;
        switch (record->kind) {
            case CUPTI_ACTIVITY_KIND_KERNEL:
            case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
                OnKernelRecord(*reinterpret_cast<const CUpti_ActivityKernel10*>(record), &devices, &lines);
                break;
            case CUPTI_ACTIVITY_KIND_MEMCPY: {
                const auto* copy = reinterpret_cast<const CUpti_ActivityMemcpy6*>(record);
                TransferActivity transfer = TransferOf(*copy);
                transfer.copyKind = copy->copyKind;
                OnTransferRecord(transfer, &devices, &lines);
                break;
            }
            case CUPTI_ACTIVITY_KIND_MEMSET: {
                TransferActivity transfer = TransferOf(*reinterpret_cast<const CUpti_ActivityMemset4*>(record));
                transfer.isMemset = true;
                OnTransferRecord(transfer, &devices, &lines);
                break;
            }
            default:
                break;
        }
        if (lines.size() >= (size_t{1} << 20) - 4096) {
            agent_->WriteEncoded(lines);
            lines.clear();
        }
    }
    if (!lines.empty()) agent_->WriteEncoded(lines);
    activityRecords_.fetch_add(count, std::memory_order_relaxed);
}

void CudaPart::OnKernelRecord(const CUpti_ActivityKernel10& record, DeviceNames* devices, std::string* lines) {
    KernelActivity kernel;
    kernel.name = record.name ? record.name : "";
    kernel.start = record.start;
    kernel.end = record.end;
    kernel.deviceId = record.deviceId;
    kernel.contextId = record.contextId;
    kernel.streamId = record.streamId;
    kernel.correlationId = record.correlationId;
    kernel.grid[0] = record.gridX, kernel.grid[1] = record.gridY, kernel.grid[2] = record.gridZ;
    kernel.block[0] = record.blockX, kernel.block[1] = record.blockY, kernel.block[2] = record.blockZ;
    kernel.registersPerThread = record.registersPerThread;
    kernel.staticSharedMemory = record.staticSharedMemory;
    kernel.dynamicSharedMemory = record.dynamicSharedMemory;
    kernel.localMemoryPerThread = record.localMemoryPerThread;
    kernel.graphId = record.graphId;
    kernel.graphNodeId = record.graphNodeId;
    kernel.launchType = record.launchType;
    kernel.cluster[0] = record.clusterX, kernel.cluster[1] = record.clusterY, kernel.cluster[2] = record.clusterZ;
    if (counters_ && kernel.graphId == 0) {
        // Under kernel replay a launch may be reported once per pass: one launch, one kernel line. The
        // launches of gpaprof's own replay are not the application's.
        std::lock_guard<std::mutex> lock(enqueueMutex_);
        const char* dropped = nullptr;
        // The id stays: a launch may be reported more than once.
        if (kernel.name == L2Flush::kKernelName) {
            dropped = "gpaprof's cache flush";
        } else if (replayer_ && replayer_->OwnsActivity(kernel.contextId, kernel.streamId)) {
            dropped = "a kernel gpaprof ran (a replay pass or a cache flush)";
        } else if (!enqueues_.Find(kernel.correlationId) && replayWindows_.Contains(kernel.start)) {
            dropped = "no application launch of that id, and it ran while gpaprof replayed";
        } else if (const PendingEnqueue* launch = enqueues_.Find(kernel.correlationId);
                   launch && launch->kernelNameHash && launch->kernelNameHash != NameHash(kernel.name.c_str())) {
            dropped = "not the kernel that launch named (the driver runs kernels of its own for a profiled launch)";
        } else if (!replayedKernels_.insert(kernel.correlationId).second) {
            dropped = "a second record of a launch (kernel replay)";
        }
        if (dropped) {
            if (debugRecords_) {
                std::fprintf(stderr, "gpaprof: debug: kernel record %s (correlation %u, stream %u, start %llu) left out: %s\n",
                             kernel.name.c_str(), kernel.correlationId, kernel.streamId,
                             static_cast<unsigned long long>(kernel.start), dropped);
            }
            return;
        }
    }
    if (counters_ && kernel.start == 0 && kernel.end == 0 && !zeroTimesNoted_.exchange(true)) {
        agent_->Note("with -p, CUPTI's activity records of kernels profiled by its range profiler carry no kernel "
                     "times: kernel start and end are 0 in the .atp (trace without -p for the timeline; the .csv Time "
                     "column has each kernel's duration)");
    }
    if (debugRecords_) {
        std::fprintf(stderr, "gpaprof: debug: kernel record %s (correlation %u, stream %u) kept\n", kernel.name.c_str(),
                     kernel.correlationId, kernel.streamId);
    }
    const std::optional<PendingEnqueue> call = kernel.graphId == 0 ? TakeEnqueue(kernel.correlationId) : std::nullopt;
    std::optional<uint64_t> handle;
    if (call && call->info.kernelHandle) handle = call->info.kernelHandle;
    // The kernel line, and the launch's command and device times. Queued and submit are 0: CUPTI reports them only
    // with its latency timestamps, which gpaprof leaves off (they cost time on every launch).
    const bool launch = call && call->apiClass == CudaApiClass::KernelLaunch;
    AppendKernelLines(kernel, handle, launch ? &call->info : nullptr, CachedDeviceName(kernel.deviceId, devices), ClockKey(),
                      lines);
}

void CudaPart::OnTransferRecord(const TransferActivity& transfer, DeviceNames* devices, std::string* lines) {
    if (replayer_ && replayer_->OwnsActivity(transfer.contextId, transfer.streamId)) return;  // gpaprof's restores
    const std::optional<PendingEnqueue> call =
        TakeEnqueue(transfer.correlationId, transfer.isMemset ? CudaApiClass::Memset : CudaApiClass::Memcpy);
    if (!call) return;  // a copy of a graph, of a call that is not traced, or gpaprof's inside a launch call
    spool::CommandRecord command;
    command.part = "cuda";
    command.threadId = call->info.threadId;
    command.index = call->info.index;
    command.deviceKey = ClockKey();
    command.command = MakeTransferCommand(transfer, call->info, CachedDeviceName(transfer.deviceId, devices));
    if (!transfer.isMemset) command.transferSize = transfer.bytes;
    spool::EncodeTo(command, lines);
    spool::EncodeTo(spool::TimesRecord{"cuda", call->info.threadId, call->info.index, ClockKey(), 0, 0, transfer.start,
                                       transfer.end},
                    lines);
}

void CudaPart::Finish() {
    Internal internal;
    const bool first = !exiting_.exchange(true);
    if (first) exitingThread_ = Agent::ThreadId();
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
                         "kernel replay), %llu configurations; in the launches (save, replay passes, restore) %.3f ms, "
                         "configure %.3f ms, start %.3f ms, stop %.3f ms, decode %.3f ms, evaluate %.3f ms in total; "
                         "set-up %.3f ms (catalog and counters %.3f, plans %.3f%s, waited for them %.3f, bound to the "
                         "device %.3f, the device's profiler %.3f); of the batch replays: restoring %.3f ms, L2 flushes "
                         "%.3f ms, launches %.3f ms\n",
                         static_cast<unsigned long long>(s.kernels), static_cast<unsigned long long>(s.ownReplayed),
                         static_cast<unsigned long long>(s.cuptiReplayed), static_cast<unsigned long long>(s.configurations),
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
    // Later calls flush CUPTI's activity only when there can be something new: by then CUPTI may be
    // tearing down.
    if (trace_ && (first || unflushedEnqueues_.load() > 0)) FlushActivity();
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
        std::fprintf(stderr, "gpaprof: CUDA callback costs: %s; %llu activity records; callbacks given up: %u\n",
                     costs_.Summary().c_str(), static_cast<unsigned long long>(activityRecords_.load()),
                     stoppedListening_.load());
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

}  // namespace
}  // namespace gpaprof::cuda

// Called by the CUDA driver in cuInit, once, when CUDA_INJECTION64_PATH names this library.
extern "C" __attribute__((visibility("default"))) int InitializeInjection(void) {
    gpaprof::cuda::Internal internal;
    std::string problem;
    if (!gpaprof::cuda::CudaPart::Start(&problem)) {
        if (problem != "not started by gpaprof") {
            if (auto* agent = gpaprof::agent::Agent::Get()) {
                agent->Note("CUDA is not profiled in this process: " + problem);
            } else {
                std::fprintf(stderr, "gpaprof: CUDA is not profiled in this process: %s\n", problem.c_str());
            }
        }
        return 1;  // the application runs on either way
    }
    return 1;
}
