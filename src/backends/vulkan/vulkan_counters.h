// The Vulkan backend's counters, as data. Hardware counter 0 is the duration of a timing sample; the others
// are the events of OpenGPA's layer vocabulary (docs/vulkan_layer.md: Vulkan pipeline statistics and the
// occlusion query, presented as events of the GCN blocks that count them). GPA's public counters are
// derived from them: GPUTime and the graphics counters of the user guide's "OpenGL and DirectX" table that
// pipeline statistics and occlusion queries measure. Where the layer offers the driver's
// VK_KHR_performance_query counters (its block KHR), they are hardware counters too ("KHR.<driver's name>"),
// listed with GPA_OPENCONTEXT_ENABLE_HARDWARE_COUNTERS_BIT; GPA's vocabulary has no counters derived from
// them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "GPUPerfAPI-Vk.h"
#include "counters/counter_definition.h"

namespace gpa::vk {

inline constexpr uint32_t kTimingCounter = 0;  // hardware counter index of the timing sample's duration
inline constexpr const char* kTimingCounterName = "TIMING.duration_ns";

// One event of a cumulative sample, as the backend asks for it.
struct EventCounter {
    VkGpaPerfBlockAMD block;
    uint32_t eventId;
    const char* name;         // hardware counter name, e.g. "IA.vertices"
    const char* description;  // what it counts
};

// Every event of OpenGPA's layer vocabulary.
const std::vector<EventCounter>& LayerEvents();

// How a cumulative sample's 64-bit result of an event is read (the layer widens VK_KHR_performance_query
// values: signed ones to int64, floating-point ones to the bits of a double; its PM sampling block gives every value
// as the bits of a double, NaN where it has none: docs/vulkan_layer.md).
enum class ResultEncoding { kUnsigned, kSigned, kDouble, kPmSampled };

// The number a result word stands for; nullopt where the layer says it has none (a PM value's NaN). The one place
// that knows the encodings.
std::optional<double> DecodeResult(uint64_t word, ResultEncoding encoding);

// What the pass planner needs of an event.
struct EventPlanning {
    bool khr = false;                   // a VK_KHR_performance_query counter: passes depend on the set
    uint32_t queueFamilyMask = ~0u;     // the queue families that count it
};

struct CounterSet {
    std::vector<HardwareCounter> hardware;          // [0] = timing; then the events the device offers
    std::vector<VkGpaPerfCounterAMD> events;        // events[i] is hardware counter i + 1
    std::vector<ResultEncoding> encodings;          // of events[i]
    std::vector<EventPlanning> planning;            // of events[i]
    std::vector<DerivedCounterDefinition> derived;  // GPA's counters over them
    std::vector<std::string> absent;                // events not offered, with why
};

// The counters of a device. `layerEvents`: the blocks are those of OpenGPA's layer (docs/vulkan_layer.md);
// otherwise the driver implements the extension with hardware events OpenGPA has no tables for, and only
// the timing counters are declared. `khrEvents`: the layer's description of its block KHR, if offered.
// `pmEvents`: its PM sampling block's (NVIDIA metrics sampled device-wide), if offered: hardware counters
// "PM.<metric>" and the graphics vocabulary's public counters over them (GPUBusy, FetchSize, WriteSize).
CounterSet BuildCounters(const std::vector<VkGpaPerfBlockPropertiesAMD>& blocks, bool layerEvents,
                         const std::vector<VkGpaPerfEventPropertiesOPENGPA>& khrEvents = {},
                         const std::vector<VkGpaPerfEventPropertiesOPENGPA>& pmEvents = {});

// The hardware counter of one VK_KHR_performance_query event; `name` is unique in the context.
HardwareCounter KhrHardwareCounter(const VkGpaPerfEventPropertiesOPENGPA& event, const std::string& name);
ResultEncoding KhrEncoding(VkPerformanceCounterStorageKHR storage);

// GPA's public counters of the Vulkan backend (also read by the tests).
const std::vector<DerivedCounterDefinition>& PublicCounters();

}  // namespace gpa::vk
