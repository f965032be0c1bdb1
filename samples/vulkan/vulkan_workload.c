/* The Vulkan work of the GPA example (see vulkan_workload.h). Plain Vulkan 1.1, no window. */
#include "vulkan_workload.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "GPUPerfAPI-Vk.h"
#include "shaders/spirv_shaders.h"

enum { kSize = 256, kStorageFloats = 1 << 16, kMaxPending = 64 };

static VkCommandBuffer pending[kMaxPending];
static uint32_t pendingCount;
static uint32_t queueFamily;

static void Check(VkResult result, const char* what) {
    if (result != VK_SUCCESS) {
        fprintf(stderr, "gpa_example_vulkan: %s failed with VkResult %d\n", what, (int)result);
        exit(EXIT_FAILURE);
    }
}

static uint32_t CountOf(const char* const* list) {
    uint32_t n = 0;
    while (list[n] != NULL) ++n;
    return n;
}

static uint32_t MemoryType(Workload* w, uint32_t allowed) {
    VkPhysicalDeviceMemoryProperties memory;
    uint32_t i;
    vkGetPhysicalDeviceMemoryProperties(w->physicalDevice, &memory);
    for (i = 0; i < memory.memoryTypeCount; ++i) {
        if ((allowed & (1u << i)) && (memory.memoryTypes[i].propertyFlags & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT)) return i;
    }
    for (i = 0; i < memory.memoryTypeCount; ++i) {
        if (allowed & (1u << i)) return i;
    }
    fprintf(stderr, "gpa_example_vulkan: no memory type\n");
    exit(EXIT_FAILURE);
}

static void CreateDevice(Workload* w) {
    /* Section 2.4 for Vulkan: the instance and the device enable what the GPA library needs. */
    OGPA_vkRequirements needs;
    VkApplicationInfo app = {VK_STRUCTURE_TYPE_APPLICATION_INFO, NULL, "gpa_example_vulkan", 1, NULL, 0, VK_API_VERSION_1_1};
    VkInstanceCreateInfo instance;
    VkPhysicalDevice devices[8];
    uint32_t count = 8, i;
    VkQueueFamilyProperties families[16];
    const float priority = 1.0f;
    VkDeviceQueueCreateInfo queue;
    VkDeviceCreateInfo device;
    VkCommandPoolCreateInfo pool;
    VkPhysicalDeviceProperties properties;

    memset(&instance, 0, sizeof instance);
    instance.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
    memset(&queue, 0, sizeof queue);
    queue.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO;
    memset(&device, 0, sizeof device);
    device.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
    memset(&pool, 0, sizeof pool);
    pool.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
    OGPA_vkGetRequirements(&needs);
    instance.pApplicationInfo = &app;
    instance.enabledLayerCount = CountOf(needs.instanceLayers);
    instance.ppEnabledLayerNames = needs.instanceLayers;
    instance.enabledExtensionCount = CountOf(needs.instanceExtensions);
    instance.ppEnabledExtensionNames = needs.instanceExtensions;
    if (vkCreateInstance(&instance, NULL, &w->instance) != VK_SUCCESS ||
        vkEnumeratePhysicalDevices(w->instance, &count, devices) < 0 || count == 0) {
        fprintf(stderr, "gpa_example_vulkan: no Vulkan device (no driver, or it lists no device)\n");
        exit(EXIT_FAILURE);
    }
    w->physicalDevice = devices[0];
    vkGetPhysicalDeviceProperties(w->physicalDevice, &properties);
    count = 16;
    vkGetPhysicalDeviceQueueFamilyProperties(w->physicalDevice, &count, families);
    for (queueFamily = 0; queueFamily < count; ++queueFamily) {
        const VkQueueFlags both = VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT;
        if ((families[queueFamily].queueFlags & both) == both) break;
    }
    if (queueFamily == count) {
        fprintf(stderr, "gpa_example_vulkan: no Vulkan device with a graphics and compute queue (%s)\n", properties.deviceName);
        exit(EXIT_FAILURE);
    }
    queue.queueFamilyIndex = queueFamily;
    queue.queueCount = 1;
    queue.pQueuePriorities = &priority;
    device.queueCreateInfoCount = 1;
    device.pQueueCreateInfos = &queue;
    device.enabledExtensionCount = CountOf(needs.deviceExtensions);
    device.ppEnabledExtensionNames = needs.deviceExtensions;
    /* Without the layer the extension is missing: the device is created without it, and GPA_OpenContext
       then explains what to install. */
    if (vkCreateDevice(w->physicalDevice, &device, NULL, &w->device) != VK_SUCCESS) {
        device.enabledExtensionCount = 0;
        Check(vkCreateDevice(w->physicalDevice, &device, NULL, &w->device), "vkCreateDevice");
    }
    vkGetDeviceQueue(w->device, queueFamily, 0, &w->queue);
    pool.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT;
    pool.queueFamilyIndex = queueFamily;
    Check(vkCreateCommandPool(w->device, &pool, NULL, &w->pool), "vkCreateCommandPool");
    for (i = 0; i < 3; ++i) {
        static const uint32_t* const code[3] = {kSpirv_triangles_vert, kSpirv_solid_frag, kSpirv_busy_comp};
        static const size_t bytes[3] = {sizeof kSpirv_triangles_vert, sizeof kSpirv_solid_frag, sizeof kSpirv_busy_comp};
        VkShaderModuleCreateInfo module;
        memset(&module, 0, sizeof module);
        module.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO;
        module.codeSize = bytes[i];
        module.pCode = code[i];
        Check(vkCreateShaderModule(w->device, &module, NULL, &w->modules[i]), "vkCreateShaderModule");
    }
}

