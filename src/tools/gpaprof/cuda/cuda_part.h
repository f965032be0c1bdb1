// What the files of libgpaprof_cuda_injection.so (injection.cpp) share: CudaPart and the records of the calls in
// progress that its callbacks keep.
//
// CudaPart is the one object CUPTI calls back into (API entries and exits, resources, activity buffers, the end
// of the process, crashes), and the ordering rules between those callbacks (open calls per thread, the replay
// gate, exit mode, enqueues waiting for their activity records) live in its private state; the parts that need
// none of it are apart (arguments, records, occupancy, the collector, the replayer, the flush, the callback
// costs). Its members are defined by concern: cuda_part.cpp (start, set-up, the end of the process),
// api_callbacks.cpp (API entries and exits, launches), enqueue_registry.cpp (device commands waiting for their
// activity records), activity_records.cpp (CUPTI's activity buffers), devices_functions_modules.cpp (devices,
// kernel functions, modules, contexts); injection.cpp has CUPTI's entry points and the crash handlers.
//
// A named namespace only because an anonymous one cannot span files: the library is built with hidden
// visibility, and nothing here is exported.
#pragma once

#include <cuda.h>
#include <cupti_activity.h>
#include <cupti_callbacks.h>

#include <array>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <memory_resource>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "backends/cuda/cuda_driver_loader.h"
#include "tools/gpaprof/agent/agent.h"
#include "tools/gpaprof/agent/trace_clock.h"
#include "tools/gpaprof/cuda/callback_costs.h"
#include "tools/gpaprof/cuda/caller_frames.h"
#include "tools/gpaprof/cuda/correlation_ids.h"
#include "tools/gpaprof/cuda/correlation_table.h"
#include "tools/gpaprof/cuda/counter_collector.h"
#include "tools/gpaprof/cuda/counter_setup_ahead.h"
#include "tools/gpaprof/cuda/cuda_api_table.h"
#include "tools/gpaprof/cuda/cuda_occupancy.h"
#include "tools/gpaprof/cuda/cuda_records.h"
#include "tools/gpaprof/cuda/cupti_tracing_api.h"
#include "tools/gpaprof/cuda/waiting_kernels.h"
#include "tools/gpaprof/cuda/device_memory_map.h"
#include "tools/gpaprof/cuda/graph_programs.h"
#include "tools/gpaprof/cuda/join_misses.h"
#include "tools/gpaprof/cuda/launch_replayer.h"
#include "tools/gpaprof/cuda/pm_sampling_recorder.h"
#include "tools/gpaprof/cuda/raw_call_rings.h"
#include "tools/gpaprof/cuda/replay_windows.h"
#include "tools/gpaprof/cuda/staged_launches.h"

namespace gpaprof::cuda::injection {

using agent::Agent;

constexpr const char* kCpuClockKey = "";           // device times CUPTI already gives on gpaprof's clock
constexpr const char* kCuptiClockKey = "cupti";    // device times on CUPTI's own clock, calibrated

// ---------------------------------------------------------------------------------------------------------
// Per-thread state of the calls in progress.

// A kernel launch whose counters are collected, from its entry to its exit.
struct ProfiledLaunch {
    CUcontext context = nullptr;
    std::unique_lock<std::mutex> counterLock;
    DispatchRow row;
    // A kernel that waits for other devices, run unprofiled in a process with several: its stream, for the event
    // recorded after it (CounterCollector::AfterWaitingLaunch).
    std::optional<CUstream> waiterStream;
    // A CUDA graph launch measured as a whole (--graph-profiling graph): CounterCollector::AfterGraphLaunch at its exit.
    bool graph = false;
};

// Two cache lines: what every call reads and writes on the first, what launches and replays need on the second
// (its entry makes it and its exit destroys it, so both are touched once a call; at 144 bytes, unaligned, it spanned
// three or four). A layout, not a measured gain: the GPU machine did not resolve it (docs/benchmarks.md, 2026-11-30).
struct alignas(64) OpenCall {
    const CudaApiInfo* info = nullptr;       // its table entry, looked up once at the entry
    std::optional<uint64_t> index;           // CallIndex
    uint64_t start = 0;
    uint64_t threadId = 0;                   // Agent::ThreadId(), kept from the entry (set where index is)
    uint32_t cbid = 0;
    uint32_t correlationId = 0;
    CudaDomain domain = CudaDomain::Runtime;
    CudaApiClass apiClass = CudaApiClass::Other;
    bool traced = false;                     // a call of the application (not one the runtime made for it)
    bool record = false;                     // its API trace record is written

