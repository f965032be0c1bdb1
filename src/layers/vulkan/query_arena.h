// The Vulkan queries behind one GPA session: query pools created in chunks as samples need them, one
// kind of query per chunk (timestamps, pipeline statistics with a given set of statistics, occlusion,
// VK_KHR_performance_query counters of one queue family and one counter set).
// Every query is reset on the host when its chunk is created and when the session is reset, because a
// sample may begin inside a render pass, where vkCmdResetQueryPool is not allowed (and a command buffer
// that begins a performance query must not reset it).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "layers/vulkan/layer_state.h"

namespace ogpa::vklayer {

struct QueryRef {
    uint32_t chunk = 0;
    uint32_t query = 0;
};

// What a query counts; queries of one kind share pools.
struct QueryKind {
    VkQueryType type = VK_QUERY_TYPE_TIMESTAMP;
    VkQueryPipelineStatisticFlags statistics = 0;  // VK_QUERY_TYPE_PIPELINE_STATISTICS
    uint32_t queueFamily = 0;                      // VK_QUERY_TYPE_PERFORMANCE_QUERY_KHR: its pool's queue family
    std::vector<uint32_t> counterIndices;          // ... and the driver's counter indices in that family
    bool operator==(const QueryKind&) const = default;

    static QueryKind Of(VkQueryType type, VkQueryPipelineStatisticFlags statistics = 0) {
        QueryKind kind;
        kind.type = type;
        kind.statistics = statistics;
        return kind;
    }
};

class QueryArena {
public:
    struct Chunk {
        VkQueryPool pool = VK_NULL_HANDLE;
        QueryKind kind;
        uint32_t capacity = 0;
        uint32_t used = 0;            // queries handed out since the chunk was created or reset
        uint32_t valuesPerQuery = 1;  // 64-bit results one query returns (a performance query: one per counter)
        VkQueryResultFlags resultFlags = VK_QUERY_RESULT_64_BIT;  // performance queries take none
    };

    explicit QueryArena(DeviceData& device) : device_(device) {}
    ~QueryArena();
    QueryArena(const QueryArena&) = delete;
    QueryArena& operator=(const QueryArena&) = delete;

    // A fresh (reset) query of the kind.
    VkResult Acquire(const QueryKind& kind, QueryRef* ref, std::string* problem);
    // The pool the next Acquire of `kind` takes its query from; VK_NULL_HANDLE when it would create one.
    VkQueryPool NextPool(const QueryKind& kind) const;
    // Resets every used query on the host; the chunks are kept for the session's next use.
    void Reset();

    const std::vector<Chunk>& chunks() const { return chunks_; }
    bool HasPerformanceQueries() const;
    // VK_SUCCESS with the query's valuesPerQuery results (a performance query's as the driver wrote them),
    // VK_NOT_READY, or the driver's error.
    VkResult Read(QueryRef ref, uint64_t* values) const;
    // VK_SUCCESS when every used query has its result.
    VkResult AllAvailable() const;

private:
    DeviceData& device_;
    std::vector<Chunk> chunks_;
};

}  // namespace ogpa::vklayer
