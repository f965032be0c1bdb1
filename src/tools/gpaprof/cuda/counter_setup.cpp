#include "tools/gpaprof/cuda/counter_setup.h"

#include <unordered_set>

#include "backends/cuda/elapsed_time.h"
#include "backends/cuda/gpa_compute_counters.h"

namespace gpaprof::cuda {
namespace {

using gpa::cuda::NowNs;

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

bool Cancelled(const std::atomic<bool>* cancel) { return cancel && cancel->load(std::memory_order_relaxed); }

// The columns asked for, as the catalog spells them, each once; what is not on the chip is noted and left out.
std::vector<std::string> ChooseColumns(const CounterSetup& setup, const std::vector<std::string>& wanted,
                                       std::vector<std::string>* notes) {
    std::vector<std::string> columns;
    for (const std::string& name : wanted) {
        const std::optional<uint32_t> index = setup.catalog.Find(name);
        if (!index) {
            std::string why = "counter " + name + " is neither a GPA counter nor an NVIDIA metric of " + setup.chip;
            for (const gpa::OmittedCounter& omitted : setup.catalog.omitted()) {
                if (gpa::ToLower(omitted.name) == gpa::ToLower(name)) {
                    why = "counter " + name + " is not available on " + setup.chip + ": " + omitted.reason;
                }
            }
            for (const gpa::cuda::AbsentCounter& absent : gpa::cuda::AbsentGpaCounters()) {
                if (gpa::ToLower(absent.name) == gpa::ToLower(name)) why = "counter " + name + " has no NVIDIA equivalent: " + absent.reason;
            }
            notes->push_back(why + "; left out");
            continue;
        }
        const std::string canonical = setup.catalog.at(*index).name;
        bool duplicate = false;
        for (const std::string& known : columns) duplicate = duplicate || known == canonical;
        if (!duplicate) columns.push_back(canonical);
    }
    return columns;
}

}  // namespace

const std::vector<std::string>& DefaultCudaCounters() {
    // One pass on GH100 (gpa-counters --chip GH100 --counters ...): time, work, memory traffic and the cache
    // hit rates. MemUnitBusy (L1TEX throughput) alone takes four passes on GH100, so it is not in the default.
    static const std::vector<std::string> names = {"GPUTime",  "Wavefronts", "FetchSize", "WriteSize",
                                                   "CacheHit", "L1CacheHit", "L2CacheHit"};
    return names;
}

std::unique_ptr<CounterSetup> MakeCounterSetup(const gpa::cuda::CuptiApi& cupti, const std::string& chip,
                                               const std::vector<uint8_t>& availability, const CounterRequest& request,
                                               const std::atomic<bool>* cancel) {
    auto setup = std::make_unique<CounterSetup>();
    setup->chip = chip;
    setup->availability = availability;
    uint64_t started = NowNs();
    // Only the metrics named below are described: the whole catalog of the chip is not needed here.
    if (gpa::Outcome o = gpa::cuda::MetricCatalog::Load(cupti, chip, availability, &setup->metrics, gpa::cuda::CatalogScope::Named);
        !o.ok()) {
        setup->notes.push_back("CUDA counters are unavailable on " + chip + ": " + o.reason());
        return setup;
    }
    const std::vector<std::string>& wanted = request.counters.empty() ? DefaultCudaCounters() : request.counters;
    std::vector<std::string> extras = gpa::cuda::MetricsReadByGpaCounters();
    extras.push_back(kAchievedOccupancyMetric);
    extras.push_back(kKernelDurationMetric);
    for (const std::string& name : wanted) {
        if (LooksLikeMetric(name)) extras.push_back(name);
    }
    if (request.columns) {
        for (const std::string& name : *request.columns) {
            if (LooksLikeMetric(name)) extras.push_back(name);
        }
    }
    std::vector<std::string> unknown;
    setup->hardware = setup->metrics->HardwareCounters(extras, &unknown);
    for (uint32_t i = 0; i < setup->hardware.size(); ++i) setup->hardwareIndex.emplace(setup->hardware[i].name, i);
    std::vector<gpa::DerivedCounterDefinition> derived = gpa::cuda::GpaComputeCounters(
        [&](std::string_view name) { return setup->hardwareIndex.count(std::string(name)) != 0; });
    derived.push_back(AchievedOccupancyDefinition());
    setup->catalog = gpa::CounterCatalog::Build(setup->hardware, derived, {true, true});
    setup->catalogNs = NowNs() - started;
    started = NowNs();

    auto metricsOf = [&](const std::vector<std::string>& columns) {
        std::vector<std::string> metrics;
        std::unordered_set<std::string> seen;
        for (const std::string& column : columns) {
            const std::optional<uint32_t> index = setup->catalog.Find(column);
            if (!index) continue;
            for (uint32_t hardware : setup->catalog.at(*index).hardware) {
                if (seen.insert(setup->hardware[hardware].name).second) metrics.push_back(setup->hardware[hardware].name);
            }
        }
        if (seen.insert(kKernelDurationMetric).second) metrics.push_back(kKernelDurationMetric);
        return metrics;
    };
    // Every plan below shares its configurations: CUPTI makes each metric order once, the orders of one plan on
    // several threads at once.
    gpa::cuda::ConfigurationCache configurations;
    gpa::cuda::PlannerOptions options;
    options.cache = &configurations;
    options.threads = request.planThreads;
    gpa::cuda::PlannerOptions probing = options;  // choosing the columns: a pass count, fewer orderings
    probing.orderings = 2;
    auto passes = [&](const std::vector<std::string>& columns) -> std::optional<uint32_t> {
        gpa::cuda::MetricPlan plan;
        if (Cancelled(cancel)) return std::nullopt;
        if (!gpa::cuda::PlanMetrics(cupti, chip, availability, metricsOf(columns), &plan, probing).ok()) return std::nullopt;
        return plan.passCount;
    };

    if (request.columns) {
        setup->columns = *request.columns;
    } else {
        std::vector<std::string> columns = ChooseColumns(*setup, wanted, &setup->notes);
        bool hasAchieved = false;
        for (const std::string& column : columns) hasAchieved = hasAchieved || column == kAchievedOccupancyCounter;
        if (options.threads > 1) {
            // The configurations the plans below try, all at once: the columns' set for its pass count, and the
            // set with AchievedOccupancy, the one usually kept, with every ordering of the final plan.
            std::vector<gpa::cuda::SetToPlan> sets = {{metricsOf(columns), hasAchieved ? options.orderings : probing.orderings}};
            if (!hasAchieved) {
                std::vector<std::string> withAchieved = columns;
                withAchieved.push_back(kAchievedOccupancyCounter);
                sets.push_back({metricsOf(withAchieved), options.orderings});
            }
            gpa::cuda::PrepareConfigurations(cupti, chip, availability, sets, options);
        }
        std::optional<uint32_t> count = passes(columns);
        if (request.counters.empty()) {
            // The default set is one pass: leave out counters from the end until CUPTI schedules one.
            while (count && *count > 1 && columns.size() > 1) {
                setup->notes.push_back("default counter " + columns.back() +
                                       " left out: with it the default set needs more than one pass on " + chip);
                columns.pop_back();
                count = passes(columns);
            }
        }
        if (!hasAchieved && count && setup->catalog.Find(kAchievedOccupancyCounter)) {
            std::vector<std::string> withAchieved = columns;
            withAchieved.push_back(kAchievedOccupancyCounter);
            const std::optional<uint32_t> more = passes(withAchieved);
            if (more && *more <= *count) {
                columns = std::move(withAchieved);
            } else {
                setup->notes.push_back(std::string(kAchievedOccupancyCounter) +
                                       " is left out of the .csv: it would add a replay pass to the counters asked for "
                                       "(ask for it with --counters to have it anyway)");
            }
        }
        setup->columns = std::move(columns);
    }
    setup->columnsChosen = true;
    for (const std::string& column : setup->columns) setup->columnIndex.push_back(setup->catalog.Find(column));

    if (Cancelled(cancel)) {
        setup->notes.push_back("the CUDA counter set-up was cancelled: the process is ending");
        return setup;
    }
    std::vector<std::string> collected = setup->columns;
    if (request.singlePass) {
        collected.clear();
        std::string left;
        for (const std::string& column : setup->columns) {
            collected.push_back(column);
            if (const std::optional<uint32_t> count = passes(collected); !count || *count > 1) {
                collected.pop_back();
                left += (left.empty() ? "" : ", ") + column;
            }
        }
        if (!left.empty()) {
            setup->notes.push_back("--singlepass: these counters would need another replay pass on " + chip +
                                   " and are NA: " + left);
        }
    }
    gpa::cuda::PlannerOptions final = options;
    final.keepHosts = true;  // the first group's host object evaluates its ranges
    if (gpa::Outcome o = gpa::cuda::PlanMetrics(cupti, chip, availability, metricsOf(collected), &setup->plan, final);
        !o.ok()) {
        setup->notes.push_back("CUDA counters cannot be scheduled on " + chip + ": " + o.reason());
        return setup;
    }
    if (setup->plan.groups.empty()) {
        setup->notes.push_back("no CUDA counter to collect on " + chip);
        return setup;
    }
    if (setup->plan.groups.size() > 1) {
        std::string others;
        for (size_t g = 1; g < setup->plan.groups.size(); ++g) {
            for (const std::string& metric : setup->plan.groups[g].metrics) others += (others.empty() ? "" : ", ") + metric;
        }
        setup->notes.push_back("the counters need " + std::to_string(setup->plan.groups.size()) +
                               " CUPTI configurations (metrics of some domains cannot be collected together); kernel "
                               "replay collects one configuration per launch, so these metrics are NA: " + others);
    }
    setup->host = setup->plan.groups[0].host;
    for (gpa::cuda::ConfigGroup& group : setup->plan.groups) group.host.reset();  // the others are never evaluated
    if (!setup->host) {
        setup->notes.push_back("CUDA counters cannot be evaluated on " + chip + ": the planner kept no CUPTI host object");
        return setup;
    }
    setup->planNs = NowNs() - started;
    setup->usable = true;
    return setup;
}

bool BindToAvailability(const gpa::cuda::CuptiApi& cupti, const std::vector<uint8_t>& availability,
                        CounterSetup* setup, std::string* why) {
    if (!setup->usable) {
        *why = "the set-up is not usable";
        return false;
    }
    if (availability == setup->availability) return true;
    gpa::cuda::ConfigGroup& group = setup->plan.groups[0];
    std::unique_ptr<gpa::cuda::HostObject> host;
    if (gpa::Outcome o = gpa::cuda::HostObject::Create(cupti, setup->chip, availability, &host); !o.ok()) {
        *why = o.reason();
        return false;
    }
    if (const CUptiResult added = host->AddMetrics(group.metrics); added != CUPTI_SUCCESS) {
        *why = "CUPTI refuses the planned configuration with the device's counter availability: " + cupti.Describe(added);
        return false;
    }
    std::vector<uint8_t> image;
    uint32_t passes = 0;
    if (gpa::Outcome o = host->ConfigImage(&image); !o.ok()) {
        *why = o.reason();
        return false;
    }
    if (gpa::Outcome o = gpa::cuda::ConfigPassCount(cupti, image, &passes); !o.ok()) {
        *why = o.reason();
        return false;
    }
    if (passes != group.passes) {
        *why = "with the device's counter availability CUPTI plans " + std::to_string(passes) + " passes instead of " +
               std::to_string(group.passes);
        return false;
    }
    group.configImage = std::move(image);
    setup->host = std::move(host);
    setup->availability = availability;
    return true;
}

}  // namespace gpaprof::cuda
