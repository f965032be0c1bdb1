// CUPTI's tracing functions and the CUDA driver's, made up (fake_cuda.h says what for and how far).
#define __CUDA_API_VERSION_INTERNAL 1  // CUPTI's driver parameter structs need the driver's own types

#include "fake_cuda.h"

#include <cuda.h>
#include <cuda_runtime_api.h>
#include <cupti_activity.h>
#include <cupti_callbacks.h>
#include <cupti_driver_cbid.h>
#include <cupti_runtime_cbid.h>
#include <generated_cuda_meta.h>
#include <generated_cuda_runtime_api_meta.h>
#include <time.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#define FAKE_EXPORT extern "C" __attribute__((visibility("default")))

namespace {

struct FakeContext {
    int unused = 0;
};
FakeContext g_context;
CUcontext Context() { return reinterpret_cast<CUcontext>(&g_context); }
int g_kernel = 0;  // its address is the kernel's CUfunction and the runtime launch's host function
CUfunction Kernel() { return reinterpret_cast<CUfunction>(&g_kernel); }
constexpr const char* kKernelName = "fake_saxpy";

uint64_t Monotonic() {
    timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return static_cast<uint64_t>(now.tv_sec) * 1000000000ull + static_cast<uint64_t>(now.tv_nsec);
}

// What the subscriber asked for, and the kernel records waiting for its next flush.
struct State {
    std::mutex mutex;
    CUpti_CallbackFunc callback = nullptr;
    void* userdata = nullptr;
    bool domains[CUPTI_CB_DOMAIN_SIZE] = {};
    std::map<std::pair<int, uint32_t>, bool> callbacks;  // cuptiEnableCallback's choices over the domain's
    CUpti_BuffersCallbackRequestFunc bufferRequested = nullptr;
    CUpti_BuffersCallbackCompleteFunc bufferCompleted = nullptr;
    CUpti_TimestampCallbackFunc timestamp = nullptr;
    bool kernelActivity = false;
    // The kernels launched since the last flush, small until then (their records are made when they are handed
    // over): the stand-in's own cost is in every contender's loop of bench/trace_hot_path_fake.sh.
    struct Launched {
        uint64_t start;
        uint32_t correlationId;
        uint32_t streamId;
    };
    std::vector<Launched> kernels;
};
State& Get() {
    static State* state = new State();  // never freed: called while the process ends
    return *state;
}
std::atomic<uint32_t> g_correlation{0};
std::atomic<uint64_t> g_delivered{0}, g_getLastErrorDelivered{0};

uint64_t Now() {
    CUpti_TimestampCallbackFunc timestamp = nullptr;
    {
        std::lock_guard<std::mutex> lock(Get().mutex);
        timestamp = Get().timestamp;
    }
    return timestamp ? timestamp() : Monotonic();
}

bool Enabled(CUpti_CallbackDomain domain, uint32_t cbid, CUpti_CallbackFunc* callback, void** userdata) {
    State& state = Get();
    std::lock_guard<std::mutex> lock(state.mutex);
    if (!state.callback) return false;
    *callback = state.callback;
    *userdata = state.userdata;
    auto chosen = state.callbacks.find({domain, cbid});
    return chosen != state.callbacks.end() ? chosen->second : state.domains[domain];
}

// What the real driver and CUPTI do around a callback, for bench/trace_hot_path_fake.sh: FAKE_CUDA_TOUCH_KB, memory
// swept before each callback (theirs is large enough to push the subscriber's state out of the core's first-level
// cache between two callbacks), and FAKE_CUDA_LAUNCH_NS, time spent inside each driver launch (a launch took about
// 3.4 us on the GPU machine: the writer thread then keeps up, as it does there). Both 0 unless set.
struct DriverWork {
    size_t touchBytes = 0;
    uint64_t launchNs = 0;
    DriverWork() {
        if (const char* kb = std::getenv("FAKE_CUDA_TOUCH_KB")) touchBytes = static_cast<size_t>(std::strtoul(kb, nullptr, 10)) << 10;
        if (const char* ns = std::getenv("FAKE_CUDA_LAUNCH_NS")) launchNs = std::strtoull(ns, nullptr, 10);
    }
};
const DriverWork& Work() {
    static const DriverWork* work = new DriverWork();
    return *work;
}
void Touch() {
    const size_t bytes = Work().touchBytes;
    if (bytes == 0) return;
    thread_local std::vector<unsigned char>* memory = new std::vector<unsigned char>(bytes);  // never freed: tiny
    for (size_t i = 0; i < bytes; i += 64) ++(*memory)[i];
}
void SpendLaunchTime() {
    const uint64_t ns = Work().launchNs;
    if (ns == 0) return;
    const uint64_t until = Monotonic() + ns;
    while (Monotonic() < until) {
    }
}

// One API call's entry or exit, as CUPTI hands it to the subscriber.
void Deliver(CUpti_CallbackDomain domain, uint32_t cbid, CUpti_ApiCallbackSite site, const char* name, uint32_t correlationId,
             const void* params, const void* returnValue, const char* symbolName) {
    CUpti_CallbackFunc callback = nullptr;
    void* userdata = nullptr;
    Touch();
    if (!Enabled(domain, cbid, &callback, &userdata)) return;
    CUpti_CallbackData data{};
    data.callbackSite = site;
    data.functionName = name;
    data.functionParams = params;
    data.functionReturnValue = const_cast<void*>(returnValue);  // (CUPTI's field is not const; nothing writes it)
    data.symbolName = symbolName;
    data.context = Context();
    data.contextUid = 1;
    data.correlationId = correlationId;
    g_delivered.fetch_add(1, std::memory_order_relaxed);
    if (domain == CUPTI_CB_DOMAIN_RUNTIME_API && cbid == CUPTI_RUNTIME_TRACE_CBID_cudaGetLastError_v3020) {
        g_getLastErrorDelivered.fetch_add(1, std::memory_order_relaxed);
    }
    callback(userdata, domain, cbid, &data);
}

void KeepKernel(uint32_t correlationId, uint64_t stream) {
    const uint64_t start = Now() + 1000;
    State& state = Get();
    std::lock_guard<std::mutex> lock(state.mutex);
    if (state.kernelActivity) state.kernels.push_back({start, correlationId, static_cast<uint32_t>(stream == 0 ? 7 : stream)});
}

CUpti_ActivityKernel10 RecordOf(const State::Launched& launched) {
    CUpti_ActivityKernel10 record;
    std::memset(&record, 0, sizeof record);
    record.kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
    record.start = launched.start;
    record.end = launched.start + 2000;
    record.deviceId = 0;
    record.contextId = 1;
    record.streamId = launched.streamId;
    record.gridX = 256, record.gridY = 1, record.gridZ = 1;
    record.blockX = 256, record.blockY = 1, record.blockZ = 1;
    record.registersPerThread = 16;
    record.correlationId = launched.correlationId;
    record.name = kKernelName;
    return record;
}

// The driver's cuLaunchKernel: its entry and exit, and its kernel's record under `recordId`.
void DriverLaunch(uint64_t stream, uint32_t recordId) {
    const uint32_t correlationId = ++g_correlation;
    cuLaunchKernel_params params{};
    params.f = Kernel();
    params.gridDimX = 256, params.gridDimY = 1, params.gridDimZ = 1;
    params.blockDimX = 256, params.blockDimY = 1, params.blockDimZ = 1;
    params.hStream = reinterpret_cast<CUstream>(stream);
    const CUresult result = CUDA_SUCCESS;
    Deliver(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, CUPTI_API_ENTER, "cuLaunchKernel", correlationId,
            &params, nullptr, kKernelName);
    KeepKernel(recordId ? recordId : correlationId, stream);
    SpendLaunchTime();
    Deliver(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, CUPTI_API_EXIT, "cuLaunchKernel", correlationId,
            &params, &result, kKernelName);
}

}  // namespace

