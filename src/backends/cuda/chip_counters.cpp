#include "backends/cuda/chip_counters.h"

#include <unordered_set>

#include "backends/cuda/gpa_compute_counters.h"

namespace gpa::cuda {

std::vector<std::string> ChipCounters::HardwareNames() const {
    std::vector<std::string> names;
    names.reserve(hardware.size());
    for (const HardwareCounter& counter : hardware) names.push_back(counter.name);
    return names;
}

CounterCatalog ChipCounters::Catalog(bool exposeDerived, bool exposeHardware) const {
    CounterCatalog::Options options;
    options.exposeDerived = exposeDerived;
    options.exposeHardware = exposeHardware;
    return CounterCatalog::Build(hardware, derived, options);
}

Outcome PlanCounters(const CuptiApi& api, const ChipCounters& chip, const CounterCatalog& catalog,
                     const std::vector<std::string>& names, const std::vector<uint8_t>& availability, CounterPlan* plan) {
    CounterPlan result;
    std::unordered_set<uint32_t> seen;
    for (const std::string& name : names) {
        const std::optional<uint32_t> index = catalog.Find(name);
        if (!index) {
            return Fail(GPA_STATUS_ERROR_NOT_FOUND, "no counter is named '" + name + "' on " + chip.metrics->chip() +
                                                        " (GPA counters and raw metric names are accepted)");
        }
        result.counters.push_back(*index);
        for (uint32_t hardware : catalog.at(*index).hardware) {
            if (seen.insert(hardware).second) result.metrics.push_back(chip.hardware.at(hardware).name);
        }
    }
    if (Outcome o = PlanMetrics(api, chip.metrics->chip(), availability, result.metrics, &result.plan); !o.ok()) return o;
    *plan = std::move(result);
    return Outcome::Ok();
}

Outcome BuildChipCounters(const CuptiApi& api, const std::string& chip, const std::vector<uint8_t>& availability,
                          ChipCounters* counters) {
    ChipCounters result;
    if (Outcome o = MetricCatalog::Load(api, chip, availability, &result.metrics); !o.ok()) return o;
    result.hardware = result.metrics->HardwareCounters(MetricsReadByGpaCounters(), &result.missingMetrics);
    std::unordered_set<std::string> known;
    for (const HardwareCounter& counter : result.hardware) known.insert(counter.name);
    result.derived = GpaComputeCounters([&](std::string_view name) { return known.count(std::string(name)) != 0; });
    *counters = std::move(result);
    return Outcome::Ok();
}

}  // namespace gpa::cuda
