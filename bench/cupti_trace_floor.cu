// What CUPTI itself costs a launch loop, before any tool does anything with what it gets: the floor under
// gpaprof -t. The loop of bench/launch_loop (one kernel launch and one cudaGetLastError per iteration), with
// CUPTI set up in this process as --cupti says, and callbacks that return at once.
//
//   cupti_trace_floor [--launches N] [--elements E] [--cupti FEATURES]
//   FEATURES, comma-separated (default: none):
//     conc        activity CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL (what gpaprof -t enables)
//     kernel      activity CUPTI_ACTIVITY_KIND_KERNEL (serialises kernels; no per-block instrumentation)
//     rt, drv     the whole runtime / driver callback domain (gpaprof subscribes both)
//     rtlaunch    runtime callbacks for the launch functions only (cudaLaunchKernel and friends)
//     drvlaunch   driver callbacks for the launch functions only (cuLaunchKernel and friends)
//     res         the resource domain
//     res4        only the four resource callbacks gpaprof enables (context and module creation and teardown)
//     copies      activity for memcpy and memset as well (gpaprof -t enables them)
//     tscb        activity timestamps from a callback on CLOCK_MONOTONIC (gpaprof -t registers one)
//     flush       a 100 ms periodic flush of the activity buffers (gpaprof -t sets one)
//     gpaprof     all that gpaprof -t sets up: conc,copies,tscb,flush,rt,drv,res4
//     extcorr     an external correlation id pushed and popped around each launch, with its activity records (what
//                 a tracer that interposes the launch functions instead of taking CUPTI's callbacks would need to
//                 join its calls to CUPTI's kernel records)
//     record      a minimal record of each of the loop's two calls, as such a tracer would keep: two CLOCK_MONOTONIC
//                 reads and 64 bytes appended to a buffer of this thread
//     rtact, drvact  activity records of every runtime / driver API call (CUPTI_ACTIVITY_KIND_RUNTIME / DRIVER)
//     hotact      activity records of the launch loop's calls only (the launch functions, cudaGetLastError, the
//                 runtime's cuKernelGetName), through cuptiActivityEnableRuntimeApi / cuptiActivityEnableDriverApi
//     cold        the runtime and driver callback domains without the loop's calls (hotact's set): a tracer that
//                 takes every other call through callbacks and the hot ones through activity records
//     zeroed, pinned, bigdev, shared   activity attributes: buffers handed over zeroed (CUPTI then does not
//                 zero them on the launching thread), pinned host memory for the device-side records, 64 MiB
//                 device buffers, one activity buffer for all threads instead of one per thread
//   prints: cupti_trace_floor cupti=F launches=N elements=E loop_seconds=S us_per_launch=U callbacks=C records=R
//
// Diagnostic for docs/benchmarks.md ("Trace mode: where the time goes"); bench/trace_overhead.sh runs it.
#include <cuda.h>
#include <cupti.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

#include "bench_kernels.cuh"

