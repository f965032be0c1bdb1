#include "layers/opencl/layer_counters.h"

#include <cstring>
#include <string_view>

namespace gpa::cl_layer {

namespace {

// Descriptions fit the extension's 256 characters; docs/opencl_layer.md has the details. "Covered": the
// commands a marker or barrier stands for (docs/opencl_layer.md, "Markers and barriers").
constexpr std::array<CounterDefinition, kCounterCount> kCounters = {{
    {CounterId::kCommandDuration, "CommandDuration", "Timing",
     "Nanoseconds the command ran: END - START of its event (CL_PROFILING_COMMAND_*). Markers and "
     "barriers: the sum over the commands they cover.",
     CL_PERFORMANCE_COUNTER_UNIT_NANOSECONDS_CODEPLAY, CL_PERFORMANCE_COUNTER_RESULT_TYPE_UINT64_CODEPLAY,
     Aggregation::kSum, Source::kCommand},
    {CounterId::kQueuedToStart, "QueuedToStart", "Timing",
     "Nanoseconds from enqueue to start: START - QUEUED of the command's event. Markers and barriers: the "
     "sum over the commands they cover.",
     CL_PERFORMANCE_COUNTER_UNIT_NANOSECONDS_CODEPLAY, CL_PERFORMANCE_COUNTER_RESULT_TYPE_UINT64_CODEPLAY,
     Aggregation::kSum, Source::kCommand},
    {CounterId::kSubmitToStart, "SubmitToStart", "Timing",
     "Nanoseconds from submission to start: START - SUBMIT of the command's event. Markers and barriers: "
     "the sum over the commands they cover.",
     CL_PERFORMANCE_COUNTER_UNIT_NANOSECONDS_CODEPLAY, CL_PERFORMANCE_COUNTER_RESULT_TYPE_UINT64_CODEPLAY,
     Aggregation::kSum, Source::kCommand},
    {CounterId::kKernelWorkItems, "KernelWorkItems", "Kernel",
     "Work-items of a kernel command (product of the global size; 1 for a task); 0 for other commands. "
     "Markers and barriers: the sum over the commands they cover.",
     CL_PERFORMANCE_COUNTER_UNIT_GENERIC_CODEPLAY, CL_PERFORMANCE_COUNTER_RESULT_TYPE_UINT64_CODEPLAY,
     Aggregation::kSum, Source::kCommand},
    {CounterId::kKernelWorkGroups, "KernelWorkGroups", "Kernel",
     "Work-groups of a kernel command (product of ceil(global/local)); 0 for other commands; -1 when the "
     "driver chose the local size (OpenCL does not say which). Markers and barriers: the sum (-1 if any is "
     "-1).",
     CL_PERFORMANCE_COUNTER_UNIT_GENERIC_CODEPLAY, CL_PERFORMANCE_COUNTER_RESULT_TYPE_INT64_CODEPLAY,
     Aggregation::kSum, Source::kCommand},
    {CounterId::kKernelDuration, "KernelDuration", "Kernel",
     "Nanoseconds a kernel command ran (END - START); 0 for other commands. Markers and barriers: the sum "
     "over the commands they cover.",
     CL_PERFORMANCE_COUNTER_UNIT_NANOSECONDS_CODEPLAY, CL_PERFORMANCE_COUNTER_RESULT_TYPE_UINT64_CODEPLAY,
     Aggregation::kSum, Source::kCommand},
    {CounterId::kTransferBytes, "TransferBytes", "Transfer",
     "Bytes a read, write, copy or fill moves (size or region; images: region x element size); 0 for other "
     "commands, maps included. Markers and barriers: the sum over the commands they cover.",
     CL_PERFORMANCE_COUNTER_UNIT_BYTES_CODEPLAY, CL_PERFORMANCE_COUNTER_RESULT_TYPE_UINT64_CODEPLAY,
     Aggregation::kSum, Source::kCommand},
    {CounterId::kTransferDuration, "TransferDuration", "Transfer",
     "Nanoseconds a read, write, copy or fill ran (END - START); 0 for other commands. Markers and "
     "barriers: the sum over the commands they cover.",
     CL_PERFORMANCE_COUNTER_UNIT_NANOSECONDS_CODEPLAY, CL_PERFORMANCE_COUNTER_RESULT_TYPE_UINT64_CODEPLAY,
     Aggregation::kSum, Source::kCommand},
    {CounterId::kGpuPower, "GPUPower", "Power",
     "Board power (W) NVML reported when the command was seen complete (nvmlDeviceGetPowerUsage; recent "
     "GPUs average it over ~1 s). NaN if unread. Markers and barriers: the duration-weighted mean.",
     CL_PERFORMANCE_COUNTER_UNIT_WATTS_CODEPLAY, CL_PERFORMANCE_COUNTER_RESULT_TYPE_FLOAT64_CODEPLAY,
     Aggregation::kWeightedMean, Source::kGpuSensor},
    {CounterId::kGpuTemperature, "GPUTemperature", "Thermal",
     "GPU temperature (K) NVML reported when the command was seen complete (whole degrees Celsius + "
     "273.15). NaN if unread. Markers and barriers: the duration-weighted mean.",
     CL_PERFORMANCE_COUNTER_UNIT_KELVIN_CODEPLAY, CL_PERFORMANCE_COUNTER_RESULT_TYPE_FLOAT64_CODEPLAY,
     Aggregation::kWeightedMean, Source::kGpuSensor},
    {CounterId::kGpuSmClock, "GPUSMClock", "Clocks",
     "SM clock (Hz) NVML reported when the command was seen complete (whole MHz). NaN if unread. Markers "
     "and barriers: the duration-weighted mean over the commands they cover.",
     CL_PERFORMANCE_COUNTER_UNIT_HERTZ_CODEPLAY, CL_PERFORMANCE_COUNTER_RESULT_TYPE_FLOAT64_CODEPLAY,
     Aggregation::kWeightedMean, Source::kGpuSensor},
    {CounterId::kGpuMemoryClock, "GPUMemoryClock", "Clocks",
     "Memory clock (Hz) NVML reported when the command was seen complete (whole MHz). NaN if unread. "
     "Markers and barriers: the duration-weighted mean over the commands they cover.",
     CL_PERFORMANCE_COUNTER_UNIT_HERTZ_CODEPLAY, CL_PERFORMANCE_COUNTER_RESULT_TYPE_FLOAT64_CODEPLAY,
     Aggregation::kWeightedMean, Source::kGpuSensor},
    {CounterId::kCpuPackagePower, "CPUPackagePower", "Power",
     "Mean power (W) of all CPU packages while the command ran: RAPL energy (powercap) at its start and "
     "completion over the host time between; coarse below ~1 ms. Markers and barriers: energy over time.",
     CL_PERFORMANCE_COUNTER_UNIT_WATTS_CODEPLAY, CL_PERFORMANCE_COUNTER_RESULT_TYPE_FLOAT64_CODEPLAY,
     Aggregation::kRatioOfSums, Source::kCpuWindow},
    {CounterId::kCpuFrequency, "CPUFrequency", "Clocks",
     "Mean cpufreq frequency (Hz) of the CPUs the process may use, read when the command was seen "
     "complete. NaN if unread. Markers and barriers: the duration-weighted mean.",
     CL_PERFORMANCE_COUNTER_UNIT_HERTZ_CODEPLAY, CL_PERFORMANCE_COUNTER_RESULT_TYPE_FLOAT64_CODEPLAY,
     Aggregation::kWeightedMean, Source::kCpuSensor},
    {CounterId::kCpuThreadTime, "CPUThreadTime", "CPU",
     "CPU time (ns, perf task-clock) of the process's threads other than those enqueuing or waiting (the "
     "driver's) from the command's start to completion. Markers and barriers: the sum.",
     CL_PERFORMANCE_COUNTER_UNIT_NANOSECONDS_CODEPLAY, CL_PERFORMANCE_COUNTER_RESULT_TYPE_UINT64_CODEPLAY,
     Aggregation::kSum, Source::kCpuWindow},
    {CounterId::kCpuCycles, "CPUCycles", "CPU",
     "User-space CPU cycles (perf) of the same threads over the same span as CPUThreadTime. Markers and "
     "barriers: the sum over the commands they cover.",
     CL_PERFORMANCE_COUNTER_UNIT_CYCLES_CODEPLAY, CL_PERFORMANCE_COUNTER_RESULT_TYPE_UINT64_CODEPLAY,
     Aggregation::kSum, Source::kCpuWindow},
    {CounterId::kCpuInstructions, "CPUInstructions", "CPU",
     "User-space instructions retired (perf) by the same threads over the same span as CPUThreadTime. "
     "Markers and barriers: the sum over the commands they cover.",
     CL_PERFORMANCE_COUNTER_UNIT_GENERIC_CODEPLAY, CL_PERFORMANCE_COUNTER_RESULT_TYPE_UINT64_CODEPLAY,
     Aggregation::kSum, Source::kCpuWindow},
    {CounterId::kCpuCacheMisses, "CPUCacheMisses", "CPU",
     "User-space last-level cache misses (perf cache-misses) of the same threads over the same span as "
     "CPUThreadTime. Markers and barriers: the sum.",
     CL_PERFORMANCE_COUNTER_UNIT_GENERIC_CODEPLAY, CL_PERFORMANCE_COUNTER_RESULT_TYPE_UINT64_CODEPLAY,
     Aggregation::kSum, Source::kCpuWindow},
}};

constexpr bool UuidsAreIndices() {
    for (size_t i = 0; i < kCounters.size(); ++i) {
        if (IndexOf(kCounters[i].id) != i) return false;
    }
    return true;
}
static_assert(UuidsAreIndices(), "kCounters is in uuid order, uuids 1..kCounterCount");

constexpr bool TextsFit() {
    for (const CounterDefinition& counter : kCounters) {
        for (std::string_view text : {counter.name, counter.category, counter.description}) {
            if (text.size() >= 256) return false;
        }
    }
    return true;
}
static_assert(TextsFit(), "names, categories and descriptions fit the extension's char[256] with a terminator");

void CopyText(char (&target)[256], const char* text) {
    std::strncpy(target, text, sizeof target - 1);
    target[sizeof target - 1] = '\0';
}

}  // namespace

const std::array<CounterDefinition, kCounterCount>& AllCounters() { return kCounters; }

const CounterDefinition& Definition(CounterId id) { return kCounters[IndexOf(id)]; }

std::optional<CounterId> CounterFromUuid(cl_uint uuid) {
    if (uuid == 0 || uuid > kCounterCount) return std::nullopt;
    return static_cast<CounterId>(uuid);
}

cl_performance_counter_codeplay Describe(const CounterDefinition& definition) {
    cl_performance_counter_codeplay counter{};
    counter.unit = definition.unit;
    counter.storage = definition.storage;
    counter.uuid = static_cast<cl_uint>(definition.id);
    CopyText(counter.name, definition.name);
    CopyText(counter.category, definition.category);
    CopyText(counter.description, definition.description);
    return counter;
}

}  // namespace gpa::cl_layer
