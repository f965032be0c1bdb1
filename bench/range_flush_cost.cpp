// What flushing the L2 before each profiled kernel costs, done in the ways gpaprof could do it, and what a
// kernel's measured duration is under each (CUPTI's range profiler, user replay, one pass; diagnostic for
// docs/benchmarks.md, run by bench/counter_flush_cost.sh).
//
//   range_flush_cost --mode M [--launches N] [--elements E] [--sync-before-stop 0|1]
//   modes:
//     auto            auto ranges, no flush: the profiled launch alone
//     auto-ownctx     auto ranges, gpaprof's flush kernel (l2_flush.h) in a context of its own (what gpaprof
//                     did until 2026-11-25)
//     auto-appctx     auto ranges, the flush kernel in the application's context on the kernel's stream
//                     (gpaprof's way on the Range Profiler API: a range of its own, skipped when reading results)
//     ownctx-alone    the flush in a context of its own before each launch, with no profiler on the device
//     user-appctx     user ranges pushed around each launch, the read kernel outside them
//     auto-memset     auto ranges, the flush as the driver's memset over twice the L2 (writes: dirty lines)
//     auto-copy       auto ranges, the flush as a device-to-device copy (reads one half, writes the other)
//     auto-graph      auto ranges, the read kernel inside a CUDA graph
//     auto-graph-lazy     the same, the graph made at the first flush (after the profiler started)
//     auto-graph-callback the same, the graph launched from CUPTI's callback at the launch's API entry (gpaprof's way)
//     auto-graph-null     the same as auto-graph, kernel and flush on the legacy default stream
//     legacy-disable  CUPTI's older Profiler API (RangeProfiler with ProfilerApi::Pausable), profiling paused
//                     around the flush kernel; every pass of a multi-pass --metrics set replayed
//     legacy-plain    the same API with the flush kernel profiled (a range of its own)
//   prints: range_flush_cost mode=M launches=N ms_per_launch=X kernel_us_median=D ranges=R
//   (ranges = 2N: the flush was a range of its own; N: it was not)
//   --sync-before-stop 0: CUPTI's Stop while the launches may still run (as gpaprof stops a pass)
//   --subscribe-first 1: CUPTI callbacks of the runtime and driver (and gpaprof's four resource callbacks)
//                        subscribed before the first CUDA call, as gpaprof's injection does
//   --start-in-callback 1|2|3 (auto-graph-callback): the profiler configured and started inside the first
//                        launch's callback, then the flush (1) or after it (2); 3: created there too, then the flush
//   --room-per-launch 1|2: ranges the counter data image has room for per launch (default: 2 where a flush
//                        may be a range; 1 shows whether CUPTI counts a flush against the room)
//   --stop-in-callback 1|2: Stop inside CUPTI's callback at the entry of one more launch (1) or of a
//                        cuCtxSynchronize (2) after the loop, as gpaprof stops
//   --copy-before 1: a 1 MiB device-to-device copy on the stream before each flush (as gpaprof's replay restores
//                        memory before each pass of a kernel)
//   --free-before-stop 1|2: a buffer made before the profiler started (1), or the probe's own buffers (2), freed
//                        after the loop, before Stop
//   --metrics a,b,...: these metrics (one pass; the legacy modes take several) instead of the first one-pass set of the list below
//   --load-catalog 1: the chip's whole metric catalog loaded before profiling (as gpaprof -p does; 2: kept alive)
//   --is-capturing 1: cuStreamIsCapturing on the stream before each flush, as gpaprof asks
//   --null-stream 1: kernel and flush on the legacy default stream, in every mode
//   --make-in-callback 1|2 (auto-graph-callback): the flush's graph made inside the first launch's callback (1)
//                        or on a thread of its own started there (2)
#include <cuda.h>
#include <cupti_callbacks.h>
#include <cupti_driver_cbid.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <atomic>
#include <functional>
#include <thread>
#include <string>
#include <vector>

