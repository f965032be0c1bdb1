#include "vulkan_workloads.h"

#include <stdexcept>
#include <string>

#include "samples/vulkan/shaders/spirv_shaders.h"

namespace ogpa::vktest {

namespace {

constexpr uint32_t kStorageFloats = 1u << 16;

void Check(VkResult result, const char* what) {
    if (result != VK_SUCCESS) throw std::runtime_error(std::string(what) + " failed with VkResult " + std::to_string(result));
}

uint32_t MemoryType(VkPhysicalDevice physicalDevice, uint32_t allowed, VkMemoryPropertyFlags wanted) {
    VkPhysicalDeviceMemoryProperties memory{};
    vkGetPhysicalDeviceMemoryProperties(physicalDevice, &memory);
    for (uint32_t i = 0; i < memory.memoryTypeCount; ++i) {
        if ((allowed & (1u << i)) && (memory.memoryTypes[i].propertyFlags & wanted) == wanted) return i;
    }
    for (uint32_t i = 0; i < memory.memoryTypeCount; ++i) {
        if (allowed & (1u << i)) return i;
    }
    throw std::runtime_error("no memory type");
}

}  // namespace

Workloads::Workloads(VulkanEnv& env, uint32_t width, uint32_t height) : env_(env), width_(width), height_(height) {
    const VkDevice device = env_.device;
    VkImageCreateInfo image{};
    image.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO;
    image.imageType = VK_IMAGE_TYPE_2D;
    image.format = VK_FORMAT_R8G8B8A8_UNORM;
    image.extent = {width, height, 1};
    image.mipLevels = 1;
    image.arrayLayers = 1;
    image.samples = VK_SAMPLE_COUNT_1_BIT;
    image.tiling = VK_IMAGE_TILING_OPTIMAL;
    image.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
    image.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    Check(vkCreateImage(device, &image, nullptr, &image_), "vkCreateImage");
    VkMemoryRequirements requirements{};
    vkGetImageMemoryRequirements(device, image_, &requirements);
    VkMemoryAllocateInfo allocate{};
    allocate.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
    allocate.allocationSize = requirements.size;
    allocate.memoryTypeIndex = MemoryType(env_.physicalDevice, requirements.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    Check(vkAllocateMemory(device, &allocate, nullptr, &imageMemory_), "vkAllocateMemory");
    Check(vkBindImageMemory(device, image_, imageMemory_, 0), "vkBindImageMemory");
    VkImageViewCreateInfo view{};
    view.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO;
    view.image = image_;
    view.viewType = VK_IMAGE_VIEW_TYPE_2D;
    view.format = image.format;
    view.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    Check(vkCreateImageView(device, &view, nullptr, &view_), "vkCreateImageView");

    VkAttachmentDescription attachment{};
    attachment.format = image.format;
    attachment.samples = VK_SAMPLE_COUNT_1_BIT;
    attachment.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
    attachment.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    attachment.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
    attachment.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
    attachment.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    attachment.finalLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    VkAttachmentReference reference{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
    VkSubpassDescription subpass{};
    subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
    subpass.colorAttachmentCount = 1;
    subpass.pColorAttachments = &reference;
    VkRenderPassCreateInfo pass{};
    pass.sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO;
    pass.attachmentCount = 1;
    pass.pAttachments = &attachment;
    pass.subpassCount = 1;
    pass.pSubpasses = &subpass;
    Check(vkCreateRenderPass(device, &pass, nullptr, &renderPass_), "vkCreateRenderPass");
    VkFramebufferCreateInfo framebuffer{};
    framebuffer.sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO;
    framebuffer.renderPass = renderPass_;
    framebuffer.attachmentCount = 1;
    framebuffer.pAttachments = &view_;
    framebuffer.width = width;
    framebuffer.height = height;
    framebuffer.layers = 1;
    Check(vkCreateFramebuffer(device, &framebuffer, nullptr, &framebuffer_), "vkCreateFramebuffer");

    triangles_ = Module(kSpirv_triangles_vert, sizeof kSpirv_triangles_vert);
    fullscreen_ = Module(kSpirv_fullscreen_vert, sizeof kSpirv_fullscreen_vert);
    solid_ = Module(kSpirv_solid_frag, sizeof kSpirv_solid_frag);
    noise_ = Module(kSpirv_noise_frag, sizeof kSpirv_noise_frag);
    busy_ = Module(kSpirv_busy_comp, sizeof kSpirv_busy_comp);
    // One push constant, the draw number of noise.frag (solid.frag ignores it).
    const VkPushConstantRange drawNumber{VK_SHADER_STAGE_FRAGMENT_BIT, 0, sizeof(uint32_t)};
    VkPipelineLayoutCreateInfo layout{};
    layout.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO;
    layout.pushConstantRangeCount = 1;
    layout.pPushConstantRanges = &drawNumber;
    Check(vkCreatePipelineLayout(device, &layout, nullptr, &graphicsLayout_), "vkCreatePipelineLayout");
    trianglesPipeline_ = GraphicsPipeline(triangles_, solid_);
    fullscreenPipeline_ = GraphicsPipeline(fullscreen_, solid_);
    noisePipeline_ = GraphicsPipeline(fullscreen_, noise_);

    // Compute: one storage buffer, two push constants (iterations, length).
    VkBufferCreateInfo buffer{};
    buffer.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
    buffer.size = kStorageFloats * sizeof(float);
    buffer.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
    Check(vkCreateBuffer(device, &buffer, nullptr, &storage_), "vkCreateBuffer");
    vkGetBufferMemoryRequirements(device, storage_, &requirements);
    allocate.allocationSize = requirements.size;
    allocate.memoryTypeIndex = MemoryType(env_.physicalDevice, requirements.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    Check(vkAllocateMemory(device, &allocate, nullptr, &storageMemory_), "vkAllocateMemory");
    Check(vkBindBufferMemory(device, storage_, storageMemory_, 0), "vkBindBufferMemory");
    VkDescriptorSetLayoutBinding binding{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
    VkDescriptorSetLayoutCreateInfo setLayout{};
    setLayout.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO;
    setLayout.bindingCount = 1;
    setLayout.pBindings = &binding;
    Check(vkCreateDescriptorSetLayout(device, &setLayout, nullptr, &setLayout_), "vkCreateDescriptorSetLayout");
    VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1};
    VkDescriptorPoolCreateInfo descriptorPool{};
    descriptorPool.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO;
    descriptorPool.maxSets = 1;
    descriptorPool.poolSizeCount = 1;
    descriptorPool.pPoolSizes = &size;
    Check(vkCreateDescriptorPool(device, &descriptorPool, nullptr, &descriptorPool_), "vkCreateDescriptorPool");
    VkDescriptorSetAllocateInfo allocateSet{};
    allocateSet.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO;
    allocateSet.descriptorPool = descriptorPool_;
    allocateSet.descriptorSetCount = 1;
    allocateSet.pSetLayouts = &setLayout_;
    Check(vkAllocateDescriptorSets(device, &allocateSet, &set_), "vkAllocateDescriptorSets");
    VkDescriptorBufferInfo bufferInfo{storage_, 0, VK_WHOLE_SIZE};
    VkWriteDescriptorSet write{};
    write.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
    write.dstSet = set_;
    write.descriptorCount = 1;
    write.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    write.pBufferInfo = &bufferInfo;
    vkUpdateDescriptorSets(device, 1, &write, 0, nullptr);
    VkPushConstantRange push{VK_SHADER_STAGE_COMPUTE_BIT, 0, 2 * sizeof(uint32_t)};
    layout.setLayoutCount = 1;
    layout.pSetLayouts = &setLayout_;
    layout.pushConstantRangeCount = 1;
    layout.pPushConstantRanges = &push;
    Check(vkCreatePipelineLayout(device, &layout, nullptr, &computeLayout_), "vkCreatePipelineLayout");
    VkComputePipelineCreateInfo compute{};
    compute.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO;
    compute.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    compute.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    compute.stage.module = busy_;
    compute.stage.pName = "main";
    compute.layout = computeLayout_;
    Check(vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &compute, nullptr, &computePipeline_), "vkCreateComputePipelines");
}

Workloads::~Workloads() {
    const VkDevice device = env_.device;
    vkDeviceWaitIdle(device);
    vkDestroyPipeline(device, computePipeline_, nullptr);
    vkDestroyPipelineLayout(device, computeLayout_, nullptr);
    vkDestroyDescriptorPool(device, descriptorPool_, nullptr);
    vkDestroyDescriptorSetLayout(device, setLayout_, nullptr);
    vkDestroyBuffer(device, storage_, nullptr);
    vkFreeMemory(device, storageMemory_, nullptr);
    vkDestroyPipeline(device, trianglesPipeline_, nullptr);
    vkDestroyPipeline(device, fullscreenPipeline_, nullptr);
    vkDestroyPipeline(device, noisePipeline_, nullptr);
    vkDestroyPipelineLayout(device, graphicsLayout_, nullptr);
    for (VkShaderModule module : {triangles_, fullscreen_, solid_, noise_, busy_}) vkDestroyShaderModule(device, module, nullptr);
    vkDestroyFramebuffer(device, framebuffer_, nullptr);
    vkDestroyRenderPass(device, renderPass_, nullptr);
    vkDestroyImageView(device, view_, nullptr);
    vkDestroyImage(device, image_, nullptr);
    vkFreeMemory(device, imageMemory_, nullptr);
}

VkShaderModule Workloads::Module(const uint32_t* code, size_t bytes) {
    VkShaderModuleCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO;
    info.codeSize = bytes;
    info.pCode = code;
    VkShaderModule module = VK_NULL_HANDLE;
    Check(vkCreateShaderModule(env_.device, &info, nullptr, &module), "vkCreateShaderModule");
    return module;
}

VkPipeline Workloads::GraphicsPipeline(VkShaderModule vertex, VkShaderModule fragment) {
    VkPipelineShaderStageCreateInfo stages[2]{};
    stages[0].sType = stages[1].sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    stages[0].stage = VK_SHADER_STAGE_VERTEX_BIT;
    stages[0].module = vertex;
    stages[0].pName = "main";
    stages[1].stage = VK_SHADER_STAGE_FRAGMENT_BIT;
    stages[1].module = fragment;
    stages[1].pName = "main";
    VkPipelineVertexInputStateCreateInfo input{};
    input.sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO;
    VkPipelineInputAssemblyStateCreateInfo assembly{};
    assembly.sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO;
    assembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
    VkViewport viewport{0.0f, 0.0f, static_cast<float>(width_), static_cast<float>(height_), 0.0f, 1.0f};
    VkRect2D scissor{{0, 0}, {width_, height_}};
    VkPipelineViewportStateCreateInfo viewportState{};
    viewportState.sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO;
    viewportState.viewportCount = 1;
    viewportState.pViewports = &viewport;
    viewportState.scissorCount = 1;
    viewportState.pScissors = &scissor;
    VkPipelineRasterizationStateCreateInfo raster{};
    raster.sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO;
    raster.polygonMode = VK_POLYGON_MODE_FILL;
    raster.cullMode = VK_CULL_MODE_NONE;
    raster.frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE;
    raster.lineWidth = 1.0f;
    VkPipelineMultisampleStateCreateInfo multisample{};
    multisample.sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO;
    multisample.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
    VkPipelineColorBlendAttachmentState blendAttachment{};
    blendAttachment.colorWriteMask = VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT | VK_COLOR_COMPONENT_B_BIT |
                                     VK_COLOR_COMPONENT_A_BIT;
    VkPipelineColorBlendStateCreateInfo blend{};
    blend.sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO;
    blend.attachmentCount = 1;
    blend.pAttachments = &blendAttachment;
    VkGraphicsPipelineCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO;
    info.stageCount = 2;
    info.pStages = stages;
    info.pVertexInputState = &input;
    info.pInputAssemblyState = &assembly;
    info.pViewportState = &viewportState;
    info.pRasterizationState = &raster;
    info.pMultisampleState = &multisample;
    info.pColorBlendState = &blend;
    info.layout = graphicsLayout_;
    info.renderPass = renderPass_;
    VkPipeline pipeline = VK_NULL_HANDLE;
    Check(vkCreateGraphicsPipelines(env_.device, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline), "vkCreateGraphicsPipelines");
    return pipeline;
}

void Workloads::BeginRenderPass(VkCommandBuffer commandBuffer, VkSubpassContents contents) {
    VkClearValue clear{};
    VkRenderPassBeginInfo begin{};
    begin.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO;
    begin.renderPass = renderPass_;
    begin.framebuffer = framebuffer_;
    begin.renderArea = {{0, 0}, {width_, height_}};
    begin.clearValueCount = 1;
    begin.pClearValues = &clear;
    vkCmdBeginRenderPass(commandBuffer, &begin, contents);
}

void Workloads::EndRenderPass(VkCommandBuffer commandBuffer) { vkCmdEndRenderPass(commandBuffer); }

void Workloads::DrawTriangles(VkCommandBuffer commandBuffer, uint32_t triangles) {
    vkCmdBindPipeline(commandBuffer, VK_PIPELINE_BIND_POINT_GRAPHICS, trianglesPipeline_);
    vkCmdDraw(commandBuffer, 3 * triangles, 1, 0, 0);
}

void Workloads::DrawFullscreen(VkCommandBuffer commandBuffer) {
    vkCmdBindPipeline(commandBuffer, VK_PIPELINE_BIND_POINT_GRAPHICS, fullscreenPipeline_);
    vkCmdDraw(commandBuffer, 3, 1, 0, 0);
}

void Workloads::DrawFullscreenNoise(VkCommandBuffer commandBuffer, uint32_t drawNumber) {
    vkCmdBindPipeline(commandBuffer, VK_PIPELINE_BIND_POINT_GRAPHICS, noisePipeline_);
    vkCmdPushConstants(commandBuffer, graphicsLayout_, VK_SHADER_STAGE_FRAGMENT_BIT, 0, sizeof drawNumber, &drawNumber);
    vkCmdDraw(commandBuffer, 3, 1, 0, 0);
}

void Workloads::Dispatch(VkCommandBuffer commandBuffer, uint32_t x, uint32_t y, uint32_t z, uint32_t iterations) {
    const uint32_t constants[2] = {iterations, kStorageFloats};
    vkCmdBindPipeline(commandBuffer, VK_PIPELINE_BIND_POINT_COMPUTE, computePipeline_);
    vkCmdBindDescriptorSets(commandBuffer, VK_PIPELINE_BIND_POINT_COMPUTE, computeLayout_, 0, 1, &set_, 0, nullptr);
    vkCmdPushConstants(commandBuffer, computeLayout_, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof constants, constants);
    vkCmdDispatch(commandBuffer, x, y, z);
}

VkCommandBuffer Workloads::BeginSecondary() {
    VkCommandBuffer commandBuffer = env_.Allocate(VK_COMMAND_BUFFER_LEVEL_SECONDARY);
    VkCommandBufferInheritanceInfo inheritance{};
    inheritance.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_INFO;
    inheritance.renderPass = renderPass_;
    inheritance.subpass = 0;
    inheritance.framebuffer = framebuffer_;
    VkCommandBufferBeginInfo begin{};
    begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
    begin.flags = VK_COMMAND_BUFFER_USAGE_RENDER_PASS_CONTINUE_BIT | VK_COMMAND_BUFFER_USAGE_SIMULTANEOUS_USE_BIT;
    begin.pInheritanceInfo = &inheritance;
    vkBeginCommandBuffer(commandBuffer, &begin);
    return commandBuffer;
}

}  // namespace ogpa::vktest