    alignas(64) CorrelationIds correlations;  // ids registered for its device work
    // A kernel launch that is profiled (-p); apart, so that the other calls stay small to move.
    std::unique_ptr<ProfiledLaunch> dispatch;
    // Held while a call that may write device memory runs, so that it waits for a replay in progress.
    std::shared_lock<std::shared_mutex> gate;
};
static_assert(sizeof(OpenCall) == 128, "two cache lines");

// What the callbacks keep per thread: one for all the library's files (inline), as when they were one file. One
// block, read through one reference a callback: in a library the driver loads with dlopen, each thread_local read
// is a call of __tls_get_addr, and a launch made 26 of them (docs/benchmarks.md, 2026-11-29). Trivially
// destructible: still there in the callbacks a thread's teardown makes.
// The other libraries' per-thread state a traced call needs is reached through it too (the agent's call numbering,
// this thread's call ring and launch stage), each looked up once a thread: a launch made 13 TLS look-ups, about
// three cache lines each where the driver's own work between two callbacks has pushed them out of the core's
// first-level cache (callgrind with the stand-in's FAKE_CUDA_TOUCH_KB, docs/benchmarks.md, 2026-11-30).
struct alignas(64) CallbackThread {
    int internal = 0;              // > 0 while gpaprof itself calls CUDA: its calls are not the application's
    bool profilingLaunch = false;  // between a profiled launch's entry and exit on this thread
    std::vector<OpenCall>* openCalls = nullptr;  // this thread's calls in progress (api_callbacks.cpp), once made
    agent::ThreadCalls* calls = nullptr;         // Agent::CallsOfThisThread(), once asked for
    RawCallRings::ThreadCache ring;              // this thread's call ring (rawRings_)
    StagedLaunches::ThreadCache stage;           // this thread's launch stage (staged_)
};
static_assert(sizeof(CallbackThread) == 64, "one cache line");
inline thread_local CallbackThread t_callbackThread;

class Internal {
public:
    Internal() { ++t_callbackThread.internal; }
    ~Internal() { --t_callbackThread.internal; }
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
    bool waits = false;  // waits for other devices or processes (waiting_kernels.h)
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

inline uint64_t NameHash(const char* name) {
    uint64_t hash = 14695981039346656037ull;  // FNV-1a
    for (; name && *name; ++name) hash = (hash ^ static_cast<unsigned char>(*name)) * 1099511628211ull;
    return hash;
}

class CudaPart {
public:
    static CudaPart* Get() { return instance_; }
    static bool Start(std::string* problem);

    void OnCallback(CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void* data);
    // The runtime and driver API callbacks of the application, once OnCallback has found nothing unusual (or
    // OnUnusualCallback has dealt with it): memory calls, then the call's entry or exit.
    // (api_callbacks.cpp, inline there: both its callers are in that file.)
    void OnApiCallback(CallbackThread& thread, CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                       const CUpti_CallbackData* callback);
    // gpaprof's own calls, the resource domain, the set-up made ahead, the diagnostic and debugging switches.
    [[gnu::noinline]] void OnUnusualCallback(CallbackThread& thread, CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                                             const void* data);
    // A driver call that allocates, frees or maps memory, or begins or ends a stream capture, has returned.
    [[gnu::noinline]] void OnMemoryCallExit(uint32_t cbid, const CUpti_CallbackData* callback);
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

