#include "tools/gpaprof/cuda/counter_collector.h"

#include <chrono>
#include <cmath>
#include <limits>
#include <unordered_map>
#include <unordered_set>

#include "backends/cuda/cupti_host.h"
#include "backends/cuda/cupti_pass_planner.h"
#include "backends/cuda/gpa_compute_counters.h"
#include "backends/cuda/metric_catalog.h"
#include "backends/cuda/range_profiler.h"
#include "counters/counter_catalog.h"

namespace gpaprof::cuda {
namespace {

uint64_t NowNs() {
    return static_cast<uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count());
}

// Adds the time a scope took to a statistics field.
class Timed {
public:
    explicit Timed(uint64_t* total) : total_(total), start_(NowNs()) {}
    ~Timed() { *total_ += NowNs() - start_; }
    Timed(const Timed&) = delete;
    Timed& operator=(const Timed&) = delete;

private:
    uint64_t* total_;
    uint64_t start_;
};

gpa::DerivedCounterDefinition AchievedOccupancyDefinition() {
    gpa::DerivedCounterDefinition definition;
    definition.name = kAchievedOccupancyCounter;
    definition.group = "General";
    definition.description =
        "Achieved occupancy: the average number of warps active on an SM while it was active, in percent of the "
        "SM's maximum (NVIDIA sm__warps_active.avg.pct_of_peak_sustained_active). The .csv KernelOccupancy column "
        "is the theoretical value from the kernel's resources.";
    definition.type = GPA_TYPE_FLOAT64;
    definition.usage = GPA_USAGE_TYPE_PERCENTAGE;
    definition.expression = kAchievedOccupancyMetric;
    return definition;
}

bool LooksLikeMetric(const std::string& name) { return name.find("__") != std::string::npos; }

}  // namespace

const std::vector<std::string>& DefaultCudaCounters() {
    // One pass on GH100 (gpa-counters --chip GH100 --counters ...): time, work, memory traffic and the cache
    // hit rates. MemUnitBusy (L1TEX throughput) alone takes four passes on GH100, so it is not in the default.
    static const std::vector<std::string> names = {"GPUTime",  "Wavefronts", "FetchSize", "WriteSize",
                                                   "CacheHit", "L1CacheHit", "L2CacheHit"};
    return names;
}

struct CounterCollector::ChipSet {
    std::string chip;
    std::vector<uint8_t> availability;
    std::unique_ptr<gpa::cuda::MetricCatalog> metrics;
    std::vector<gpa::HardwareCounter> hardware;
    std::unordered_map<std::string, uint32_t> hardwareIndex;
    gpa::CounterCatalog catalog;
    std::vector<std::optional<uint32_t>> columnIndex;  // catalog index per column; empty: not on this chip
    gpa::cuda::MetricPlan plan;
    std::unique_ptr<gpa::cuda::HostObject> host;        // evaluates the first configuration group
    bool usable = false;
};

struct CounterCollector::ContextState {
    CUcontext context = nullptr;
    std::unique_ptr<gpa::cuda::RangeProfiler> profiler;
    ChipSet* chip = nullptr;
    bool failed = false;
    bool started = false;
    std::vector<uint8_t> counterData;  // the image being filled
    std::vector<DispatchRow> pending;  // launched kernels whose ranges are not decoded yet
    gpa::Outcome decoded;
};

CounterCollector::CounterCollector(agent::Agent* agent, std::vector<std::string> requested, uint32_t batch)
    : agent_(agent), requested_(std::move(requested)), batch_(batch == 0 ? 1 : batch) {}

CounterCollector::~CounterCollector() = default;

void CounterCollector::NoteOnce(const std::string& message) {
    for (const std::string& known : notes_) {
        if (known == message) return;
    }
    notes_.push_back(message);
    agent_->Note(message);
}

