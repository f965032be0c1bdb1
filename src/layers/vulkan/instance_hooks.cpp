// Instance-level hooks: instance creation and destruction, the device extension list (where the layer adds
// VK_AMD_gpa_interface), the extension's property and feature structures, and the application's debug
// messengers (where the layer's messages go).
#include <algorithm>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "layers/vulkan/clock_control.h"
#include "layers/vulkan/layer_hooks.h"
#include "layers/vulkan/layer_messages.h"
#include "layers/vulkan/pnext_chain.h"

namespace ogpa::vklayer {

namespace {

LayerState& State() { return LayerState::Get(); }

constexpr VkExtensionProperties kExtension = {VK_AMD_GPA_INTERFACE_EXTENSION_NAME, VK_AMD_GPA_INTERFACE_SPEC_VERSION};

VkLayerInstanceCreateInfo* LinkInfo(const VkInstanceCreateInfo* info) {
    for (auto* s = static_cast<const VkBaseInStructure*>(info->pNext); s != nullptr; s = s->pNext) {
        auto* link = reinterpret_cast<VkLayerInstanceCreateInfo*>(const_cast<VkBaseInStructure*>(s));
        if (s->sType == VK_STRUCTURE_TYPE_LOADER_INSTANCE_CREATE_INFO && link->function == VK_LAYER_LINK_INFO) return link;
    }
    return nullptr;
}

bool Lists(const char* const* names, uint32_t count, const char* name) {
    for (uint32_t i = 0; i < count; ++i) {
        if (std::strcmp(names[i], name) == 0) return true;
    }
    return false;
}

// Vulkan's "count, then fill" convention for a list the layer has in full.
template <typename T>
VkResult CopyOut(const std::vector<T>& all, uint32_t* count, T* out) {
    if (out == nullptr) {
        *count = static_cast<uint32_t>(all.size());
        return VK_SUCCESS;
    }
    const uint32_t written = std::min<uint32_t>(*count, static_cast<uint32_t>(all.size()));
    std::copy(all.begin(), all.begin() + written, out);
    *count = written;
    return written < all.size() ? VK_INCOMPLETE : VK_SUCCESS;
}

// The layer implements the extension on this physical device (it is not native, and the device can).
const PhysicalDeviceSupport* Emulated(InstanceData* instance, VkPhysicalDevice physicalDevice) {
    const PhysicalDeviceSupport& support = SupportOf(instance, physicalDevice);
    return support.supported && !support.nativeExtension ? &support : nullptr;
}

}  // namespace

VKAPI_ATTR VkResult VKAPI_CALL CreateInstance(const VkInstanceCreateInfo* pCreateInfo, const VkAllocationCallbacks* pAllocator,
                                              VkInstance* pInstance) {
    VkLayerInstanceCreateInfo* link = LinkInfo(pCreateInfo);
    if (link == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
    const PFN_vkGetInstanceProcAddr next = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
    link->u.pLayerInfo = link->u.pLayerInfo->pNext;  // the next layer finds its own link
    auto create = reinterpret_cast<PFN_vkCreateInstance>(next(VK_NULL_HANDLE, "vkCreateInstance"));
    if (create == nullptr) return VK_ERROR_INITIALIZATION_FAILED;

    uint32_t apiVersion = VK_API_VERSION_1_0;
    if (pCreateInfo->pApplicationInfo != nullptr && pCreateInfo->pApplicationInfo->apiVersion != 0) {
        apiVersion = pCreateInfo->pApplicationInfo->apiVersion;
    }
    // The layer queries devices with vkGetPhysicalDeviceProperties2/Features2: a Vulkan 1.0 instance gets
    // VK_KHR_get_physical_device_properties2 added (every loader provides it).
    std::vector<const char*> extensions(pCreateInfo->ppEnabledExtensionNames,
                                        pCreateInfo->ppEnabledExtensionNames + pCreateInfo->enabledExtensionCount);
    const char* const kProperties2 = VK_KHR_GET_PHYSICAL_DEVICE_PROPERTIES_2_EXTENSION_NAME;
    const bool viaKhr = VK_API_VERSION_MAJOR(apiVersion) == 1 && VK_API_VERSION_MINOR(apiVersion) == 0;
    const bool addsKhr = viaKhr && !Lists(extensions.data(), static_cast<uint32_t>(extensions.size()), kProperties2);
    if (addsKhr) extensions.push_back(kProperties2);
    VkInstanceCreateInfo info = *pCreateInfo;
    info.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
    info.ppEnabledExtensionNames = extensions.data();
    VkResult result = create(&info, pAllocator, pInstance);
    bool hasProperties2 = !viaKhr || !addsKhr || result == VK_SUCCESS;
    if (result == VK_ERROR_EXTENSION_NOT_PRESENT && addsKhr) {  // then the layer offers nothing on this instance
        result = create(pCreateInfo, pAllocator, pInstance);
        hasProperties2 = false;
    }
    if (result != VK_SUCCESS) return result;

    auto data = std::make_unique<InstanceData>();
    data->handle = *pInstance;
    data->apiVersion = apiVersion;
    data->properties2ViaKhr = viaKhr;
    LoadInstanceDispatch(*pInstance, next, viaKhr, &data->next);
    if (!hasProperties2) data->next.GetPhysicalDeviceProperties2 = nullptr, data->next.GetPhysicalDeviceFeatures2 = nullptr;
    std::lock_guard<std::recursive_mutex> lock(State().mutex);
    State().instances[DispatchKey(*pInstance)] = std::move(data);
    return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL DestroyInstance(VkInstance instance, const VkAllocationCallbacks* pAllocator) {
    if (instance == VK_NULL_HANDLE) return;
    PFN_vkDestroyInstance destroy = nullptr;
    {
        std::lock_guard<std::recursive_mutex> lock(State().mutex);
        auto it = State().instances.find(DispatchKey(instance));
        if (it == State().instances.end()) return;
        destroy = it->second->next.DestroyInstance;
        State().instances.erase(it);
    }
    destroy(instance, pAllocator);
}

VKAPI_ATTR VkResult VKAPI_CALL EnumerateDeviceExtensionProperties(VkPhysicalDevice physicalDevice, const char* pLayerName,
                                                                  uint32_t* pPropertyCount, VkExtensionProperties* pProperties) {
    std::lock_guard<std::recursive_mutex> lock(State().mutex);
    InstanceData* instance = State().FindInstance(physicalDevice);
    if (pLayerName != nullptr && std::strcmp(pLayerName, VK_OPENGPA_GPA_INTERFACE_LAYER_NAME) == 0) {
        return CopyOut(std::vector<VkExtensionProperties>{kExtension}, pPropertyCount, pProperties);
    }
    if (pLayerName != nullptr || Emulated(instance, physicalDevice) == nullptr) {
        return instance->next.EnumerateDeviceExtensionProperties(physicalDevice, pLayerName, pPropertyCount, pProperties);
    }
    uint32_t count = 0;
    VkResult result = instance->next.EnumerateDeviceExtensionProperties(physicalDevice, nullptr, &count, nullptr);
    if (result != VK_SUCCESS) return result;
    std::vector<VkExtensionProperties> all(count);
    result = instance->next.EnumerateDeviceExtensionProperties(physicalDevice, nullptr, &count, all.data());
    if (result < 0) return result;
    all.resize(count);
    // The loader already lists the extensions of implicit layers (this one's, when installed as one).
    const bool listed = std::any_of(all.begin(), all.end(), [](const VkExtensionProperties& e) {
        return std::strcmp(e.extensionName, VK_AMD_GPA_INTERFACE_EXTENSION_NAME) == 0;
    });
    if (!listed) all.push_back(kExtension);
    return CopyOut(all, pPropertyCount, pProperties);
}

VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceProperties2(VkPhysicalDevice physicalDevice, VkPhysicalDeviceProperties2* pProperties) {
    std::lock_guard<std::recursive_mutex> lock(State().mutex);
    InstanceData* instance = State().FindInstance(physicalDevice);
    const PhysicalDeviceSupport& support = SupportOf(instance, physicalDevice);
    if (support.nativeExtension) return instance->next.GetPhysicalDeviceProperties2(physicalDevice, pProperties);
    ChainEditor editor;
    auto* gpa = editor.Unlink<VkPhysicalDeviceGpaPropertiesAMD>(pProperties, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GPA_PROPERTIES_AMD);
    auto* gpa2 = editor.Unlink<VkPhysicalDeviceGpaProperties2AMD>(pProperties, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GPA_PROPERTIES_2_AMD);
    instance->next.GetPhysicalDeviceProperties2(physicalDevice, pProperties);
    if (!support.supported) return;
    if (gpa != nullptr) {
        // No thread traces: no SQTT buffer, and the shader engine count is not known. Streaming counters come
        // from the PM-sampling block where it is offered.
        gpa->flags = 0;
        gpa->maxSqttSeBufferSize = 0;
        gpa->shaderEngineCount = 0;
        std::vector<VkGpaPerfBlockPropertiesAMD> blocks = OfferedBlocks(support.counters);
        if (const PmBlockSupport& pm = PmSupportOf(instance, physicalDevice); pm.offered()) blocks.push_back(PmBlockProperties(pm));
        if (gpa->pPerfBlocks == nullptr) {
            gpa->perfBlockCount = static_cast<uint32_t>(blocks.size());
        } else {
            gpa->perfBlockCount = std::min<uint32_t>(gpa->perfBlockCount, static_cast<uint32_t>(blocks.size()));
            std::copy(blocks.begin(), blocks.begin() + gpa->perfBlockCount, gpa->pPerfBlocks);
        }
    }
    if (gpa2 != nullptr) gpa2->revisionId = 0;  // Vulkan does not expose the PCI revision id
}

VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceFeatures2(VkPhysicalDevice physicalDevice, VkPhysicalDeviceFeatures2* pFeatures) {
    std::lock_guard<std::recursive_mutex> lock(State().mutex);
    InstanceData* instance = State().FindInstance(physicalDevice);
    const PhysicalDeviceSupport& support = SupportOf(instance, physicalDevice);
    if (support.nativeExtension) return instance->next.GetPhysicalDeviceFeatures2(physicalDevice, pFeatures);
    ChainEditor editor;
    auto* gpa = editor.Unlink<VkPhysicalDeviceGpaFeaturesAMD>(pFeatures, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GPA_FEATURES_AMD);
    instance->next.GetPhysicalDeviceFeatures2(physicalDevice, pFeatures);
    if (gpa == nullptr || !support.supported) return;
    gpa->perfCounters = VK_TRUE;  // occlusion queries at least; pipeline statistics where the device has them
    gpa->streamingPerfCounters = PmSupportOf(instance, physicalDevice).offered() ? VK_TRUE : VK_FALSE;  // trace samples
    gpa->sqThreadTracing = VK_FALSE;
    gpa->clockModes = support.clocks != nullptr && support.clocks->CanSetModes() ? VK_TRUE : VK_FALSE;
}

VKAPI_ATTR VkResult VKAPI_CALL CreateDebugUtilsMessengerEXT(VkInstance instance, const VkDebugUtilsMessengerCreateInfoEXT* pCreateInfo,
                                                            const VkAllocationCallbacks* pAllocator,
                                                            VkDebugUtilsMessengerEXT* pMessenger) {
    std::lock_guard<std::recursive_mutex> lock(State().mutex);
    InstanceData* data = State().FindInstance(instance);
    const VkResult result = data->next.CreateDebugUtilsMessengerEXT(instance, pCreateInfo, pAllocator, pMessenger);
    if (result == VK_SUCCESS) {
        data->messengers.push_back(Messenger{*pMessenger, pCreateInfo->messageSeverity, pCreateInfo->messageType,
                                             pCreateInfo->pfnUserCallback, pCreateInfo->pUserData});
    }
    return result;
}

VKAPI_ATTR void VKAPI_CALL DestroyDebugUtilsMessengerEXT(VkInstance instance, VkDebugUtilsMessengerEXT messenger,
                                                         const VkAllocationCallbacks* pAllocator) {
    std::lock_guard<std::recursive_mutex> lock(State().mutex);
    InstanceData* data = State().FindInstance(instance);
    std::erase_if(data->messengers, [&](const Messenger& m) { return m.handle == messenger; });
    data->next.DestroyDebugUtilsMessengerEXT(instance, messenger, pAllocator);
}

}  // namespace ogpa::vklayer
