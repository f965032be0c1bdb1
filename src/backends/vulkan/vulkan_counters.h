// The Vulkan backend's counters, as data. Hardware counter 0 is the duration of a timing sample; the others
// are the events of OpenGPA's layer vocabulary (docs/vulkan_layer.md: Vulkan pipeline statistics and the
// occlusion query, presented as events of the GCN blocks that count them). GPA's public counters are
// derived from them: GPUTime and the graphics counters of the user guide's "OpenGL and DirectX" table that
// pipeline statistics and occlusion queries measure.
#pragma once

#include <cstdint>
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

struct CounterSet {
    std::vector<HardwareCounter> hardware;          // [0] = timing; then the events the device offers
    std::vector<VkGpaPerfCounterAMD> events;        // events[i] is hardware counter i + 1
    std::vector<DerivedCounterDefinition> derived;  // GPA's counters over them
    std::vector<std::string> absent;                // events not offered, with why
};

// The counters of a device. `layerEvents`: the blocks are those of OpenGPA's layer (docs/vulkan_layer.md);
// otherwise the driver implements the extension with hardware events OpenGPA has no tables for, and only
// the timing counters are declared.
CounterSet BuildCounters(const std::vector<VkGpaPerfBlockPropertiesAMD>& blocks, bool layerEvents);

// GPA's public counters of the Vulkan backend (also read by the tests).
const std::vector<DerivedCounterDefinition>& PublicCounters();

}  // namespace gpa::vk