static void CreateRenderTarget(Workload* w) {
    VkImageCreateInfo image;
    VkMemoryRequirements requirements;
    VkMemoryAllocateInfo allocate;
    VkImageViewCreateInfo view;
    VkAttachmentDescription attachment = {0};
    VkAttachmentReference reference = {0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
    VkSubpassDescription subpass = {0};
    VkRenderPassCreateInfo pass;
    VkFramebufferCreateInfo framebuffer;

    memset(&image, 0, sizeof image);
    image.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO;
    memset(&allocate, 0, sizeof allocate);
    allocate.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
    memset(&view, 0, sizeof view);
    view.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO;
    memset(&pass, 0, sizeof pass);
    pass.sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO;
    memset(&framebuffer, 0, sizeof framebuffer);
    framebuffer.sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO;
    image.imageType = VK_IMAGE_TYPE_2D;
    image.format = VK_FORMAT_R8G8B8A8_UNORM;
    image.extent.width = image.extent.height = kSize;
    image.extent.depth = 1;
    image.mipLevels = image.arrayLayers = 1;
    image.samples = VK_SAMPLE_COUNT_1_BIT;
    image.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
    Check(vkCreateImage(w->device, &image, NULL, &w->image), "vkCreateImage");
    vkGetImageMemoryRequirements(w->device, w->image, &requirements);
    allocate.allocationSize = requirements.size;
    allocate.memoryTypeIndex = MemoryType(w, requirements.memoryTypeBits);
    Check(vkAllocateMemory(w->device, &allocate, NULL, &w->imageMemory), "vkAllocateMemory");
    Check(vkBindImageMemory(w->device, w->image, w->imageMemory, 0), "vkBindImageMemory");
    view.image = w->image;
    view.viewType = VK_IMAGE_VIEW_TYPE_2D;
    view.format = image.format;
    view.subresourceRange.aspectMask = VK_IMAGE_ASPECT_COLOR_BIT;
    view.subresourceRange.levelCount = view.subresourceRange.layerCount = 1;
    Check(vkCreateImageView(w->device, &view, NULL, &w->view), "vkCreateImageView");
    attachment.format = image.format;
    attachment.samples = VK_SAMPLE_COUNT_1_BIT;
    attachment.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
    attachment.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    attachment.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
    attachment.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
    attachment.finalLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
    subpass.colorAttachmentCount = 1;
    subpass.pColorAttachments = &reference;
    pass.attachmentCount = 1;
    pass.pAttachments = &attachment;
    pass.subpassCount = 1;
    pass.pSubpasses = &subpass;
    Check(vkCreateRenderPass(w->device, &pass, NULL, &w->renderPass), "vkCreateRenderPass");
    framebuffer.renderPass = w->renderPass;
    framebuffer.attachmentCount = 1;
    framebuffer.pAttachments = &w->view;
    framebuffer.width = framebuffer.height = kSize;
    framebuffer.layers = 1;
    Check(vkCreateFramebuffer(w->device, &framebuffer, NULL, &w->framebuffer), "vkCreateFramebuffer");
}

static void CreateGraphicsPipeline(Workload* w) {
    VkPipelineShaderStageCreateInfo stages[2];
    VkPipelineVertexInputStateCreateInfo input;
    VkPipelineInputAssemblyStateCreateInfo assembly;
    VkViewport viewport = {0.0f, 0.0f, (float)kSize, (float)kSize, 0.0f, 1.0f};
    VkRect2D scissor = {{0, 0}, {kSize, kSize}};
    VkPipelineViewportStateCreateInfo viewportState;
    VkPipelineRasterizationStateCreateInfo raster;
    VkPipelineMultisampleStateCreateInfo multisample;
    VkPipelineColorBlendAttachmentState blendAttachment = {0};
    VkPipelineColorBlendStateCreateInfo blend;
    VkPipelineLayoutCreateInfo layout;
    VkGraphicsPipelineCreateInfo info;

    memset(&input, 0, sizeof input);
    input.sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO;
    memset(&assembly, 0, sizeof assembly);
    assembly.sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO;
    memset(&viewportState, 0, sizeof viewportState);
    viewportState.sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO;
    memset(&raster, 0, sizeof raster);
    raster.sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO;
    memset(&multisample, 0, sizeof multisample);
    multisample.sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO;
    memset(&blend, 0, sizeof blend);
    blend.sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO;
    memset(&layout, 0, sizeof layout);
    layout.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO;
    memset(&info, 0, sizeof info);
    info.sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO;
    memset(stages, 0, sizeof stages);
    stages[0].sType = stages[1].sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    stages[0].stage = VK_SHADER_STAGE_VERTEX_BIT;
    stages[0].module = w->modules[0];
    stages[0].pName = "main";
    stages[1].stage = VK_SHADER_STAGE_FRAGMENT_BIT;
    stages[1].module = w->modules[1];
    stages[1].pName = "main";
    assembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
    viewportState.viewportCount = viewportState.scissorCount = 1;
    viewportState.pViewports = &viewport;
    viewportState.pScissors = &scissor;
    raster.polygonMode = VK_POLYGON_MODE_FILL;
    raster.cullMode = VK_CULL_MODE_NONE;
    raster.lineWidth = 1.0f;
    multisample.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
    blendAttachment.colorWriteMask = 0xF;
    blend.attachmentCount = 1;
    blend.pAttachments = &blendAttachment;
    Check(vkCreatePipelineLayout(w->device, &layout, NULL, &w->graphicsLayout), "vkCreatePipelineLayout");
    info.stageCount = 2;
    info.pStages = stages;
    info.pVertexInputState = &input;
    info.pInputAssemblyState = &assembly;
    info.pViewportState = &viewportState;
    info.pRasterizationState = &raster;
    info.pMultisampleState = &multisample;
    info.pColorBlendState = &blend;
    info.layout = w->graphicsLayout;
    info.renderPass = w->renderPass;
    Check(vkCreateGraphicsPipelines(w->device, VK_NULL_HANDLE, 1, &info, NULL, &w->trianglesPipeline), "vkCreateGraphicsPipelines");
}

static void CreateComputePipeline(Workload* w) {
    VkBufferCreateInfo buffer;
    VkMemoryRequirements requirements;
    VkMemoryAllocateInfo allocate;
    VkDescriptorSetLayoutBinding binding = {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL};
    VkDescriptorSetLayoutCreateInfo setLayout;
    VkDescriptorPoolSize size = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1};
    VkDescriptorPoolCreateInfo descriptorPool;
    VkDescriptorSetAllocateInfo allocateSet;
    VkDescriptorBufferInfo bufferInfo = {VK_NULL_HANDLE, 0, VK_WHOLE_SIZE};
    VkWriteDescriptorSet write;
    VkPushConstantRange push = {VK_SHADER_STAGE_COMPUTE_BIT, 0, 2 * sizeof(uint32_t)};
    VkPipelineLayoutCreateInfo layout;
    VkComputePipelineCreateInfo compute;

    memset(&buffer, 0, sizeof buffer);
    buffer.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
    memset(&allocate, 0, sizeof allocate);
    allocate.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
    memset(&setLayout, 0, sizeof setLayout);
    setLayout.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO;
    memset(&descriptorPool, 0, sizeof descriptorPool);
    descriptorPool.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO;
    memset(&allocateSet, 0, sizeof allocateSet);
    allocateSet.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO;
    memset(&write, 0, sizeof write);
    write.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
    memset(&layout, 0, sizeof layout);
    layout.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO;
    memset(&compute, 0, sizeof compute);
    compute.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO;
    buffer.size = kStorageFloats * sizeof(float);
    buffer.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
    Check(vkCreateBuffer(w->device, &buffer, NULL, &w->storage), "vkCreateBuffer");
    vkGetBufferMemoryRequirements(w->device, w->storage, &requirements);
    allocate.allocationSize = requirements.size;
    allocate.memoryTypeIndex = MemoryType(w, requirements.memoryTypeBits);
    Check(vkAllocateMemory(w->device, &allocate, NULL, &w->storageMemory), "vkAllocateMemory");
    Check(vkBindBufferMemory(w->device, w->storage, w->storageMemory, 0), "vkBindBufferMemory");
    setLayout.bindingCount = 1;
    setLayout.pBindings = &binding;
    Check(vkCreateDescriptorSetLayout(w->device, &setLayout, NULL, &w->setLayout), "vkCreateDescriptorSetLayout");
    descriptorPool.maxSets = 1;
    descriptorPool.poolSizeCount = 1;
    descriptorPool.pPoolSizes = &size;
    Check(vkCreateDescriptorPool(w->device, &descriptorPool, NULL, &w->descriptorPool), "vkCreateDescriptorPool");
    allocateSet.descriptorPool = w->descriptorPool;
    allocateSet.descriptorSetCount = 1;
    allocateSet.pSetLayouts = &w->setLayout;
    Check(vkAllocateDescriptorSets(w->device, &allocateSet, &w->set), "vkAllocateDescriptorSets");
    bufferInfo.buffer = w->storage;
    write.dstSet = w->set;
    write.descriptorCount = 1;
    write.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    write.pBufferInfo = &bufferInfo;
    vkUpdateDescriptorSets(w->device, 1, &write, 0, NULL);
    layout.setLayoutCount = 1;
    layout.pSetLayouts = &w->setLayout;
    layout.pushConstantRangeCount = 1;
    layout.pPushConstantRanges = &push;
    Check(vkCreatePipelineLayout(w->device, &layout, NULL, &w->computeLayout), "vkCreatePipelineLayout");
    compute.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    compute.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    compute.stage.module = w->modules[2];
    compute.stage.pName = "main";
    compute.layout = w->computeLayout;
    Check(vkCreateComputePipelines(w->device, VK_NULL_HANDLE, 1, &compute, NULL, &w->computePipeline), "vkCreateComputePipelines");
}