    // `calls`: this thread's open calls, looked up once a callback (OnCallback).
    void ApiEnter(CallbackThread& thread, std::vector<OpenCall>& calls, CudaDomain domain, uint32_t cbid,
                  const CUpti_CallbackData* data);
    void ApiExit(CallbackThread& thread, std::vector<OpenCall>& calls, CudaDomain domain, uint32_t cbid,
                 const CUpti_CallbackData* data);
    // What follows a call's record: device times handed over while the process ends, the caller (--sym).
    void AfterCallRecord(const OpenCall& call, std::string_view name, const CUpti_CallbackData* data, uint64_t threadId,
                         uint64_t index) {
        // Inline: most calls have nothing to do here (a call a launch cost ~25 instructions).
        if (exiting_.load(std::memory_order_relaxed) || symbols_) [[unlikely]] {
            AfterCallRecordWork(call, name, data, threadId, index);
        }
    }
    void AfterCallRecordWork(const OpenCall& call, std::string_view name, const CUpti_CallbackData* data, uint64_t threadId,
                             uint64_t index);
    // `calls`: this thread's open calls (`call` among them, or null where the launch has no open call of its own).
    void LaunchEnter(CallbackThread& thread, std::vector<OpenCall>& calls, OpenCall* call, uint32_t cbid,
                     const CUpti_CallbackData* data);
    void LaunchExit(OpenCall* call, bool launched);
    void OnResource(CUpti_CallbackId cbid, const CUpti_ResourceData* data);
    // Module loads and unloads (also while gpaprof itself calls CUDA: its calls may load modules lazily).
    void OnModule(CUpti_CallbackId cbid, const CUpti_ResourceData* data);
    // Whether a driver call may write device memory while a replay restores it.
    bool WritesDeviceMemory(uint32_t driverCbid, CudaApiClass apiClass) const;
    // Whether a command enqueued on `stream` goes into a graph being captured instead of running: it is no
    // dispatch (nothing to profile, no activity record to wait for); its kernels run, and are traced, when the
    // graph is launched. Asks the driver only while some capture is in progress.
    bool IntoCapture(CUstream stream);  // (capturesInProgress_: among the callbacks' members, below)
    // Devices with a context in this process (bit per ordinal, from CUPTI's context callbacks), for kernels that
    // wait for other devices (counter_collector.h).
    std::atomic<uint64_t> contextDevices_{0};
    bool SeveralDevices() const;
    std::unique_ptr<WaitingKernels> waitingKernels_;
    bool wholeGraphs_ = false;
    std::atomic<uint64_t> graphLaunches_{0};
    std::atomic<bool> unknownGraphNoted_{false};
    std::atomic<bool> unreadableGraphNoted_{false};
    std::unordered_map<CUgraphExec, uint32_t> graphKernelIds_;  // graph mode: the Method's kernel id (under mutex_)
    void OnGraphCallExit(uint32_t driverCbid, const void* params);
    // A node cloned (into an executable graph, while it is instantiated on this thread): CUPTI's ids of both.
    void OnGraphNodeCloned(const CUpti_GraphData* data);
    void DebugGraph(CUgraphExec exec) const;  // GPAPROF_CUDA_DEBUG=graphs: the steps read for an executable graph
    void GraphLaunchEnter(OpenCall* call, const CUpti_CallbackData* data);
    DispatchRow WholeGraphRow(CUgraphExec exec, CUcontext context, uint64_t executionOrder);
    std::string GraphName(CUgraphExec exec) const;
    // A dispatch's .occupancy record (written with -O) and its .csv row without counters (nullopt without -p).
    std::optional<DispatchRow> DescribeDispatch(const FunctionInfo& kernel, CUfunction function, const uint64_t* grid,
                                                const uint64_t* block, uint64_t dynamicShared, CUcontext context,
                                                uint64_t executionOrder);

