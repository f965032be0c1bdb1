#include "layers/vulkan/layer_state.h"

#include <cstring>

#include "layers/vulkan/clock_control.h"
#include "layers/vulkan/gpa_session.h"

namespace ogpa::vklayer {

DeviceData::DeviceData() = default;
DeviceData::~DeviceData() = default;

LayerState& LayerState::Get() {
    static LayerState* state = new LayerState();  // never destroyed: drivers may call in during exit
    return *state;
}

InstanceData* LayerState::FindInstance(const void* dispatchable) {
    if (dispatchable == nullptr) return nullptr;
    auto it = instances.find(DispatchKey(dispatchable));
    return it == instances.end() ? nullptr : it->second.get();
}

DeviceData* LayerState::FindDevice(const void* dispatchable) {
    if (dispatchable == nullptr) return nullptr;
    auto it = devices.find(DispatchKey(dispatchable));
    return it == devices.end() ? nullptr : it->second.get();
}

GpaSession* LayerState::FindSession(const DeviceData* device, VkGpaSessionAMD handle) {
    auto it = sessions.find(reinterpret_cast<uint64_t>(handle));
    if (it == sessions.end() || &it->second->device() != device) return nullptr;
    return it->second.get();
}

namespace {

std::vector<VkExtensionProperties> DeviceExtensions(InstanceData* instance, VkPhysicalDevice physicalDevice) {
    uint32_t count = 0;
    std::vector<VkExtensionProperties> extensions;
    if (instance->next.EnumerateDeviceExtensionProperties(physicalDevice, nullptr, &count, nullptr) != VK_SUCCESS) {
        return extensions;
    }
    extensions.resize(count);
    if (instance->next.EnumerateDeviceExtensionProperties(physicalDevice, nullptr, &count, extensions.data()) < 0) {
        extensions.clear();
    }
    extensions.resize(count);
    return extensions;
}

bool Has(const std::vector<VkExtensionProperties>& extensions, const char* name) {
    for (const VkExtensionProperties& extension : extensions) {
        if (std::strcmp(extension.extensionName, name) == 0) return true;
    }
    return false;
}

// Whether a device that lists VK_AMD_gpa_interface really has it from its driver: the loader also lists the
// device extensions of active implicit layers (this one's, when it is installed as an implicit layer), so the
// list alone cannot tell. AMD's own drivers (AMDVLK, the proprietary one) are the ones that implement it.
bool IsAmdDriver(InstanceData* instance, VkPhysicalDevice physicalDevice, const VkPhysicalDeviceProperties& properties,
                 const std::vector<VkExtensionProperties>& extensions) {
    constexpr uint32_t kAmdVendorId = 0x1002;
    if (properties.vendorID != kAmdVendorId) return false;
    const bool driverProperties = (instance->apiVersion >= VK_API_VERSION_1_2 && properties.apiVersion >= VK_API_VERSION_1_2) ||
                                  Has(extensions, VK_KHR_DRIVER_PROPERTIES_EXTENSION_NAME);
    if (!driverProperties) return true;  // an AMD GPU whose driver cannot say which it is: trust the list
    VkPhysicalDeviceDriverProperties driver{};
    driver.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES;
    VkPhysicalDeviceProperties2 properties2{};
    properties2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
    properties2.pNext = &driver;
    instance->next.GetPhysicalDeviceProperties2(physicalDevice, &properties2);
    return driver.driverID == VK_DRIVER_ID_AMD_PROPRIETARY || driver.driverID == VK_DRIVER_ID_AMD_OPEN_SOURCE;
}

PhysicalDeviceSupport Examine(InstanceData* instance, VkPhysicalDevice physicalDevice) {
    PhysicalDeviceSupport support;
    const std::vector<VkExtensionProperties> extensions = DeviceExtensions(instance, physicalDevice);
    support.extensions = extensions;
    support.nativeExtension = Has(extensions, VK_AMD_GPA_INTERFACE_EXTENSION_NAME);

    VkPhysicalDeviceProperties properties{};
    instance->next.GetPhysicalDeviceProperties(physicalDevice, &properties);
    support.vendorId = properties.vendorID;
    support.deviceType = properties.deviceType;
    VkPhysicalDeviceFeatures features{};
    instance->next.GetPhysicalDeviceFeatures(physicalDevice, &features);
    support.counters.pipelineStatistics = features.pipelineStatisticsQuery == VK_TRUE;
    support.counters.preciseOcclusion = features.occlusionQueryPrecise == VK_TRUE;

    if (instance->next.GetPhysicalDeviceProperties2 == nullptr || instance->next.GetPhysicalDeviceFeatures2 == nullptr) {
        support.unsupportedReason =
            "the instance has neither Vulkan 1.1 nor VK_KHR_get_physical_device_properties2, which the layer needs "
            "to query the device";
        return support;
    }
    if (instance->apiVersion >= VK_API_VERSION_1_1) {  // the device UUID (NVML finds the GPU by it)
        VkPhysicalDeviceIDProperties ids{};
        ids.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES;
        VkPhysicalDeviceProperties2 properties2{};
        properties2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
        properties2.pNext = &ids;
        instance->next.GetPhysicalDeviceProperties2(physicalDevice, &properties2);
        std::memcpy(support.deviceUuid, ids.deviceUUID, VK_UUID_SIZE);
    }
    if (support.nativeExtension) support.nativeExtension = IsAmdDriver(instance, physicalDevice, properties, extensions);

    // Query results are reset on the host (vkResetQueryPool), because samples may begin inside a render
    // pass, where vkCmdResetQueryPool is not allowed.
    const bool core12 = instance->apiVersion >= VK_API_VERSION_1_2 && properties.apiVersion >= VK_API_VERSION_1_2;
    const bool ext = Has(extensions, VK_EXT_HOST_QUERY_RESET_EXTENSION_NAME);
    if (core12 || ext) {
        VkPhysicalDeviceHostQueryResetFeatures hostReset{};
        hostReset.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_HOST_QUERY_RESET_FEATURES;
        VkPhysicalDeviceFeatures2 features2{};
        features2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
        features2.pNext = &hostReset;
        instance->next.GetPhysicalDeviceFeatures2(physicalDevice, &features2);
        if (hostReset.hostQueryReset == VK_TRUE) {
            support.hostResetCore = core12;
            support.hostResetExt = !core12 && ext;
        }
    }
    if (!support.hostResetCore && !support.hostResetExt) {
        support.unsupportedReason =
            "the device cannot reset queries on the host (neither Vulkan 1.2's hostQueryReset nor "
            "VK_EXT_host_query_reset), which the layer needs to place samples inside render passes";
        return support;
    }
    support.khr = ExamineKhrPerformanceQuery(instance, physicalDevice, extensions);
    support.counters.khrEvents = static_cast<uint32_t>(support.khr.counters.size());
    support.counters.khrSimultaneous = support.khr.simultaneous;
    support.supported = true;
    support.clocks = ClockControl::For(support);
    return support;
}

}  // namespace

const PhysicalDeviceSupport& SupportOf(InstanceData* instance, VkPhysicalDevice physicalDevice) {
    auto it = instance->support.find(physicalDevice);
    if (it == instance->support.end()) it = instance->support.emplace(physicalDevice, Examine(instance, physicalDevice)).first;
    return it->second;
}

const PmBlockSupport& PmSupportOf(InstanceData* instance, VkPhysicalDevice physicalDevice) {
    SupportOf(instance, physicalDevice);
    PhysicalDeviceSupport& support = instance->support.at(physicalDevice);
    if (!support.pm.examined) {
        if (!support.supported) {
            support.pm.examined = true;
            support.pm.absentReason = support.unsupportedReason;
        } else {
            support.pm = ExaminePmBlock(instance, physicalDevice, support.vendorId, support.deviceUuid, support.extensions);
        }
    }
    return support.pm;
}

}  // namespace ogpa::vklayer