void CreateWorkload(Workload* w) {
    memset(w, 0, sizeof *w);
    CreateDevice(w);
    CreateRenderTarget(w);
    CreateGraphicsPipeline(w);
    CreateComputePipeline(w);
}

void ReleaseWorkload(Workload* w) {
    uint32_t i;
    WaitIdle(w);
    vkDestroyPipeline(w->device, w->computePipeline, NULL);
    vkDestroyPipelineLayout(w->device, w->computeLayout, NULL);
    vkDestroyDescriptorPool(w->device, w->descriptorPool, NULL);
    vkDestroyDescriptorSetLayout(w->device, w->setLayout, NULL);
    vkDestroyBuffer(w->device, w->storage, NULL);
    vkFreeMemory(w->device, w->storageMemory, NULL);
    vkDestroyPipeline(w->device, w->trianglesPipeline, NULL);
    vkDestroyPipelineLayout(w->device, w->graphicsLayout, NULL);
    for (i = 0; i < 3; ++i) vkDestroyShaderModule(w->device, w->modules[i], NULL);
    vkDestroyFramebuffer(w->device, w->framebuffer, NULL);
    vkDestroyRenderPass(w->device, w->renderPass, NULL);
    vkDestroyImageView(w->device, w->view, NULL);
    vkDestroyImage(w->device, w->image, NULL);
    vkFreeMemory(w->device, w->imageMemory, NULL);
    vkDestroyCommandPool(w->device, w->pool, NULL);
    vkDestroyDevice(w->device, NULL);
    vkDestroyInstance(w->instance, NULL);
}

