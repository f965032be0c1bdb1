// CudaPart's runtime and driver API callbacks (cuda_part.h): which calls are the application's, their entries
// and exits, their records, and the kernel launches that are profiled.
#include <cupti_callbacks.h>
#include <cupti_driver_cbid.h>
#include <cupti_runtime_cbid.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tools/gpaprof/agent/agent.h"
#include "tools/gpaprof/agent/late_thread_local.h"
#include "tools/gpaprof/cuda/arg_format.h"
#include "tools/gpaprof/cuda/context_calls.h"
#include "tools/gpaprof/cuda/cuda_part.h"
#include "tools/gpaprof/cuda/memory_calls.h"
#include "tools/gpaprof/cuda/raw_call_line.h"
#include "tools/gpaprof/cuda/waiting_kernels.h"

namespace gpaprof::cuda::injection {
namespace {

// The calls in progress on this thread: used by callbacks during thread and process teardown, hence not a
// thread_local object (late_thread_local.h says why); a plain pointer to it is cached in CallbackThread.
agent::LateThreadLocal<std::vector<OpenCall>> g_openCalls;
[[gnu::noinline]] std::vector<OpenCall>& MakeOpenCalls(CallbackThread& thread) {
    thread.openCalls = &g_openCalls.Get([] { t_callbackThread.openCalls = nullptr; });
    return *thread.openCalls;
}
// This thread's block, its address taken once: GCC recomputes a thread_local's address, a call each time, rather
// than keep it in a register across calls; the address a function returns it keeps.
[[gnu::noinline]] CallbackThread& ThisCallbackThread() { return t_callbackThread; }
inline std::vector<OpenCall>& OpenCalls(CallbackThread& thread = t_callbackThread) {
    if (std::vector<OpenCall>* calls = thread.openCalls) [[likely]] return *calls;
    return MakeOpenCalls(thread);
}
// What writing a call's record takes, kept per thread so that a traced call allocates nothing once the
// buffers have grown (a thread_local would be gone in the callbacks at exit: late_thread_local.h).
struct CallScratch {
    ArgList args;
    std::vector<std::string_view> views;
    std::string returnValue;
    std::string line;
};
agent::LateThreadLocal<CallScratch> g_callScratch;

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

}  // namespace

bool ThreadHoldsGate() {
    for (const OpenCall& call : OpenCalls()) {
        if (call.gate.owns_lock()) return true;
    }
    return false;
}

bool CudaPart::Excluded(const CudaApiInfo& info) {
    if (!excludesApis_) return false;
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
    // cuKernelGetName, which applications next to never call, is checked every 4096th call once settled.
    const uint32_t streak = known.streak.load(std::memory_order_relaxed);
    const uint32_t appStreak = known.appStreak.load(std::memory_order_relaxed);
    const uint32_t interval = driverCbid == CUPTI_DRIVER_TRACE_CBID_cuKernelGetName && streak >= kSettledStreak
                                  ? kLaunchNameInterval
                                  : 16u << std::min<uint32_t>(6, std::max(streak, appStreak) / kSettledStreak);
    if (call % interval != 0) {
        if (streak >= kSettledStreak) return true;
        if (appStreak >= kSettledStreak) return false;  // a driver-API application
    }
    Internal internal;
    CostScope walk(costs_, CostSite::StackWalk);
    const bool runtime = callers_.CalledByCudaRuntime();
    (runtime ? known.streak : known.appStreak).fetch_add(1, std::memory_order_relaxed);
    (runtime ? known.appStreak : known.streak).store(0, std::memory_order_relaxed);
    return runtime;
}

OpenCall* CudaPart::InnermostTraced() { return InnermostTraced(OpenCalls()); }

OpenCall* CudaPart::InnermostTraced(std::vector<OpenCall>& calls) {
    for (auto it = calls.rbegin(); it != calls.rend(); ++it) {
        if (it->traced) return &*it;
    }
    return nullptr;
}

[[gnu::always_inline]] inline void CudaPart::OnApiCallback(CallbackThread& thread, CUpti_CallbackDomain domain,
                                                          CUpti_CallbackId cbid, const CUpti_CallbackData* callback) {
    if (callback->callbackSite == CUPTI_API_EXIT && domain == CUPTI_CB_DOMAIN_DRIVER_API && IsMemoryCall(cbid)) [[unlikely]] {
        OnMemoryCallExit(cbid, callback);
    }
    const CudaDomain api = domain == CUPTI_CB_DOMAIN_RUNTIME_API ? CudaDomain::Runtime : CudaDomain::Driver;
    std::vector<OpenCall>& calls = OpenCalls(thread);
    if (callback->callbackSite == CUPTI_API_ENTER) {
        ApiEnter(thread, calls, api, cbid, callback);
    } else {
        ApiExit(thread, calls, api, cbid, callback);
    }
}

void CudaPart::OnCallback(CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void* data) {
    CallbackThread& thread = ThisCallbackThread();
    // An API call of the application with nothing unusual going on: the hot path, kept short (a launch makes four to
    // six callbacks); everything else is out of line.
    if (thread.internal > 0 || unusualCallbacks_ || setupAheadPending_.load(std::memory_order_relaxed) ||
        (domain != CUPTI_CB_DOMAIN_RUNTIME_API && domain != CUPTI_CB_DOMAIN_DRIVER_API)) [[unlikely]] {
        OnUnusualCallback(thread, domain, cbid, data);
        return;
    }
    OnApiCallback(thread, domain, cbid, static_cast<const CUpti_CallbackData*>(data));
}

void CudaPart::OnUnusualCallback(CallbackThread& thread, CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void* data) {
    if (thread.internal > 0) {
        // gpaprof's own calls are not traced, but modules they load lazily are needed. (-t tells the kernels
        // gpaprof launches apart by their streams and contexts: LaunchReplayer::OwnsActivity.)
        if (domain != CUPTI_CB_DOMAIN_RESOURCE ||
            (cbid != CUPTI_CBID_RESOURCE_MODULE_LOADED && cbid != CUPTI_CBID_RESOURCE_MODULE_UNLOAD_STARTING)) {
            return;
        }
    }
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
    if (debugCallbacks_) {
        // Where a thread's calls stop being traced, this shows which entry had no exit.
        std::fprintf(stderr, "gpaprof callback: thread %llu %s %s %s correlation %u context %p, %zu call(s) open\n",
                     static_cast<unsigned long long>(Agent::ThreadId()),
                     domain == CUPTI_CB_DOMAIN_RUNTIME_API ? "runtime" : "driver",
                     callback->callbackSite == CUPTI_API_ENTER ? "enter" : "exit",
                     callback->functionName ? callback->functionName : "?", callback->correlationId,
                     static_cast<void*>(callback->context), OpenCalls(thread).size());
    }
    OnApiCallback(thread, domain, cbid, callback);
}

void CudaPart::OnMemoryCallExit(uint32_t cbid, const CUpti_CallbackData* callback) {
    int result = 0;
    if (callback->functionReturnValue) std::memcpy(&result, callback->functionReturnValue, sizeof result);
    if (const int change = GraphCaptureChange(cbid, result == CUDA_SUCCESS)) {
        capturesInProgress_.fetch_add(change, std::memory_order_relaxed);
    }
    if (!memory_) return;
    // The stack walk that names an allocation's owner (tens of microseconds) only where a communication library is
    // loaded: some programs allocate in their loops.
    MemoryOwner owner = MemoryOwner::Application;
    if (result == CUDA_SUCCESS && IsAllocationCall(cbid) && callers_.ModuleLoaded(&IsCommunicationLibraryPath)) {
        Internal internal;
        if (callers_.CalledFromModule(&IsCommunicationLibraryPath)) owner = MemoryOwner::CommunicationLibrary;
        if (debugMemory_) {
            std::fprintf(stderr, "gpaprof: debug: %s by %s: %s\n", callback->functionName ? callback->functionName : "?",
                         owner == MemoryOwner::CommunicationLibrary ? "a communication library" : "the application",
                         CallerLocator::ModulesOnStack().c_str());
        }
    }
    TrackMemoryCall(memory_.get(), cbid, callback->functionParams, callback->context, result == CUDA_SUCCESS, owner);
}

void CudaPart::ApiEnter(CallbackThread& thread, std::vector<OpenCall>& calls, CudaDomain domain, uint32_t cbid,
                        const CUpti_CallbackData* data) {
    CostScope cost(costs_, CostSite::EnterTraced);
    const CudaApiInfo* info = ApiInfo(domain, cbid);
    // The driver launch a runtime launch makes, in a trace alone: all it adds is its kernel's staging, which
    // LaunchEnter does without an open call (it uses one only for counters, occupancy and replay). Its exit then
    // finds no open call and returns. The open call's entry and exit were ~0.1 µs of a launch (docs/benchmarks.md,
    // 2026-11-29). (No profiled launch is in progress in a trace alone, and LaunchEnter calls CUDA here only in
    // IntoCapture, which marks that call gpaprof's own: outside a stream capture, no thread_local is touched here.)
    if (stageOnlyNestedLaunches_ && !calls.empty() && domain == CudaDomain::Driver && info &&
        info->apiClass == CudaApiClass::KernelLaunch) {
        cost.Retarget(CostSite::EnterNested);
        LaunchEnter(thread, calls, nullptr, cbid, data);
        return;
    }
    // Filled where it will stay (no OpenCall moved into the list and destroyed: ~10 ns a call).
    OpenCall& call = calls.emplace_back();
    call.domain = domain;
    call.cbid = cbid;
    call.info = info;
    call.apiClass = info ? info->apiClass : CudaApiClass::Other;
    call.correlationId = data->correlationId;
    // A call made while another is in progress on this thread is the runtime (or the driver) working for
    // the outer call: not traced, but its device work and its kernel belong to the outer call.
    call.traced = calls.size() == 1;
    // The CUDA runtime linked into the application makes driver calls of its own outside any runtime call
    // (while it starts, and cuKernelGetName before each launch): they are the runtime's, not the application's.
    if (!call.traced) cost.Retarget(CostSite::EnterNested);
    if (call.traced && domain == CudaDomain::Driver && CalledByRuntime(cbid)) {
        cost.Retarget(CostSite::EnterRuntimeOwn);
        // A name the runtime asks for before each launch (only with --cuda-trace-all-apis: gpaprof is not subscribed
        // to it otherwise): nothing to keep (its exit finds no entry and returns). gpaprof then listens to it to the
        // end: unsubscribing while a thread was inside it left that thread's later kernels all carrying that call's
        // correlation id in CUPTI's records (docs/gpaprof.md, 2026-11-27).
        if (cbid == CUPTI_DRIVER_TRACE_CBID_cuKernelGetName) {
            calls.pop_back();
            return;
        }
        call.traced = false;
    }
    if (exiting_.load(std::memory_order_relaxed) && call.traced &&
        (call.apiClass == CudaApiClass::KernelLaunch || call.apiClass == CudaApiClass::GraphLaunch) &&
        Agent::ThreadId() != exitingThread_.load(std::memory_order_relaxed)) {
        HoldWhileExiting();
    }
    const bool enqueues = call.apiClass == CudaApiClass::KernelLaunch || call.apiClass == CudaApiClass::Memcpy ||
                          call.apiClass == CudaApiClass::Memset;
    if (call.traced) {
        if (!thread.calls) [[unlikely]] thread.calls = &Agent::CallsOfThisThread();
        const agent::CallSlot slot = agent_->BeginCall(*thread.calls, agent::Part::Cuda, info ? Excluded(*info) : false);
        call.index = slot.index;
        call.threadId = slot.threadId;
        call.record = slot.record && slot.index && trace_ && info;
    }
    OpenCall& open = call;
    const bool driverLaunch = domain == CudaDomain::Driver && open.apiClass == CudaApiClass::KernelLaunch;
    // A runtime launch is registered once, by the driver launch it makes (LaunchEnter), under both calls' ids:
    // one registration per launch instead of two (each took about 0.3 us, docs/benchmarks.md).
    const bool runtimeLaunch = domain == CudaDomain::Runtime && open.apiClass == CudaApiClass::KernelLaunch;
    if (trace_ && enqueues && !driverLaunch && !runtimeLaunch) {
        if (OpenCall* owner = InnermostTraced(calls); owner && owner->record) {
            Internal internal;
            const std::optional<uint64_t> stream = StreamArgument(domain, cbid, data->functionParams);
            if (!stream || !IntoCapture(reinterpret_cast<CUstream>(*stream))) {
                RegisterEnqueue(owner, data->correlationId, stream, data->context, 0);
            }
        }
    }
    if (driverLaunch) {
        Internal internal;
        LaunchEnter(thread, calls, &open, cbid, data);
    } else if (open.apiClass == CudaApiClass::GraphLaunch && domain == CudaDomain::Driver) {
        // The runtime's cudaGraphLaunch arrives here too, as the driver launch it makes.
        Internal internal;
        if (!thread.profilingLaunch) GraphLaunchEnter(&open, data);
    } else if (collector_ && domain == CudaDomain::Driver && SwitchesContext(cbid, data->functionParams, data->context) &&
               !thread.profilingLaunch && !ThreadHoldsGate()) {
        // (Not while this thread holds the gate: a replay holds the collector's lock while it waits for the gate.)
        Internal internal;
        auto lock = collector_->Lock();
        collector_->BeforeContextSwitch();
    } else if (replayer_ && domain == CudaDomain::Driver && FreesReplayedMemory(cbid)) {
        // A batch of replayed dispatches puts memory back when it ends: before that memory goes away.
        Internal internal;
        auto lock = collector_->Lock();
        collector_->FlushDeferred();
    } else if (replayer_ && domain == CudaDomain::Driver) {
        if (const std::optional<LaunchSetting> setting = LaunchSettingChange(cbid, data->functionParams)) [[unlikely]] {
            Internal internal;
            auto lock = collector_->Lock();
            collector_->BeforeLaunchSetting(*setting, data->context);
        }
    }
    // After the collector's lock, never before: a replay holds that lock while it waits for the gate. A free
    // holds it too: the memory map forgets the allocation when the free returns, and until then a snapshot
    // must not read memory that is going away.
    if (replayer_ && domain == CudaDomain::Driver && !driverLaunch &&
        (WritesDeviceMemory(cbid, open.apiClass) || FreesReplayedMemory(cbid))) {
        open.gate = replayer_->ShareGate();
    }
    if (open.traced) open.start = clock_->Now();
}

void CudaPart::ApiExit(CallbackThread& thread, std::vector<OpenCall>& calls, CudaDomain domain, uint32_t cbid,
                       const CUpti_CallbackData* data) {
    CostScope cost(costs_, CostSite::ExitNested);
    // The matching entry: the open call of this function with this call's correlation id. Not merely the innermost
    // of the function: an entry CUPTI never ends would take the exit of the call around it, which then stayed open
    // and made every later call of the thread nested.
    auto it = calls.rbegin();
    while (it != calls.rend() && !(it->correlationId == data->correlationId && it->domain == domain && it->cbid == cbid)) ++it;
    if (it == calls.rend()) return;  // entered before gpaprof subscribed
    // Only a recorded call has an end to write; never before its start (two lines of the clock can differ by a
    // nanosecond where one replaces the other: trace_clock.h).
    const uint64_t end = it->record ? std::max(clock_->Now(), it->start) : 0;
    // Handled where it lies, and forgotten when this exit returns, with any entry above it that CUPTI never ended:
    // moving it out and destroying both copies was ~40 instructions a call. (Nothing below adds an open call on
    // this thread: gpaprof's own CUDA calls are Internal, and their callbacks return before they reach the list.)
    struct ForgetOnReturn {
        std::vector<OpenCall>& calls;
        size_t from;
        ~ForgetOnReturn() { calls.erase(calls.begin() + static_cast<std::ptrdiff_t>(from), calls.end()); }
    } forget{calls, static_cast<size_t>(calls.rend() - it) - 1};
    OpenCall& call = *it;

    int returnCode = 0;  // cudaError_t or CUresult; the few runtime functions that return something else are
                         // named below and have no device work
    if (data->functionReturnValue) std::memcpy(&returnCode, data->functionReturnValue, sizeof returnCode);
    if (call.dispatch) {
        Internal internal;
        LaunchExit(&call, returnCode == 0);
    }
    if (graphs_ && domain == CudaDomain::Driver && returnCode == 0 && IsGraphCall(cbid)) {
        OnGraphCallExit(cbid, data->functionParams);
    }
    if (returnCode != 0) ForgetEnqueue(call);
    if (!call.record) return;
    cost.Retarget(CostSite::ExitTraced);

    const CudaApiInfo* info = call.info;
    const std::string_view name = info ? info->name : std::string_view(data->functionName ? data->functionName : "unknown");
    const int rawSize = info && info->apiType < rawParamsSizes_.size() ? rawParamsSizes_[info->apiType] : -1;
    if (rawSize == 0 || (rawSize > 0 && data->functionParams)) {
        // Arguments formatted from their bytes alone: the bytes go into the spool, gpaprof formats them.
        RawCallFields raw;
        raw.threadId = call.threadId;
        raw.index = *call.index;
        raw.apiType = info->apiType;
        raw.returnCode = returnCode;
        raw.start = call.start;
        raw.end = end;
        raw.params = data->functionParams;
        raw.paramsSize = static_cast<size_t>(rawSize);
        // Into this thread's ring, for gpaprof's writer thread to encode and spool; while the process ends, at once.
        if (rawRings_ && !exiting_.load(std::memory_order_relaxed) && rawRings_->Push(raw, thread.ring)) {
            AfterCallRecord(call, name, data, raw.threadId, raw.index);
            return;
        }
        // On the stack: no string to grow or zero (kMaxRawCallLineBytes, about 2 KiB).
        char line[kMaxRawCallLineBytes];
        size_t length = 0;
        {
            CostScope encode(costs_, CostSite::Encode);
            length = EncodeRawCallLine(raw, line);
        }
        {
            CostScope append(costs_, CostSite::Append);
            agent_->WriteEncoded(std::string_view(line, length));
        }
        AfterCallRecord(call, name, data, raw.threadId, raw.index);
        return;
    }
    CallScratch& scratch = g_callScratch.Get();
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
    fields.threadId = call.threadId;
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

void CudaPart::AfterCallRecordWork(const OpenCall& call, std::string_view name, const CUpti_CallbackData* data,
                                   uint64_t threadId, uint64_t index) {
    // While the process ends, the thread that ends it hands device times over after each of its calls (a static
    // destructor's copy): nothing flushes them later. Only that thread: another one that flushed took the records
    // CUPTI held, for everyone, and the process could end while it was still writing them (a thread still
    // launching when main returned lost a whole buffer of kernel lines and left half a line in the spool,
    // tests/tools/gpaprof/cuda/fake_cuda_end_to_end_test.cpp). What other threads have in flight when the process
    // begins to end, Finish waits for; their launches after that wait (HoldWhileExiting).
    if (exiting_.load(std::memory_order_relaxed) && unflushedEnqueues_.load(std::memory_order_relaxed) &&
        threadId == exitingThread_.load(std::memory_order_relaxed)) {
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

void CudaPart::LaunchEnter(CallbackThread& thread, std::vector<OpenCall>& calls, OpenCall* call, uint32_t cbid,
                           const CUpti_CallbackData* data) {
    const std::optional<LaunchParameters> launch = KernelLaunchParameters(cbid, data->functionParams);
    if (!launch) return;  // cuLaunch, cuLaunchGrid: deprecated launches without a .csv row
    const CUfunction function = launch->function;
    const uint64_t* grid = launch->grid;
    const uint64_t* block = launch->block;
    const uint64_t dynamicShared = launch->dynamicSharedBytes;
    const CUstream stream = launch->stream;
    if (IntoCapture(stream)) return;  // a node of a graph being captured: no dispatch yet
    // The order numbers the .csv and .occupancy rows: a trace alone has none, and skips the shared counter.
    const uint64_t executionOrder = counters_ || occupancy_ ? agent_->NextExecutionOrder() : 0;
    if (trace_) {
        if (OpenCall* owner = InnermostTraced(calls); owner && owner->record) {
            if (stageLaunches_ && owner->correlations.empty()) {
                StageLaunch(thread, owner, data->correlationId, reinterpret_cast<uintptr_t>(stream), data->context,
                            reinterpret_cast<uintptr_t>(function));
            } else {
                RegisterEnqueue(owner, data->correlationId, reinterpret_cast<uintptr_t>(stream), data->context,
                                reinterpret_cast<uintptr_t>(function), data->symbolName, owner->correlationId);
            }
        }
    }
    if (!call || thread.profilingLaunch) return;  // (no open call: staged only, ApiEnter's fast path)
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
    std::optional<DispatchRow> described = DescribeDispatch(kernel, function, grid, block, dynamicShared, data->context,
                                                            executionOrder);
    if (!collector_ || !described) return;
    DispatchRow row = std::move(*described);
    // A kernel that waits for other devices or processes, and in a process with several devices any kernel while
    // one still runs in its context: unprofiled where measuring it could hang (waiting_kernels.h).
    if (const bool severalDevices = SeveralDevices(); kernel.waits || severalDevices) {
        bool unprofiled = false;
        {
            auto lock = collector_->Lock();
            if (const std::string why = collector_->UnprofiledReason(data->context, kernel.waits, severalDevices); !why.empty()) {
                collector_->Unprofiled(data->context, std::move(row), why);
                unprofiled = true;
            }
        }
        if (unprofiled) {
            if (kernel.waits && severalDevices) {
                call->dispatch = std::make_unique<ProfiledLaunch>();
                call->dispatch->context = data->context;
                call->dispatch->waiterStream = stream;
            }
            if (replayer_) call->gate = replayer_->ShareGate();  // after the collector's lock, never before
            return;
        }
    }
    LaunchCall launchCall;
    launchCall.cbid = cbid;
    launchCall.params = data->functionParams;
    launchCall.context = data->context;
    launchCall.function = kernel.function;
    launchCall.threadHoldsGate = ThreadHoldsGate();
    std::unique_lock<std::mutex> counterLock = collector_->Lock();
    if (const std::string hazard = collector_->KernelReplayHazard(data->context, launchCall); !hazard.empty()) {
        collector_->Unprofiled(data->context, std::move(row), hazard);
        counterLock.unlock();
        if (replayer_) call->gate = replayer_->ShareGate();  // after the collector's lock, never before
        return;
    }
    call->dispatch = std::make_unique<ProfiledLaunch>();
    call->dispatch->context = data->context;
    call->dispatch->row = std::move(row);
    call->dispatch->counterLock = std::move(counterLock);
    thread.profilingLaunch = true;
    collector_->BeforeLaunch(data->context, launchCall);
}

void CudaPart::LaunchExit(OpenCall* call, bool launched) {
    if (collector_ && call->dispatch && call->dispatch->graph && call->dispatch->counterLock.owns_lock()) {
        collector_->AfterGraphLaunch(call->dispatch->context, launched);
        t_callbackThread.profilingLaunch = false;
        call->dispatch->counterLock.unlock();
        return;
    }
    if (collector_ && call->dispatch && call->dispatch->waiterStream) {
        if (launched) {
            auto lock = collector_->Lock();
            collector_->AfterWaitingLaunch(call->dispatch->context, *call->dispatch->waiterStream);
        }
        return;
    }
    if (!collector_ || !call->dispatch || !call->dispatch->counterLock.owns_lock()) return;
    collector_->AfterLaunch(call->dispatch->context, launched, std::move(call->dispatch->row));
    t_callbackThread.profilingLaunch = false;
    call->dispatch->counterLock.unlock();
}

bool CudaPart::IntoCapture(CUstream stream) {
    if (capturesInProgress_.load(std::memory_order_relaxed) <= 0 || !api_->cuStreamIsCapturing) return false;
    CUstreamCaptureStatus status = CU_STREAM_CAPTURE_STATUS_NONE;
    Internal internal;
    const CUresult result = api_->cuStreamIsCapturing(stream, &status);
    // The legacy default stream while another stream captures in global mode: the launch fails, and runs nothing.
    return result == CUDA_ERROR_STREAM_CAPTURE_IMPLICIT || (result == CUDA_SUCCESS && status != CU_STREAM_CAPTURE_STATUS_NONE);
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

}  // namespace gpaprof::cuda::injection
