// TEST FIXTURE, NOT A BACKEND (fixture_state.h says what it is): the layer's entry, instance and device
// creation, and VK_KHR_performance_query's physical-device side (extension list, features, properties,
// counters, passes).
#include <cstring>
#include <string>

#include "fixture_state.h"

namespace ogpa::vkfixture {

FixtureState& FixtureState::Get() {
    static FixtureState* state = new FixtureState();  // never destroyed: drivers may call in during exit
    return *state;
}

InstanceData* FixtureState::FindInstance(const void* dispatchable) {
    auto it = instances.find(DispatchKey(dispatchable));
    return it == instances.end() ? nullptr : it->second.get();
}

DeviceData* FixtureState::FindDevice(const void* dispatchable) {
    auto it = devices.find(DispatchKey(dispatchable));
    return it == devices.end() ? nullptr : it->second.get();
}

namespace {

FixtureState& State() { return FixtureState::Get(); }

constexpr VkExtensionProperties kExtension = {VK_KHR_PERFORMANCE_QUERY_EXTENSION_NAME, VK_KHR_PERFORMANCE_QUERY_SPEC_VERSION};

InstanceData* InstanceOf(VkPhysicalDevice physicalDevice) {
    std::lock_guard<std::recursive_mutex> lock(State().mutex);
    return State().FindInstance(physicalDevice);
}

template <typename T>
T* FindInChain(void* head, VkStructureType type) {
    for (auto* s = static_cast<VkBaseOutStructure*>(head)->pNext; s != nullptr; s = s->pNext) {
        if (s->sType == type) return reinterpret_cast<T*>(s);
    }
    return nullptr;
}

std::vector<VkExtensionProperties> DriverExtensions(InstanceData& instance, VkPhysicalDevice physicalDevice) {
    uint32_t count = 0;
    instance.EnumerateDeviceExtensionProperties(physicalDevice, nullptr, &count, nullptr);
    std::vector<VkExtensionProperties> extensions(count);
    instance.EnumerateDeviceExtensionProperties(physicalDevice, nullptr, &count, extensions.data());
    extensions.resize(count);
    return extensions;
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetInstanceProcAddr(VkInstance instance, const char* pName);
VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetDeviceProcAddr(VkDevice device, const char* pName);

VKAPI_ATTR VkResult VKAPI_CALL CreateInstance(const VkInstanceCreateInfo* pCreateInfo, const VkAllocationCallbacks* pAllocator,
                                              VkInstance* pInstance) {
    auto* link = const_cast<VkLayerInstanceCreateInfo*>(static_cast<const VkLayerInstanceCreateInfo*>(pCreateInfo->pNext));
    while (link != nullptr && !(link->sType == VK_STRUCTURE_TYPE_LOADER_INSTANCE_CREATE_INFO && link->function == VK_LAYER_LINK_INFO)) {
        link = const_cast<VkLayerInstanceCreateInfo*>(static_cast<const VkLayerInstanceCreateInfo*>(link->pNext));
    }
    if (link == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
    const PFN_vkGetInstanceProcAddr next = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
    link->u.pLayerInfo = link->u.pLayerInfo->pNext;
    auto create = reinterpret_cast<PFN_vkCreateInstance>(next(VK_NULL_HANDLE, "vkCreateInstance"));
    const VkResult result = create(pCreateInfo, pAllocator, pInstance);
    if (result != VK_SUCCESS) return result;
    auto data = std::make_unique<InstanceData>();
    data->handle = *pInstance;
    data->GetInstanceProcAddr = next;
#define OGPA_LOAD(name) data->name = reinterpret_cast<PFN_vk##name>(next(*pInstance, "vk" #name));
    OGPA_FIXTURE_INSTANCE_FUNCTIONS(OGPA_LOAD)
#undef OGPA_LOAD
    std::lock_guard<std::recursive_mutex> lock(State().mutex);
    State().instances[DispatchKey(*pInstance)] = std::move(data);
    return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL DestroyInstance(VkInstance instance, const VkAllocationCallbacks* pAllocator) {
    PFN_vkDestroyInstance destroy = nullptr;
    {
        std::lock_guard<std::recursive_mutex> lock(State().mutex);
        auto it = State().instances.find(DispatchKey(instance));
        if (it == State().instances.end()) return;
        destroy = it->second->DestroyInstance;
        State().instances.erase(it);
    }
    destroy(instance, pAllocator);
}

VKAPI_ATTR VkResult VKAPI_CALL EnumerateDeviceExtensionProperties(VkPhysicalDevice physicalDevice, const char* pLayerName,
                                                                  uint32_t* pPropertyCount, VkExtensionProperties* pProperties) {
    InstanceData& instance = *InstanceOf(physicalDevice);
    std::vector<VkExtensionProperties> all;
    if (pLayerName != nullptr && std::strcmp(pLayerName, kLayerName) == 0) {
        all.push_back(kExtension);
    } else if (pLayerName != nullptr) {
        return instance.EnumerateDeviceExtensionProperties(physicalDevice, pLayerName, pPropertyCount, pProperties);
    } else {
        all = DriverExtensions(instance, physicalDevice);
        if (!DriverHasPerformanceQuery(instance, physicalDevice)) all.push_back(kExtension);
    }
    if (pProperties == nullptr) {
        *pPropertyCount = static_cast<uint32_t>(all.size());
        return VK_SUCCESS;
    }
    const uint32_t written = std::min<uint32_t>(*pPropertyCount, static_cast<uint32_t>(all.size()));
    std::memcpy(pProperties, all.data(), written * sizeof(VkExtensionProperties));
    *pPropertyCount = written;
    return written < all.size() ? VK_INCOMPLETE : VK_SUCCESS;
}

void FillFeatures(VkPhysicalDeviceFeatures2* pFeatures) {
    auto* features = FindInChain<VkPhysicalDevicePerformanceQueryFeaturesKHR>(
        pFeatures, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PERFORMANCE_QUERY_FEATURES_KHR);
    if (features == nullptr) return;
    features->performanceCounterQueryPools = VK_TRUE;
    features->performanceCounterMultipleQueryPools = VK_FALSE;
}

void FillProperties(VkPhysicalDeviceProperties2* pProperties) {
    auto* properties = FindInChain<VkPhysicalDevicePerformanceQueryPropertiesKHR>(
        pProperties, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PERFORMANCE_QUERY_PROPERTIES_KHR);
    if (properties != nullptr) properties->allowCommandBufferQueryCopies = VK_FALSE;
}

VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceFeatures2(VkPhysicalDevice physicalDevice, VkPhysicalDeviceFeatures2* pFeatures) {
    InstanceData& instance = *InstanceOf(physicalDevice);
    instance.GetPhysicalDeviceFeatures2(physicalDevice, pFeatures);
    if (!DriverHasPerformanceQuery(instance, physicalDevice)) FillFeatures(pFeatures);
}
VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceFeatures2KHR(VkPhysicalDevice physicalDevice, VkPhysicalDeviceFeatures2* pFeatures) {
    InstanceData& instance = *InstanceOf(physicalDevice);
    instance.GetPhysicalDeviceFeatures2KHR(physicalDevice, pFeatures);
    if (!DriverHasPerformanceQuery(instance, physicalDevice)) FillFeatures(pFeatures);
}
VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceProperties2(VkPhysicalDevice physicalDevice, VkPhysicalDeviceProperties2* pProperties) {
    InstanceData& instance = *InstanceOf(physicalDevice);
    instance.GetPhysicalDeviceProperties2(physicalDevice, pProperties);
    if (!DriverHasPerformanceQuery(instance, physicalDevice)) FillProperties(pProperties);
}
VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceProperties2KHR(VkPhysicalDevice physicalDevice, VkPhysicalDeviceProperties2* pProperties) {
    InstanceData& instance = *InstanceOf(physicalDevice);
    instance.GetPhysicalDeviceProperties2KHR(physicalDevice, pProperties);
    if (!DriverHasPerformanceQuery(instance, physicalDevice)) FillProperties(pProperties);
}

VKAPI_ATTR VkResult VKAPI_CALL EnumeratePhysicalDeviceQueueFamilyPerformanceQueryCountersKHR(
    VkPhysicalDevice physicalDevice, uint32_t queueFamilyIndex, uint32_t* pCounterCount, VkPerformanceCounterKHR* pCounters,
    VkPerformanceCounterDescriptionKHR* pCounterDescriptions) {
    InstanceData& instance = *InstanceOf(physicalDevice);
    if (DriverHasPerformanceQuery(instance, physicalDevice)) {
        return instance.EnumeratePhysicalDeviceQueueFamilyPerformanceQueryCountersKHR(physicalDevice, queueFamilyIndex, pCounterCount,
                                                                                      pCounters, pCounterDescriptions);
    }
    const uint32_t all = CounterCount();  // every queue family has them all
    if (pCounters == nullptr && pCounterDescriptions == nullptr) {
        *pCounterCount = all;
        return VK_SUCCESS;
    }
    const uint32_t written = std::min(*pCounterCount, all);
    for (uint32_t i = 0; i < written; ++i) {
        DescribeCounter(i, pCounters != nullptr ? &pCounters[i] : nullptr,
                        pCounterDescriptions != nullptr ? &pCounterDescriptions[i] : nullptr);
    }
    *pCounterCount = written;
    return written < all ? VK_INCOMPLETE : VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceQueueFamilyPerformanceQueryPassesKHR(
    VkPhysicalDevice physicalDevice, const VkQueryPoolPerformanceCreateInfoKHR* pPerformanceQueryCreateInfo, uint32_t* pNumPasses) {
    InstanceData& instance = *InstanceOf(physicalDevice);
    if (DriverHasPerformanceQuery(instance, physicalDevice)) {
        return instance.GetPhysicalDeviceQueueFamilyPerformanceQueryPassesKHR(physicalDevice, pPerformanceQueryCreateInfo, pNumPasses);
    }
    *pNumPasses = PassesFor(pPerformanceQueryCreateInfo->counterIndexCount);
}

VKAPI_ATTR VkResult VKAPI_CALL CreateDevice(VkPhysicalDevice physicalDevice, const VkDeviceCreateInfo* pCreateInfo,
                                            const VkAllocationCallbacks* pAllocator, VkDevice* pDevice) {
    auto* link = const_cast<VkLayerDeviceCreateInfo*>(static_cast<const VkLayerDeviceCreateInfo*>(pCreateInfo->pNext));
    while (link != nullptr && !(link->sType == VK_STRUCTURE_TYPE_LOADER_DEVICE_CREATE_INFO && link->function == VK_LAYER_LINK_INFO)) {
        link = const_cast<VkLayerDeviceCreateInfo*>(static_cast<const VkLayerDeviceCreateInfo*>(link->pNext));
    }
    if (link == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
    const PFN_vkGetInstanceProcAddr nextInstance = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
    const PFN_vkGetDeviceProcAddr nextDevice = link->u.pLayerInfo->pfnNextGetDeviceProcAddr;
    link->u.pLayerInfo = link->u.pLayerInfo->pNext;
    InstanceData& instance = *InstanceOf(physicalDevice);

    // The driver does not know the fixture's extension: take its name and its feature structure out of the
    // create info for the call, and put the application's chain back afterwards.
    std::vector<const char*> extensions;
    bool enabled = false;
    for (uint32_t i = 0; i < pCreateInfo->enabledExtensionCount; ++i) {
        const bool ours = std::strcmp(pCreateInfo->ppEnabledExtensionNames[i], VK_KHR_PERFORMANCE_QUERY_EXTENSION_NAME) == 0;
        enabled |= ours;
        if (!ours) extensions.push_back(pCreateInfo->ppEnabledExtensionNames[i]);
    }
    const bool emulate = enabled && !DriverHasPerformanceQuery(instance, physicalDevice);
    VkDeviceCreateInfo info = *pCreateInfo;
    VkBaseOutStructure* unlinkedAfter = nullptr;
    VkBaseOutStructure* unlinked = nullptr;
    if (emulate) {
        info.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
        info.ppEnabledExtensionNames = extensions.data();
        for (auto* s = reinterpret_cast<VkBaseOutStructure*>(&info); s->pNext != nullptr; s = s->pNext) {
            if (s->pNext->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PERFORMANCE_QUERY_FEATURES_KHR) {
                unlinkedAfter = s;
                unlinked = s->pNext;
                s->pNext = unlinked->pNext;
                break;
            }
        }
    }
    auto create = reinterpret_cast<PFN_vkCreateDevice>(nextInstance(instance.handle, "vkCreateDevice"));
    const VkResult result = create(physicalDevice, &info, pAllocator, pDevice);
    if (unlinked != nullptr && unlinkedAfter != reinterpret_cast<VkBaseOutStructure*>(&info)) unlinkedAfter->pNext = unlinked;
    if (result != VK_SUCCESS) return result;

    auto device = std::make_unique<DeviceData>();
    device->handle = *pDevice;
    device->performanceQuery = emulate;
    device->GetDeviceProcAddr = nextDevice;
#define OGPA_LOAD(name) device->name = reinterpret_cast<PFN_vk##name>(nextDevice(*pDevice, "vk" #name));
    OGPA_FIXTURE_DEVICE_FUNCTIONS(OGPA_LOAD)
#undef OGPA_LOAD
    std::lock_guard<std::recursive_mutex> lock(State().mutex);
    State().devices[DispatchKey(*pDevice)] = std::move(device);
    return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL DestroyDevice(VkDevice device, const VkAllocationCallbacks* pAllocator) {
    std::lock_guard<std::recursive_mutex> lock(State().mutex);
    auto it = State().devices.find(DispatchKey(device));
    if (it == State().devices.end()) return;
    ReleaseDeviceResources(*it->second);
    const PFN_vkDestroyDevice destroy = it->second->DestroyDevice;
    State().devices.erase(it);
    destroy(device, pAllocator);
}

struct Hook {
    const char* name;
    PFN_vkVoidFunction function;
};
#define OGPA_HOOK(name) Hook{"vk" #name, reinterpret_cast<PFN_vkVoidFunction>(&name)}
const Hook kInstanceHooks[] = {
    OGPA_HOOK(GetInstanceProcAddr),
    OGPA_HOOK(CreateInstance),
    OGPA_HOOK(DestroyInstance),
    OGPA_HOOK(CreateDevice),
    OGPA_HOOK(GetDeviceProcAddr),
    OGPA_HOOK(EnumerateDeviceExtensionProperties),
    OGPA_HOOK(GetPhysicalDeviceFeatures2),
    OGPA_HOOK(GetPhysicalDeviceFeatures2KHR),
    OGPA_HOOK(GetPhysicalDeviceProperties2),
    OGPA_HOOK(GetPhysicalDeviceProperties2KHR),
    OGPA_HOOK(EnumeratePhysicalDeviceQueueFamilyPerformanceQueryCountersKHR),
    OGPA_HOOK(GetPhysicalDeviceQueueFamilyPerformanceQueryPassesKHR),
};
#undef OGPA_HOOK

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetInstanceProcAddr(VkInstance instance, const char* pName) {
    PFN_vkVoidFunction hook = nullptr;
    for (const Hook& candidate : kInstanceHooks) {
        if (std::strcmp(candidate.name, pName) == 0) hook = candidate.function;
    }
    // The loader asks for vkCreateInstance with the handle it is creating, which the fixture does not know yet
    // (a layer above the fixture asks with NULL; the loader itself, when the fixture is the top layer, does not).
    if (instance == VK_NULL_HANDLE || std::strcmp(pName, "vkCreateInstance") == 0 ||
        std::strcmp(pName, "vkGetInstanceProcAddr") == 0) {
        return hook;
    }
    PFN_vkVoidFunction below = nullptr;
    {
        std::lock_guard<std::recursive_mutex> lock(State().mutex);
        InstanceData* data = State().FindInstance(instance);
        if (data == nullptr) return nullptr;
        below = data->GetInstanceProcAddr(instance, pName);
    }
    if (hook == nullptr) return below;
    // The features and properties queries only where the instance has them; the extension's own always.
    const bool wrapsExisting = std::strncmp(pName, "vkGetPhysicalDeviceFeatures2", 28) == 0 ||
                               std::strncmp(pName, "vkGetPhysicalDeviceProperties2", 30) == 0;
    return wrapsExisting && below == nullptr ? nullptr : hook;
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetDeviceProcAddr(VkDevice device, const char* pName) {
    PFN_vkGetDeviceProcAddr next = nullptr;
    bool emulated = false;
    {
        std::lock_guard<std::recursive_mutex> lock(State().mutex);
        DeviceData* data = State().FindDevice(device);
        if (data == nullptr) return nullptr;
        next = data->GetDeviceProcAddr;
        emulated = data->performanceQuery;
    }
    if (std::strcmp(pName, "vkGetDeviceProcAddr") == 0) return reinterpret_cast<PFN_vkVoidFunction>(&GetDeviceProcAddr);
    if (std::strcmp(pName, "vkDestroyDevice") == 0) return reinterpret_cast<PFN_vkVoidFunction>(&DestroyDevice);
    if (!emulated) return next(device, pName);
    const PFN_vkVoidFunction hook = FindDeviceHook(pName);
    if (hook == nullptr) return next(device, pName);
    if (std::strstr(pName, "ProfilingLock") != nullptr) return hook;  // the extension's own functions
    return next(device, pName) != nullptr ? hook : nullptr;          // a function the device has
}

}  // namespace

bool DriverHasPerformanceQuery(InstanceData& instance, VkPhysicalDevice physicalDevice) {
    for (const VkExtensionProperties& extension : DriverExtensions(instance, physicalDevice)) {
        if (std::strcmp(extension.extensionName, VK_KHR_PERFORMANCE_QUERY_EXTENSION_NAME) == 0) return true;
    }
    return false;
}

}  // namespace ogpa::vkfixture

extern "C" __attribute__((visibility("default"))) VKAPI_ATTR VkResult VKAPI_CALL
vkNegotiateLoaderLayerInterfaceVersion(VkNegotiateLayerInterface* pVersionStruct) {
    if (pVersionStruct == nullptr || pVersionStruct->loaderLayerInterfaceVersion < 2) return VK_ERROR_INITIALIZATION_FAILED;
    pVersionStruct->loaderLayerInterfaceVersion = 2;
    pVersionStruct->pfnGetInstanceProcAddr = ogpa::vkfixture::GetInstanceProcAddr;
    pVersionStruct->pfnGetDeviceProcAddr = ogpa::vkfixture::GetDeviceProcAddr;
    pVersionStruct->pfnGetPhysicalDeviceProcAddr = nullptr;
    return VK_SUCCESS;
}