VkCommandBuffer BeginCommands(Workload* w) {
    VkCommandBufferAllocateInfo allocate;
    VkCommandBufferBeginInfo begin;
    VkCommandBuffer commandBuffer;
    memset(&allocate, 0, sizeof allocate);
    allocate.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
    memset(&begin, 0, sizeof begin);
    begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
    allocate.commandPool = w->pool;
    allocate.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    allocate.commandBufferCount = 1;
    Check(vkAllocateCommandBuffers(w->device, &allocate, &commandBuffer), "vkAllocateCommandBuffers");
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    Check(vkBeginCommandBuffer(commandBuffer, &begin), "vkBeginCommandBuffer");
    return commandBuffer;
}

void SubmitCommands(Workload* w, VkCommandBuffer commandBuffer) {
    VkSubmitInfo submit;
    memset(&submit, 0, sizeof submit);
    submit.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
    if (pendingCount == kMaxPending) WaitIdle(w);
    Check(vkEndCommandBuffer(commandBuffer), "vkEndCommandBuffer");
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &commandBuffer;
    Check(vkQueueSubmit(w->queue, 1, &submit, VK_NULL_HANDLE), "vkQueueSubmit");
    pending[pendingCount++] = commandBuffer;
}

void WaitIdle(Workload* w) {
    vkQueueWaitIdle(w->queue);
    if (pendingCount > 0) vkFreeCommandBuffers(w->device, w->pool, pendingCount, pending);
    pendingCount = 0;
}

