// Where counter mode's time per dispatch and pass goes: what each pass of a metric set costs per profiled
// launch under CUPTI's range profiler (auto ranges, user replay, as gpaprof's own replay uses it), and what
// each metric costs alone. Diagnostic for docs/benchmarks.md, run by bench/counter_pass_cost.sh.
//
//   range_pass_cost --metrics a,b,... [--launches N] [--elements E] [--flush 0|1] [--per-metric 0|1]
//                   [--room K]
//     --flush 1      gpaprof's L2 flush kernel before each launch (a range of its own)
//     --per-metric 1 also each metric alone, in a configuration of its own
//     --room K       counter data image with room for K times the ranges a pass makes (image size's effect)
//     --range user   user ranges pushed and popped around each launch (the flush outside them) instead of auto
//   prints: range_pass_cost set=all group=G pass=P ms_per_launch=X          (each pass of the whole set)
//           range_pass_cost set=all passes=P ms_per_launch=X configure_ms=C first_start_ms=F start_ms=T stop_ms=S
//                           decode_ms=D ranges=R
//           range_pass_cost metric=NAME passes=P ms_per_launch=X             (with --per-metric 1)
#include <cuda.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <sstream>
#include <string>
#include <vector>

#include "backends/cuda/cupti_host.h"
#include "backends/cuda/cupti_loader.h"
#include "backends/cuda/cupti_pass_planner.h"
#include "backends/cuda/cuda_driver_loader.h"
#include "backends/cuda/range_profiler.h"
#include "range_flush_kernels.h"
#include "tools/gpaprof/cuda/cupti_tracing_api.h"
#include "tools/gpaprof/cuda/l2_flush.h"

namespace {

using namespace gpa::cuda;

double Seconds() {
    timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

[[noreturn]] void Fail(const std::string& what) {
    std::fprintf(stderr, "range_pass_cost: %s\n", what.c_str());
    std::exit(2);
}

void Check(const gpa::Outcome& outcome, const std::string& what) {
    if (!outcome.ok()) Fail(what + ": " + outcome.reason());
}

struct Options {
    std::vector<std::string> metrics;
    int launches = 100;
    int elements = 1 << 16;
    bool flush = false;
    bool perMetric = false;
    int room = 1;
    bool userRanges = false;
};

struct GroupCost {
    std::vector<double> passMs;  // wall ms of each pass's launches, synchronised
    double configureMs = 0, firstStartMs = 0, startMs = 0, stopMs = 0, decodeMs = 0;
    size_t ranges = 0;
};

class Probe {
public:
    explicit Probe(const Options& options) : options_(options) {
        ProbeSetUp(options.elements);
        std::string problem;
        tracing_ = gpaprof::cuda::LoadTracingApi(&problem);
        if (!tracing_) Fail("LoadTracingApi: " + problem);
        tracing_->cuCtxGetCurrent(&context_);
        tracing_->cuStreamCreate(&stream_, CU_STREAM_NON_BLOCKING);
        flush_ = std::make_unique<gpaprof::cuda::L2Flush>(tracing_);
        Check(LoadCupti(&cupti_), "LoadCupti");
        Check(LoadDriver(&driver_), "LoadDriver");
        Check(InitializeCuptiProfiler(*cupti_), "cuptiProfilerInitialize");
        CUdevice device = 0;
        driver_->cuCtxGetDevice(&device);
        Check(QueryChipName(*cupti_, device, &chip_), "chip");
        availability_ = QueryCounterAvailability(*cupti_, *driver_, context_);
        Check(RangeProfiler::Create(*cupti_, *driver_, context_, &profiler_), "RangeProfiler");
    }

    MetricPlan Plan(const std::vector<std::string>& metrics) {
        MetricPlan plan;
        Check(PlanMetrics(*cupti_, chip_, availability_, metrics, &plan), "PlanMetrics");
        return plan;
    }

    // Every pass of one configuration over the probe's launches.
    GroupCost Run(const ConfigGroup& group) {
        GroupCost cost;
        auto lock = RangeProfiler::Lock();
        std::vector<uint8_t> counterData;
        const bool flushRange = options_.flush && !options_.userRanges;
        const size_t rangesPerPass = static_cast<size_t>(options_.launches) * (flushRange ? 2 : 1);
        double start = Seconds();
        Check(profiler_->Configure(group.configImage, group.metrics, rangesPerPass * options_.room, &counterData,
                                   options_.userRanges ? CUPTI_UserRange : CUPTI_AutoRange, CUPTI_UserReplay, {}),
              "Configure");
        cost.configureMs = (Seconds() - start) * 1e3;
        for (uint32_t pass = 0;; ++pass) {
            if (pass > 64) Fail("CUPTI never said that every pass was submitted");
            start = Seconds();
            Check(profiler_->Start(), "Start");
            const double startMs = (Seconds() - start) * 1e3;
            if (pass == 0) cost.firstStartMs = startMs;
            cost.startMs += startMs;
            start = Seconds();
            for (int l = 0; l < options_.launches; ++l) {
                std::string problem;
                if (options_.flush && !flush_->Run(context_, stream_, &problem)) Fail("flush: " + problem);
                if (options_.userRanges) Check(profiler_->PushRange("k"), "PushRange");
                ProbeLaunch(stream_);
                if (options_.userRanges) Check(profiler_->PopRange(), "PopRange");
            }
            tracing_->cuStreamSynchronize(stream_);
            cost.passMs.push_back((Seconds() - start) * 1e3);
            start = Seconds();
            bool all = false;
            Check(profiler_->Stop(&all), "Stop");
            cost.stopMs += (Seconds() - start) * 1e3;
            if (all) break;
        }
        start = Seconds();
        profiler_->FinishPending();
        cost.decodeMs = (Seconds() - start) * 1e3;
        std::vector<std::string> names;
        Check(CounterDataRangeNames(*cupti_, counterData, &names), "range names");
        cost.ranges = names.size();
        return cost;
    }

private:
    const Options& options_;
    const gpaprof::cuda::TracingApi* tracing_ = nullptr;
    CUcontext context_ = nullptr;
    CUstream stream_ = nullptr;
    std::unique_ptr<gpaprof::cuda::L2Flush> flush_;
    const CuptiApi* cupti_ = nullptr;
    const DriverApi* driver_ = nullptr;
    std::string chip_;
    std::vector<uint8_t> availability_;
    std::unique_ptr<RangeProfiler> profiler_;
};

std::vector<std::string> SplitCommas(const std::string& list) {
    std::vector<std::string> items;
    std::stringstream stream(list);
    for (std::string item; std::getline(stream, item, ',');) {
        if (!item.empty()) items.push_back(item);
    }
    return items;
}

}  // namespace

int main(int argc, char** argv) {
    Options options;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string flag = argv[i], value = argv[i + 1];
        if (flag == "--metrics") options.metrics = SplitCommas(value);
        else if (flag == "--launches") options.launches = std::atoi(value.c_str());
        else if (flag == "--elements") options.elements = std::atoi(value.c_str());
        else if (flag == "--flush") options.flush = value == "1";
        else if (flag == "--per-metric") options.perMetric = value == "1";
        else if (flag == "--room") options.room = std::max(1, std::atoi(value.c_str()));
        else if (flag == "--range") options.userRanges = value == "user";
        else Fail("unknown option " + flag);
    }
    if (options.metrics.empty()) Fail("--metrics a,b,... is required");
    Probe probe(options);