CounterCollector::ChipSet* CounterCollector::ChipFor(const std::string& chip, const std::vector<uint8_t>& availability) {
    auto found = chips_.find(chip);
    if (found != chips_.end()) return found->second.get();
    auto set = std::make_unique<ChipSet>();
    set->chip = chip;
    set->availability = availability;
    ChipSet* result = set.get();
    chips_[chip] = std::move(set);

    const gpa::cuda::CuptiApi* cupti = nullptr;
    if (gpa::Outcome o = gpa::cuda::LoadCupti(&cupti); !o.ok()) {
        NoteOnce("CUDA counters are unavailable: " + o.reason());
        return result;
    }
    if (gpa::Outcome o = gpa::cuda::MetricCatalog::Load(*cupti, chip, availability, &result->metrics); !o.ok()) {
        NoteOnce("CUDA counters are unavailable on " + chip + ": " + o.reason());
        return result;
    }
    const std::vector<std::string>& wanted = requested_.empty() ? DefaultCudaCounters() : requested_;
    std::vector<std::string> extras = gpa::cuda::MetricsReadByGpaCounters();
    extras.push_back(kAchievedOccupancyMetric);
    extras.push_back(kKernelDurationMetric);
    for (const std::string& name : wanted) {
        if (LooksLikeMetric(name)) extras.push_back(name);
    }
    std::vector<std::string> unknown;
    result->hardware = result->metrics->HardwareCounters(extras, &unknown);
    for (uint32_t i = 0; i < result->hardware.size(); ++i) result->hardwareIndex.emplace(result->hardware[i].name, i);
    std::vector<gpa::DerivedCounterDefinition> derived = gpa::cuda::GpaComputeCounters(
        [&](std::string_view name) { return result->hardwareIndex.count(std::string(name)) != 0; });
    derived.push_back(AchievedOccupancyDefinition());
    result->catalog = gpa::CounterCatalog::Build(result->hardware, derived, {true, true});

    auto metricsOf = [&](const std::vector<std::string>& columns) {
        std::vector<std::string> metrics;
        std::unordered_set<std::string> seen;
        for (const std::string& column : columns) {
            const std::optional<uint32_t> index = result->catalog.Find(column);
            if (!index) continue;
            for (uint32_t hardware : result->catalog.at(*index).hardware) {
                if (seen.insert(result->hardware[hardware].name).second) metrics.push_back(result->hardware[hardware].name);
            }
        }
        if (seen.insert(kKernelDurationMetric).second) metrics.push_back(kKernelDurationMetric);
        return metrics;
    };
    auto passes = [&](const std::vector<std::string>& columns) -> std::optional<uint32_t> {
        gpa::cuda::MetricPlan plan;
        gpa::cuda::PlannerOptions options;
        options.orderings = 2;
        if (!gpa::cuda::PlanMetrics(*cupti, chip, availability, metricsOf(columns), &plan, options).ok()) return std::nullopt;
        return plan.passCount;
    };

    if (!columns_) {
        std::vector<std::string> columns;
        for (const std::string& name : wanted) {
            const std::optional<uint32_t> index = result->catalog.Find(name);
            if (!index) {
                std::string why = "counter " + name + " is neither a GPA counter nor an NVIDIA metric of " + chip;
                for (const gpa::OmittedCounter& omitted : result->catalog.omitted()) {
                    if (gpa::ToLower(omitted.name) == gpa::ToLower(name)) why = "counter " + name + " is not available on " + chip + ": " + omitted.reason;
                }
                for (const gpa::cuda::AbsentCounter& absent : gpa::cuda::AbsentGpaCounters()) {
                    if (gpa::ToLower(absent.name) == gpa::ToLower(name)) why = "counter " + name + " has no NVIDIA equivalent: " + absent.reason;
                }
                NoteOnce(why + "; left out");
                continue;
            }
            const std::string canonical = result->catalog.at(*index).name;
            bool duplicate = false;
            for (const std::string& known : columns) duplicate = duplicate || known == canonical;
            if (!duplicate) columns.push_back(canonical);
        }
        std::optional<uint32_t> count = passes(columns);
        if (requested_.empty()) {
            // The default set is one pass: leave out counters from the end until CUPTI schedules one.
            while (count && *count > 1 && columns.size() > 1) {
                NoteOnce("default counter " + columns.back() + " left out: with it the default set needs more than one pass on " + chip);
                columns.pop_back();
                count = passes(columns);
            }
        }
        bool hasAchieved = false;
        for (const std::string& column : columns) hasAchieved = hasAchieved || column == kAchievedOccupancyCounter;
        if (!hasAchieved && count && result->catalog.Find(kAchievedOccupancyCounter)) {
            std::vector<std::string> withAchieved = columns;
            withAchieved.push_back(kAchievedOccupancyCounter);
            const std::optional<uint32_t> more = passes(withAchieved);
            if (more && *more <= *count) {
                columns = std::move(withAchieved);
            } else {
                NoteOnce(std::string(kAchievedOccupancyCounter) + " is left out of the .csv: it would add a replay pass "
                         "to the counters asked for (ask for it with --counters to have it anyway)");
            }
        }
        columns_ = columns;
        agent_->Write(spool::CounterListRecord{"CUDA", columns});
    }
    for (const std::string& column : *columns_) result->columnIndex.push_back(result->catalog.Find(column));

    if (gpa::Outcome o = gpa::cuda::PlanMetrics(*cupti, chip, availability, metricsOf(*columns_), &result->plan); !o.ok()) {
        NoteOnce("CUDA counters cannot be scheduled on " + chip + ": " + o.reason());
        return result;
    }
    if (result->plan.groups.empty()) {
        NoteOnce("no CUDA counter to collect on " + chip);
        return result;
    }
    if (result->plan.groups.size() > 1) {
        std::string others;
        for (size_t g = 1; g < result->plan.groups.size(); ++g) {
            for (const std::string& metric : result->plan.groups[g].metrics) others += (others.empty() ? "" : ", ") + metric;
        }
        NoteOnce("the counters need " + std::to_string(result->plan.groups.size()) +
                 " CUPTI configurations (metrics of some domains cannot be collected together); kernel replay "
                 "collects one configuration per launch, so these metrics are NA: " + others);
    }
    if (gpa::Outcome o = gpa::cuda::HostObject::Create(*cupti, chip, availability, &result->host); !o.ok()) {
        NoteOnce("CUDA counters cannot be evaluated on " + chip + ": " + o.reason());
        return result;
    }
    if (const CUptiResult added = result->host->AddMetrics(result->plan.groups[0].metrics); added != CUPTI_SUCCESS) {
        NoteOnce("CUDA counters cannot be evaluated on " + chip + ": " +
                 cupti->Failure("cuptiProfilerHostConfigAddMetrics", added).reason());
        return result;
    }
    agent_->Note("CUDA counters on " + chip + ": " + std::to_string(columns_->size()) + " columns from " +
                 std::to_string(result->plan.groups[0].metrics.size()) + " NVIDIA metrics, " +
                 std::to_string(result->plan.passCount) + " replay pass(es) per kernel");
    result->usable = true;
    return result;
}