#include "backends/cuda/cupti_host.h"
#include "backends/cuda/cupti_loader.h"
#include "backends/cuda/cupti_pass_planner.h"
#include "backends/cuda/metric_catalog.h"
#include "backends/cuda/cuda_driver_loader.h"
#include "backends/cuda/range_profiler.h"
#include "range_flush_kernels.h"
#include "tools/gpaprof/cuda/cupti_tracing_api.h"
#include "tools/gpaprof/cuda/l2_flush.h"

namespace {

// auto-graph-callback: the flush is queued from the launch's CUPTI callback, as gpaprof does.
bool g_flushInCallback = false;
CUstream g_callbackStream = nullptr;
thread_local bool g_inFlush = false;
// --start-in-callback: the profiler configured and started inside the first launch's callback, as gpaprof
// does (1: then the flush; 2: the flush first).
std::function<void()> g_start;
int g_startOrder = 0;
// --make-in-callback: the flush's graph made inside the first launch's callback (1) or on a thread of its own
// started from there (2), rather than before the loop.
int g_makeOrder = 0;
std::atomic<bool> g_making{false};
bool g_made = false;
void CallbackFlush(CUstream stream) { AltFlushGraph(stream); }

// --stop-in-callback: the profiler stopped inside CUPTI's callback at the entry of the launch (1) or of the
// context synchronisation (2) that follows the loop, as gpaprof stops a batch inside the callback of the launch
// that does not fit or of the call that needs the results.
int g_stopWhere = 0;
std::function<void()> g_stop;

void CUPTIAPI OnDriverCall(void*, CUpti_CallbackDomain domain, CUpti_CallbackId id, const void* data) {
    if (domain == CUPTI_CB_DOMAIN_DRIVER_API && g_stop &&
        static_cast<const CUpti_CallbackData*>(data)->callbackSite == CUPTI_API_ENTER &&
        ((g_stopWhere == 1 && (id == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel || id == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx)) ||
         (g_stopWhere == 2 && id == CUPTI_DRIVER_TRACE_CBID_cuCtxSynchronize))) {
        std::function<void()> stop = std::move(g_stop);
        g_stop = nullptr;
        stop();
        return;
    }
    if (domain != CUPTI_CB_DOMAIN_DRIVER_API || !g_flushInCallback || g_inFlush || g_making) return;
    if (id != CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel && id != CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz &&
        id != CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx && id != CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz) {
        return;
    }
    if (static_cast<const CUpti_CallbackData*>(data)->callbackSite != CUPTI_API_ENTER) return;
    g_inFlush = true;
    if (g_makeOrder != 0 && !g_made) {
        g_made = true;
        g_making = true;
        if (g_makeOrder == 1) {
            AltFlushSetUp();
        } else {
            std::thread helper([] { AltFlushSetUp(); });
            helper.join();
        }
        g_making = false;
    }
    if (g_start) {
        std::function<void()> start = std::move(g_start);
        g_start = nullptr;
        if (g_startOrder == 1 || g_startOrder == 3) start();
        CallbackFlush(g_callbackStream);
        if (g_startOrder == 2) start();
    } else {
        CallbackFlush(g_callbackStream);
    }
    g_inFlush = false;
}

double Seconds() {
    timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

[[noreturn]] void Fail(const std::string& what) {
    std::fprintf(stderr, "range_flush_cost: %s\n", what.c_str());
    std::exit(2);
}

void Check(const gpa::Outcome& outcome, const char* what) {
    if (!outcome.ok()) Fail(std::string(what) + ": " + outcome.reason());
}

}  // namespace

int main(int argc, char** argv) {
    std::string mode = "auto";
    int launches = 200, elements = 1 << 24;
    bool syncBeforeStop = true, subscribeFirst = false;
    int roomPerLaunch = 0;
    bool nullStream = false, copyBefore = false, isCapturing = false;
    int freeBeforeStop = 0, loadCatalog = 0;
    std::vector<std::string> chosenMetrics;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--mode")) mode = argv[i + 1];
        else if (!std::strcmp(argv[i], "--launches")) launches = std::atoi(argv[i + 1]);
        else if (!std::strcmp(argv[i], "--elements")) elements = std::atoi(argv[i + 1]);
        else if (!std::strcmp(argv[i], "--sync-before-stop")) syncBeforeStop = std::atoi(argv[i + 1]) != 0;
        else if (!std::strcmp(argv[i], "--subscribe-first")) subscribeFirst = std::atoi(argv[i + 1]) != 0;
        else if (!std::strcmp(argv[i], "--start-in-callback")) g_startOrder = std::atoi(argv[i + 1]);
        else if (!std::strcmp(argv[i], "--make-in-callback")) g_makeOrder = std::atoi(argv[i + 1]);
        else if (!std::strcmp(argv[i], "--room-per-launch")) roomPerLaunch = std::atoi(argv[i + 1]);
        else if (!std::strcmp(argv[i], "--null-stream")) nullStream = std::atoi(argv[i + 1]) != 0;
        else if (!std::strcmp(argv[i], "--copy-before")) copyBefore = std::atoi(argv[i + 1]) != 0;
        else if (!std::strcmp(argv[i], "--free-before-stop")) freeBeforeStop = std::atoi(argv[i + 1]);
        else if (!std::strcmp(argv[i], "--is-capturing")) isCapturing = std::atoi(argv[i + 1]) != 0;
        else if (!std::strcmp(argv[i], "--load-catalog")) loadCatalog = std::atoi(argv[i + 1]);
        else if (!std::strcmp(argv[i], "--metrics")) {
            for (const char* p = argv[i + 1]; *p;) {
                const char* comma = std::strchr(p, ',');
                chosenMetrics.emplace_back(p, comma ? comma : p + std::strlen(p));
                p = comma ? comma + 1 : p + std::strlen(p);
            }
        }
        else if (!std::strcmp(argv[i], "--stop-in-callback")) g_stopWhere = std::atoi(argv[i + 1]);
    }
    std::string problem;
    const gpaprof::cuda::TracingApi* tracing = gpaprof::cuda::LoadTracingApi(&problem);
    if (!tracing) Fail("LoadTracingApi: " + problem);
    CUpti_SubscriberHandle subscriber = nullptr;
    if (subscribeFirst) {
        // As gpaprof's injection: CUPTI callbacks of both API domains before the program's first CUDA call.
        if (tracing->cuptiSubscribe(&subscriber, OnDriverCall, nullptr) != CUPTI_SUCCESS ||
            tracing->cuptiEnableDomain(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API) != CUPTI_SUCCESS ||
            tracing->cuptiEnableDomain(1, subscriber, CUPTI_CB_DOMAIN_RUNTIME_API) != CUPTI_SUCCESS) {
            Fail("cuptiSubscribe");
        }
        for (CUpti_CallbackId resource : {CUPTI_CBID_RESOURCE_CONTEXT_CREATED, CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING,
                                          CUPTI_CBID_RESOURCE_MODULE_LOADED, CUPTI_CBID_RESOURCE_MODULE_UNLOAD_STARTING}) {
            tracing->cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RESOURCE, resource);
        }
    }
    ProbeSetUp(elements);
    CUcontext context = nullptr;
    tracing->cuCtxGetCurrent(&context);
    gpaprof::cuda::L2Flush l2Flush(tracing);
    CUstream stream = nullptr;
    tracing->cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING);
    // A context of the probe's own on the same device, with a stream, for the own-context modes.
    CUcontext own = nullptr;
    CUstream ownStream = nullptr;
    const bool ownContext = mode == "auto-ownctx" || mode == "ownctx-alone";
    if (ownContext) {
        CUdevice device = 0;
        tracing->cuCtxGetDevice(&device);
        if (!tracing->cuCtxCreate_v4 || tracing->cuCtxCreate_v4(&own, nullptr, 0, device) != CUDA_SUCCESS) Fail("cuCtxCreate");
        tracing->cuStreamCreate(&ownStream, CU_STREAM_NON_BLOCKING);
        CUcontext popped = nullptr;
        tracing->cuCtxPopCurrent_v2(&popped);
    }

    const bool legacy = mode == "legacy-disable" || mode == "legacy-plain";
    bool lazyMade = false;
    auto flush = [&] {
        if (ownContext) {
            tracing->cuStreamSynchronize(stream);
            tracing->cuCtxPushCurrent_v2(own);
            bool flushed = l2Flush.Run(own, ownStream, &problem);
            flushed = flushed && tracing->cuStreamSynchronize(ownStream) == CUDA_SUCCESS;
            CUcontext popped = nullptr;
            tracing->cuCtxPopCurrent_v2(&popped);
            if (!flushed) Fail("flush: " + problem);
        } else if (mode == "auto-appctx" || mode == "user-appctx" || legacy) {
            if (!l2Flush.Run(context, stream, &problem)) Fail("flush: " + problem);  // stream order: before the kernel
        } else if (mode == "auto-memset") {
            AltFlushMemset(stream);
        } else if (mode == "auto-copy") {
            AltFlushCopy(stream);
        } else if (mode == "auto-graph" || mode == "auto-graph-null") {
            AltFlushGraph(stream);
        } else if (mode == "auto-graph-lazy") {
            if (!lazyMade) AltFlushSetUp();
            lazyMade = true;
            AltFlushGraph(stream);
        } else if (mode == "auto-graph-callback") {
            g_flushInCallback = true;  // from the next launch's callback
        }
    };
    const bool graphVariant = mode == "auto-graph-lazy" || mode == "auto-graph-callback" || mode == "auto-graph-null";
    const bool altFlush = mode == "auto-memset" || mode == "auto-copy" || mode == "auto-graph" || graphVariant;
    if (altFlush && mode != "auto-graph-lazy" && !(mode == "auto-graph-callback" && g_makeOrder != 0)) AltFlushSetUp();
    if (mode == "auto-graph-null" || nullStream) stream = nullptr;

    if (mode == "auto-graph-callback" && !subscriber) {
        if (tracing->cuptiSubscribe(&subscriber, OnDriverCall, nullptr) != CUPTI_SUCCESS ||
            tracing->cuptiEnableDomain(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API) != CUPTI_SUCCESS) {
            Fail("cuptiSubscribe");
        }
        g_callbackStream = stream;
    }
    if (mode == "ownctx-alone") {
        flush();
        const double start = Seconds();
        for (int l = 0; l < launches; ++l) {
            flush();
            ProbeLaunch(stream);
        }
        tracing->cuCtxSynchronize();
        std::printf("range_flush_cost mode=%s launches=%d ms_per_launch=%.4f\n", mode.c_str(), launches,
                    (Seconds() - start) * 1e3 / launches);
        return 0;
    }

    using namespace gpa::cuda;
    const CuptiApi* cupti = nullptr;
    const DriverApi* driver = nullptr;
    Check(LoadCupti(&cupti), "LoadCupti");
    Check(LoadDriver(&driver), "LoadDriver");
    Check(InitializeCuptiProfiler(*cupti), "cuptiProfilerInitialize");
    CUdevice device = 0;
    driver->cuCtxGetDevice(&device);
    std::string chip;
    Check(QueryChipName(*cupti, device, &chip), "chip");
    const std::vector<uint8_t> availability = QueryCounterAvailability(*cupti, *driver, context);
    std::unique_ptr<MetricCatalog> catalog;
    if (loadCatalog != 0) Check(MetricCatalog::Load(*cupti, chip, availability, &catalog), "MetricCatalog::Load");
    if (loadCatalog == 1) catalog.reset();
    // The first of these sets that CUPTI collects in one pass.
    MetricPlan plan;
    std::vector<std::vector<std::string>> candidates{
        {"gpu__time_duration.sum", "lts__t_sector_hit_rate.pct", "dram__bytes_read.sum"},
        {"gpu__time_duration.sum", "lts__t_sector_hit_rate.pct"},
        {"gpu__time_duration.sum"}};
    if (!chosenMetrics.empty()) candidates = {chosenMetrics};
    for (const std::vector<std::string>& metrics : candidates) {
        Check(PlanMetrics(*cupti, chip, availability, metrics, &plan), "PlanMetrics");
        if (plan.groups.size() == 1 && (plan.groups[0].passes == 1 || legacy)) break;
    }
    // The legacy modes replay the loop for every pass of a multi-pass set (user replay).
    if (plan.groups.size() != 1 || (plan.groups[0].passes != 1 && !legacy)) Fail("no one-pass metric set");
    std::unique_ptr<HostObject> host;
    Check(HostObject::Create(*cupti, chip, availability, &host), "HostObject");
    if (host->AddMetrics(plan.groups[0].metrics) != CUPTI_SUCCESS) Fail("AddMetrics");
    std::unique_ptr<RangeProfiler> profiler;
    // --start-in-callback 3: the profiler is also created in the callback (then the flush), as gpaprof does.
    if (g_startOrder != 3) Check(RangeProfiler::Create(*cupti, *driver, context, &profiler), "RangeProfiler");
    const bool user = mode == "user-appctx";
    // Room for a range per flush too; whether the flush took one is read from the data.
    const bool flushRanges = mode == "auto-appctx" || altFlush || legacy;
    const size_t ranges = static_cast<size_t>(launches) * (roomPerLaunch > 0 ? roomPerLaunch : flushRanges ? 2 : 1);
    std::vector<uint8_t> counterData;
    auto configureAndStart = [&] {
        if (!profiler) Check(RangeProfiler::Create(*cupti, *driver, context, &profiler), "RangeProfiler");
        auto lock = RangeProfiler::Lock();
        Check(profiler->Configure(plan.groups[0].configImage, plan.groups[0].metrics, ranges, &counterData,
                                  user ? CUPTI_UserRange : CUPTI_AutoRange, CUPTI_UserReplay, {}),
              "Configure");
        Check(profiler->Start(), "Start");
    };
    double seconds = 0;
    if (legacy) {
        // The older Profiler API's session (range_profiler.h, ProfilerApi::Pausable), every pass of the set replayed.
        profiler.reset();
        Check(RangeProfiler::Create(*cupti, *driver, context, &profiler, ProfilerApi::Pausable), "RangeProfiler");
        if (!profiler->Pausable()) Fail("this CUPTI has no Profiler API sessions");
        {
            auto lock = RangeProfiler::Lock();
            Check(profiler->Configure(plan.groups[0].configImage, plan.groups[0].metrics, ranges, &counterData,
                                      CUPTI_AutoRange, CUPTI_UserReplay, {}, /*pausable=*/true),
                  "Configure");
        }
        if (!profiler->CanPause()) Fail("no Profiler API session: " + profiler->pauseLost());
        bool all = false;
        for (int pass = 0; !all && pass < 64; ++pass) {
            {
                auto lock = RangeProfiler::Lock();
                Check(profiler->Start(), "Start");
            }
            const double passStart = Seconds();
            for (int l = 0; l < launches; ++l) {
                if (mode == "legacy-disable") {
                    auto lock = RangeProfiler::Lock();
                    Check(profiler->Pause(), "Pause");
                }
                flush();
                if (mode == "legacy-disable") {
                    auto lock = RangeProfiler::Lock();
                    Check(profiler->Resume(), "Resume");
                }
                ProbeLaunch(stream);
            }
            tracing->cuCtxSynchronize();
            seconds += Seconds() - passStart;
            auto lock = RangeProfiler::Lock();
            Check(profiler->Stop(&all), "Stop");
        }
        auto lock = RangeProfiler::Lock();
        profiler->FinishPending();
    } else {
        if (mode == "auto-graph-callback" && g_startOrder != 0) {
            g_start = configureAndStart;
        } else {
            configureAndStart();
        }
        CUdeviceptr spare = 0;
        constexpr size_t kSpareBytes = 2u << 20;
        if ((copyBefore || freeBeforeStop == 1) && tracing->cuMemAlloc_v2(&spare, kSpareBytes) != CUDA_SUCCESS) Fail("cuMemAlloc");
        const double start = Seconds();
        for (int l = 0; l < launches; ++l) {
            if (copyBefore && tracing->cuMemcpyDtoDAsync_v2(spare + kSpareBytes / 2, spare, kSpareBytes / 2, stream) != CUDA_SUCCESS) {
                Fail("cuMemcpyDtoDAsync");
            }
            if (isCapturing) {
                CUstreamCaptureStatus status = CU_STREAM_CAPTURE_STATUS_NONE;
                tracing->cuStreamIsCapturing(stream, &status);
            }
            flush();
            std::unique_lock<std::mutex> lock;  // not while the callback may start the profiler
            if (user) lock = RangeProfiler::Lock();
            if (user) Check(profiler->PushRange(std::to_string(l)), "PushRange");
            ProbeLaunch(stream);
            if (user) Check(profiler->PopRange(), "PopRange");
        }
        if (syncBeforeStop) tracing->cuCtxSynchronize();
        seconds = Seconds() - start;
        if (freeBeforeStop == 1 && tracing->cuMemFree_v2(spare) != CUDA_SUCCESS) Fail("cuMemFree");
        if (freeBeforeStop == 2) ProbeFree();
        auto stopProfiler = [&] {
            auto lock = RangeProfiler::Lock();
            bool all = false;
            Check(profiler->Stop(&all), "Stop");  // without the sync before it: with the work still running
            profiler->FinishPending();
        };
        if (g_stopWhere != 0) {
            if (!subscriber && (tracing->cuptiSubscribe(&subscriber, OnDriverCall, nullptr) != CUPTI_SUCCESS ||
                                tracing->cuptiEnableDomain(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API) != CUPTI_SUCCESS)) {
                Fail("cuptiSubscribe");
            }
            g_stop = stopProfiler;
            if (g_stopWhere == 1) ProbeLaunch(stream);
            tracing->cuCtxSynchronize();
            if (g_stop) Fail("the callback did not stop the profiler");
        } else {
            stopProfiler();
        }
    }
    std::vector<std::string> names;
    Check(CounterDataRangeNames(*cupti, counterData, &names), "range names");
    std::vector<double> durations, hitRates;
    const size_t stride = names.size() >= 2 * static_cast<size_t>(launches) ? 2 : 1;  // flush, kernel, flush, ...
    for (size_t r = stride - 1; r < names.size(); r += stride) {
        std::vector<double> values;
        Check(host->Evaluate(counterData, r, plan.groups[0].metrics, &values), "Evaluate");
        for (size_t m = 0; m < values.size(); ++m) {
            if (plan.groups[0].metrics[m] == "gpu__time_duration.sum") durations.push_back(values[m] / 1e3);
            if (plan.groups[0].metrics[m] == "lts__t_sector_hit_rate.pct") hitRates.push_back(values[m]);
        }
    }
    auto median = [](std::vector<double> v) {
        if (v.empty()) return -1.0;
        std::sort(v.begin(), v.end());
        return v[v.size() / 2];
    };
    std::printf("range_flush_cost mode=%s launches=%d elements=%d ms_per_launch=%.4f kernel_us_median=%.3f "
                "l2_hit_pct_median=%.2f ranges=%zu\n",
                mode.c_str(), launches, elements, seconds * 1e3 / launches, median(durations), median(hitRates),
                names.size());
    return 0;
}