    bool Excluded(const CudaApiInfo& info);
    // Whether a driver call outside any runtime call comes from the CUDA runtime. Finding out takes a stack
    // walk (several microseconds); a function the runtime (or the application) called 32 times in a row is
    // taken to be the runtime's (the application's) without one, and checked again every 16th call, doubling
    // the interval every 32 checks that agree, up to every 1024th (cuKernelGetName: every 4096th).
    bool CalledByRuntime(uint32_t driverCbid);
    static constexpr uint32_t kSettledStreak = 32;         // walks in a row that agree
    static constexpr uint32_t kLaunchNameInterval = 4096;  // cuKernelGetName's calls between walks once settled
    // The innermost call of the application in progress on this thread (`calls`: its open calls, where the
    // caller has them at hand: each look-up of the thread's list is a TLS access).
    OpenCall* InnermostTraced();
    static OpenCall* InnermostTraced(std::vector<OpenCall>& calls);
    StagedLaunches staged_;  // (stageLaunches_, stageOnlyNestedLaunches_: among the callbacks' members, below)
    void StageLaunch(CallbackThread& thread, OpenCall* owner, uint32_t correlationId, uint64_t stream, CUcontext context,
                     uint64_t kernelHandle);
    // Moves the staged launches into enqueues_; the caller holds enqueueMutex_.
    void DrainStagedLaunches();
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
    // What every API callback reads, together on the object's first two cache lines: in a launch-bound loop the
    // driver's work between two callbacks evicts them, and each line a callback touches is a miss.
    alignas(64) Agent* agent_;
    agent::TraceClock* clock_ = &agent::TraceClock::Process();  // the calls' start and end
    // The API table by domain and callback id (ApisByCallbackId), held here and looked up inline at every entry
    // (FindApi's call and guard took ~9 ns of each of a launch's six callbacks): each domain's slots and their
    // count, so that a look-up reads the slot and not the vector first (one cache line fewer an entry).
    struct ApiSlots {
        const CudaApiInfo* const* slots;
        size_t count;
    };
    static ApiSlots SlotsOf(CudaDomain domain) {
        const std::vector<const CudaApiInfo*>& byCbid = ApisByCallbackId(domain);
        return {byCbid.data(), byCbid.size()};
    }
    std::array<ApiSlots, 2> apis_{SlotsOf(CudaDomain::Runtime), SlotsOf(CudaDomain::Driver)};
    // -t: raw call records kept per thread and written by a thread of gpaprof's (raw_call_rings.h);
    // GPAPROF_CUDA_CALL_RINGS=0 writes each on the calling thread, as before (for benchmarks).
    std::unique_ptr<RawCallRings> rawRings_;
    std::unique_ptr<CounterCollector> collector_;
    std::unique_ptr<DeviceMemoryMap> memory_;       // -p: what kernels can write, and whose it is
    std::unique_ptr<LaunchReplayer> replayer_;      // own replay of multi-pass counter sets
    // -p, -O: CUDA graphs (graph_launches.cpp). What each executable graph runs, from the calls that make and change
    // it; its launches' kernel nodes become dispatches (or the whole graph one, --graph-profiling graph).
    std::unique_ptr<GraphPrograms> graphs_;
    std::atomic<int> capturesInProgress_{0};  // stream captures in progress (IntoCapture)
    std::atomic<bool> setupAheadPending_{false};  // (setupAhead_, below)
    // Exit mode (Finish): the thread that began it (exitingThread_), and what other threads' launches wait on.
    std::atomic<bool> exiting_{false};
    bool trace_ = false, counters_ = false, occupancy_ = false, symbols_ = false;
    // GPAPROF_CUDA_DIAG (for the trace-overhead benchmark): "empty-callbacks" subscribes and enables activity
    // but returns from every callback at once; "no-activity" traces calls without activity records;
    // "skip-records" reads the activity buffers without turning their records into lines (no kernel lines).
    bool diagEmptyCallbacks_ = false, diagNoActivity_ = false, diagSkipRecords_ = false;
    bool unusualCallbacks_ = false;  // diagEmptyCallbacks_ or debugCallbacks_: every callback takes OnUnusualCallback
    bool debugCallbacks_ = false;  // GPAPROF_CUDA_DEBUG=callbacks: every API callback on stderr, as it comes
    bool excludesApis_ = false;    // -F named APIs not to trace
    // A trace without counters (-t, -t -O) stages a kernel launch on its thread instead of registering it under
    // enqueueMutex_ (staged_launches.h): the first command of its call only, so that a call's commands stay one.
    // GPAPROF_CUDA_STAGED_LAUNCHES=0 registers every launch (for benchmarks, docs/benchmarks.md).
    bool stageLaunches_ = false;
    // A trace alone (no counters, no occupancy): the driver launch that a runtime launch makes is staged and
    // nothing more, with no open call of its own (ApiEnter's fast path).
    bool stageOnlyNestedLaunches_ = false;
    CallbackCosts costs_;  // GPAPROF_CUDA_STATS: where the callbacks' time goes (its flag on the next line)