CounterCollector::ContextState* CounterCollector::StateFor(CUcontext context) {
    auto found = contexts_.find(context);
    if (found != contexts_.end()) return found->second.get();
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
    std::string chip;
    if (gpa::Outcome o = gpa::cuda::CheckProfilingSupported(*cupti, device); !o.ok()) {
        NoteOnce("CUDA counters are unavailable on device " + std::to_string(device) + ": " + o.reason());
        return result;
    }
    if (gpa::Outcome o = gpa::cuda::QueryChipName(*cupti, device, &chip); !o.ok()) {
        NoteOnce("CUDA counters are unavailable on device " + std::to_string(device) + ": " + o.reason());
        return result;
    }
    const std::vector<uint8_t> availability = gpa::cuda::QueryCounterAvailability(*cupti, *driver, context);
    ChipSet* set = ChipFor(chip, availability);
    if (!set->usable) return result;
    if (gpa::Outcome o = gpa::cuda::RangeProfiler::Create(*cupti, *driver, context, &result->profiler); !o.ok()) {
        NoteOnce("CUDA counters are unavailable: " + o.reason());
        return result;
    }
    result->chip = set;
    result->failed = false;
    return result;
}

bool CounterCollector::BeforeLaunch(CUcontext context) {
    ContextState* state = StateFor(context);
    if (state->failed) return false;
    if (state->started) {
        launchStartNs_ = NowNs();
        return true;
    }
    auto lock = gpa::cuda::RangeProfiler::Lock();
    state->decoded = gpa::Outcome::Ok();
    gpa::cuda::RangeProfiler::Pending pending;
    pending.owner = this;
    pending.decoded = [state](const gpa::Outcome& outcome) { state->decoded = outcome; };
    {
        Timed timed(&statistics_.configureNs);
        const gpa::cuda::ConfigGroup& group = state->chip->plan.groups[0];
        if (gpa::Outcome o = state->profiler->Configure(group.configImage, group.metrics, batch_, &state->counterData,
                                                        CUPTI_AutoRange, CUPTI_KernelReplay, std::move(pending));
            !o.ok()) {
            NoteOnce("CUDA counters: " + o.reason());
            return false;
        }
    }
    {
        Timed timed(&statistics_.startNs);
        if (gpa::Outcome o = state->profiler->Start(); !o.ok()) {
            NoteOnce("CUDA counters: " + o.reason());
            state->profiler->Abandon(this);
            return false;
        }
    }
    state->started = true;
    launchStartNs_ = NowNs();
    return true;
}

