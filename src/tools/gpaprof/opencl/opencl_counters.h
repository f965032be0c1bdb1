// The counters gpaprof collects per OpenCL kernel dispatch, as data for the counter machinery
// (src/counters): hardware counters are what an OpenCL event reports, derived counters are GPA counters
// with an expression over them. On OpenCL that is GPUTime, from the dispatch's device timestamps; nothing
// else is invented. No OpenCL headers here: the command line lists these counters too.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "counters/counter_catalog.h"
#include "counters/pass_plan.h"
#include "tools/gpaprof/files/profile_model.h"

namespace gpaprof::ocl {

inline constexpr const char* kKernelDurationCounter = "cl.kernel_duration_ns";

const std::vector<gpa::HardwareCounter>& OpenClHardwareCounters();
const std::vector<gpa::DerivedCounterDefinition>& OpenClDerivedCounters();
// The default set of -p without --counters/-c: every counter that needs one pass.
std::vector<std::string> DefaultOpenClCounters();

struct CounterSet {
    gpa::CounterCatalog catalog;
    std::vector<uint32_t> enabled;   // catalog indices, in the order asked for
    std::vector<std::string> names;  // the .csv counter columns
    gpa::PassPlan plan;
};

// The counters asked for (names are case-insensitive); unknown ones are left out with a reason in *problems.
CounterSet BuildCounterSet(const std::vector<std::string>& requested, std::vector<std::string>* problems);

// Values of the enabled counters; `passValues[p][h]` is hardware counter h measured in pass p.
std::vector<CounterValue> EvaluateCounters(const CounterSet& set, const std::vector<std::vector<double>>& passValues);

}  // namespace gpaprof::ocl