void BeginRenderPass(Workload* w, VkCommandBuffer commandBuffer) {
    VkClearValue clear;
    VkRenderPassBeginInfo begin;
    memset(&begin, 0, sizeof begin);
    begin.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO;
    memset(&clear, 0, sizeof clear);
    begin.renderPass = w->renderPass;
    begin.framebuffer = w->framebuffer;
    begin.renderArea.extent.width = begin.renderArea.extent.height = kSize;
    begin.clearValueCount = 1;
    begin.pClearValues = &clear;
    vkCmdBeginRenderPass(commandBuffer, &begin, VK_SUBPASS_CONTENTS_INLINE);
}

void EndRenderPass(Workload* w, VkCommandBuffer commandBuffer) {
    (void)w;
    vkCmdEndRenderPass(commandBuffer);
}

void DrawTriangles(Workload* w, VkCommandBuffer commandBuffer, uint32_t triangles) {
    vkCmdBindPipeline(commandBuffer, VK_PIPELINE_BIND_POINT_GRAPHICS, w->trianglesPipeline);
    vkCmdDraw(commandBuffer, 3 * triangles, 1, 0, 0);
}

void Dispatch(Workload* w, VkCommandBuffer commandBuffer, uint32_t groups, uint32_t iterations) {
    const uint32_t constants[2] = {iterations, kStorageFloats};
    vkCmdBindPipeline(commandBuffer, VK_PIPELINE_BIND_POINT_COMPUTE, w->computePipeline);
    vkCmdBindDescriptorSets(commandBuffer, VK_PIPELINE_BIND_POINT_COMPUTE, w->computeLayout, 0, 1, &w->set, 0, NULL);
    vkCmdPushConstants(commandBuffer, w->computeLayout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof constants, constants);
    vkCmdDispatch(commandBuffer, groups, 1, 1);
}
