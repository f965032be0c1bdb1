#include "backends/cuda/chip_counters.h"

#include <unordered_set>

#include "backends/cuda/gpa_compute_counters.h"
#include "backends/cuda/metric_names.h"

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

Outcome ChipCounters::AddMetric(const std::string& name, uint32_t* index, bool* added) {
    if (added != nullptr) *added = false;
    auto existing = [&](const std::string& wanted) -> std::optional<uint32_t> {
        const std::string lower = ToLower(wanted);
        for (uint32_t i = 0; i < hardware.size(); ++i) {
            if (ToLower(hardware[i].name) == lower) return i;
        }
        return std::nullopt;
    };
    if (const std::optional<uint32_t> found = existing(name)) {
        *index = *found;
        return Outcome::Ok();
    }
    HardwareCounter counter;
    const Outcome resolved = metrics->Resolve(name, &counter);
    if (!resolved.ok()) {
        if (name.find("__") != std::string::npos) return resolved;
        // No NVIDIA metric name has no "__": the user meant a GPA counter.
        const std::string lower = ToLower(name);
        for (const DerivedCounterDefinition& definition : derived) {
            if (ToLower(definition.name) == lower) {
                return Fail(GPA_STATUS_ERROR_NOT_FOUND, "GPA counter " + definition.name + " is not measurable on " +
                                                            metrics->chip() + ", which lacks NVIDIA metrics its formula reads");
            }
        }
        for (const AbsentCounter& absent : AbsentGpaCounters()) {
            if (ToLower(absent.name) == lower) {
                return Fail(GPA_STATUS_ERROR_NOT_FOUND,
                            std::string("GPA counter ") + absent.name + " has no NVIDIA equivalent: " + absent.reason);
            }
        }
        std::vector<std::string> gpaNames;
        for (const DerivedCounterDefinition& definition : derived) gpaNames.push_back(definition.name);
        const std::vector<std::string> close = CloseMatches(name, gpaNames);
        std::string reason = "it is not a GPA counter of " + metrics->chip();
        for (size_t i = 0; i < close.size(); ++i) reason += (i == 0 ? " (did you mean " : " or ") + close[i];
        if (!close.empty()) reason += "?)";
        return Fail(GPA_STATUS_ERROR_NOT_FOUND,
                    reason + ", nor an NVIDIA metric name (unit__name.submetric, as ncu takes them)");
    }
    if (const std::optional<uint32_t> found = existing(counter.name)) {
        *index = *found;
        return Outcome::Ok();
    }
    hardware.push_back(std::move(counter));
    *index = static_cast<uint32_t>(hardware.size() - 1);
    if (added != nullptr) *added = true;
    return Outcome::Ok();
}

Outcome ChipCounters::AddMetrics(const std::vector<std::string>& names) {
    const CounterCatalog gpaCounters = Catalog(true, false);
    for (const std::string& name : names) {
        if (gpaCounters.Find(name)) continue;
        uint32_t index = 0;
        if (Outcome o = AddMetric(name, &index); !o.ok()) {
            return Fail(o.status(), "no counter is named '" + name + "' on " + metrics->chip() + ": " + o.reason());
        }
    }
    return Outcome::Ok();
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
