#include "layers/vulkan/result_buffer.h"

#include <cstring>

namespace ogpa::vklayer {

ResultBuffer::~ResultBuffer() {
    if (mapped_ != nullptr) device_.next.UnmapMemory(device_.handle, memory_);
    if (buffer_ != VK_NULL_HANDLE) device_.next.DestroyBuffer(device_.handle, buffer_, nullptr);
    if (memory_ != VK_NULL_HANDLE) device_.next.FreeMemory(device_.handle, memory_, nullptr);
}

VkResult ResultBuffer::Create(const QueryArena& source, std::string* problem) {
    for (const QueryArena::Chunk& chunk : source.chunks()) {
        ChunkLayout layout;
        layout.queries = chunk.used;
        layout.valuesPerQuery = chunk.valuesPerQuery;
        layout.offset = size_;
        size_ += layout.stride() * layout.queries;
        layout_.push_back(layout);
    }
    if (size_ == 0) size_ = sizeof(uint64_t);  // a source without samples still gets a (tiny) buffer
    VkBufferCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
    info.size = size_;
    info.usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    VkResult result = device_.next.CreateBuffer(device_.handle, &info, nullptr, &buffer_);
    if (result != VK_SUCCESS) return *problem = "vkCreateBuffer failed with VkResult " + std::to_string(result), result;
    VkMemoryRequirements requirements{};
    device_.next.GetBufferMemoryRequirements(device_.handle, buffer_, &requirements);
    // Vulkan guarantees a host-visible, host-coherent memory type for buffers.
    const VkMemoryPropertyFlags wanted = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    uint32_t type = UINT32_MAX;
    for (uint32_t i = 0; i < device_.memory.memoryTypeCount && type == UINT32_MAX; ++i) {
        if ((requirements.memoryTypeBits & (1u << i)) && (device_.memory.memoryTypes[i].propertyFlags & wanted) == wanted) type = i;
    }
    if (type == UINT32_MAX) return *problem = "the device has no host-visible coherent memory for a buffer", VK_ERROR_OUT_OF_DEVICE_MEMORY;
    VkMemoryAllocateInfo allocate{};
    allocate.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
    allocate.allocationSize = requirements.size;
    allocate.memoryTypeIndex = type;
    result = device_.next.AllocateMemory(device_.handle, &allocate, nullptr, &memory_);
    if (result != VK_SUCCESS) return *problem = "vkAllocateMemory failed with VkResult " + std::to_string(result), result;
    result = device_.next.BindBufferMemory(device_.handle, buffer_, memory_, 0);
    if (result != VK_SUCCESS) return *problem = "vkBindBufferMemory failed with VkResult " + std::to_string(result), result;
    void* pointer = nullptr;
    result = device_.next.MapMemory(device_.handle, memory_, 0, VK_WHOLE_SIZE, 0, &pointer);
    if (result != VK_SUCCESS) return *problem = "vkMapMemory failed with VkResult " + std::to_string(result), result;
    mapped_ = static_cast<uint64_t*>(pointer);
    Clear();
    return VK_SUCCESS;
}

bool ResultBuffer::Matches(const QueryArena& source) const {
    if (source.chunks().size() != layout_.size()) return false;
    for (size_t i = 0; i < layout_.size(); ++i) {
        if (source.chunks()[i].used != layout_[i].queries) return false;
    }
    return true;
}

void ResultBuffer::RecordCopy(VkCommandBuffer commandBuffer, const QueryArena& source) const {
    VkMemoryBarrier barrier{};
    barrier.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER;
    for (size_t i = 0; i < layout_.size(); ++i) {
        const ChunkLayout& layout = layout_[i];
        if (layout.queries == 0) continue;
        const VkQueryPool pool = source.chunks()[i].pool;
        device_.next.CmdCopyQueryPoolResults(commandBuffer, pool, 0, layout.queries, buffer_, layout.offset, layout.stride(),
                                             VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT |
                                                 VK_QUERY_RESULT_WITH_AVAILABILITY_BIT);
        // The reset must not overtake the copy that reads the queries.
        device_.next.CmdPipelineBarrier(commandBuffer, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0,
                                        nullptr, 0, nullptr, 0, nullptr);
        device_.next.CmdResetQueryPool(commandBuffer, pool, 0, layout.queries);
    }
    // The host reads the buffer once the submission has completed.
    barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    barrier.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    device_.next.CmdPipelineBarrier(commandBuffer, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &barrier,
                                    0, nullptr, 0, nullptr);
}

void ResultBuffer::Clear() { std::memset(mapped_, 0, size_); }

VkResult ResultBuffer::Read(QueryRef ref, uint64_t* values) const {
    const ChunkLayout& layout = layout_.at(ref.chunk);
    if (ref.query >= layout.queries) return VK_NOT_READY;
    const uint64_t* words = mapped_ + (layout.offset + layout.stride() * ref.query) / sizeof(uint64_t);
    if (words[layout.valuesPerQuery] == 0) return VK_NOT_READY;
    std::memcpy(values, words, sizeof(uint64_t) * layout.valuesPerQuery);
    return VK_SUCCESS;
}

VkResult ResultBuffer::AllAvailable() const {
    for (size_t chunk = 0; chunk < layout_.size(); ++chunk) {
        for (uint32_t query = 0; query < layout_[chunk].queries; ++query) {
            const ChunkLayout& layout = layout_[chunk];
            const uint64_t* words = mapped_ + (layout.offset + layout.stride() * query) / sizeof(uint64_t);
            if (words[layout.valuesPerQuery] == 0) return VK_NOT_READY;
        }
    }
    return VK_SUCCESS;
}

}  // namespace ogpa::vklayer
