// Reads what a device's sensor counters need: the readings at a command's completion (NVML, cpufreq) and, for
// counters over the span in which the command ran (RAPL energy, perf events), a snapshot at its start and one
// at its completion. Which sources a device has is decided once (device_counters.h).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <set>

#include "layers/opencl/command_measurement.h"
#include "layers/opencl/cpu_sensors.h"
#include "layers/opencl/layer_counters.h"
#include "layers/opencl/nvml_sensors.h"
#include "layers/opencl/thread_counters.h"

namespace gpa::cl_layer {

// What a span counter needs at one end of a command's span.
struct SpanSnapshot {
    uint64_t hostNanoseconds = 0;  // CLOCK_MONOTONIC
    std::optional<PackageEnergy::Reading> energy;
    ThreadCounters::Reading threads;
};

class SensorSampler {
public:
    std::unique_ptr<NvmlSensors> nvml;           // NVIDIA GPUs
    std::unique_ptr<PackageEnergy> energy;       // CPU devices
    std::unique_ptr<CpuFrequency> frequency;     // CPU devices
    std::shared_ptr<ThreadCounters> threads;     // CPU devices (one set for the process)

    // The snapshot the span counters among `wanted` need.
    SpanSnapshot TakeSpan(const CounterMask& wanted) const;
    // Fills the sensor part of `sample`: readings now for the completion counters among `wanted`, and the span
    // counters from `start` to `end`, leaving out the threads in `excluded` (the application's).
    void Complete(const CounterMask& wanted, const SpanSnapshot& start, const SpanSnapshot& end,
                  const std::set<pid_t>& excluded, CommandSample* sample) const;
};

// Counters that need a snapshot when the command starts.
CounterMask SpanCounters();
// Counters read when the command completes.
CounterMask CompletionCounters();

uint64_t HostNanoseconds();

}  // namespace gpa::cl_layer
