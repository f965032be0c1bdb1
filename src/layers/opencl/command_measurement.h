// What the layer measures of one command, and how a marker or barrier combines the commands it covers.
// Pure data handling: the values come from the enqueue call, the event's profiling timestamps and the
// sensors (sensor_sampler.h); unit-tested without a device.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "layers/opencl/cl_headers.h"
#include "layers/opencl/layer_counters.h"

namespace gpa::cl_layer {

enum class CommandKind {
    kKernel,           // clEnqueueNDRangeKernel, clEnqueueTask
    kTransfer,         // reads, writes, copies and fills of buffers, images and SVM
    kSynchronization,  // markers and barriers: they report the commands they cover
    kOther,            // maps, unmaps, migrations, native kernels, SVM frees
};

// What the enqueue call says about the command.
struct CommandShape {
    CommandKind kind = CommandKind::kOther;
    uint64_t workItems = 0;
    std::optional<uint64_t> workGroups = 0;  // null: the driver chose the local size
    uint64_t bytes = 0;
};

// The event's CL_PROFILING_COMMAND_{QUEUED,SUBMIT,START,END}, in device nanoseconds.
struct EventTimes {
    cl_ulong queued = 0;
    cl_ulong submit = 0;
    cl_ulong start = 0;
    cl_ulong end = 0;
};

// Everything measured about one finished command (not a marker or barrier).
struct CommandSample {
    CommandShape shape;
    EventTimes times;
    // Sensor readings at completion, in the counter's unit (GPU*, CPUFrequency); null when not read.
    std::array<std::optional<double>, kCounterCount> readings{};
    // CPUPackagePower: package energy over the command's host-time span; null when not read.
    std::optional<double> energyJoules;
    double spanSeconds = 0;
    // CPUThreadTime, CPUCycles, CPUInstructions, CPUCacheMisses: counts over the same span.
    std::array<uint64_t, kCounterCount> spanCounts{};
};

// A counter's value, kept so that values of several commands combine (Aggregation).
struct CounterValue {
    uint64_t sum = 0;        // kSum
    bool unknown = false;    // kSum: a value (work-groups) that OpenCL does not report
    double numerator = 0;    // kWeightedMean: sum of value x weight; kRatioOfSums: sum of numerators
    double denominator = 0;  // kWeightedMean: sum of weights; kRatioOfSums: sum of denominators
    double plainSum = 0;     // kWeightedMean: values of commands that ran for 0 ns still count, unweighted
    uint32_t plainCount = 0;
};

using Measurement = std::array<CounterValue, kCounterCount>;

// The measurement of one command.
Measurement Measure(const CommandSample& sample);
// Adds a command's measurement to the total of the marker or barrier that covers it.
void Accumulate(Measurement* total, const Measurement& command);
// A counter's result, in the union member its storage names (NaN for a float that nothing measured).
cl_performance_counter_result_codeplay ResultOf(const Measurement& measurement, CounterId counter);
// The results of the counters a queue enabled, in the order it enabled them.
std::vector<cl_performance_counter_result_codeplay> Results(const Measurement& measurement,
                                                            std::span<const CounterId> enabled);

}  // namespace gpa::cl_layer
