// The next layer's (or the driver's) functions that the layer calls, per instance and per device. Filled
// from the next vkGetInstanceProcAddr / vkGetDeviceProcAddr when the instance or device is created.
#pragma once

#include <vulkan/vulkan.h>

namespace ogpa::vklayer {

// Instance-level functions resolved by name ("vk" + name). VK_KHR_performance_query's physical-device
// functions may be resolved on any instance but are called only where the device lists the extension.
#define OGPA_VK_INSTANCE_FUNCTIONS(X)            \
    X(DestroyInstance)                           \
    X(CreateDevice)                              \
    X(EnumerateDeviceExtensionProperties)        \
    X(GetPhysicalDeviceProperties)               \
    X(GetPhysicalDeviceFeatures)                 \
    X(GetPhysicalDeviceQueueFamilyProperties)    \
    X(GetPhysicalDeviceMemoryProperties)         \
    X(CreateDebugUtilsMessengerEXT)              \
    X(DestroyDebugUtilsMessengerEXT)             \
    X(EnumeratePhysicalDeviceQueueFamilyPerformanceQueryCountersKHR) \
    X(GetPhysicalDeviceQueueFamilyPerformanceQueryPassesKHR)

// Device-level functions the layer records or calls itself, or passes on after tracking.
#define OGPA_VK_DEVICE_FUNCTIONS(X) \
    X(DestroyDevice)                \
    X(CreateQueryPool)              \
    X(DestroyQueryPool)             \
    X(GetQueryPoolResults)          \
    X(CmdBeginQuery)                \
    X(CmdEndQuery)                  \
    X(CmdWriteTimestamp)            \
    X(CmdResetQueryPool)            \
    X(CmdCopyQueryPoolResults)      \
    X(CmdPipelineBarrier)           \
    X(CreateBuffer)                 \
    X(DestroyBuffer)                \
    X(GetBufferMemoryRequirements)  \
    X(AllocateMemory)               \
    X(FreeMemory)                   \
    X(BindBufferMemory)             \
    X(MapMemory)                    \
    X(UnmapMemory)                  \
    X(CreateCommandPool)            \
    X(DestroyCommandPool)           \
    X(ResetCommandPool)             \
    X(AllocateCommandBuffers)       \
    X(FreeCommandBuffers)           \
    X(BeginCommandBuffer)           \
    X(CmdBeginRenderPass)           \
    X(CmdNextSubpass)               \
    X(CmdEndRenderPass)             \
    X(CmdBeginRenderPass2)          \
    X(CmdBeginRenderPass2KHR)       \
    X(CmdNextSubpass2)              \
    X(CmdNextSubpass2KHR)           \
    X(CmdEndRenderPass2)            \
    X(CmdEndRenderPass2KHR)         \
    X(CmdBeginRendering)            \
    X(CmdBeginRenderingKHR)         \
    X(CmdEndRendering)              \
    X(CmdEndRenderingKHR)           \
    X(AcquireProfilingLockKHR)      \
    X(ReleaseProfilingLockKHR)

struct InstanceDispatch {
    PFN_vkGetInstanceProcAddr GetInstanceProcAddr = nullptr;
#define OGPA_DECLARE(name) PFN_vk##name name = nullptr;
    OGPA_VK_INSTANCE_FUNCTIONS(OGPA_DECLARE)
#undef OGPA_DECLARE
    // Core 1.1 or VK_KHR_get_physical_device_properties2, whichever the instance has.
    PFN_vkGetPhysicalDeviceProperties2 GetPhysicalDeviceProperties2 = nullptr;
    PFN_vkGetPhysicalDeviceFeatures2 GetPhysicalDeviceFeatures2 = nullptr;
    // VK_KHR_calibrated_timestamps' or VK_EXT_calibrated_timestamps' (the same signature), whichever resolves.
    PFN_vkGetPhysicalDeviceCalibrateableTimeDomainsEXT GetPhysicalDeviceCalibrateableTimeDomains = nullptr;
};

struct DeviceDispatch {
    PFN_vkGetDeviceProcAddr GetDeviceProcAddr = nullptr;
#define OGPA_DECLARE(name) PFN_vk##name name = nullptr;
    OGPA_VK_DEVICE_FUNCTIONS(OGPA_DECLARE)
#undef OGPA_DECLARE
    // Core 1.2 vkResetQueryPool or vkResetQueryPoolEXT, whichever the device enabled.
    PFN_vkResetQueryPool ResetQueryPool = nullptr;
};

// `properties2ViaKhr`: the instance predates Vulkan 1.1 and has VK_KHR_get_physical_device_properties2.
void LoadInstanceDispatch(VkInstance instance, PFN_vkGetInstanceProcAddr next, bool properties2ViaKhr,
                          InstanceDispatch* dispatch);
// `hostResetViaExt`: vkResetQueryPoolEXT of VK_EXT_host_query_reset instead of core vkResetQueryPool.
void LoadDeviceDispatch(VkDevice device, PFN_vkGetDeviceProcAddr next, bool hostResetViaExt, DeviceDispatch* dispatch);

}  // namespace ogpa::vklayer
