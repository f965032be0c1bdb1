#include "backends/opencl/codeplay_counters.h"

#include <algorithm>
#include <cstring>

#include "backends/opencl/cl_queries.h"

namespace gpa::cl {

const char* CodeplayUnitName(cl_uint unit) {
    switch (unit) {
        case CL_PERFORMANCE_COUNTER_UNIT_GENERIC_CODEPLAY: return "generic";
        case CL_PERFORMANCE_COUNTER_UNIT_PERCENTAGE_CODEPLAY: return "percentage";
        case CL_PERFORMANCE_COUNTER_UNIT_NANOSECONDS_CODEPLAY: return "nanoseconds";
        case CL_PERFORMANCE_COUNTER_UNIT_BYTES_CODEPLAY: return "bytes";
        case CL_PERFORMANCE_COUNTER_UNIT_BYTES_PER_SECOND_CODEPLAY: return "bytes per second";
        case CL_PERFORMANCE_COUNTER_UNIT_KELVIN_CODEPLAY: return "kelvin";
        case CL_PERFORMANCE_COUNTER_UNIT_WATTS_CODEPLAY: return "watts";
        case CL_PERFORMANCE_COUNTER_UNIT_VOLTS_CODEPLAY: return "volts";
        case CL_PERFORMANCE_COUNTER_UNIT_AMPS_CODEPLAY: return "amperes";
        case CL_PERFORMANCE_COUNTER_UNIT_HERTZ_CODEPLAY: return "hertz";
        case CL_PERFORMANCE_COUNTER_UNIT_CYCLES_CODEPLAY: return "cycles";
        default: return nullptr;
    }
}

GPA_Usage_Type CodeplayUsage(cl_uint unit) {
    switch (unit) {
        case CL_PERFORMANCE_COUNTER_UNIT_PERCENTAGE_CODEPLAY: return GPA_USAGE_TYPE_PERCENTAGE;
        case CL_PERFORMANCE_COUNTER_UNIT_NANOSECONDS_CODEPLAY: return GPA_USAGE_TYPE_NANOSECONDS;
        case CL_PERFORMANCE_COUNTER_UNIT_BYTES_CODEPLAY: return GPA_USAGE_TYPE_BYTES;
        case CL_PERFORMANCE_COUNTER_UNIT_CYCLES_CODEPLAY: return GPA_USAGE_TYPE_CYCLES;
        default: return GPA_USAGE_TYPE_ITEMS;
    }
}

std::optional<GPA_Type> CodeplayType(cl_uint storage) {
    switch (storage) {
        case CL_PERFORMANCE_COUNTER_RESULT_TYPE_INT32_CODEPLAY: return GPA_TYPE_FLOAT64;
        case CL_PERFORMANCE_COUNTER_RESULT_TYPE_INT64_CODEPLAY: return GPA_TYPE_FLOAT64;
        case CL_PERFORMANCE_COUNTER_RESULT_TYPE_UINT32_CODEPLAY: return GPA_TYPE_UINT32;
        case CL_PERFORMANCE_COUNTER_RESULT_TYPE_UINT64_CODEPLAY: return GPA_TYPE_UINT64;
        case CL_PERFORMANCE_COUNTER_RESULT_TYPE_FLOAT32_CODEPLAY: return GPA_TYPE_FLOAT32;
        case CL_PERFORMANCE_COUNTER_RESULT_TYPE_FLOAT64_CODEPLAY: return GPA_TYPE_FLOAT64;
        default: return std::nullopt;
    }
}

std::optional<double> CodeplayValue(const cl_performance_counter_result_codeplay& result, cl_uint storage) {
    switch (storage) {
        case CL_PERFORMANCE_COUNTER_RESULT_TYPE_INT32_CODEPLAY: return static_cast<double>(result.int32);
        case CL_PERFORMANCE_COUNTER_RESULT_TYPE_INT64_CODEPLAY: return static_cast<double>(result.int64);
        case CL_PERFORMANCE_COUNTER_RESULT_TYPE_UINT32_CODEPLAY: return static_cast<double>(result.uint32);
        case CL_PERFORMANCE_COUNTER_RESULT_TYPE_UINT64_CODEPLAY: return static_cast<double>(result.uint64);
        case CL_PERFORMANCE_COUNTER_RESULT_TYPE_FLOAT32_CODEPLAY: return static_cast<double>(result.float32);
        case CL_PERFORMANCE_COUNTER_RESULT_TYPE_FLOAT64_CODEPLAY: return result.float64;
        default: return std::nullopt;
    }
}

namespace {

// The fixed-size char arrays of the extension's struct need not be terminated.
std::string FixedString(const char (&text)[256]) { return std::string(text, strnlen(text, sizeof text)); }

}  // namespace

CodeplayCounterSet BuildCodeplayCounters(std::span<const cl_performance_counter_codeplay> device,
                                         std::span<const cl_uint> queueUuids) {
    CodeplayCounterSet set;
    set.resultCount = queueUuids.size();
    for (uint32_t position = 0; position < queueUuids.size(); ++position) {
        const cl_uint uuid = queueUuids[position];
        auto described = std::find_if(device.begin(), device.end(),
                                      [&](const cl_performance_counter_codeplay& c) { return c.uuid == uuid; });
        if (described == device.end()) {
            set.skipped.push_back("uuid " + std::to_string(uuid) +
                                  ": the queue enables it but the device does not describe it");
            continue;
        }
        const std::string name = FixedString(described->name);
        const std::optional<GPA_Type> type = CodeplayType(described->storage);
        if (!type) {
            set.skipped.push_back(name + ": unknown result storage " + std::to_string(described->storage));
            continue;
        }
        if (std::any_of(set.counters.begin(), set.counters.end(),
                        [&](const CodeplayCounter& c) { return c.hardware.name == name; })) {
            set.skipped.push_back(name + ": the queue enables it twice");
            continue;
        }
        CodeplayCounter counter;
        counter.hardware.name = name;
        counter.hardware.group = FixedString(described->category);
        counter.hardware.description = FixedString(described->description);
        const GPA_Usage_Type usage = CodeplayUsage(described->unit);
        const char* unitName = CodeplayUnitName(described->unit);
        if (usage == GPA_USAGE_TYPE_ITEMS && described->unit != CL_PERFORMANCE_COUNTER_UNIT_GENERIC_CODEPLAY) {
            // GPA has no usage type for this unit; say it in words instead of mislabelling it.
            counter.hardware.description += std::string(" [unit: ") + (unitName ? unitName : "unknown") + "]";
        }
        counter.hardware.type = *type;
        counter.hardware.usage = usage;
        counter.uuid = uuid;
        counter.storage = described->storage;
        counter.resultIndex = position;
        set.counters.push_back(std::move(counter));
    }
    for (const cl_performance_counter_codeplay& c : device) {
        if (std::find(queueUuids.begin(), queueUuids.end(), c.uuid) == queueUuids.end()) {
            set.skipped.push_back(FixedString(c.name) +
                                  ": the command queue was not created with it enabled "
                                  "(CL_QUEUE_PERFORMANCE_COUNTERS_CODEPLAY)");
        }
    }
    return set;
}

std::vector<DerivedCounterDefinition> CodeplayDerivedCounters(std::span<const std::string> hardwareNames,
                                                              const std::string& sampleDuration) {
    auto has = [&](const std::string& name) {
        return std::find(hardwareNames.begin(), hardwareNames.end(), name) != hardwareNames.end();
    };
    std::vector<DerivedCounterDefinition> derived;
    auto add = [&](const char* name, const char* group, std::string description, GPA_Usage_Type usage,
                   const std::string& numerator, const std::string& denominator, const char* scale) {
        if (!has(numerator) || !has(denominator)) return;
        DerivedCounterDefinition counter;
        counter.name = name;
        counter.group = group;
        counter.description = std::move(description);
        counter.type = GPA_TYPE_FLOAT64;
        counter.usage = usage;
        counter.expression = numerator + " / " + denominator + scale;
        derived.push_back(std::move(counter));
    };
    add("TransferBandwidth", "Transfer",
        "Achieved bandwidth of the sample's reads, writes, copies and fills: TransferBytes / TransferDuration, bytes "
        "per nanosecond of the transfers' own device time; 0 when the sample has none. [unit: gigabytes per second]",
        GPA_USAGE_TYPE_ITEMS, "TransferBytes", "TransferDuration", "");
    add("KernelBusy", "Kernel",
        "Percentage of the sample's device time in which its kernels ran: KernelDuration / " + sampleDuration +
            " x 100. Kernels that overlap (out-of-order queues) each count, so it can exceed 100.",
        GPA_USAGE_TYPE_PERCENTAGE, "KernelDuration", sampleDuration, " * 100");
    add("TransferBusy", "Transfer",
        "Percentage of the sample's device time in which its transfers ran: TransferDuration / " + sampleDuration +
            " x 100. Transfers that overlap each count, so it can exceed 100.",
        GPA_USAGE_TYPE_PERCENTAGE, "TransferDuration", sampleDuration, " * 100");
    return derived;
}

std::vector<cl_uint> EnabledCounterUuids(std::span<const cl_ulong> queueProperties) {
    std::vector<cl_uint> uuids;
    for (size_t i = 0; i + 1 < queueProperties.size() && queueProperties[i] != 0; i += 2) {
        if (queueProperties[i] != CL_QUEUE_PERFORMANCE_COUNTERS_CODEPLAY) continue;
        const auto* config = reinterpret_cast<const cl_performance_counter_config_codeplay*>(
            static_cast<uintptr_t>(queueProperties[i + 1]));
        if (config == nullptr || config->descs == nullptr) return {};
        for (cl_uint k = 0; k < config->count; ++k) uuids.push_back(config->descs[k].uuid);
        return uuids;
    }
    return uuids;
}

std::vector<cl_performance_counter_codeplay> QueryDeviceCounters(cl_device_id device) {
    if (!HasExtension(device, CL_CODEPLAY_PERFORMANCE_COUNTERS_EXTENSION_NAME)) return {};
    std::vector<unsigned char> bytes;
    if (QueryBytes(clGetDeviceInfo, device, CL_DEVICE_PERFORMANCE_COUNTERS_CODEPLAY, &bytes) != CL_SUCCESS) return {};
    std::vector<cl_performance_counter_codeplay> counters(bytes.size() / sizeof(cl_performance_counter_codeplay));
    if (!counters.empty()) std::memcpy(counters.data(), bytes.data(), counters.size() * sizeof counters[0]);
    return counters;
}

std::vector<cl_uint> QueryQueueCounterUuids(cl_command_queue queue) {
    std::vector<unsigned char> bytes;
    if (QueryBytes(clGetCommandQueueInfo, queue, CL_QUEUE_PROPERTIES_ARRAY, &bytes) != CL_SUCCESS) return {};
    std::vector<cl_ulong> properties(bytes.size() / sizeof(cl_ulong));
    if (!properties.empty()) std::memcpy(properties.data(), bytes.data(), properties.size() * sizeof(cl_ulong));
    return EnabledCounterUuids(properties);
}

}  // namespace gpa::cl
