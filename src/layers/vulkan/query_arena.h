// The Vulkan queries behind one GPA session: query pools created in chunks as samples need them, one
// kind of query per chunk (timestamps, pipeline statistics with a given set of statistics, occlusion).
// Every query is reset on the host when its chunk is created and when the session is reset, because a
// sample may begin inside a render pass, where vkCmdResetQueryPool is not allowed.
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

class QueryArena {
public:
    struct Chunk {
        VkQueryPool pool = VK_NULL_HANDLE;
        VkQueryType type = VK_QUERY_TYPE_TIMESTAMP;
        VkQueryPipelineStatisticFlags statistics = 0;
        uint32_t capacity = 0;
        uint32_t used = 0;            // queries handed out since the chunk was created or reset
        uint32_t valuesPerQuery = 1;  // 64-bit results one query returns
    };

    explicit QueryArena(DeviceData& device) : device_(device) {}
    ~QueryArena();
    QueryArena(const QueryArena&) = delete;
    QueryArena& operator=(const QueryArena&) = delete;

    // A fresh (reset) query of the kind; `statistics` only for VK_QUERY_TYPE_PIPELINE_STATISTICS.
    VkResult Acquire(VkQueryType type, VkQueryPipelineStatisticFlags statistics, QueryRef* ref, std::string* problem);
    // Resets every used query on the host; the chunks are kept for the session's next use.
    void Reset();

    const std::vector<Chunk>& chunks() const { return chunks_; }
    // VK_SUCCESS with the query's valuesPerQuery results, VK_NOT_READY, or the driver's error.
    VkResult Read(QueryRef ref, uint64_t* values) const;
    // VK_SUCCESS when every used query has its result.
    VkResult AllAvailable() const;

private:
    DeviceData& device_;
    std::vector<Chunk> chunks_;
};

}  // namespace ogpa::vklayer