// ---- the control functions (fake_cuda.h) ----------------------------------------------------------------

FAKE_EXPORT void FakeCudaCreateContext() {
    CUpti_CallbackFunc callback = nullptr;
    void* userdata = nullptr;
    if (!Enabled(CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_CONTEXT_CREATED, &callback, &userdata)) return;
    CUpti_ResourceData data{};
    data.context = Context();
    callback(userdata, CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_CONTEXT_CREATED, &data);
}

FAKE_EXPORT int FakeCudaRuntimeLaunch(uint64_t stream) {
    const uint32_t correlationId = ++g_correlation;
    cudaLaunchKernel_v7000_params params{};
    params.func = &g_kernel;
    params.gridDim = dim3(256);
    params.blockDim = dim3(256);
    params.stream = reinterpret_cast<cudaStream_t>(stream);
    const cudaError_t result = cudaSuccess;
    Deliver(CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, CUPTI_API_ENTER, "cudaLaunchKernel",
            correlationId, &params, nullptr, kKernelName);
    DriverLaunch(stream, correlationId);
    Deliver(CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, CUPTI_API_EXIT, "cudaLaunchKernel",
            correlationId, &params, &result, kKernelName);
    return 0;
}

FAKE_EXPORT int FakeCudaDriverLaunch(uint64_t stream) {
    DriverLaunch(stream, 0);
    return 0;
}