void CounterCollector::AfterLaunch(CUcontext context, bool launched, DispatchRow row) {
    auto found = contexts_.find(context);
    ContextState* state = found == contexts_.end() ? nullptr : found->second.get();
    if (!state || state->failed || !state->started || !launched) {
        WriteRow(std::move(row), state ? state->chip : nullptr, nullptr);
        return;
    }
    ++statistics_.kernels;
    statistics_.launchNs += NowNs() - launchStartNs_;
    state->pending.push_back(std::move(row));
    if (state->pending.size() >= batch_) FlushLocked(state);
}

void CounterCollector::Flush(CUcontext context) {
    auto found = contexts_.find(context);
    if (found != contexts_.end()) FlushLocked(found->second.get());
}

void CounterCollector::FlushAll() {
    for (auto& [context, state] : contexts_) FlushLocked(state.get());
}

void CounterCollector::ForgetContext(CUcontext context) {
    auto found = contexts_.find(context);
    if (found == contexts_.end()) return;
    FlushLocked(found->second.get());
    contexts_.erase(found);  // the range profiler is disabled while the context still exists
}

void CounterCollector::FlushLocked(ContextState* state) {
    if (!state || !state->started) return;
    std::vector<DispatchRow> rows = std::move(state->pending);
    state->pending.clear();
    state->started = false;
    const gpa::cuda::CuptiApi& cupti = state->profiler->cupti();
    bool allSubmitted = false;
    gpa::Outcome stopped;
    {
        auto lock = gpa::cuda::RangeProfiler::Lock();
        {
            Timed timed(&statistics_.stopNs);
            stopped = state->profiler->Stop(&allSubmitted);
        }
        Timed timed(&statistics_.decodeNs);
        state->profiler->FinishPendingOf(this);
    }
    std::vector<std::string> ranges;
    gpa::Outcome problem = stopped;
    if (problem.ok() && !allSubmitted) {
        problem = gpa::Fail(GPA_STATUS_ERROR_FAILED, "CUPTI's kernel replay did not complete every pass");
    }
    if (problem.ok()) problem = state->decoded;
    if (problem.ok()) problem = gpa::cuda::CounterDataRangeNames(cupti, state->counterData, &ranges);
    if (!problem.ok()) {
        NoteOnce("CUDA counters of " + std::to_string(rows.size()) + " kernel(s) are NA: " + problem.reason());
        for (DispatchRow& row : rows) WriteRow(std::move(row), state->chip, nullptr);
        return;
    }
    if (ranges.size() != rows.size()) {
        NoteOnce("CUPTI returned " + std::to_string(ranges.size()) + " profiled range(s) for " + std::to_string(rows.size()) +
                 " launch(es); launches without a range have NA counters");
    }
    const std::vector<std::string>& metrics = state->chip->plan.groups[0].metrics;
    for (size_t i = 0; i < rows.size(); ++i) {
        if (i >= ranges.size()) {
            WriteRow(std::move(rows[i]), state->chip, nullptr);
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
            WriteRow(std::move(rows[i]), state->chip, nullptr);
            continue;
        }
        std::map<std::string, double> values;
        for (size_t m = 0; m < metrics.size() && m < evaluated.size(); ++m) values[metrics[m]] = evaluated[m];
        WriteRow(std::move(rows[i]), state->chip, &values);
    }
}

void CounterCollector::WriteRow(DispatchRow row, const ChipSet* chip, const std::map<std::string, double>* values) {
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
        } else {
            row.counters.push_back(CounterValue::Real(columns[c], value));
        }
    }
    agent_->Write(spool::DispatchRecord{"CUDA", std::move(row)});
}

}  // namespace gpaprof::cuda