    const MetricPlan plan = probe.Plan(options.metrics);
    double totalMs = 0, configureMs = 0, firstStartMs = 0, startMs = 0, stopMs = 0, decodeMs = 0;
    size_t ranges = 0;
    uint32_t passes = 0;
    for (size_t g = 0; g < plan.groups.size(); ++g) {
        const GroupCost cost = probe.Run(plan.groups[g]);
        for (size_t p = 0; p < cost.passMs.size(); ++p) {
            std::printf("range_pass_cost set=all group=%zu pass=%zu ms_per_launch=%.4f\n", g, p,
                        cost.passMs[p] / options.launches);
            totalMs += cost.passMs[p];
        }
        passes += static_cast<uint32_t>(cost.passMs.size());
        configureMs += cost.configureMs;
        if (g == 0) firstStartMs = cost.firstStartMs;
        startMs += cost.startMs;
        stopMs += cost.stopMs;
        decodeMs += cost.decodeMs;
        ranges += cost.ranges;
    }
    std::printf("range_pass_cost set=all metrics=%zu passes=%u launches=%d flush=%d room=%d range=%s "
                "ms_per_launch=%.4f configure_ms=%.1f first_start_ms=%.1f start_ms=%.1f stop_ms=%.1f decode_ms=%.1f "
                "ranges=%zu\n",
                options.metrics.size(), passes, options.launches, options.flush ? 1 : 0, options.room,
                options.userRanges ? "user" : "auto",
                totalMs / options.launches, configureMs, firstStartMs, startMs, stopMs, decodeMs, ranges);
    std::fflush(stdout);
    if (!options.perMetric) return 0;
    for (const std::string& metric : options.metrics) {
        const MetricPlan alone = probe.Plan({metric});
        double ms = 0;
        uint32_t metricPasses = 0;
        for (const ConfigGroup& group : alone.groups) {
            const GroupCost cost = probe.Run(group);
            for (double passMs : cost.passMs) ms += passMs;
            metricPasses += static_cast<uint32_t>(cost.passMs.size());
        }
        std::printf("range_pass_cost metric=%s passes=%u ms_per_launch=%.4f\n", metric.c_str(), metricPasses,
                    ms / options.launches);
        std::fflush(stdout);
    }
    return 0;
}
