// Device creation and destruction. When the application enables VK_AMD_gpa_interface on a device whose
// driver lacks it, the layer takes the extension and its feature structure out of the create info (the
// driver does not know them) and switches on what its queries need: hostQueryReset (Vulkan 1.2, or
// VK_EXT_host_query_reset), pipelineStatisticsQuery and occlusionQueryPrecise where the device has them, and
// VK_KHR_performance_query with performanceCounterQueryPools where the driver offers its counters (then the
// profiling lock is taken: profiling_lock.h), and VK_KHR/EXT_calibrated_timestamps where the PM-sampling block is
// offered (pm_block.h). A device that does not enable VK_AMD_gpa_interface is created exactly as the application
// asked.
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "layers/vulkan/gpa_session.h"
#include "layers/vulkan/layer_hooks.h"
#include "layers/vulkan/layer_messages.h"
#include "layers/vulkan/pnext_chain.h"
#include "layers/vulkan/profiling_lock.h"

namespace ogpa::vklayer {

namespace {

LayerState& State() { return LayerState::Get(); }

VkLayerDeviceCreateInfo* LinkInfo(const VkDeviceCreateInfo* info) {
    for (auto* s = static_cast<const VkBaseInStructure*>(info->pNext); s != nullptr; s = s->pNext) {
        auto* link = reinterpret_cast<VkLayerDeviceCreateInfo*>(const_cast<VkBaseInStructure*>(s));
        if (s->sType == VK_STRUCTURE_TYPE_LOADER_DEVICE_CREATE_INFO && link->function == VK_LAYER_LINK_INFO) return link;
    }
    return nullptr;
}

bool Lists(const std::vector<const char*>& names, const char* name) {
    for (const char* listed : names) {
        if (std::strcmp(listed, name) == 0) return true;
    }
    return false;
}

// The parts of VkDeviceCreateInfo the layer changes, owned here for the duration of vkCreateDevice.
struct EditedCreateInfo {
    VkDeviceCreateInfo info{};
    std::vector<const char*> extensions;
    VkPhysicalDeviceFeatures features{};
    VkPhysicalDeviceHostQueryResetFeatures hostReset{};
    VkPhysicalDevicePerformanceQueryFeaturesKHR performanceQuery{};
    ChainEditor editor;
};

// VK_KHR_performance_query and its features, in the application's structure when it chained one.
void EnablePerformanceQuery(const VkDeviceCreateInfo& original, const KhrPerformanceSupport& khr, EditedCreateInfo* edited) {
    if (!Lists(edited->extensions, VK_KHR_PERFORMANCE_QUERY_EXTENSION_NAME)) {
        edited->extensions.push_back(VK_KHR_PERFORMANCE_QUERY_EXTENSION_NAME);
        edited->info.enabledExtensionCount = static_cast<uint32_t>(edited->extensions.size());
        edited->info.ppEnabledExtensionNames = edited->extensions.data();
    }
    auto* chained = FindInChain<VkPhysicalDevicePerformanceQueryFeaturesKHR>(
        &original, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PERFORMANCE_QUERY_FEATURES_KHR);
    if (chained == nullptr) {
        chained = &edited->performanceQuery;
        chained->sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PERFORMANCE_QUERY_FEATURES_KHR;
        chained->pNext = const_cast<void*>(edited->info.pNext);
        edited->info.pNext = chained;
    }
    edited->editor.Enable(&chained->performanceCounterQueryPools);
    if (khr.multipleQueryPools) edited->editor.Enable(&chained->performanceCounterMultipleQueryPools);
}

void EditForEmulation(const VkDeviceCreateInfo& original, const PhysicalDeviceSupport& support, EditedCreateInfo* edited,
                      DeviceData* device) {
    edited->info = original;
    edited->extensions.assign(original.ppEnabledExtensionNames, original.ppEnabledExtensionNames + original.enabledExtensionCount);
    std::erase_if(edited->extensions, [](const char* name) { return std::strcmp(name, VK_AMD_GPA_INTERFACE_EXTENSION_NAME) == 0; });
    if (support.hostResetExt && !Lists(edited->extensions, VK_EXT_HOST_QUERY_RESET_EXTENSION_NAME)) {
        edited->extensions.push_back(VK_EXT_HOST_QUERY_RESET_EXTENSION_NAME);
    }
    edited->info.enabledExtensionCount = static_cast<uint32_t>(edited->extensions.size());
    edited->info.ppEnabledExtensionNames = edited->extensions.data();

    ChainEditor& editor = edited->editor;
    if (auto* gpa = editor.Unlink<VkPhysicalDeviceGpaFeaturesAMD>(&original, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GPA_FEATURES_AMD)) {
        device->gpaFeaturesGiven = true;
        device->gpaFeatures = *gpa;
    }

    // Core features: in VkPhysicalDeviceFeatures2 of the chain, or in pEnabledFeatures (copied).
    auto* features2 = FindInChain<VkPhysicalDeviceFeatures2>(&original, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2);
    VkPhysicalDeviceFeatures* features = nullptr;
    if (features2 != nullptr) {
        features = &features2->features;
    } else {
        if (original.pEnabledFeatures != nullptr) edited->features = *original.pEnabledFeatures;
        edited->info.pEnabledFeatures = &edited->features;
        features = &edited->features;
    }
    if (support.counters.pipelineStatistics) editor.Enable(&features->pipelineStatisticsQuery);
    if (support.counters.preciseOcclusion) editor.Enable(&features->occlusionQueryPrecise);

    // hostQueryReset: in VkPhysicalDeviceVulkan12Features or VkPhysicalDeviceHostQueryResetFeatures when the
    // application chained one (only one of them may be there), else in a structure of the layer's own.
    if (auto* v12 = FindInChain<VkPhysicalDeviceVulkan12Features>(&original, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES)) {
        editor.Enable(&v12->hostQueryReset);
    } else if (auto* reset = FindInChain<VkPhysicalDeviceHostQueryResetFeatures>(
                   &original, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_HOST_QUERY_RESET_FEATURES)) {
        editor.Enable(&reset->hostQueryReset);
    } else {
        edited->hostReset.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_HOST_QUERY_RESET_FEATURES;
        edited->hostReset.pNext = const_cast<void*>(original.pNext);
        edited->hostReset.hostQueryReset = VK_TRUE;
        edited->info.pNext = &edited->hostReset;
    }
    if (!support.khr.counters.empty()) EnablePerformanceQuery(original, support.khr, edited);
    device->counters = support.counters;
    device->khr = support.khr;
}

void DescribeDevice(InstanceData* instance, VkPhysicalDevice physicalDevice, DeviceData* device) {
    VkPhysicalDeviceProperties properties{};
    instance->next.GetPhysicalDeviceProperties(physicalDevice, &properties);
    device->timestampPeriod = properties.limits.timestampPeriod;
    uint32_t count = 0;
    instance->next.GetPhysicalDeviceQueueFamilyProperties(physicalDevice, &count, nullptr);
    std::vector<VkQueueFamilyProperties> families(count);
    instance->next.GetPhysicalDeviceQueueFamilyProperties(physicalDevice, &count, families.data());
    for (const VkQueueFamilyProperties& family : families) {
        device->queueFamilies.push_back(QueueFamilyInfo{family.queueFlags, family.timestampValidBits});
    }
    instance->next.GetPhysicalDeviceMemoryProperties(physicalDevice, &device->memory);
}

}  // namespace

VKAPI_ATTR VkResult VKAPI_CALL CreateDevice(VkPhysicalDevice physicalDevice, const VkDeviceCreateInfo* pCreateInfo,
                                            const VkAllocationCallbacks* pAllocator, VkDevice* pDevice) {
    VkLayerDeviceCreateInfo* link = LinkInfo(pCreateInfo);
    if (link == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
    const PFN_vkGetInstanceProcAddr nextInstance = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
    const PFN_vkGetDeviceProcAddr nextDevice = link->u.pLayerInfo->pfnNextGetDeviceProcAddr;
    link->u.pLayerInfo = link->u.pLayerInfo->pNext;

    std::unique_lock<std::recursive_mutex> lock(State().mutex);
    InstanceData* instance = State().FindInstance(physicalDevice);
    if (instance == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
    auto create = reinterpret_cast<PFN_vkCreateDevice>(nextInstance(instance->handle, "vkCreateDevice"));
    const std::vector<const char*> requested(pCreateInfo->ppEnabledExtensionNames,
                                             pCreateInfo->ppEnabledExtensionNames + pCreateInfo->enabledExtensionCount);
    const PhysicalDeviceSupport& support = SupportOf(instance, physicalDevice);

    auto device = std::make_unique<DeviceData>();
    device->physicalDevice = physicalDevice;
    device->instance = instance;
    device->gpaEnabled = Lists(requested, VK_AMD_GPA_INTERFACE_EXTENSION_NAME);
    device->native = support.nativeExtension;
    const bool emulate = device->gpaEnabled && !device->native;
    if (emulate && !support.supported) {
        Report(instance, Severity::kError,
               "vkCreateDevice: VK_LAYER_OPENGPA_gpa_interface cannot provide VK_AMD_gpa_interface on this device: " +
                   support.unsupportedReason);
        lock.unlock();
        FlushMessages();
        return VK_ERROR_EXTENSION_NOT_PRESENT;
    }
    EditedCreateInfo edited;
    if (emulate) {
        EditForEmulation(*pCreateInfo, support, &edited, device.get());
        // The PM-sampling block needs the device's timestamps calibrated against CLOCK_MONOTONIC.
        device->pm = PmSupportOf(instance, physicalDevice);
        const char* calibration = device->pm.calibrationExtension.c_str();
        if (device->pm.offered() && !Lists(edited.extensions, calibration)) {
            edited.extensions.push_back(calibration);
            edited.info.enabledExtensionCount = static_cast<uint32_t>(edited.extensions.size());
            edited.info.ppEnabledExtensionNames = edited.extensions.data();
        }
    }
    const VkResult result = create(physicalDevice, emulate ? &edited.info : pCreateInfo, pAllocator, pDevice);
    if (result != VK_SUCCESS) return result;

    device->handle = *pDevice;
    LoadDeviceDispatch(*pDevice, nextDevice, support.hostResetExt, &device->next);
    if (emulate) {
        DescribeDevice(instance, physicalDevice, device.get());
        device->clocks = support.clocks;
        AcquireProfilingLock(*device, "vkCreateDevice");
        if (device->pm.offered()) {
            const bool khr = device->pm.calibrationExtension == "VK_KHR_calibrated_timestamps";
            device->getCalibratedTimestamps = reinterpret_cast<PFN_vkGetCalibratedTimestampsEXT>(
                nextDevice(*pDevice, khr ? "vkGetCalibratedTimestampsKHR" : "vkGetCalibratedTimestampsEXT"));
            if (device->getCalibratedTimestamps == nullptr) {
                device->pm.absentReason = "the driver gave no vkGetCalibratedTimestamps on the device";
                device->pm.sampling.reset();
            }
        }
    }
    State().devices[DispatchKey(*pDevice)] = std::move(device);
    lock.unlock();
    FlushMessages();
    return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL DestroyDevice(VkDevice device, const VkAllocationCallbacks* pAllocator) {
    if (device == VK_NULL_HANDLE) return;
    std::lock_guard<std::recursive_mutex> lock(State().mutex);
    auto it = State().devices.find(DispatchKey(device));
    if (it == State().devices.end()) return;
    DeviceData* data = it->second.get();
    // Sessions the application did not destroy go with their device (their query pools first).
    std::erase_if(State().sessions, [&](const auto& entry) { return &entry.second->device() == data; });
    ReleaseProfilingLock(*data);
    const PFN_vkDestroyDevice destroy = data->next.DestroyDevice;
    State().devices.erase(it);
    destroy(device, pAllocator);
}

}  // namespace ogpa::vklayer
