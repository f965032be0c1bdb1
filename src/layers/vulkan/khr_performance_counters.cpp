#include "layers/vulkan/khr_performance_counters.h"

#include <cstring>

#include "layers/vulkan/layer_state.h"

namespace ogpa::vklayer {

namespace {

bool Lists(const std::vector<VkExtensionProperties>& extensions, const char* name) {
    for (const VkExtensionProperties& extension : extensions) {
        if (std::strcmp(extension.extensionName, name) == 0) return true;
    }
    return false;
}

struct FamilyCounters {
    std::vector<VkPerformanceCounterKHR> counters;
    std::vector<VkPerformanceCounterDescriptionKHR> descriptions;
};

FamilyCounters EnumerateFamily(const InstanceData& instance, VkPhysicalDevice physicalDevice, uint32_t family) {
    FamilyCounters found;
    uint32_t count = 0;
    const auto enumerate = instance.next.EnumeratePhysicalDeviceQueueFamilyPerformanceQueryCountersKHR;
    if (enumerate(physicalDevice, family, &count, nullptr, nullptr) != VK_SUCCESS || count == 0) return found;
    VkPerformanceCounterKHR counter{};
    counter.sType = VK_STRUCTURE_TYPE_PERFORMANCE_COUNTER_KHR;
    VkPerformanceCounterDescriptionKHR description{};
    description.sType = VK_STRUCTURE_TYPE_PERFORMANCE_COUNTER_DESCRIPTION_KHR;
    found.counters.assign(count, counter);
    found.descriptions.assign(count, description);
    if (enumerate(physicalDevice, family, &count, found.counters.data(), found.descriptions.data()) < 0) count = 0;
    found.counters.resize(count);
    found.descriptions.resize(count);
    return found;
}

// The index of the counter with `uuid` in `counters`, or kNotInFamily.
uint32_t FindByUuid(const std::vector<KhrCounter>& counters, const uint8_t* uuid) {
    for (uint32_t i = 0; i < counters.size(); ++i) {
        if (std::memcmp(counters[i].counter.uuid, uuid, VK_UUID_SIZE) == 0) return i;
    }
    return kNotInFamily;
}

}  // namespace

KhrPerformanceSupport ExamineKhrPerformanceQuery(InstanceData* instance, VkPhysicalDevice physicalDevice,
                                                 const std::vector<VkExtensionProperties>& extensions) {
    KhrPerformanceSupport support;
    if (!Lists(extensions, VK_KHR_PERFORMANCE_QUERY_EXTENSION_NAME)) {
        support.absentReason = "the driver does not have VK_KHR_performance_query";
        return support;
    }
    const InstanceDispatch& next = instance->next;
    if (next.EnumeratePhysicalDeviceQueueFamilyPerformanceQueryCountersKHR == nullptr ||
        next.GetPhysicalDeviceQueueFamilyPerformanceQueryPassesKHR == nullptr) {
        support.absentReason = "the instance does not give VK_KHR_performance_query's physical-device functions";
        return support;
    }
    VkPhysicalDevicePerformanceQueryFeaturesKHR features{};
    features.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PERFORMANCE_QUERY_FEATURES_KHR;
    VkPhysicalDeviceFeatures2 features2{};
    features2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
    features2.pNext = &features;
    next.GetPhysicalDeviceFeatures2(physicalDevice, &features2);
    if (features.performanceCounterQueryPools != VK_TRUE) {
        support.absentReason = "the driver lists VK_KHR_performance_query without its performanceCounterQueryPools feature";
        return support;
    }
    support.multipleQueryPools = features.performanceCounterMultipleQueryPools == VK_TRUE;

    uint32_t familyCount = 0;
    next.GetPhysicalDeviceQueueFamilyProperties(physicalDevice, &familyCount, nullptr);
    bool allInOnePass = true;
    for (uint32_t family = 0; family < familyCount; ++family) {
        const FamilyCounters found = EnumerateFamily(*instance, physicalDevice, family);
        std::vector<uint32_t> indices;
        for (uint32_t index = 0; index < found.counters.size(); ++index) {
            uint32_t event = FindByUuid(support.counters, found.counters[index].uuid);
            if (event == kNotInFamily) {
                event = static_cast<uint32_t>(support.counters.size());
                KhrCounter counter;
                counter.counter = found.counters[index];
                counter.counter.pNext = nullptr;
                counter.description = found.descriptions[index];
                counter.description.pNext = nullptr;
                counter.indexInFamily.assign(familyCount, kNotInFamily);
                support.counters.push_back(counter);
            }
            support.counters[event].indexInFamily[family] = index;
            indices.push_back(index);
        }
        if (!indices.empty()) allInOnePass &= KhrPassCount(*instance, physicalDevice, family, indices) <= 1;
    }
    if (support.counters.empty()) {
        support.absentReason = "the driver has VK_KHR_performance_query but lists no counter in any queue family";
        return support;
    }
    support.simultaneous = allInOnePass ? static_cast<uint32_t>(support.counters.size()) : 1;
    return support;
}

uint32_t KhrPassCount(const InstanceData& instance, VkPhysicalDevice physicalDevice, uint32_t queueFamily,
                      const std::vector<uint32_t>& counterIndices) {
    VkQueryPoolPerformanceCreateInfoKHR info{};
    info.sType = VK_STRUCTURE_TYPE_QUERY_POOL_PERFORMANCE_CREATE_INFO_KHR;
    info.queueFamilyIndex = queueFamily;
    info.counterIndexCount = static_cast<uint32_t>(counterIndices.size());
    info.pCounterIndices = counterIndices.data();
    uint32_t passes = 0;
    instance.next.GetPhysicalDeviceQueueFamilyPerformanceQueryPassesKHR(physicalDevice, &info, &passes);
    return passes;
}

const char* KhrStorageName(VkPerformanceCounterStorageKHR storage) {
    switch (storage) {
        case VK_PERFORMANCE_COUNTER_STORAGE_INT32_KHR: return "int32";
        case VK_PERFORMANCE_COUNTER_STORAGE_INT64_KHR: return "int64";
        case VK_PERFORMANCE_COUNTER_STORAGE_UINT32_KHR: return "uint32";
        case VK_PERFORMANCE_COUNTER_STORAGE_UINT64_KHR: return "uint64";
        case VK_PERFORMANCE_COUNTER_STORAGE_FLOAT32_KHR: return "float32";
        case VK_PERFORMANCE_COUNTER_STORAGE_FLOAT64_KHR: return "float64";
        default: return "unknown storage";
    }
}

}  // namespace ogpa::vklayer
