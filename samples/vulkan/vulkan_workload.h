/*
 * The Vulkan work of the GPA example: an instance with what GPA needs (OGPA_vkGetRequirements), a device
 * with VK_AMD_gpa_interface, a 256 x 256 render target, a pipeline that draws triangles and a compute
 * pipeline. The example's two "draw calls" are DrawTriangles (in a render pass) and Dispatch.
 */
#ifndef OPENGPA_SAMPLES_VULKAN_WORKLOAD_H_
#define OPENGPA_SAMPLES_VULKAN_WORKLOAD_H_

#include <vulkan/vulkan.h>

typedef struct {
    VkInstance instance;
    VkPhysicalDevice physicalDevice;
    VkDevice device;
    VkQueue queue;
    VkCommandPool pool;
    VkImage image;
    VkDeviceMemory imageMemory;
    VkImageView view;
    VkRenderPass renderPass;
    VkFramebuffer framebuffer;
    VkShaderModule modules[3]; /* triangles.vert, solid.frag, busy.comp */
    VkPipelineLayout graphicsLayout;
    VkPipeline trianglesPipeline;
    VkBuffer storage;
    VkDeviceMemory storageMemory;
    VkDescriptorSetLayout setLayout;
    VkDescriptorPool descriptorPool;
    VkDescriptorSet set;
    VkPipelineLayout computeLayout;
    VkPipeline computePipeline;
} Workload;

/* Exits with a message when there is no Vulkan device with graphics and compute ("no Vulkan device"). */
void CreateWorkload(Workload* w);
void ReleaseWorkload(Workload* w);

/* A primary command buffer in the recording state. */
VkCommandBuffer BeginCommands(Workload* w);
/* Ends and submits it (no wait). */
void SubmitCommands(Workload* w, VkCommandBuffer commandBuffer);
/* Waits for the queue and frees the command buffers submitted so far. */
void WaitIdle(Workload* w);

void BeginRenderPass(Workload* w, VkCommandBuffer commandBuffer);
void EndRenderPass(Workload* w, VkCommandBuffer commandBuffer);
void DrawTriangles(Workload* w, VkCommandBuffer commandBuffer, uint32_t triangles);
void Dispatch(Workload* w, VkCommandBuffer commandBuffer, uint32_t groups, uint32_t iterations);

#endif /* OPENGPA_SAMPLES_VULKAN_WORKLOAD_H_ */
