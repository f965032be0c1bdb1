#include "layers/vulkan/counter_blocks.h"

#include <bit>

namespace ogpa::vklayer {

namespace {

constexpr EventSource kStat = EventSource::kPipelineStatistic;

constexpr EventDefinition kEvents[] = {
    {VK_GPA_PERF_BLOCK_IA_AMD, 0, "IA.vertices", "Vertices read by the input assembler", kStat,
     VK_QUERY_PIPELINE_STATISTIC_INPUT_ASSEMBLY_VERTICES_BIT, true},
    {VK_GPA_PERF_BLOCK_IA_AMD, 1, "IA.primitives", "Primitives read by the input assembler", kStat,
     VK_QUERY_PIPELINE_STATISTIC_INPUT_ASSEMBLY_PRIMITIVES_BIT, true},
    {VK_GPA_PERF_BLOCK_VGT_AMD, 0, "VGT.vs_invocations", "Vertex shader invocations", kStat,
     VK_QUERY_PIPELINE_STATISTIC_VERTEX_SHADER_INVOCATIONS_BIT, true},
    {VK_GPA_PERF_BLOCK_VGT_AMD, 1, "VGT.gs_invocations", "Geometry shader invocations", kStat,
     VK_QUERY_PIPELINE_STATISTIC_GEOMETRY_SHADER_INVOCATIONS_BIT, true},
    {VK_GPA_PERF_BLOCK_VGT_AMD, 2, "VGT.gs_primitives", "Primitives a geometry shader emitted", kStat,
     VK_QUERY_PIPELINE_STATISTIC_GEOMETRY_SHADER_PRIMITIVES_BIT, true},
    {VK_GPA_PERF_BLOCK_VGT_AMD, 3, "VGT.hs_patches", "Patches the tessellation control shader processed", kStat,
     VK_QUERY_PIPELINE_STATISTIC_TESSELLATION_CONTROL_SHADER_PATCHES_BIT, true},
    {VK_GPA_PERF_BLOCK_VGT_AMD, 4, "VGT.ds_invocations", "Tessellation evaluation shader invocations", kStat,
     VK_QUERY_PIPELINE_STATISTIC_TESSELLATION_EVALUATION_SHADER_INVOCATIONS_BIT, true},
    {VK_GPA_PERF_BLOCK_PA_AMD, 0, "PA.clipping_invocations", "Primitives that reached the clipping stage", kStat,
     VK_QUERY_PIPELINE_STATISTIC_CLIPPING_INVOCATIONS_BIT, true},
    {VK_GPA_PERF_BLOCK_PA_AMD, 1, "PA.clipping_primitives", "Primitives the clipping stage passed on", kStat,
     VK_QUERY_PIPELINE_STATISTIC_CLIPPING_PRIMITIVES_BIT, true},
    {VK_GPA_PERF_BLOCK_SPI_AMD, 0, "SPI.ps_invocations", "Fragment shader invocations, as the driver counts them", kStat,
     VK_QUERY_PIPELINE_STATISTIC_FRAGMENT_SHADER_INVOCATIONS_BIT, true},
    {VK_GPA_PERF_BLOCK_SPI_AMD, 1, "SPI.cs_invocations", "Compute shader invocations", kStat,
     VK_QUERY_PIPELINE_STATISTIC_COMPUTE_SHADER_INVOCATIONS_BIT, false},
    {VK_GPA_PERF_BLOCK_DB_AMD, 0, "DB.samples_passed", "Samples that passed the depth and stencil tests", EventSource::kOcclusion,
     VkQueryPipelineStatisticFlagBits{}, true},
};

bool Offered(const CounterSupport& support, const EventDefinition& event) {
    return event.source == EventSource::kOcclusion || support.pipelineStatistics;
}

VkGpaPerfBlockPropertiesAMD KhrBlock(const CounterSupport& support) {
    VkGpaPerfBlockPropertiesAMD block{};
    block.blockType = VK_GPA_PERF_BLOCK_KHR_PERFORMANCE_QUERY_OPENGPA;
    block.instanceCount = 1;
    block.maxEventID = support.khrEvents - 1;
    block.maxGlobalOnlyCounters = support.khrSimultaneous;
    block.maxGlobalSharedCounters = support.khrSimultaneous;
    return block;
}

}  // namespace

std::span<const EventDefinition> AllEvents() { return kEvents; }

std::vector<VkGpaPerfBlockPropertiesAMD> OfferedBlocks(const CounterSupport& support) {
    std::vector<VkGpaPerfBlockPropertiesAMD> blocks;
    for (const EventDefinition& event : kEvents) {
        if (!Offered(support, event)) continue;
        if (blocks.empty() || blocks.back().blockType != event.block) {
            VkGpaPerfBlockPropertiesAMD block{};
            block.blockType = event.block;
            block.instanceCount = 1;
            blocks.push_back(block);
        }
        VkGpaPerfBlockPropertiesAMD& block = blocks.back();
        block.maxEventID = event.eventId;
        ++block.maxGlobalOnlyCounters;  // one per event: a query counts all of them together
        block.maxGlobalSharedCounters = block.maxGlobalOnlyCounters;
        block.maxStreamingCounters = 0;  // no streaming (SPM) counters on these drivers
    }
    if (support.khrEvents > 0) blocks.push_back(KhrBlock(support));
    return blocks;
}

std::optional<EventDefinition> FindEvent(const CounterSupport& support, VkGpaPerfBlockAMD block, uint32_t eventId) {
    for (const EventDefinition& event : kEvents) {
        if (event.block == block && event.eventId == eventId && Offered(support, event)) return event;
    }
    return std::nullopt;
}

VkQueryPipelineStatisticFlags StatisticsForQueue(bool graphicsQueue) {
    if (!graphicsQueue) return VK_QUERY_PIPELINE_STATISTIC_COMPUTE_SHADER_INVOCATIONS_BIT;
    VkQueryPipelineStatisticFlags mask = 0;
    for (const EventDefinition& event : kEvents) {
        if (event.source == EventSource::kPipelineStatistic) mask |= event.statistic;
    }
    return mask;
}

uint32_t StatisticResultIndex(VkQueryPipelineStatisticFlags mask, VkQueryPipelineStatisticFlagBits statistic) {
    return static_cast<uint32_t>(std::popcount(mask & (static_cast<uint32_t>(statistic) - 1u)));
}

const char* BlockName(VkGpaPerfBlockAMD block) {
    if (block == VK_GPA_PERF_BLOCK_KHR_PERFORMANCE_QUERY_OPENGPA) return "KHR";  // OpenGPA's value, not of the enum
    if (block == VK_GPA_PERF_BLOCK_PM_SAMPLING_OPENGPA) return "PM";
    switch (block) {
        case VK_GPA_PERF_BLOCK_IA_AMD: return "IA";
        case VK_GPA_PERF_BLOCK_VGT_AMD: return "VGT";
        case VK_GPA_PERF_BLOCK_PA_AMD: return "PA";
        case VK_GPA_PERF_BLOCK_SPI_AMD: return "SPI";
        case VK_GPA_PERF_BLOCK_DB_AMD: return "DB";
        default: return "a block this layer does not offer";
    }
}

}  // namespace ogpa::vklayer
