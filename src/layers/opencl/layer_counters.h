// The counters the layer can offer, as data: uuid, name, category, description, the extension's unit and
// storage, how a marker or barrier combines the commands it covers, and what has to be read to measure it.
// Which of them a device lists is decided by device_counters.h (a sensor the machine lacks is not listed).
#pragma once

#include <array>
#include <bitset>
#include <cstddef>
#include <cstdint>
#include <optional>

#include "layers/opencl/cl_headers.h"

namespace gpa::cl_layer {

// The uuid of each counter is its value here; it never changes between versions.
enum class CounterId : cl_uint {
    kCommandDuration = 1,
    kQueuedToStart = 2,
    kSubmitToStart = 3,
    kKernelWorkItems = 4,
    kKernelWorkGroups = 5,
    kKernelDuration = 6,
    kTransferBytes = 7,
    kTransferDuration = 8,
    kGpuPower = 9,
    kGpuTemperature = 10,
    kGpuSmClock = 11,
    kGpuMemoryClock = 12,
    kCpuPackagePower = 13,
    kCpuFrequency = 14,
    kCpuThreadTime = 15,
    kCpuCycles = 16,
    kCpuInstructions = 17,
    kCpuCacheMisses = 18,
};
inline constexpr size_t kCounterCount = 18;

// Index of a counter in arrays of kCounterCount entries.
constexpr size_t IndexOf(CounterId id) { return static_cast<size_t>(id) - 1; }

// A set of counters, indexed by IndexOf.
using CounterMask = std::bitset<kCounterCount>;

// How a marker or barrier (a synchronisation command) combines the commands it covers.
enum class Aggregation {
    kSum,           // counts and durations add up
    kWeightedMean,  // sensor readings: the mean weighted by each command's duration
    kRatioOfSums,   // a rate: the sum of numerators (energy) over the sum of denominators (time)
};

// What must be read to measure a counter.
enum class Source {
    kCommand,     // the command itself: its arguments and its event's profiling timestamps
    kGpuSensor,   // an NVML sensor, read when the command completed
    kCpuSensor,   // a CPU sysfs reading when the command completed (frequency)
    kCpuWindow,   // a CPU counter read when the command started and when it completed (energy, perf events)
};

struct CounterDefinition {
    CounterId id;
    const char* name;
    const char* category;
    const char* description;
    cl_performance_counter_unit_codeplay unit;
    cl_performance_counter_storage_codeplay storage;
    Aggregation aggregation;
    Source source;
};

// Every counter, in uuid order.
const std::array<CounterDefinition, kCounterCount>& AllCounters();
const CounterDefinition& Definition(CounterId id);
// The counter with this uuid, or null when the layer has none.
std::optional<CounterId> CounterFromUuid(cl_uint uuid);

// The extension's structure for a counter (strings truncated to fit, always terminated).
cl_performance_counter_codeplay Describe(const CounterDefinition& definition);

}  // namespace gpa::cl_layer
