// The memory of a session created with secondaryCopySource: a host-visible buffer laid out like the source
// session's queries (each chunk's queries, each query's results followed by its availability word), into
// which vkCmdCopyGpaSessionResultsAMD copies the source's results with vkCmdCopyQueryPoolResults.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "layers/vulkan/layer_state.h"
#include "layers/vulkan/query_arena.h"

namespace ogpa::vklayer {

class ResultBuffer {
public:
    struct ChunkLayout {
        uint32_t queries = 0;         // the source chunk's used queries when the layout was taken
        uint32_t valuesPerQuery = 1;  // then one availability word
        VkDeviceSize offset = 0;
        VkDeviceSize stride() const { return sizeof(uint64_t) * (valuesPerQuery + 1); }
    };

    explicit ResultBuffer(DeviceData& device) : device_(device) {}
    ~ResultBuffer();
    ResultBuffer(const ResultBuffer&) = delete;
    ResultBuffer& operator=(const ResultBuffer&) = delete;

    // Lays the buffer out like `source` and creates it (zeroed: nothing available).
    VkResult Create(const QueryArena& source, std::string* problem);
    // Whether `source` still has the layout the buffer was made for.
    bool Matches(const QueryArena& source) const;
    // Records the copy of every source query into the buffer, then resets the source's queries so that the
    // secondary command buffer that wrote them can write them again. Outside a render pass only.
    void RecordCopy(VkCommandBuffer commandBuffer, const QueryArena& source) const;
    // Forgets copied results (host write of zeros).
    void Clear();

    VkResult Read(QueryRef ref, uint64_t* values) const;  // VK_NOT_READY until the copy has landed
    VkResult AllAvailable() const;

private:
    DeviceData& device_;
    std::vector<ChunkLayout> layout_;
    VkDeviceSize size_ = 0;
    VkBuffer buffer_ = VK_NULL_HANDLE;
    VkDeviceMemory memory_ = VK_NULL_HANDLE;
    uint64_t* mapped_ = nullptr;
};

}  // namespace ogpa::vklayer
