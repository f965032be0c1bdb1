// Where queries may go: the layer follows each command buffer's queue family (from its pool), whether it
// is inside a render pass (and which instance and subpass), so that samples pick the statistics the queue
// supports, end where they began, and copies are refused inside render passes; and whether the profiling
// lock was held when it began (profiling_lock.h). Only devices that enabled VK_AMD_gpa_interface (without
// a native implementation) reach these hooks.
#include <mutex>

#include "layers/vulkan/layer_hooks.h"
#include "layers/vulkan/layer_state.h"

namespace ogpa::vklayer {

namespace {

LayerState& State() { return LayerState::Get(); }

// Runs `update` on the command buffer's state under the lock (if the layer knows the command buffer).
template <typename Update>
DeviceData* Track(VkCommandBuffer commandBuffer, Update&& update) {
    std::lock_guard<std::recursive_mutex> lock(State().mutex);
    DeviceData* device = State().FindDevice(commandBuffer);
    if (device == nullptr) return nullptr;
    auto it = device->commandBuffers.find(commandBuffer);
    if (it != device->commandBuffers.end()) update(*device, it->second);
    return device;
}

void EnterRenderPass(DeviceData& device, CommandBufferInfo& buffer) {
    buffer.insideRenderPass = true;
    buffer.renderPassInstance = device.nextRenderPassInstance++;
    buffer.subpass = 0;
}

void LeaveRenderPass(DeviceData&, CommandBufferInfo& buffer) {
    buffer.insideRenderPass = false;
    buffer.subpass = 0;
}

void NextSubpass(DeviceData&, CommandBufferInfo& buffer) { ++buffer.subpass; }

void ForgetPoolBuffers(DeviceData& device, VkCommandPool pool) {
    for (auto it = device.commandBuffers.begin(); it != device.commandBuffers.end();) {
        it = it->second.pool == pool ? device.commandBuffers.erase(it) : std::next(it);
    }
}

}  // namespace

VKAPI_ATTR VkResult VKAPI_CALL CreateCommandPool(VkDevice device, const VkCommandPoolCreateInfo* pCreateInfo,
                                                 const VkAllocationCallbacks* pAllocator, VkCommandPool* pCommandPool) {
    std::lock_guard<std::recursive_mutex> lock(State().mutex);
    DeviceData* data = State().FindDevice(device);
    const VkResult result = data->next.CreateCommandPool(device, pCreateInfo, pAllocator, pCommandPool);
    if (result == VK_SUCCESS) data->poolFamilies[*pCommandPool] = pCreateInfo->queueFamilyIndex;
    return result;
}

VKAPI_ATTR void VKAPI_CALL DestroyCommandPool(VkDevice device, VkCommandPool commandPool, const VkAllocationCallbacks* pAllocator) {
    std::lock_guard<std::recursive_mutex> lock(State().mutex);
    DeviceData* data = State().FindDevice(device);
    ForgetPoolBuffers(*data, commandPool);
    data->poolFamilies.erase(commandPool);
    data->next.DestroyCommandPool(device, commandPool, pAllocator);
}

VKAPI_ATTR VkResult VKAPI_CALL ResetCommandPool(VkDevice device, VkCommandPool commandPool, VkCommandPoolResetFlags flags) {
    std::lock_guard<std::recursive_mutex> lock(State().mutex);
    DeviceData* data = State().FindDevice(device);
    for (auto& [handle, buffer] : data->commandBuffers) {
        if (buffer.pool == commandPool) buffer = CommandBufferInfo{buffer.pool, buffer.queueFamily, buffer.level};
    }
    return data->next.ResetCommandPool(device, commandPool, flags);
}

VKAPI_ATTR VkResult VKAPI_CALL AllocateCommandBuffers(VkDevice device, const VkCommandBufferAllocateInfo* pAllocateInfo,
                                                      VkCommandBuffer* pCommandBuffers) {
    std::lock_guard<std::recursive_mutex> lock(State().mutex);
    DeviceData* data = State().FindDevice(device);
    const VkResult result = data->next.AllocateCommandBuffers(device, pAllocateInfo, pCommandBuffers);
    if (result != VK_SUCCESS) return result;
    auto family = data->poolFamilies.find(pAllocateInfo->commandPool);
    for (uint32_t i = 0; i < pAllocateInfo->commandBufferCount; ++i) {
        CommandBufferInfo info;
        info.pool = pAllocateInfo->commandPool;
        info.queueFamily = family == data->poolFamilies.end() ? 0 : family->second;
        info.level = pAllocateInfo->level;
        data->commandBuffers[pCommandBuffers[i]] = info;
    }
    return result;
}

VKAPI_ATTR void VKAPI_CALL FreeCommandBuffers(VkDevice device, VkCommandPool commandPool, uint32_t commandBufferCount,
                                              const VkCommandBuffer* pCommandBuffers) {
    std::lock_guard<std::recursive_mutex> lock(State().mutex);
    DeviceData* data = State().FindDevice(device);
    for (uint32_t i = 0; i < commandBufferCount; ++i) data->commandBuffers.erase(pCommandBuffers[i]);
    data->next.FreeCommandBuffers(device, commandPool, commandBufferCount, pCommandBuffers);
}

VKAPI_ATTR VkResult VKAPI_CALL BeginCommandBuffer(VkCommandBuffer commandBuffer, const VkCommandBufferBeginInfo* pBeginInfo) {
    // Beginning resets the command buffer; a secondary that continues a render pass is inside one throughout.
    // Whether the profiling lock is held now decides whether it may begin performance queries.
    DeviceData* data = Track(commandBuffer, [&](DeviceData& device, CommandBufferInfo& buffer) {
        buffer = CommandBufferInfo{buffer.pool, buffer.queueFamily, buffer.level};
        buffer.profilingLockHeld = device.profilingLockHeld;
        if (buffer.level == VK_COMMAND_BUFFER_LEVEL_SECONDARY && pBeginInfo != nullptr &&
            (pBeginInfo->flags & VK_COMMAND_BUFFER_USAGE_RENDER_PASS_CONTINUE_BIT) != 0) {
            EnterRenderPass(device, buffer);
            if (pBeginInfo->pInheritanceInfo != nullptr) buffer.subpass = pBeginInfo->pInheritanceInfo->subpass;
        }
    });
    return data->next.BeginCommandBuffer(commandBuffer, pBeginInfo);
}

VKAPI_ATTR void VKAPI_CALL CmdBeginRenderPass(VkCommandBuffer commandBuffer, const VkRenderPassBeginInfo* pBegin,
                                              VkSubpassContents contents) {
    Track(commandBuffer, EnterRenderPass)->next.CmdBeginRenderPass(commandBuffer, pBegin, contents);
}
VKAPI_ATTR void VKAPI_CALL CmdNextSubpass(VkCommandBuffer commandBuffer, VkSubpassContents contents) {
    Track(commandBuffer, NextSubpass)->next.CmdNextSubpass(commandBuffer, contents);
}
VKAPI_ATTR void VKAPI_CALL CmdEndRenderPass(VkCommandBuffer commandBuffer) {
    Track(commandBuffer, LeaveRenderPass)->next.CmdEndRenderPass(commandBuffer);
}
VKAPI_ATTR void VKAPI_CALL CmdBeginRenderPass2(VkCommandBuffer commandBuffer, const VkRenderPassBeginInfo* pBegin,
                                               const VkSubpassBeginInfo* pSubpass) {
    Track(commandBuffer, EnterRenderPass)->next.CmdBeginRenderPass2(commandBuffer, pBegin, pSubpass);
}
VKAPI_ATTR void VKAPI_CALL CmdBeginRenderPass2KHR(VkCommandBuffer commandBuffer, const VkRenderPassBeginInfo* pBegin,
                                                  const VkSubpassBeginInfo* pSubpass) {
    Track(commandBuffer, EnterRenderPass)->next.CmdBeginRenderPass2KHR(commandBuffer, pBegin, pSubpass);
}
VKAPI_ATTR void VKAPI_CALL CmdNextSubpass2(VkCommandBuffer commandBuffer, const VkSubpassBeginInfo* pBegin,
                                           const VkSubpassEndInfo* pEnd) {
    Track(commandBuffer, NextSubpass)->next.CmdNextSubpass2(commandBuffer, pBegin, pEnd);
}
VKAPI_ATTR void VKAPI_CALL CmdNextSubpass2KHR(VkCommandBuffer commandBuffer, const VkSubpassBeginInfo* pBegin,
                                              const VkSubpassEndInfo* pEnd) {
    Track(commandBuffer, NextSubpass)->next.CmdNextSubpass2KHR(commandBuffer, pBegin, pEnd);
}
VKAPI_ATTR void VKAPI_CALL CmdEndRenderPass2(VkCommandBuffer commandBuffer, const VkSubpassEndInfo* pEnd) {
    Track(commandBuffer, LeaveRenderPass)->next.CmdEndRenderPass2(commandBuffer, pEnd);
}
VKAPI_ATTR void VKAPI_CALL CmdEndRenderPass2KHR(VkCommandBuffer commandBuffer, const VkSubpassEndInfo* pEnd) {
    Track(commandBuffer, LeaveRenderPass)->next.CmdEndRenderPass2KHR(commandBuffer, pEnd);
}
VKAPI_ATTR void VKAPI_CALL CmdBeginRendering(VkCommandBuffer commandBuffer, const VkRenderingInfo* pInfo) {
    Track(commandBuffer, EnterRenderPass)->next.CmdBeginRendering(commandBuffer, pInfo);
}
VKAPI_ATTR void VKAPI_CALL CmdBeginRenderingKHR(VkCommandBuffer commandBuffer, const VkRenderingInfo* pInfo) {
    Track(commandBuffer, EnterRenderPass)->next.CmdBeginRenderingKHR(commandBuffer, pInfo);
}
VKAPI_ATTR void VKAPI_CALL CmdEndRendering(VkCommandBuffer commandBuffer) {
    Track(commandBuffer, LeaveRenderPass)->next.CmdEndRendering(commandBuffer);
}
VKAPI_ATTR void VKAPI_CALL CmdEndRenderingKHR(VkCommandBuffer commandBuffer) {
    Track(commandBuffer, LeaveRenderPass)->next.CmdEndRenderingKHR(commandBuffer);
}

}  // namespace ogpa::vklayer
