// What the layer knows about each instance, physical device, device and command buffer, and the one lock
// that guards it. Dispatchable handles are found by their dispatch key (the loader's dispatch table
// pointer, the first word of the object): a physical device shares its instance's key, and a command
// buffer or queue shares its device's key.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "layers/vulkan/counter_blocks.h"
#include "layers/vulkan/dispatch_tables.h"
#include "layers/vulkan/khr_performance_counters.h"
#include "layers/vulkan/pm_block.h"
#include "vulkan/vk_amd_gpa_interface.h"

namespace ogpa::vklayer {

class ClockControl;
class GpaSession;

inline void* DispatchKey(const void* dispatchable) { return *static_cast<void* const*>(dispatchable); }

// A VK_EXT_debug_utils messenger of the application: where the layer's messages go.
struct Messenger {
    VkDebugUtilsMessengerEXT handle = VK_NULL_HANDLE;  // VK_NULL_HANDLE: given in VkInstanceCreateInfo::pNext
    VkDebugUtilsMessageSeverityFlagsEXT severities = 0;
    VkDebugUtilsMessageTypeFlagsEXT types = 0;
    PFN_vkDebugUtilsMessengerCallbackEXT callback = nullptr;
    void* userData = nullptr;
};

// Whether the layer can provide VK_AMD_gpa_interface on a physical device, and what it can count there.
struct PhysicalDeviceSupport {
    bool nativeExtension = false;  // the driver (or a layer below) has the extension: pass it through
    bool supported = false;        // the layer can implement it (hostQueryReset available)
    std::string unsupportedReason;
    bool hostResetCore = false;  // Vulkan 1.2 hostQueryReset, usable by this instance
    bool hostResetExt = false;   // VK_EXT_host_query_reset
    CounterSupport counters;
    KhrPerformanceSupport khr;  // the driver's VK_KHR_performance_query counters (see khr_performance_counters.h)
    uint32_t vendorId = 0;
    uint32_t deviceType = 0;
    uint8_t deviceUuid[VK_UUID_SIZE] = {};
    std::shared_ptr<ClockControl> clocks;  // shared by the devices created on it
    std::vector<VkExtensionProperties> extensions;  // the device extensions below the layer
    // The PM-sampling block: examined only when asked for (PmSupportOf), since it starts the GPU's sampling.
    PmBlockSupport pm;
};

struct InstanceData {
    VkInstance handle = VK_NULL_HANDLE;
    uint32_t apiVersion = VK_API_VERSION_1_0;
    bool properties2ViaKhr = false;
    InstanceDispatch next;
    std::vector<Messenger> messengers;
    std::unordered_map<VkPhysicalDevice, PhysicalDeviceSupport> support;  // filled on first use
};

struct QueueFamilyInfo {
    VkQueueFlags flags = 0;
    uint32_t timestampValidBits = 0;
};

// Recording state of a command buffer that the layer needs to place queries legally.
struct CommandBufferInfo {
    VkCommandPool pool = VK_NULL_HANDLE;
    uint32_t queueFamily = 0;
    VkCommandBufferLevel level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    bool insideRenderPass = false;    // between begin/end of a render pass (or a RENDER_PASS_CONTINUE secondary)
    uint64_t renderPassInstance = 0;  // which render pass instance, to check a query ends where it began
    uint32_t subpass = 0;
    bool statisticsQueryActive = false;  // Vulkan allows one active query of each type per command buffer
    bool occlusionQueryActive = false;
    bool performanceQueryActive = false;
    // The performance query pool a sample used since the command buffer began: without
    // performanceCounterMultipleQueryPools a command buffer may use one.
    VkQueryPool performancePool = VK_NULL_HANDLE;
    bool profilingLockHeld = false;  // when the command buffer began (Vulkan: required to begin a performance query)
};

struct DeviceData {
    VkDevice handle = VK_NULL_HANDLE;
    VkPhysicalDevice physicalDevice = VK_NULL_HANDLE;
    InstanceData* instance = nullptr;
    DeviceDispatch next;
    bool gpaEnabled = false;  // the application enabled VK_AMD_gpa_interface on this device
    bool native = false;      // ... and the driver implements it: the layer passes every call through
    CounterSupport counters;  // what was enabled at device creation
    KhrPerformanceSupport khr;
    // VK_KHR_performance_query's profiling lock, held from device creation to destruction where the block is
    // offered; why it is not held, when it is not.
    bool profilingLockHeld = false;
    std::string profilingLockProblem;
    bool gpaFeaturesGiven = false;
    VkPhysicalDeviceGpaFeaturesAMD gpaFeatures{};  // as the application enabled them, when given
    std::vector<QueueFamilyInfo> queueFamilies;
    float timestampPeriod = 1.0f;
    VkPhysicalDeviceMemoryProperties memory{};
    std::unordered_map<VkCommandPool, uint32_t> poolFamilies;
    std::unordered_map<VkCommandBuffer, CommandBufferInfo> commandBuffers;
    uint64_t nextRenderPassInstance = 1;
    std::shared_ptr<ClockControl> clocks;
    // The PM-sampling block (pm_block.h) where the device offers it, and the calibration of its timestamps.
    PmBlockSupport pm;
    PFN_vkGetCalibratedTimestampsEXT getCalibratedTimestamps = nullptr;  // KHR or EXT, the same signature

    DeviceData();
    ~DeviceData();
};

class LayerState {
public:
    static LayerState& Get();

    std::recursive_mutex mutex;  // guards everything below and every session
    std::unordered_map<void*, std::unique_ptr<InstanceData>> instances;  // by dispatch key
    std::unordered_map<void*, std::unique_ptr<DeviceData>> devices;      // by dispatch key
    std::unordered_map<uint64_t, std::unique_ptr<GpaSession>> sessions;  // by VkGpaSessionAMD value
    uint64_t nextSessionHandle = 1;

    // NULL for a null handle or one the layer does not know.
    InstanceData* FindInstance(const void* dispatchable);
    DeviceData* FindDevice(const void* dispatchable);
    // The session `handle` of `device`, or NULL (unknown, destroyed, or of another device).
    GpaSession* FindSession(const DeviceData* device, VkGpaSessionAMD handle);
};

// What the layer can do on `physicalDevice` (computed once per instance).
const PhysicalDeviceSupport& SupportOf(InstanceData* instance, VkPhysicalDevice physicalDevice);
// The PM-sampling block of `physicalDevice`, examined on the first call (which starts the GPU's sampling).
const PmBlockSupport& PmSupportOf(InstanceData* instance, VkPhysicalDevice physicalDevice);

}  // namespace ogpa::vklayer
