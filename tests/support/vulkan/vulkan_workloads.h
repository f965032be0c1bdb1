// Work with known counts for the Vulkan tests: a W x H render target, a pipeline that draws N separate
// triangles (3N vertices, N primitives, none clipped), one that covers the whole target with one triangle
// (W x H fragments and samples; a solid colour, or an incompressible hash of pixel and draw), and a compute pipeline of 4 x 4 x 4 invocations per workgroup whose
// loop length is a push constant. Shaders: samples/vulkan/shaders (SPIR-V embedded).
#pragma once

#include <cstdint>

#include "vulkan_test_env.h"

namespace ogpa::vktest {

inline constexpr uint32_t kInvocationsPerWorkgroup = 4 * 4 * 4;

class Workloads {
public:
    Workloads(VulkanEnv& env, uint32_t width, uint32_t height);
    ~Workloads();
    Workloads(const Workloads&) = delete;
    Workloads& operator=(const Workloads&) = delete;

    uint32_t width() const { return width_; }
    uint32_t height() const { return height_; }
    VkRenderPass renderPass() const { return renderPass_; }
    VkFramebuffer framebuffer() const { return framebuffer_; }

    // contents: VK_SUBPASS_CONTENTS_SECONDARY_COMMAND_BUFFERS to execute secondaries inside.
    void BeginRenderPass(VkCommandBuffer commandBuffer, VkSubpassContents contents = VK_SUBPASS_CONTENTS_INLINE);
    void EndRenderPass(VkCommandBuffer commandBuffer);
    // Inside the render pass.
    void DrawTriangles(VkCommandBuffer commandBuffer, uint32_t triangles);
    void DrawFullscreen(VkCommandBuffer commandBuffer);
    // The same triangle with a hash of the pixel and `drawNumber` as colour: bytes the GPU cannot compress.
    void DrawFullscreenNoise(VkCommandBuffer commandBuffer, uint32_t drawNumber);
    // Outside a render pass: x * y * z workgroups, each invocation looping `iterations` times.
    void Dispatch(VkCommandBuffer commandBuffer, uint32_t x, uint32_t y, uint32_t z, uint32_t iterations);
    // A secondary command buffer that continues the render pass (subpass 0), in the recording state.
    VkCommandBuffer BeginSecondary();

private:
    VkShaderModule Module(const uint32_t* code, size_t bytes);
    VkPipeline GraphicsPipeline(VkShaderModule vertex, VkShaderModule fragment);

    VulkanEnv& env_;
    const uint32_t width_, height_;
    VkImage image_ = VK_NULL_HANDLE;
    VkDeviceMemory imageMemory_ = VK_NULL_HANDLE;
    VkImageView view_ = VK_NULL_HANDLE;
    VkRenderPass renderPass_ = VK_NULL_HANDLE;
    VkFramebuffer framebuffer_ = VK_NULL_HANDLE;
    VkShaderModule triangles_ = VK_NULL_HANDLE, fullscreen_ = VK_NULL_HANDLE, solid_ = VK_NULL_HANDLE, noise_ = VK_NULL_HANDLE,
                   busy_ = VK_NULL_HANDLE;
    VkPipelineLayout graphicsLayout_ = VK_NULL_HANDLE;
    VkPipeline trianglesPipeline_ = VK_NULL_HANDLE, fullscreenPipeline_ = VK_NULL_HANDLE, noisePipeline_ = VK_NULL_HANDLE;
    VkDescriptorSetLayout setLayout_ = VK_NULL_HANDLE;
    VkDescriptorPool descriptorPool_ = VK_NULL_HANDLE;
    VkDescriptorSet set_ = VK_NULL_HANDLE;
    VkPipelineLayout computeLayout_ = VK_NULL_HANDLE;
    VkPipeline computePipeline_ = VK_NULL_HANDLE;
    VkBuffer storage_ = VK_NULL_HANDLE;
    VkDeviceMemory storageMemory_ = VK_NULL_HANDLE;
};

}  // namespace ogpa::vktest