    const TracingApi* api_;
    const gpa::cuda::DriverApi* driver_ = nullptr;
    CUpti_SubscriberHandle subscriber_ = nullptr;
    bool cpuClock_ = false;
    bool debugRecords_ = false;  // GPAPROF_CUDA_DEBUG=records: every activity record left out, and why
    bool debugMemory_ = false;     // GPAPROF_CUDA_DEBUG=memory: every allocation with its owner and callers' modules
    bool debugGraphs_ = false;     // GPAPROF_CUDA_DEBUG=graphs: every node clone CUPTI reports, every graph read
    JoinMisses joinMisses_;      // GPAPROF_CUDA_STATS: what found no partner
    // -p: the counter set-up of device 0's chip, made on a thread of its own from the first CUDA call after cuInit
    // on (GPAPROF_CUDA_SETUP_AHEAD=0: at the first profiled launch, as before).
    CounterSetupAhead setupAhead_;
    CUdevice setupAheadDevice_ = 0;
    std::atomic<bool> availabilityOffered_{false};
    void StartSetupAhead(CUpti_CallbackDomain domain, CUpti_CallbackId cbid);
    // The first context on the set-up's device: its counter availability for the set-up thread to bind to.
    void OfferAvailabilityAhead(CUcontext context);
    CallerLocator callers_;

    std::array<std::atomic<uint8_t>, 2 * kDriverApiTypeBase> excluded_{};  // 0 unknown, 1 traced, 2 excluded
    const CudaApiInfo* ApiInfo(CudaDomain domain, uint32_t cbid) const {
        const ApiSlots& byCbid = apis_[static_cast<size_t>(domain)];
        return cbid < byCbid.count ? byCbid.slots[cbid] : nullptr;
    }
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
    std::unique_ptr<PmSamplingRecorder> pmSampling_;  // --pm-sampling
    uint64_t ActivityNow() const {
        uint64_t now = 0;
        if (cpuClock_) return Agent::Now();
        return api_->cuptiGetTimestamp(&now) == CUPTI_SUCCESS ? now : 0;
    }
    std::atomic<bool> zeroTimesNoted_{false};
    std::atomic<uint64_t> exitingThread_{0};  // exit mode (exiting_, among the callbacks' members above)
    std::mutex exitMutex_;
    std::condition_variable exitWait_;
    void HoldWhileExiting();
    // Device work enqueued since CUPTI's activity was last flushed: a flag, stored without a read-modify-write.
    std::atomic<bool> unflushedEnqueues_{false};
    std::atomic<uint64_t> activityRecords_{0};    // handed over by CUPTI (for GPAPROF_CUDA_STATS)
};

// ---------------------------------------------------------------------------------------------------------
// CUPTI's entry points and the crash handlers (injection.cpp), which CudaPart::Initialize registers.

void CUPTIAPI Callback(void*, CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void* data);
// Whether a driver call makes or changes an executable graph (graph_launches.cpp).
bool IsGraphCall(uint32_t driverCbid);
// Whether a call in progress on this thread holds the replay gate (api_callbacks.cpp).
bool ThreadHoldsGate();
// Before BufferRequested is registered: CUPTI told that buffers come zeroed (it would zero each itself, in the thread
// that asked, often the application's). False (GPAPROF_CUDA_ZEROED_BUFFERS=0, an older CUPTI): CUPTI zeroes them.
bool UseZeroedActivityBuffers(const TracingApi& api);
void CUPTIAPI BufferRequested(uint8_t** buffer, size_t* size, size_t* maxNumRecords);
void CUPTIAPI BufferCompleted(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t validSize);
uint64_t CpuTimestamp();
void InstallCrashHandlers();

}  // namespace gpaprof::cuda::injection