FAKE_EXPORT int FakeCudaGetLastError() {
    const uint32_t correlationId = ++g_correlation;
    const cudaError_t result = cudaSuccess;
    Deliver(CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaGetLastError_v3020, CUPTI_API_ENTER, "cudaGetLastError",
            correlationId, nullptr, nullptr, nullptr);
    Deliver(CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaGetLastError_v3020, CUPTI_API_EXIT, "cudaGetLastError",
            correlationId, nullptr, &result, nullptr);
    return 0;
}

FAKE_EXPORT uint64_t FakeCudaCallbacksDelivered(uint64_t* getLastErrorCallbacks) {
    if (getLastErrorCallbacks) *getLastErrorCallbacks = g_getLastErrorDelivered.load();
    return g_delivered.load();
}

// ---- CUPTI's tracing functions -----------------------------------------------------------------------------

FAKE_EXPORT CUptiResult cuptiSubscribe(CUpti_SubscriberHandle* subscriber, CUpti_CallbackFunc callback, void* userdata) {
    State& state = Get();
    std::lock_guard<std::mutex> lock(state.mutex);
    if (state.callback) return CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED;
    state.callback = callback;
    state.userdata = userdata;
    *subscriber = reinterpret_cast<CUpti_SubscriberHandle>(&state);
    return CUPTI_SUCCESS;
}

FAKE_EXPORT CUptiResult cuptiUnsubscribe(CUpti_SubscriberHandle) {
    State& state = Get();
    std::lock_guard<std::mutex> lock(state.mutex);
    state.callback = nullptr;
    return CUPTI_SUCCESS;
}

FAKE_EXPORT CUptiResult cuptiEnableDomain(uint32_t enable, CUpti_SubscriberHandle, CUpti_CallbackDomain domain) {
    if (domain <= CUPTI_CB_DOMAIN_INVALID || domain >= CUPTI_CB_DOMAIN_SIZE) return CUPTI_ERROR_INVALID_PARAMETER;
    State& state = Get();
    std::lock_guard<std::mutex> lock(state.mutex);
    state.domains[domain] = enable != 0;
    for (auto it = state.callbacks.begin(); it != state.callbacks.end();) {
        it = it->first.first == domain ? state.callbacks.erase(it) : std::next(it);
    }
    return CUPTI_SUCCESS;
}

FAKE_EXPORT CUptiResult cuptiEnableCallback(uint32_t enable, CUpti_SubscriberHandle, CUpti_CallbackDomain domain, CUpti_CallbackId cbid) {
    if (domain <= CUPTI_CB_DOMAIN_INVALID || domain >= CUPTI_CB_DOMAIN_SIZE) return CUPTI_ERROR_INVALID_PARAMETER;
    State& state = Get();
    std::lock_guard<std::mutex> lock(state.mutex);
    state.callbacks[{domain, cbid}] = enable != 0;
    return CUPTI_SUCCESS;
}

FAKE_EXPORT CUptiResult cuptiActivityEnable(CUpti_ActivityKind kind) {
    if (kind != CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) return CUPTI_SUCCESS;  // copies and sets: none are made
    State& state = Get();
    std::lock_guard<std::mutex> lock(state.mutex);
    state.kernelActivity = true;
    return CUPTI_SUCCESS;
}

FAKE_EXPORT CUptiResult cuptiActivityDisable(CUpti_ActivityKind kind) {
    if (kind != CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) return CUPTI_SUCCESS;
    State& state = Get();
    std::lock_guard<std::mutex> lock(state.mutex);
    state.kernelActivity = false;
    return CUPTI_SUCCESS;
}

FAKE_EXPORT CUptiResult cuptiActivityRegisterCallbacks(CUpti_BuffersCallbackRequestFunc requested, CUpti_BuffersCallbackCompleteFunc completed) {
    State& state = Get();
    std::lock_guard<std::mutex> lock(state.mutex);
    state.bufferRequested = requested;
    state.bufferCompleted = completed;
    return CUPTI_SUCCESS;
}

