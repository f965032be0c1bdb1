// What a cumulative sample can count on a Vulkan driver, in the extension's vocabulary of blocks and events.
//
// Each Vulkan pipeline statistic is presented as an event of the block that counts it on the GCN hardware
// the extension was written for (IA reads vertices and primitives, VGT launches the geometry stages, PA
// clips, SPI launches pixel and compute threads, DB tests depth and counts the samples that pass); the
// occlusion query's samples-passed count is DB's event. Event ids are OpenGPA's own numbering (the
// extension says event ids are hardware-defined). docs/vulkan_layer.md has the table.
//
// Where the driver has VK_KHR_performance_query, its counters are the events of one more block, OpenGPA's
// VK_GPA_PERF_BLOCK_KHR_PERFORMANCE_QUERY_OPENGPA (khr_performance_counters.h says which and in what order).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "vulkan/vk_amd_gpa_interface.h"

namespace ogpa::vklayer {

enum class EventSource {
    kPipelineStatistic,  // a bit of a VK_QUERY_TYPE_PIPELINE_STATISTICS query
    kOcclusion,          // the samples-passed count of a VK_QUERY_TYPE_OCCLUSION query
    kKhrPerformance,     // a counter of a VK_QUERY_TYPE_PERFORMANCE_QUERY_KHR query
    kPmSampling,         // a metric of the PM-sampling block, integrated between two timestamps (pm_block.h)
};

struct EventDefinition {
    VkGpaPerfBlockAMD block;
    uint32_t eventId;
    const char* name;  // OpenGPA's name for the event, e.g. "IA.vertices"
    const char* description;
    EventSource source;
    VkQueryPipelineStatisticFlagBits statistic;  // kPipelineStatistic only
    bool needsGraphicsQueue;                     // counted only by graphics work (a compute queue has only CS)
};

// Every event the layer can count, in block order then event order.
std::span<const EventDefinition> AllEvents();

// What the device lets the layer count.
struct CounterSupport {
    bool pipelineStatistics = false;  // VkPhysicalDeviceFeatures::pipelineStatisticsQuery
    bool preciseOcclusion = false;    // VkPhysicalDeviceFeatures::occlusionQueryPrecise
    uint32_t khrEvents = 0;           // VK_KHR_performance_query counters offered (0: no such block)
    uint32_t khrSimultaneous = 0;     // how many of them any one sample can surely count (see khr_performance_counters.h)
};

// The blocks a device offers, as VkPhysicalDeviceGpaPropertiesAMD lists them: exactly the blocks with at
// least one event the device can count; one instance each; every event of a query-based block can be
// counted at once (of the VK_KHR_performance_query block, khrSimultaneous).
std::vector<VkGpaPerfBlockPropertiesAMD> OfferedBlocks(const CounterSupport& support);

// The definition of (block, event) when the device offers it (not for the VK_KHR_performance_query block).
std::optional<EventDefinition> FindEvent(const CounterSupport& support, VkGpaPerfBlockAMD block, uint32_t eventId);

// The pipeline statistics a query pool of a command buffer collects: all of them on a queue with graphics,
// compute invocations alone on a compute-only queue.
VkQueryPipelineStatisticFlags StatisticsForQueue(bool graphicsQueue);

// Where `statistic` is among the results of a pipeline statistics query collecting `mask` (results come in
// bit order).
uint32_t StatisticResultIndex(VkQueryPipelineStatisticFlags mask, VkQueryPipelineStatisticFlagBits statistic);

const char* BlockName(VkGpaPerfBlockAMD block);

}  // namespace ogpa::vklayer
