#include "backends/vulkan/vulkan_counters.h"

#include <bit>
#include <cctype>
#include <cmath>
#include <set>

#include "counters/graphics_counters.h"

namespace gpa::vk {

namespace {

GPA_Usage_Type UsageOf(VkPerformanceCounterUnitKHR unit) {
    switch (unit) {
        case VK_PERFORMANCE_COUNTER_UNIT_PERCENTAGE_KHR: return GPA_USAGE_TYPE_PERCENTAGE;
        case VK_PERFORMANCE_COUNTER_UNIT_NANOSECONDS_KHR: return GPA_USAGE_TYPE_NANOSECONDS;
        case VK_PERFORMANCE_COUNTER_UNIT_BYTES_KHR: return GPA_USAGE_TYPE_BYTES;
        case VK_PERFORMANCE_COUNTER_UNIT_CYCLES_KHR: return GPA_USAGE_TYPE_CYCLES;
        default: return GPA_USAGE_TYPE_ITEMS;  // generic counts; other units are named in the description
    }
}

const char* UnitName(VkPerformanceCounterUnitKHR unit) {
    switch (unit) {
        case VK_PERFORMANCE_COUNTER_UNIT_GENERIC_KHR: return "generic";
        case VK_PERFORMANCE_COUNTER_UNIT_PERCENTAGE_KHR: return "percentage";
        case VK_PERFORMANCE_COUNTER_UNIT_NANOSECONDS_KHR: return "nanoseconds";
        case VK_PERFORMANCE_COUNTER_UNIT_BYTES_KHR: return "bytes";
        case VK_PERFORMANCE_COUNTER_UNIT_BYTES_PER_SECOND_KHR: return "bytes per second";
        case VK_PERFORMANCE_COUNTER_UNIT_KELVIN_KHR: return "kelvin";
        case VK_PERFORMANCE_COUNTER_UNIT_WATTS_KHR: return "watts";
        case VK_PERFORMANCE_COUNTER_UNIT_VOLTS_KHR: return "volts";
        case VK_PERFORMANCE_COUNTER_UNIT_AMPS_KHR: return "amps";
        case VK_PERFORMANCE_COUNTER_UNIT_HERTZ_KHR: return "hertz";
        case VK_PERFORMANCE_COUNTER_UNIT_CYCLES_KHR: return "cycles";
        default: return "unknown";
    }
}

std::string Lower(std::string text) {
    for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return text;
}

}  // namespace

std::optional<double> DecodeResult(uint64_t word, ResultEncoding encoding) {
    switch (encoding) {
        case ResultEncoding::kSigned: return static_cast<double>(static_cast<int64_t>(word));
        case ResultEncoding::kDouble: return std::bit_cast<double>(word);
        case ResultEncoding::kPmSampled: {
            const double value = std::bit_cast<double>(word);
            if (std::isnan(value)) return std::nullopt;
            return value;
        }
        case ResultEncoding::kUnsigned: break;
    }
    return static_cast<double>(word);
}

ResultEncoding KhrEncoding(VkPerformanceCounterStorageKHR storage) {
    switch (storage) {
        case VK_PERFORMANCE_COUNTER_STORAGE_INT32_KHR:
        case VK_PERFORMANCE_COUNTER_STORAGE_INT64_KHR: return ResultEncoding::kSigned;
        case VK_PERFORMANCE_COUNTER_STORAGE_FLOAT32_KHR:
        case VK_PERFORMANCE_COUNTER_STORAGE_FLOAT64_KHR: return ResultEncoding::kDouble;
        default: return ResultEncoding::kUnsigned;
    }
}

HardwareCounter KhrHardwareCounter(const VkGpaPerfEventPropertiesOPENGPA& event, const std::string& name) {
    HardwareCounter counter;
    counter.name = name;
    counter.group = "KHR";
    counter.description = std::string(event.description) + " (the driver's VK_KHR_performance_query counter '" + event.name +
                          "', category '" + event.category + "', unit " + UnitName(event.unit) + ")";
    counter.usage = UsageOf(event.unit);
    // GPA 2.x reads uint32, uint64, float32 and float64; signed counters are read as float64.
    switch (event.storage) {
        case VK_PERFORMANCE_COUNTER_STORAGE_UINT32_KHR: counter.type = GPA_TYPE_UINT32; break;
        case VK_PERFORMANCE_COUNTER_STORAGE_UINT64_KHR: counter.type = GPA_TYPE_UINT64; break;
        case VK_PERFORMANCE_COUNTER_STORAGE_FLOAT32_KHR: counter.type = GPA_TYPE_FLOAT32; break;
        default: counter.type = GPA_TYPE_FLOAT64; break;
    }
    return counter;
}

const std::vector<EventCounter>& LayerEvents() {
    static const std::vector<EventCounter> events = {
        {VK_GPA_PERF_BLOCK_IA_AMD, 0, "IA.vertices", "Vertices read by the input assembler (Vulkan pipeline statistic)"},
        {VK_GPA_PERF_BLOCK_IA_AMD, 1, "IA.primitives", "Primitives read by the input assembler (Vulkan pipeline statistic)"},
        {VK_GPA_PERF_BLOCK_VGT_AMD, 0, "VGT.vs_invocations", "Vertex shader invocations (Vulkan pipeline statistic)"},
        {VK_GPA_PERF_BLOCK_VGT_AMD, 1, "VGT.gs_invocations", "Geometry shader invocations (Vulkan pipeline statistic)"},
        {VK_GPA_PERF_BLOCK_VGT_AMD, 2, "VGT.gs_primitives", "Primitives a geometry shader emitted (Vulkan pipeline statistic)"},
        {VK_GPA_PERF_BLOCK_VGT_AMD, 3, "VGT.hs_patches", "Patches the tessellation control shader processed (Vulkan pipeline statistic)"},
        {VK_GPA_PERF_BLOCK_VGT_AMD, 4, "VGT.ds_invocations", "Tessellation evaluation shader invocations (Vulkan pipeline statistic)"},
        {VK_GPA_PERF_BLOCK_PA_AMD, 0, "PA.clipping_invocations", "Primitives that reached the clipping stage (Vulkan pipeline statistic)"},
        {VK_GPA_PERF_BLOCK_PA_AMD, 1, "PA.clipping_primitives", "Primitives the clipping stage passed on (Vulkan pipeline statistic)"},
        {VK_GPA_PERF_BLOCK_SPI_AMD, 0, "SPI.ps_invocations", "Fragment shader invocations (Vulkan pipeline statistic)"},
        {VK_GPA_PERF_BLOCK_SPI_AMD, 1, "SPI.cs_invocations", "Compute shader invocations (Vulkan pipeline statistic)"},
        {VK_GPA_PERF_BLOCK_DB_AMD, 0, "DB.samples_passed", "Samples that passed the depth and stencil tests (Vulkan occlusion query)"},
    };
    return events;
}

const std::vector<DerivedCounterDefinition>& PublicCounters() {
    static const std::vector<DerivedCounterDefinition> counters = graphics::PipelineCounters(
        "written before the first command (top of pipe) and after the last one completed (bottom of pipe), times "
        "VkPhysicalDeviceLimits::timestampPeriod");
    return counters;
}

CounterSet BuildCounters(const std::vector<VkGpaPerfBlockPropertiesAMD>& blocks, bool layerEvents,
                         const std::vector<VkGpaPerfEventPropertiesOPENGPA>& khrEvents,
                         const std::vector<VkGpaPerfEventPropertiesOPENGPA>& pmEvents) {
    CounterSet set;
    HardwareCounter timing;
    timing.name = kTimingCounterName;
    timing.group = "TIMING";
    timing.description = "Nanoseconds between the two timestamps of a VK_AMD_gpa_interface timing sample (top of pipe "
                         "before the sampled commands, bottom of pipe after them).";
    timing.type = GPA_TYPE_UINT64;
    timing.usage = GPA_USAGE_TYPE_NANOSECONDS;
    set.hardware.push_back(timing);
    if (!layerEvents) {
        set.absent.push_back("the graphics counters (pipeline statistics, occlusion): the driver implements "
                             "VK_AMD_gpa_interface itself, with AMD hardware events that OpenGPA has no tables for; "
                             "only GPUTime is available");
        set.derived.push_back(PublicCounters().front());
        return set;
    }
    for (const EventCounter& event : LayerEvents()) {
        bool offered = false;
        for (const VkGpaPerfBlockPropertiesAMD& block : blocks) {
            offered |= block.blockType == event.block && block.instanceCount > 0 && event.eventId <= block.maxEventID;
        }
        if (!offered) {
            set.absent.push_back(std::string(event.name) + ": the device does not offer it (no pipeline statistics queries)");
            continue;
        }
        HardwareCounter counter;
        counter.name = event.name;
        counter.group = std::string(event.name).substr(0, std::string(event.name).find('.'));
        counter.description = event.description;
        counter.type = GPA_TYPE_UINT64;
        counter.usage = GPA_USAGE_TYPE_ITEMS;
        set.hardware.push_back(counter);
        set.events.push_back(VkGpaPerfCounterAMD{event.block, 0, event.eventId});
        set.encodings.push_back(ResultEncoding::kUnsigned);
        set.planning.push_back(EventPlanning{});
    }
    // The driver's names, made unique (GPA names are case-insensitive) with the event id where they repeat.
    std::set<std::string> taken;
    for (const HardwareCounter& counter : set.hardware) taken.insert(Lower(counter.name));
    for (const VkGpaPerfEventPropertiesOPENGPA& event : khrEvents) {
        std::string name = std::string("KHR.") + event.name;
        if (!taken.insert(Lower(name)).second) {
            name += " #" + std::to_string(event.eventID);
            taken.insert(Lower(name));
        }
        set.hardware.push_back(KhrHardwareCounter(event, name));
        set.events.push_back(VkGpaPerfCounterAMD{event.blockType, 0, event.eventID});
        set.encodings.push_back(KhrEncoding(event.storage));
        set.planning.push_back(EventPlanning{true, event.queueFamilyMask});
    }
    for (const VkGpaPerfEventPropertiesOPENGPA& event : pmEvents) {
        HardwareCounter counter = graphics::SampledHardwareCounter(event.name);
        if (!taken.insert(Lower(counter.name)).second) continue;  // the layer lists a metric once; never twice here
        set.hardware.push_back(counter);
        set.events.push_back(VkGpaPerfCounterAMD{event.blockType, 0, event.eventID});
        set.encodings.push_back(ResultEncoding::kPmSampled);
        set.planning.push_back(EventPlanning{});  // read from the samples around the sample: joins any pass
    }
    set.derived = PublicCounters();  // those whose events are missing are omitted by the catalog, with the reason
    if (pmEvents.empty()) {
        set.absent.push_back("GPUBusy, FetchSize, WriteSize and the PM. hardware counters: the layer offers no PM "
                             "sampling block (NVIDIA GPUs only, with a layer built with CUPTI whose sampler started; "
                             "the layer logs why not)");
    } else {
        for (DerivedCounterDefinition& counter : graphics::SampledCounters()) set.derived.push_back(std::move(counter));
    }
    return set;
}

}  // namespace gpa::vk
