// The layer's entry: the loader negotiates interface version 2 and receives vkGetInstanceProcAddr and
// vkGetDeviceProcAddr, which hand out the layer's hooks (layer_hooks.h) and pass every other name down.
// On a device that did not enable VK_AMD_gpa_interface, or whose driver implements it, the layer stays out
// of the way: only vkDestroyDevice is its own there.
#include <cstring>
#include <mutex>

#include "layers/vulkan/layer_hooks.h"
#include "layers/vulkan/layer_state.h"

namespace ogpa::vklayer {

namespace {

struct Hook {
    const char* name;
    PFN_vkVoidFunction function;
};

#define OGPA_HOOK(name) Hook{"vk" #name, reinterpret_cast<PFN_vkVoidFunction>(&name)}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetInstanceProcAddr(VkInstance instance, const char* pName);
VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetDeviceProcAddr(VkDevice device, const char* pName);

const Hook kInstanceHooks[] = {
    OGPA_HOOK(GetInstanceProcAddr),
    OGPA_HOOK(CreateInstance),
    OGPA_HOOK(DestroyInstance),
    OGPA_HOOK(CreateDevice),
    OGPA_HOOK(GetDeviceProcAddr),
    OGPA_HOOK(EnumerateDeviceExtensionProperties),
    OGPA_HOOK(CreateDebugUtilsMessengerEXT),
    OGPA_HOOK(DestroyDebugUtilsMessengerEXT),
    // Both names lead to the same hook, which calls whichever of the two the instance has.
    Hook{"vkGetPhysicalDeviceProperties2", reinterpret_cast<PFN_vkVoidFunction>(&GetPhysicalDeviceProperties2)},
    Hook{"vkGetPhysicalDeviceProperties2KHR", reinterpret_cast<PFN_vkVoidFunction>(&GetPhysicalDeviceProperties2)},
    Hook{"vkGetPhysicalDeviceFeatures2", reinterpret_cast<PFN_vkVoidFunction>(&GetPhysicalDeviceFeatures2)},
    Hook{"vkGetPhysicalDeviceFeatures2KHR", reinterpret_cast<PFN_vkVoidFunction>(&GetPhysicalDeviceFeatures2)},
};

// Hooks of devices on which the layer implements the extension.
const Hook kDeviceHooks[] = {
    OGPA_HOOK(GetDeviceProcAddr),
    OGPA_HOOK(DestroyDevice),
    OGPA_HOOK(CreateCommandPool),
    OGPA_HOOK(DestroyCommandPool),
    OGPA_HOOK(ResetCommandPool),
    OGPA_HOOK(AllocateCommandBuffers),
    OGPA_HOOK(FreeCommandBuffers),
    OGPA_HOOK(BeginCommandBuffer),
    OGPA_HOOK(CmdBeginRenderPass),
    OGPA_HOOK(CmdNextSubpass),
    OGPA_HOOK(CmdEndRenderPass),
    OGPA_HOOK(CmdBeginRenderPass2),
    OGPA_HOOK(CmdBeginRenderPass2KHR),
    OGPA_HOOK(CmdNextSubpass2),
    OGPA_HOOK(CmdNextSubpass2KHR),
    OGPA_HOOK(CmdEndRenderPass2),
    OGPA_HOOK(CmdEndRenderPass2KHR),
    OGPA_HOOK(CmdBeginRendering),
    OGPA_HOOK(CmdBeginRenderingKHR),
    OGPA_HOOK(CmdEndRendering),
    OGPA_HOOK(CmdEndRenderingKHR),
    OGPA_HOOK(CreateGpaSessionAMD),
    OGPA_HOOK(DestroyGpaSessionAMD),
    OGPA_HOOK(SetGpaDeviceClockModeAMD),
    OGPA_HOOK(GetGpaDeviceClockInfoAMD),
    OGPA_HOOK(CmdBeginGpaSessionAMD),
    OGPA_HOOK(CmdEndGpaSessionAMD),
    OGPA_HOOK(CmdBeginGpaSampleAMD),
    OGPA_HOOK(CmdEndGpaSampleAMD),
    OGPA_HOOK(GetGpaSessionStatusAMD),
    OGPA_HOOK(GetGpaSessionResultsAMD),
    OGPA_HOOK(ResetGpaSessionAMD),
    OGPA_HOOK(CmdCopyGpaSessionResultsAMD),
    OGPA_HOOK(GetGpaInterfaceLastMessageOPENGPA),
    OGPA_HOOK(EnumerateGpaPerfEventsOPENGPA),
    OGPA_HOOK(GetGpaPerfEventPassCountOPENGPA),
};

#undef OGPA_HOOK

template <size_t N>
PFN_vkVoidFunction Find(const Hook (&hooks)[N], const char* name) {
    for (const Hook& hook : hooks) {
        if (std::strcmp(hook.name, name) == 0) return hook.function;
    }
    return nullptr;
}

bool IsGpaFunction(const char* name) {
    return std::strstr(name, "Gpa") != nullptr && (std::strstr(name, "AMD") != nullptr || std::strstr(name, "OPENGPA") != nullptr);
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetInstanceProcAddr(VkInstance instance, const char* pName) {
    if (pName == nullptr) return nullptr;
    if (std::strcmp(pName, "vkCreateInstance") == 0 || std::strcmp(pName, "vkGetInstanceProcAddr") == 0) {
        return Find(kInstanceHooks, pName);
    }
    if (instance == VK_NULL_HANDLE) return nullptr;
    PFN_vkGetInstanceProcAddr next = nullptr;
    {
        std::lock_guard<std::recursive_mutex> lock(LayerState::Get().mutex);
        InstanceData* data = LayerState::Get().FindInstance(instance);
        if (data == nullptr) return nullptr;
        next = data->next.GetInstanceProcAddr;
    }
    const PFN_vkVoidFunction below = next(instance, pName);
    const PFN_vkVoidFunction hook = Find(kInstanceHooks, pName);
    // A hook for a function the instance does not have (e.g. debug utils not enabled) is not handed out.
    if (hook != nullptr && (below != nullptr || std::strcmp(pName, "vkGetDeviceProcAddr") == 0 ||
                            std::strcmp(pName, "vkCreateDevice") == 0 || std::strcmp(pName, "vkDestroyInstance") == 0)) {
        return hook;
    }
    return below;
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetDeviceProcAddr(VkDevice device, const char* pName) {
    if (pName == nullptr || device == VK_NULL_HANDLE) return nullptr;
    PFN_vkGetDeviceProcAddr next = nullptr;
    bool emulated = false;
    {
        std::lock_guard<std::recursive_mutex> lock(LayerState::Get().mutex);
        DeviceData* data = LayerState::Get().FindDevice(device);
        if (data == nullptr) return nullptr;
        next = data->next.GetDeviceProcAddr;
        emulated = data->gpaEnabled && !data->native;
    }
    if (std::strcmp(pName, "vkDestroyDevice") == 0) return reinterpret_cast<PFN_vkVoidFunction>(&DestroyDevice);
    if (std::strcmp(pName, "vkGetDeviceProcAddr") == 0) return reinterpret_cast<PFN_vkVoidFunction>(&GetDeviceProcAddr);
    if (!emulated) return next(device, pName);
    const PFN_vkVoidFunction hook = Find(kDeviceHooks, pName);
    if (hook == nullptr) return next(device, pName);
    if (IsGpaFunction(pName)) return hook;
    // Tracking hooks only for functions the device has (render pass 2, dynamic rendering are optional).
    return next(device, pName) != nullptr ? hook : nullptr;
}

}  // namespace

}  // namespace ogpa::vklayer

extern "C" __attribute__((visibility("default"))) VKAPI_ATTR VkResult VKAPI_CALL
vkNegotiateLoaderLayerInterfaceVersion(VkNegotiateLayerInterface* pVersionStruct) {
    if (pVersionStruct == nullptr || pVersionStruct->sType != LAYER_NEGOTIATE_INTERFACE_STRUCT) {
        return VK_ERROR_INITIALIZATION_FAILED;
    }
    if (pVersionStruct->loaderLayerInterfaceVersion < 2) return VK_ERROR_INITIALIZATION_FAILED;
    pVersionStruct->loaderLayerInterfaceVersion = 2;
    pVersionStruct->pfnGetInstanceProcAddr = ogpa::vklayer::GetInstanceProcAddr;
    pVersionStruct->pfnGetDeviceProcAddr = ogpa::vklayer::GetDeviceProcAddr;
    pVersionStruct->pfnGetPhysicalDeviceProcAddr = nullptr;
    return VK_SUCCESS;
}
