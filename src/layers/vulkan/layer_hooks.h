// Every Vulkan function the layer intercepts, by file: instance_hooks.cpp (instance creation, extension and
// property queries, debug messengers), device_hooks.cpp (device creation and destruction),
// command_tracking.cpp (command pools, command buffers and render passes: where queries may go), and
// gpa_entry_points.cpp (the extension's twelve functions and the layer's own three). layer_entry.cpp hands
// them to the loader.
#pragma once

#include "vulkan/vk_amd_gpa_interface.h"
#include "vulkan/vk_layer.h"

namespace ogpa::vklayer {

// instance_hooks.cpp
VKAPI_ATTR VkResult VKAPI_CALL CreateInstance(const VkInstanceCreateInfo*, const VkAllocationCallbacks*, VkInstance*);
VKAPI_ATTR void VKAPI_CALL DestroyInstance(VkInstance, const VkAllocationCallbacks*);
VKAPI_ATTR VkResult VKAPI_CALL EnumerateDeviceExtensionProperties(VkPhysicalDevice, const char*, uint32_t*, VkExtensionProperties*);
VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceProperties2(VkPhysicalDevice, VkPhysicalDeviceProperties2*);
VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceFeatures2(VkPhysicalDevice, VkPhysicalDeviceFeatures2*);
VKAPI_ATTR VkResult VKAPI_CALL CreateDebugUtilsMessengerEXT(VkInstance, const VkDebugUtilsMessengerCreateInfoEXT*,
                                                            const VkAllocationCallbacks*, VkDebugUtilsMessengerEXT*);
VKAPI_ATTR void VKAPI_CALL DestroyDebugUtilsMessengerEXT(VkInstance, VkDebugUtilsMessengerEXT, const VkAllocationCallbacks*);

// device_hooks.cpp
VKAPI_ATTR VkResult VKAPI_CALL CreateDevice(VkPhysicalDevice, const VkDeviceCreateInfo*, const VkAllocationCallbacks*, VkDevice*);
VKAPI_ATTR void VKAPI_CALL DestroyDevice(VkDevice, const VkAllocationCallbacks*);

// command_tracking.cpp
VKAPI_ATTR VkResult VKAPI_CALL CreateCommandPool(VkDevice, const VkCommandPoolCreateInfo*, const VkAllocationCallbacks*, VkCommandPool*);
VKAPI_ATTR void VKAPI_CALL DestroyCommandPool(VkDevice, VkCommandPool, const VkAllocationCallbacks*);
VKAPI_ATTR VkResult VKAPI_CALL ResetCommandPool(VkDevice, VkCommandPool, VkCommandPoolResetFlags);
VKAPI_ATTR VkResult VKAPI_CALL AllocateCommandBuffers(VkDevice, const VkCommandBufferAllocateInfo*, VkCommandBuffer*);
VKAPI_ATTR void VKAPI_CALL FreeCommandBuffers(VkDevice, VkCommandPool, uint32_t, const VkCommandBuffer*);
VKAPI_ATTR VkResult VKAPI_CALL BeginCommandBuffer(VkCommandBuffer, const VkCommandBufferBeginInfo*);
VKAPI_ATTR void VKAPI_CALL CmdBeginRenderPass(VkCommandBuffer, const VkRenderPassBeginInfo*, VkSubpassContents);
VKAPI_ATTR void VKAPI_CALL CmdNextSubpass(VkCommandBuffer, VkSubpassContents);
VKAPI_ATTR void VKAPI_CALL CmdEndRenderPass(VkCommandBuffer);
VKAPI_ATTR void VKAPI_CALL CmdBeginRenderPass2(VkCommandBuffer, const VkRenderPassBeginInfo*, const VkSubpassBeginInfo*);
VKAPI_ATTR void VKAPI_CALL CmdBeginRenderPass2KHR(VkCommandBuffer, const VkRenderPassBeginInfo*, const VkSubpassBeginInfo*);
VKAPI_ATTR void VKAPI_CALL CmdNextSubpass2(VkCommandBuffer, const VkSubpassBeginInfo*, const VkSubpassEndInfo*);
VKAPI_ATTR void VKAPI_CALL CmdNextSubpass2KHR(VkCommandBuffer, const VkSubpassBeginInfo*, const VkSubpassEndInfo*);
VKAPI_ATTR void VKAPI_CALL CmdEndRenderPass2(VkCommandBuffer, const VkSubpassEndInfo*);
VKAPI_ATTR void VKAPI_CALL CmdEndRenderPass2KHR(VkCommandBuffer, const VkSubpassEndInfo*);
VKAPI_ATTR void VKAPI_CALL CmdBeginRendering(VkCommandBuffer, const VkRenderingInfo*);
VKAPI_ATTR void VKAPI_CALL CmdBeginRenderingKHR(VkCommandBuffer, const VkRenderingInfo*);
VKAPI_ATTR void VKAPI_CALL CmdEndRendering(VkCommandBuffer);
VKAPI_ATTR void VKAPI_CALL CmdEndRenderingKHR(VkCommandBuffer);

// gpa_entry_points.cpp
VKAPI_ATTR VkResult VKAPI_CALL CreateGpaSessionAMD(VkDevice, const VkGpaSessionCreateInfoAMD*, const VkAllocationCallbacks*, VkGpaSessionAMD*);
VKAPI_ATTR void VKAPI_CALL DestroyGpaSessionAMD(VkDevice, VkGpaSessionAMD, const VkAllocationCallbacks*);
VKAPI_ATTR VkResult VKAPI_CALL SetGpaDeviceClockModeAMD(VkDevice, VkGpaDeviceClockModeInfoAMD*);
VKAPI_ATTR VkResult VKAPI_CALL GetGpaDeviceClockInfoAMD(VkDevice, VkGpaDeviceGetClockInfoAMD*);
VKAPI_ATTR VkResult VKAPI_CALL CmdBeginGpaSessionAMD(VkCommandBuffer, VkGpaSessionAMD);
VKAPI_ATTR VkResult VKAPI_CALL CmdEndGpaSessionAMD(VkCommandBuffer, VkGpaSessionAMD);
VKAPI_ATTR VkResult VKAPI_CALL CmdBeginGpaSampleAMD(VkCommandBuffer, VkGpaSessionAMD, const VkGpaSampleBeginInfoAMD*, uint32_t*);
VKAPI_ATTR void VKAPI_CALL CmdEndGpaSampleAMD(VkCommandBuffer, VkGpaSessionAMD, uint32_t);
VKAPI_ATTR VkResult VKAPI_CALL GetGpaSessionStatusAMD(VkDevice, VkGpaSessionAMD);
VKAPI_ATTR VkResult VKAPI_CALL GetGpaSessionResultsAMD(VkDevice, VkGpaSessionAMD, uint32_t, size_t*, void*);
VKAPI_ATTR VkResult VKAPI_CALL ResetGpaSessionAMD(VkDevice, VkGpaSessionAMD);
VKAPI_ATTR void VKAPI_CALL CmdCopyGpaSessionResultsAMD(VkCommandBuffer, VkGpaSessionAMD);
VKAPI_ATTR const char* VKAPI_CALL GetGpaInterfaceLastMessageOPENGPA(VkDevice);
VKAPI_ATTR VkResult VKAPI_CALL EnumerateGpaPerfEventsOPENGPA(VkDevice, VkGpaPerfBlockAMD, uint32_t*, VkGpaPerfEventPropertiesOPENGPA*);
VKAPI_ATTR VkResult VKAPI_CALL GetGpaPerfEventPassCountOPENGPA(VkDevice, uint32_t, uint32_t, const VkGpaPerfCounterAMD*, uint32_t*);

}  // namespace ogpa::vklayer
