#include "layers/vulkan/query_arena.h"

#include <algorithm>
#include <bit>
#include <vector>

namespace ogpa::vklayer {

namespace {
constexpr uint32_t kFirstChunkCapacity = 32;
constexpr uint32_t kLargestChunkCapacity = 1024;

uint32_t ValuesPerQuery(const QueryKind& kind) {
    switch (kind.type) {
        case VK_QUERY_TYPE_PIPELINE_STATISTICS: return static_cast<uint32_t>(std::popcount(kind.statistics));
        case VK_QUERY_TYPE_PERFORMANCE_QUERY_KHR: return static_cast<uint32_t>(kind.counterIndices.size());
        default: return 1;
    }
}
}  // namespace

QueryArena::~QueryArena() {
    for (const Chunk& chunk : chunks_) device_.next.DestroyQueryPool(device_.handle, chunk.pool, nullptr);
}

VkQueryPool QueryArena::NextPool(const QueryKind& kind) const {
    for (const Chunk& chunk : chunks_) {
        if (chunk.kind == kind && chunk.used < chunk.capacity) return chunk.pool;
    }
    return VK_NULL_HANDLE;
}

VkResult QueryArena::Acquire(const QueryKind& kind, QueryRef* ref, std::string* problem) {
    uint32_t capacity = kFirstChunkCapacity;
    for (uint32_t i = 0; i < chunks_.size(); ++i) {
        Chunk& chunk = chunks_[i];
        if (!(chunk.kind == kind)) continue;
        capacity = std::min(kLargestChunkCapacity, chunk.capacity * 2);
        if (chunk.used < chunk.capacity) {
            *ref = QueryRef{i, chunk.used++};
            return VK_SUCCESS;
        }
    }
    Chunk chunk;
    chunk.kind = kind;
    chunk.capacity = capacity;
    chunk.valuesPerQuery = ValuesPerQuery(kind);
    VkQueryPoolCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO;
    info.queryType = kind.type;
    info.queryCount = capacity;
    info.pipelineStatistics = kind.statistics;
    VkQueryPoolPerformanceCreateInfoKHR performance{};
    if (kind.type == VK_QUERY_TYPE_PERFORMANCE_QUERY_KHR) {
        performance.sType = VK_STRUCTURE_TYPE_QUERY_POOL_PERFORMANCE_CREATE_INFO_KHR;
        performance.queueFamilyIndex = kind.queueFamily;
        performance.counterIndexCount = static_cast<uint32_t>(kind.counterIndices.size());
        performance.pCounterIndices = kind.counterIndices.data();
        info.pNext = &performance;
        chunk.resultFlags = 0;  // Vulkan: no 64-bit, availability or partial flags for performance queries
    }
    const VkResult result = device_.next.CreateQueryPool(device_.handle, &info, nullptr, &chunk.pool);
    if (result != VK_SUCCESS) {
        *problem = "vkCreateQueryPool for " + std::to_string(capacity) + " queries failed with VkResult " + std::to_string(result);
        return result;
    }
    device_.next.ResetQueryPool(device_.handle, chunk.pool, 0, capacity);
    chunk.used = 1;
    chunks_.push_back(chunk);
    *ref = QueryRef{static_cast<uint32_t>(chunks_.size() - 1), 0};
    return VK_SUCCESS;
}

void QueryArena::Reset() {
    for (Chunk& chunk : chunks_) {
        if (chunk.used > 0) device_.next.ResetQueryPool(device_.handle, chunk.pool, 0, chunk.used);
        chunk.used = 0;
    }
}

bool QueryArena::HasPerformanceQueries() const {
    return std::any_of(chunks_.begin(), chunks_.end(),
                       [](const Chunk& chunk) { return chunk.kind.type == VK_QUERY_TYPE_PERFORMANCE_QUERY_KHR && chunk.used > 0; });
}

VkResult QueryArena::Read(QueryRef ref, uint64_t* values) const {
    const Chunk& chunk = chunks_.at(ref.chunk);
    const size_t bytes = sizeof(uint64_t) * chunk.valuesPerQuery;  // a VkPerformanceCounterResultKHR is 64 bits too
    return device_.next.GetQueryPoolResults(device_.handle, chunk.pool, ref.query, 1, bytes, values, bytes, chunk.resultFlags);
}

VkResult QueryArena::AllAvailable() const {
    std::vector<uint64_t> values;
    for (const Chunk& chunk : chunks_) {
        if (chunk.used == 0) continue;
        // Without VK_QUERY_RESULT_WAIT_BIT the driver answers VK_NOT_READY while any of them is pending.
        const size_t stride = sizeof(uint64_t) * chunk.valuesPerQuery;
        values.resize(static_cast<size_t>(chunk.valuesPerQuery) * chunk.used);
        const VkResult result = device_.next.GetQueryPoolResults(device_.handle, chunk.pool, 0, chunk.used,
                                                                 stride * chunk.used, values.data(), stride, chunk.resultFlags);
        if (result != VK_SUCCESS) return result;
    }
    return VK_SUCCESS;
}

}  // namespace ogpa::vklayer