namespace {

std::atomic<unsigned long long> g_callbacks{0};
std::atomic<unsigned long long> g_records{0};
std::atomic<unsigned long long> g_resource[64];  // resource callbacks by id, to name the one each launch makes

double Seconds() {
    timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return now.tv_sec + now.tv_nsec * 1e-9;
}

#define CUPTI_CHECK(call)                                                                        \
    do {                                                                                         \
        const CUptiResult cupti_result_ = (call);                                                \
        if (cupti_result_ != CUPTI_SUCCESS) {                                                    \
            const char* text = nullptr;                                                          \
            cuptiGetResultString(cupti_result_, &text);                                          \
            std::fprintf(stderr, "%s failed: %s\n", #call, text ? text : "?");                   \
            std::exit(2);                                                                        \
        }                                                                                        \
    } while (0)

void CUPTIAPI Callback(void*, CUpti_CallbackDomain domain, CUpti_CallbackId id, const void*) {
    g_callbacks.fetch_add(1, std::memory_order_relaxed);
    if (domain == CUPTI_CB_DOMAIN_RESOURCE && id < 64) g_resource[id].fetch_add(1, std::memory_order_relaxed);
}

bool g_zeroed = false;
bool g_externalCorrelation = false;
bool g_record = false;

uint64_t CUPTIAPI MonotonicNs() {
    timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return static_cast<uint64_t>(now.tv_sec) * 1000000000ull + static_cast<uint64_t>(now.tv_nsec);
}

void CUPTIAPI BufferRequested(uint8_t** buffer, size_t* size, size_t* maxRecords) {
    constexpr size_t kSize = 8u << 20;
    *buffer = static_cast<uint8_t*>(std::aligned_alloc(8, kSize));
    if (g_zeroed) std::memset(*buffer, 0, kSize);
    *size = kSize;
    *maxRecords = 0;
}

void CUPTIAPI BufferCompleted(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t validSize) {
    CUpti_Activity* record = nullptr;
    while (cuptiActivityGetNextRecord(buffer, validSize, &record) == CUPTI_SUCCESS) {
        g_records.fetch_add(1, std::memory_order_relaxed);
    }
    std::free(buffer);
}

// The launch loop's calls, as a tracer would take them through activity records instead of callbacks.
constexpr CUpti_CallbackId kHotRuntime[] = {
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000,        CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060,    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060,
    CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_v13000,     CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_ptsz_v13000,
    CUPTI_RUNTIME_TRACE_CBID_cudaGetLastError_v3020,        CUPTI_RUNTIME_TRACE_CBID_cudaPeekAtLastError_v3020};
constexpr CUpti_CallbackId kHotDriver[] = {
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel,   CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuKernelGetName,  CUPTI_DRIVER_TRACE_CBID_cuFuncGetName};

bool Has(const std::string& features, const char* name) {
    const std::string padded = "," + features + ",";
    return padded.find("," + std::string(name) + ",") != std::string::npos;
}

void SetUpCupti(std::string features) {
    if (features == "none") return;
    if (Has(features, "gpaprof")) features += ",conc,copies,tscb,flush,rt,drv,res4";
    const bool activity = Has(features, "conc") || Has(features, "kernel");
    if (activity) {
        auto attribute = [](CUpti_ActivityAttribute which, auto value) {
            size_t size = sizeof value;
            CUPTI_CHECK(cuptiActivitySetAttribute(which, &size, &value));
        };
        g_zeroed = Has(features, "zeroed");
        if (g_zeroed) attribute(CUPTI_ACTIVITY_ATTR_ZEROED_OUT_ACTIVITY_BUFFER, uint8_t{1});
        if (Has(features, "pinned")) attribute(CUPTI_ACTIVITY_ATTR_MEM_ALLOCATION_TYPE_HOST_PINNED, uint8_t{1});
        if (Has(features, "bigdev")) attribute(CUPTI_ACTIVITY_ATTR_DEVICE_BUFFER_SIZE, size_t{64} << 20);
        if (Has(features, "shared")) attribute(CUPTI_ACTIVITY_ATTR_PER_THREAD_ACTIVITY_BUFFER, uint8_t{0});
        if (Has(features, "tscb")) CUPTI_CHECK(cuptiActivityRegisterTimestampCallback(&MonotonicNs));
        CUPTI_CHECK(cuptiActivityRegisterCallbacks(&BufferRequested, &BufferCompleted));
        CUPTI_CHECK(cuptiActivityEnable(Has(features, "conc") ? CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL
                                                              : CUPTI_ACTIVITY_KIND_KERNEL));
        if (Has(features, "copies")) {
            CUPTI_CHECK(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMCPY));
            CUPTI_CHECK(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMSET));
        }
        if (Has(features, "flush")) CUPTI_CHECK(cuptiActivityFlushPeriod(100));
        if (Has(features, "rtact")) CUPTI_CHECK(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_RUNTIME));
        if (Has(features, "drvact")) CUPTI_CHECK(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_DRIVER));
        if (Has(features, "hotact")) {
            for (CUpti_CallbackId id : kHotRuntime) CUPTI_CHECK(cuptiActivityEnableRuntimeApi(id, 1));
            for (CUpti_CallbackId id : kHotDriver) CUPTI_CHECK(cuptiActivityEnableDriverApi(id, 1));
        }
        g_externalCorrelation = Has(features, "extcorr");
        if (g_externalCorrelation) CUPTI_CHECK(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION));
    }
    g_record = Has(features, "record");
    const bool callbacks = Has(features, "rt") || Has(features, "drv") || Has(features, "rtlaunch") ||
                           Has(features, "drvlaunch") || Has(features, "res") || Has(features, "res4") ||
                           Has(features, "cold");
    if (!callbacks) return;
    CUpti_SubscriberHandle subscriber = nullptr;
    CUPTI_CHECK(cuptiSubscribe(&subscriber, reinterpret_cast<CUpti_CallbackFunc>(&Callback), nullptr));
    if (Has(features, "rt")) CUPTI_CHECK(cuptiEnableDomain(1, subscriber, CUPTI_CB_DOMAIN_RUNTIME_API));
    if (Has(features, "drv")) CUPTI_CHECK(cuptiEnableDomain(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API));
    if (Has(features, "res")) CUPTI_CHECK(cuptiEnableDomain(1, subscriber, CUPTI_CB_DOMAIN_RESOURCE));
    if (Has(features, "cold")) {
        CUPTI_CHECK(cuptiEnableDomain(1, subscriber, CUPTI_CB_DOMAIN_RUNTIME_API));
        CUPTI_CHECK(cuptiEnableDomain(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API));
        for (CUpti_CallbackId id : kHotRuntime) CUPTI_CHECK(cuptiEnableCallback(0, subscriber, CUPTI_CB_DOMAIN_RUNTIME_API, id));
        for (CUpti_CallbackId id : kHotDriver) CUPTI_CHECK(cuptiEnableCallback(0, subscriber, CUPTI_CB_DOMAIN_DRIVER_API, id));
    }
    if (Has(features, "res4")) {
        for (CUpti_CallbackId id : {CUPTI_CBID_RESOURCE_CONTEXT_CREATED, CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING,
                                    CUPTI_CBID_RESOURCE_MODULE_LOADED, CUPTI_CBID_RESOURCE_MODULE_UNLOAD_STARTING}) {
            CUPTI_CHECK(cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RESOURCE, id));
        }
    }
    if (Has(features, "rtlaunch")) {
        for (CUpti_CallbackId id : {CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000,
                                    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000,
                                    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060}) {
            CUPTI_CHECK(cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RUNTIME_API, id));
        }
    }
    if (Has(features, "drvlaunch")) {
        for (CUpti_CallbackId id : {CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
                                    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz}) {
            CUPTI_CHECK(cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API, id));
        }
    }
}

