#include "tools/gpaprof/opencl/opencl_counters.h"

#include <cmath>

#include "counters/consolidated_pass_planner.h"

namespace gpaprof::ocl {

const std::vector<gpa::HardwareCounter>& OpenClHardwareCounters() {
    static const std::vector<gpa::HardwareCounter> counters = [] {
        gpa::HardwareCounter duration;
        duration.name = kKernelDurationCounter;
        duration.group = "Timing";
        duration.description =
            "Nanoseconds from CL_PROFILING_COMMAND_START to CL_PROFILING_COMMAND_END of the kernel dispatch's "
            "event (OpenCL event profiling).";
        duration.type = GPA_TYPE_UINT64;
        duration.usage = GPA_USAGE_TYPE_NANOSECONDS;
        return std::vector<gpa::HardwareCounter>{duration};
    }();
    return counters;
}

const std::vector<gpa::DerivedCounterDefinition>& OpenClDerivedCounters() {
    static const std::vector<gpa::DerivedCounterDefinition> counters = [] {
        gpa::DerivedCounterDefinition gpuTime;
        gpuTime.name = "GPUTime";
        gpuTime.group = "Timing";
        gpuTime.description =
            "Time, in milliseconds, the kernel took to execute on the device, from its OpenCL event's start and "
            "end timestamps (cl.kernel_duration_ns / 1e6).";
        gpuTime.type = GPA_TYPE_FLOAT64;
        gpuTime.usage = GPA_USAGE_TYPE_MILLISECONDS;
        gpuTime.expression = std::string(kKernelDurationCounter) + " / 1000000";
        return std::vector<gpa::DerivedCounterDefinition>{gpuTime};
    }();
    return counters;
}

std::vector<std::string> DefaultOpenClCounters() { return {"GPUTime"}; }

namespace {

// An extension counter as gpaprof's catalog has it: a hardware counter "codeplay.<name>" and a counter of the
// extension's name that is its value.
constexpr const char* kExtensionPrefix = "codeplay.";

}  // namespace

std::vector<std::string> ExtensionCounterNames(const std::vector<std::string>& requested) {
    const gpa::CounterCatalog own = gpa::CounterCatalog::Build(OpenClHardwareCounters(), OpenClDerivedCounters(), {true, false});
    std::vector<std::string> names;
    for (const std::string& name : requested) {
        if (!own.Find(name)) names.push_back(name);
    }
    return names;
}

CounterSet BuildCounterSet(const std::vector<std::string>& requested, std::vector<std::string>* problems,
                           const std::vector<ExtensionCounter>& extension) {
    CounterSet set;
    std::vector<gpa::HardwareCounter> hardware = OpenClHardwareCounters();
    std::vector<gpa::DerivedCounterDefinition> derived = OpenClDerivedCounters();
    for (const std::string& name : ExtensionCounterNames(requested)) {
        for (const ExtensionCounter& offered : extension) {
            if (gpa::ToLower(offered.name) != gpa::ToLower(name)) continue;
            gpa::HardwareCounter raw;
            raw.name = kExtensionPrefix + offered.name;
            raw.group = offered.category;
            raw.description = offered.description;
            raw.type = offered.integer ? GPA_TYPE_UINT64 : GPA_TYPE_FLOAT64;
            hardware.push_back(raw);
            gpa::DerivedCounterDefinition counter;
            counter.name = offered.name;
            counter.group = offered.category;
            counter.description = offered.description + " (cl_codeplay_performance_counters)";
            counter.type = raw.type;
            counter.expression = raw.name;
            derived.push_back(counter);
            set.extension.push_back(offered.name);
            break;
        }
    }
    set.catalog = gpa::CounterCatalog::Build(hardware, derived, {true, false});
    const std::vector<std::string> names = requested.empty() ? DefaultOpenClCounters() : requested;
    std::string available;
    for (const auto& counter : set.catalog.counters()) available += (available.empty() ? "" : ", ") + counter.name;
    std::vector<std::vector<uint32_t>> inputs;
    for (const std::string& name : names) {
        std::optional<uint32_t> index = set.catalog.Find(name);
        if (!index) {
            problems->push_back("counter " + name + " is not available on OpenCL devices (available: " + available +
                                ", and the cl_codeplay_performance_counters counters a device offers: "
                                "docs/opencl_layer.md); left out");
            continue;
        }
        bool duplicate = false;
        for (uint32_t known : set.enabled) duplicate = duplicate || known == *index;
        if (duplicate) continue;
        set.enabled.push_back(*index);
        set.names.push_back(set.catalog.at(*index).name);
        inputs.push_back(set.catalog.at(*index).hardware);
    }
    // Every OpenCL counter comes from the dispatch's own event, so any set fits in one pass.
    gpa::ConsolidatedPassPlanner planner([](std::span<const uint32_t>) { return true; });
    if (!inputs.empty()) {
        gpa::Outcome outcome = planner.Plan(inputs, &set.plan);
        if (!outcome.ok()) problems->push_back("cannot schedule the counters: " + outcome.reason());
    }
    return set;
}

std::vector<CounterValue> EvaluateCounters(const CounterSet& set, const std::vector<std::vector<double>>& passValues) {
    std::vector<CounterValue> values;
    const size_t hardwareCount = OpenClHardwareCounters().size() + set.extension.size();
    for (size_t i = 0; i < set.enabled.size(); ++i) {
        const gpa::ExposedCounter& counter = set.catalog.at(set.enabled[i]);
        // Each hardware counter is taken from the pass the plan put it in.
        std::vector<double> hardware(hardwareCount, 0.0);
        bool measured = true;
        for (uint32_t input : counter.hardware) {
            uint32_t pass = 0;
            if (auto located = set.plan.Locate(input)) pass = located->first;
            if (pass >= passValues.size() || input >= passValues[pass].size() || std::isnan(passValues[pass][input])) {
                measured = false;
                break;
            }
            hardware[input] = passValues[pass][input];
        }
        if (!measured) {
            values.push_back(CounterValue::NA(counter.name));
            continue;
        }
        const double value = set.catalog.Evaluate(set.enabled[i], hardware);
        if (counter.type == GPA_TYPE_UINT64 || counter.type == GPA_TYPE_UINT32) {
            values.push_back(CounterValue::Int(counter.name, static_cast<uint64_t>(value)));
        } else if (counter.usage == GPA_USAGE_TYPE_MILLISECONDS || counter.usage == GPA_USAGE_TYPE_NANOSECONDS) {
            values.push_back(CounterValue::Time(counter.name, value));
        } else {
            values.push_back(CounterValue::Real(counter.name, value));
        }
    }
    return values;
}

}  // namespace gpaprof::ocl