FAKE_EXPORT CUptiResult cuptiActivityRegisterTimestampCallback(CUpti_TimestampCallbackFunc timestamp) {
    State& state = Get();
    std::lock_guard<std::mutex> lock(state.mutex);
    state.timestamp = timestamp;
    return CUPTI_SUCCESS;
}

// Buffers hold whole CUpti_ActivityKernel10 records, one after another.
FAKE_EXPORT CUptiResult cuptiActivityGetNextRecord(uint8_t* buffer, size_t validSize, CUpti_Activity** record) {
    uint8_t* next = *record ? reinterpret_cast<uint8_t*>(*record) + sizeof(CUpti_ActivityKernel10) : buffer;
    if (next + sizeof(CUpti_ActivityKernel10) > buffer + validSize) return CUPTI_ERROR_MAX_LIMIT_REACHED;
    *record = reinterpret_cast<CUpti_Activity*>(next);
    return CUPTI_SUCCESS;
}

FAKE_EXPORT CUptiResult cuptiActivityFlushAll(uint32_t) {
    State& state = Get();
    // One flush at a time, as CUPTI's: a flush waits for the one in progress to hand its buffers over.
    static std::mutex* flushing = new std::mutex();  // never freed: flushes come while the process ends
    std::lock_guard<std::mutex> one(*flushing);
    std::vector<State::Launched> kernels;
    CUpti_BuffersCallbackRequestFunc requested = nullptr;
    CUpti_BuffersCallbackCompleteFunc completed = nullptr;
    {
        std::lock_guard<std::mutex> lock(state.mutex);
        kernels.swap(state.kernels);
        requested = state.bufferRequested;
        completed = state.bufferCompleted;
    }
    if (!requested || !completed) return CUPTI_SUCCESS;
    size_t at = 0;
    while (at < kernels.size()) {
        uint8_t* buffer = nullptr;
        size_t size = 0, maxRecords = 0;
        requested(&buffer, &size, &maxRecords);
        if (!buffer || size < sizeof(CUpti_ActivityKernel10)) return CUPTI_ERROR_UNKNOWN;
        const size_t fit = std::min(size / sizeof(CUpti_ActivityKernel10), kernels.size() - at);
        for (size_t i = 0; i < fit; ++i) {
            const CUpti_ActivityKernel10 record = RecordOf(kernels[at + i]);
            std::memcpy(buffer + i * sizeof record, &record, sizeof record);
        }
        at += fit;
        completed(Context(), 0, buffer, size, fit * sizeof(CUpti_ActivityKernel10));
    }
    return CUPTI_SUCCESS;
}

// CUPTI's own thread hands buffers over every `period` ms (0: no more), as gpaprof asks it to: the records then
// come on another thread while the application launches. FAKE_CUDA_FLUSH_MS shortens the period for tests (whose
// programs run for less than gpaprof's 100 ms).
FAKE_EXPORT CUptiResult cuptiActivityFlushPeriod(uint32_t period) {
    static std::atomic<uint32_t>* current = new std::atomic<uint32_t>(0);
    static std::once_flag started;
    if (const char* shorter = std::getenv("FAKE_CUDA_FLUSH_MS"); shorter && period > 0) {
        period = static_cast<uint32_t>(std::max(1l, std::strtol(shorter, nullptr, 10)));
    }
    current->store(period);
    if (period == 0) return CUPTI_SUCCESS;
    std::call_once(started, [] {
        std::thread([] {
            for (;;) {
                const uint32_t ms = current->load();
                std::this_thread::sleep_for(std::chrono::milliseconds(ms ? ms : 10));
                if (current->load()) cuptiActivityFlushAll(0);
            }
        }).detach();
    });
    return CUPTI_SUCCESS;
}

FAKE_EXPORT CUptiResult cuptiActivityGetNumDroppedRecords(CUcontext, uint32_t, size_t* dropped) {
    *dropped = 0;
    return CUPTI_SUCCESS;
}

FAKE_EXPORT CUptiResult cuptiGetTimestamp(uint64_t* timestamp) {
    *timestamp = Monotonic();
    return CUPTI_SUCCESS;
}

FAKE_EXPORT CUptiResult cuptiGetResultString(CUptiResult, const char** text) {
    *text = "CUPTI_ERROR_FAKE";
    return CUPTI_SUCCESS;
}

FAKE_EXPORT CUptiResult cuptiGetDeviceId(CUcontext, uint32_t* device) {
    *device = 0;
    return CUPTI_SUCCESS;
}

FAKE_EXPORT CUptiResult cuptiGetContextId(CUcontext, uint32_t* context) {
    *context = 1;
    return CUPTI_SUCCESS;
}

