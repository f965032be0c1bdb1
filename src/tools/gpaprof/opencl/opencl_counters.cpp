#include "tools/gpaprof/opencl/opencl_counters.h"

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

CounterSet BuildCounterSet(const std::vector<std::string>& requested, std::vector<std::string>* problems) {
    CounterSet set;
    set.catalog = gpa::CounterCatalog::Build(OpenClHardwareCounters(), OpenClDerivedCounters(), {true, false});
    const std::vector<std::string> names = requested.empty() ? DefaultOpenClCounters() : requested;
    std::string available;
    for (const auto& counter : set.catalog.counters()) available += (available.empty() ? "" : ", ") + counter.name;
    std::vector<std::vector<uint32_t>> inputs;
    for (const std::string& name : names) {
        std::optional<uint32_t> index = set.catalog.Find(name);
        if (!index) {
            problems->push_back("counter " + name + " is not available on OpenCL devices (available: " + available +
                                "); left out");
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
    const size_t hardwareCount = OpenClHardwareCounters().size();
    for (size_t i = 0; i < set.enabled.size(); ++i) {
        const gpa::ExposedCounter& counter = set.catalog.at(set.enabled[i]);
        // Each hardware counter is taken from the pass the plan put it in.
        std::vector<double> hardware(hardwareCount, 0.0);
        bool measured = true;
        for (uint32_t input : counter.hardware) {
            uint32_t pass = 0;
            if (auto located = set.plan.Locate(input)) pass = located->first;
            if (pass >= passValues.size() || input >= passValues[pass].size()) {
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
