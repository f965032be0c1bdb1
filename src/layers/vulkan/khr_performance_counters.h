// VK_KHR_performance_query counters as the events of OpenGPA's block
// VK_GPA_PERF_BLOCK_KHR_PERFORMANCE_QUERY_OPENGPA.
//
// The block is offered where the driver below the layer lists VK_KHR_performance_query and has its
// performanceCounterQueryPools feature. Its event ids number the union of the counters of every queue family
// (vkEnumeratePhysicalDeviceQueueFamilyPerformanceQueryCountersKHR), counters being told apart by their
// UUID: queue family 0's counters in the driver's order, then those of family 1 not seen before, and so on.
// The same driver gives the same numbering on every run. Each event knows the queue families that count it
// and its counter index in each.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <string>
#include <vector>

namespace ogpa::vklayer {

struct InstanceData;

inline constexpr uint32_t kNotInFamily = UINT32_MAX;

struct KhrCounter {
    VkPerformanceCounterKHR counter{};                 // unit, scope, storage, UUID (pNext cleared)
    VkPerformanceCounterDescriptionKHR description{};  // name, category, description (pNext cleared)
    std::vector<uint32_t> indexInFamily;               // per queue family: its counter index there, or kNotInFamily
};

struct KhrPerformanceSupport {
    std::vector<KhrCounter> counters;  // event id = index; empty: the block is not offered
    std::string absentReason;          // why the block is not offered
    bool multipleQueryPools = false;   // performanceCounterMultipleQueryPools: samples of different sets in one command buffer
    // How many events any one sample can count: all of them where every queue family counts all its counters
    // in one pass, otherwise 1 (which sets fit depends on the counters: vkGetGpaPerfEventPassCountOPENGPA).
    uint32_t simultaneous = 0;
};

// What VK_KHR_performance_query offers on `physicalDevice`; `extensions` are the device extensions below the
// layer (the physical-device functions of the extension may only be called where it is listed).
KhrPerformanceSupport ExamineKhrPerformanceQuery(InstanceData* instance, VkPhysicalDevice physicalDevice,
                                                 const std::vector<VkExtensionProperties>& extensions);

// The passes a query of the counters `counterIndices` of `queueFamily` needs
// (vkGetPhysicalDeviceQueueFamilyPerformanceQueryPassesKHR).
uint32_t KhrPassCount(const InstanceData& instance, VkPhysicalDevice physicalDevice, uint32_t queueFamily,
                      const std::vector<uint32_t>& counterIndices);

const char* KhrStorageName(VkPerformanceCounterStorageKHR storage);

}  // namespace ogpa::vklayer