// ---- the driver functions gpaprof calls itself ------------------------------------------------------------

FAKE_EXPORT CUresult cuDeviceGet(CUdevice* device, int ordinal) {
    if (ordinal != 0) return CUDA_ERROR_INVALID_DEVICE;
    *device = 0;
    return CUDA_SUCCESS;
}
FAKE_EXPORT CUresult cuDeviceGetCount(int* count) {
    *count = 1;
    return CUDA_SUCCESS;
}
FAKE_EXPORT CUresult cuDeviceGetName(char* name, int length, CUdevice) {
    std::strncpy(name, "Fake CUDA device", static_cast<size_t>(length));
    if (length > 0) name[length - 1] = '\0';
    return CUDA_SUCCESS;
}
FAKE_EXPORT CUresult cuDeviceGetAttribute(int* value, CUdevice_attribute attribute, CUdevice) {
    switch (attribute) {
        case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: *value = 4; break;
        case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR: *value = 9; break;
        case CU_DEVICE_ATTRIBUTE_WARP_SIZE: *value = 32; break;
        case CU_DEVICE_ATTRIBUTE_CLOCK_RATE: *value = 1000000; break;
        default: *value = 0; break;
    }
    return CUDA_SUCCESS;
}
FAKE_EXPORT CUresult cuDriverGetVersion(int* version) {
    *version = 13000;
    return CUDA_SUCCESS;
}
FAKE_EXPORT CUresult cuCtxGetDevice(CUdevice* device) {
    *device = 0;
    return CUDA_SUCCESS;
}
FAKE_EXPORT CUresult cuCtxGetCurrent(CUcontext* context) {
    *context = Context();
    return CUDA_SUCCESS;
}
FAKE_EXPORT CUresult cuGetErrorName(CUresult, const char** name) {
    *name = "CUDA_ERROR_FAKE";
    return CUDA_SUCCESS;
}
FAKE_EXPORT CUresult cuCtxSynchronize() { return CUDA_SUCCESS; }
FAKE_EXPORT CUresult cuStreamSynchronize(CUstream) { return CUDA_SUCCESS; }
// What only counters and replay use: not made up.
FAKE_EXPORT CUresult cuFuncGetAttribute(int*, CUfunction_attribute, CUfunction) { return CUDA_ERROR_NOT_SUPPORTED; }
FAKE_EXPORT CUresult cuFuncSetAttribute(CUfunction, CUfunction_attribute, int) { return CUDA_ERROR_NOT_SUPPORTED; }
FAKE_EXPORT CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int*, CUfunction, int, size_t) { return CUDA_ERROR_NOT_SUPPORTED; }
FAKE_EXPORT CUresult cuLaunchKernel(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, CUstream, void**, void**) {
    return CUDA_ERROR_NOT_SUPPORTED;
}
FAKE_EXPORT CUresult cuMemAlloc_v2(CUdeviceptr*, size_t) { return CUDA_ERROR_NOT_SUPPORTED; }
FAKE_EXPORT CUresult cuMemFree_v2(CUdeviceptr) { return CUDA_ERROR_NOT_SUPPORTED; }
FAKE_EXPORT CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr, CUdeviceptr, size_t, CUstream) { return CUDA_ERROR_NOT_SUPPORTED; }
FAKE_EXPORT CUresult cuModuleGetGlobal_v2(CUdeviceptr*, size_t*, CUmodule, const char*) { return CUDA_ERROR_NOT_SUPPORTED; }
FAKE_EXPORT CUresult cuMemGetAddressRange_v2(CUdeviceptr*, size_t*, CUdeviceptr) { return CUDA_ERROR_NOT_SUPPORTED; }
FAKE_EXPORT CUresult cuPointerGetAttribute(void*, CUpointer_attribute, CUdeviceptr) { return CUDA_ERROR_NOT_SUPPORTED; }
FAKE_EXPORT CUresult cuCtxPushCurrent_v2(CUcontext) { return CUDA_ERROR_NOT_SUPPORTED; }
FAKE_EXPORT CUresult cuCtxPopCurrent_v2(CUcontext*) { return CUDA_ERROR_NOT_SUPPORTED; }
FAKE_EXPORT CUresult cuStreamCreate(CUstream*, unsigned int) { return CUDA_ERROR_NOT_SUPPORTED; }
FAKE_EXPORT CUresult cuMemGetInfo_v2(size_t*, size_t*) { return CUDA_ERROR_NOT_SUPPORTED; }