// The record an interposing tracer would keep of one call: its times and a few words of arguments.
struct CallRecord {
    uint64_t start, end, what, arguments[5];
};
static_assert(sizeof(CallRecord) == 64);

template <typename Call>
void Recorded(std::vector<CallRecord>* records, uint64_t what, Call&& call) {
    if (!g_record) {
        call();
        return;
    }
    CallRecord record{};
    record.start = MonotonicNs();
    call();
    record.end = MonotonicNs();
    record.what = what;
    records->push_back(record);
}

}  // namespace

int main(int argc, char** argv) {
    int launches = 20000, elements = 1 << 16;
    std::string features = "none";
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--launches")) launches = std::atoi(argv[i + 1]);
        else if (!std::strcmp(argv[i], "--elements")) elements = std::atoi(argv[i + 1]);
        else if (!std::strcmp(argv[i], "--cupti")) features = argv[i + 1];
    }
    elements = (elements + 255) / 256 * 256;
    SetUpCupti(features);
    BenchBuffers buffers;
    buffers.Allocate(elements);
    for (int l = 0; l < 100; ++l) buffers.Launch(0);  // warm-up: module load, first-launch costs
    BENCH_CHECK(cudaDeviceSynchronize());
    std::vector<CallRecord> records;
    records.reserve(g_record ? 2 * static_cast<size_t>(launches) : 0);
    const unsigned long long callbacksBefore = g_callbacks.load();
    const double start = Seconds();
    for (int l = 0; l < launches; ++l) {
        if (g_externalCorrelation) {
            CUPTI_CHECK(cuptiActivityPushExternalCorrelationId(CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, l + 1));
        }
        Recorded(&records, 1, [&] { buffers.Launch(0); });
        if (g_externalCorrelation) {
            uint64_t popped = 0;
            CUPTI_CHECK(cuptiActivityPopExternalCorrelationId(CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, &popped));
        }
        Recorded(&records, 2, [&] { BENCH_CHECK(cudaGetLastError()); });
    }
    BENCH_CHECK(cudaDeviceSynchronize());
    const double seconds = Seconds() - start;
    const unsigned long long callbacks = g_callbacks.load() - callbacksBefore;
    buffers.Free();
    cuptiActivityFlushAll(1);
    std::string resources;
    for (int id = 0; id < 64; ++id) {
        if (g_resource[id].load()) resources += " resource" + std::to_string(id) + "=" + std::to_string(g_resource[id].load());
    }
    std::printf("cupti_trace_floor%s\n", resources.c_str());
    std::printf("cupti_trace_floor cupti=%s launches=%d elements=%d loop_seconds=%.6f us_per_launch=%.3f "
                "callbacks_per_launch=%.2f records=%llu\n",
                features.c_str(), launches, elements, seconds, seconds * 1e6 / launches,
                static_cast<double>(callbacks) / launches, g_records.load());
    return 0;
}
