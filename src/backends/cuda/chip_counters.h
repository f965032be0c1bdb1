// Everything OpenGPA offers for one NVIDIA chip, with or without a GPU present: the raw hardware counters
// (every base metric, plus the other submetrics the GPA formulas read, plus any other metric name ncu
// accepts once it is asked for) and the GPA derived counters chosen for the chip. The CUDA backend,
// gpa-counters and gpaprof build their counter lists from this.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "backends/cuda/cupti_pass_planner.h"
#include "backends/cuda/metric_catalog.h"
#include "counters/counter_catalog.h"

namespace gpa::cuda {

struct ChipCounters {
    std::unique_ptr<MetricCatalog> metrics;
    std::vector<HardwareCounter> hardware;
    std::vector<DerivedCounterDefinition> derived;
    std::vector<std::string> missingMetrics;  // metrics a GPA formula reads that the chip lacks

    std::vector<std::string> HardwareNames() const;
    // The counters exposed for the given GPA_OpenContext flags (the core's catalog, omissions included).
    CounterCatalog Catalog(bool exposeDerived, bool exposeHardware) const;

    // Makes `name` a hardware counter when it is a metric name ncu accepts for the chip
    // (MetricCatalog::Resolve) and `hardware` lacks it: appended, *added true. *index is its hardware counter
    // index, also when it was there already (names compare case-insensitively, as GPA's do).
    // GPA_STATUS_ERROR_NOT_FOUND with the reason otherwise; a name that looks like a GPA counter gets the close
    // GPA names, or why the chip has no such counter.
    Outcome AddMetric(const std::string& name, uint32_t* index, bool* added = nullptr);
    // AddMetric for every name that is not a GPA counter (gpa-counters --counters); the first failure is
    // "no counter is named '...' on <chip>: <reason>".
    Outcome AddMetrics(const std::vector<std::string>& names);
};

// A pass plan for counters named as a user names them: GPA counters or raw metric names of `catalog`. The
// metrics are gathered exactly as GPA_GetPassCount gathers them for the same counters enabled in the same
// order, so both report the same passes.
struct CounterPlan {
    std::vector<uint32_t> counters;  // indices into the catalog, in the order asked
    std::vector<std::string> metrics;  // the NVIDIA metrics they read, without duplicates
    MetricPlan plan;
};
Outcome PlanCounters(const CuptiApi& api, const ChipCounters& chip, const CounterCatalog& catalog,
                     const std::vector<std::string>& names, const std::vector<uint8_t>& availability, CounterPlan* plan);

Outcome BuildChipCounters(const CuptiApi& api, const std::string& chip, const std::vector<uint8_t>& availability,
                          ChipCounters* counters);

}  // namespace gpa::cuda
