// The GPA compute counter vocabulary (the OpenCL/HSA counters of the GPA 2.x user guide) on NVIDIA GPUs:
// data, not code. Each counter lists one or more NVIDIA formulas in order of preference; a chip uses the
// first whose metrics it has (for example the Ampere GA100 has a separate FP16 pipe that Hopper folds into
// its FMA pipe). docs/cuda_backend.md gives each formula, its validation on hardware and what is absent.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "counters/counter_definition.h"

namespace gpa::cuda {

struct GpaCounterFormula {
    const char* expression;  // over NVIDIA metric names (expression.h grammar)
};

struct GpaComputeCounter {
    const char* name;
    const char* group;
    GPA_Type type;
    GPA_Usage_Type usage;
    const char* description;  // GPA's description, then how NVIDIA measures it and any approximation
    std::vector<GpaCounterFormula> formulas;  // in order of preference
};

// The table itself.
const std::vector<GpaComputeCounter>& GpaComputeCounterTable();

// GPA counters that have no honest NVIDIA equivalent, with the reason (documented, never exposed).
struct AbsentCounter {
    const char* name;
    const char* reason;
};
const std::vector<AbsentCounter>& AbsentGpaCounters();

// Every metric name any formula reads (so that a context can describe them as hardware counters).
std::vector<std::string> MetricsReadByGpaCounters();

// The derived definitions for a chip: for each counter the first formula whose metrics `hasMetric`
// accepts; when none does, the first formula, which the counter catalog then omits with the reason.
std::vector<DerivedCounterDefinition> GpaComputeCounters(const std::function<bool(std::string_view)>& hasMetric);

}  // namespace gpa::cuda
