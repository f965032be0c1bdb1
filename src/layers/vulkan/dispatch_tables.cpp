#include "layers/vulkan/dispatch_tables.h"

namespace ogpa::vklayer {

void LoadInstanceDispatch(VkInstance instance, PFN_vkGetInstanceProcAddr next, bool properties2ViaKhr,
                          InstanceDispatch* dispatch) {
    dispatch->GetInstanceProcAddr = next;
#define OGPA_LOAD(name) dispatch->name = reinterpret_cast<PFN_vk##name>(next(instance, "vk" #name));
    OGPA_VK_INSTANCE_FUNCTIONS(OGPA_LOAD)
#undef OGPA_LOAD
    const char* properties2 = properties2ViaKhr ? "vkGetPhysicalDeviceProperties2KHR" : "vkGetPhysicalDeviceProperties2";
    const char* features2 = properties2ViaKhr ? "vkGetPhysicalDeviceFeatures2KHR" : "vkGetPhysicalDeviceFeatures2";
    dispatch->GetPhysicalDeviceProperties2 = reinterpret_cast<PFN_vkGetPhysicalDeviceProperties2>(next(instance, properties2));
    dispatch->GetPhysicalDeviceFeatures2 = reinterpret_cast<PFN_vkGetPhysicalDeviceFeatures2>(next(instance, features2));
    PFN_vkVoidFunction domains = next(instance, "vkGetPhysicalDeviceCalibrateableTimeDomainsKHR");
    if (domains == nullptr) domains = next(instance, "vkGetPhysicalDeviceCalibrateableTimeDomainsEXT");
    dispatch->GetPhysicalDeviceCalibrateableTimeDomains = reinterpret_cast<PFN_vkGetPhysicalDeviceCalibrateableTimeDomainsEXT>(domains);
}

void LoadDeviceDispatch(VkDevice device, PFN_vkGetDeviceProcAddr next, bool hostResetViaExt, DeviceDispatch* dispatch) {
    dispatch->GetDeviceProcAddr = next;
#define OGPA_LOAD(name) dispatch->name = reinterpret_cast<PFN_vk##name>(next(device, "vk" #name));
    OGPA_VK_DEVICE_FUNCTIONS(OGPA_LOAD)
#undef OGPA_LOAD
    dispatch->ResetQueryPool =
        reinterpret_cast<PFN_vkResetQueryPool>(next(device, hostResetViaExt ? "vkResetQueryPoolEXT" : "vkResetQueryPool"));
}

}  // namespace ogpa::vklayer
