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
    // Counters of cl_codeplay_performance_counters (codeplay_counters.h), by name: hardware counters after
    // gpaprof's own, in this order.
    std::vector<std::string> extension;
};

// A counter of cl_codeplay_performance_counters that a device offers (no OpenCL headers here).
struct ExtensionCounter {
    std::string name;
    std::string category;
    std::string description;
    bool integer = false;  // an unsigned integer result
};

// The names asked for that are not gpaprof's own OpenCL counters: candidates for the extension's.
std::vector<std::string> ExtensionCounterNames(const std::vector<std::string>& requested);

// The counters asked for (names are case-insensitive), gpaprof's own and those of `extension` (what the
// devices offer); unknown ones are left out with a reason in *problems.
CounterSet BuildCounterSet(const std::vector<std::string>& requested, std::vector<std::string>* problems,
                           const std::vector<ExtensionCounter>& extension = {});

// Values of the enabled counters; `passValues[p][h]` is hardware counter h measured in pass p (NaN or
// missing: not measured, NA).
std::vector<CounterValue> EvaluateCounters(const CounterSet& set, const std::vector<std::vector<double>>& passValues);

}  // namespace gpaprof::ocl
