#include "layers/vulkan/khr_sample_plan.h"

#include <algorithm>

namespace ogpa::vklayer {

namespace {

std::string Listed(const std::vector<std::string>& names) {
    std::string text;
    for (const std::string& name : names) text += (text.empty() ? "" : ", ") + name;
    return text;
}

}  // namespace

KhrSamplePlan::KhrSamplePlan(uint32_t queueFamily) {
    kind.type = VK_QUERY_TYPE_PERFORMANCE_QUERY_KHR;
    kind.queueFamily = queueFamily;
}

VkResult AddKhrEvent(const DeviceData& device, const VkGpaPerfCounterAMD& counter, const std::string& which,
                     KhrSamplePlan* plan, uint32_t* position, std::string* problem) {
    if (device.khr.counters.empty()) {
        *problem = which + ": this device does not offer the VK_KHR_performance_query block (" + device.khr.absentReason +
                   "); VkPhysicalDeviceGpaPropertiesAMD lists the blocks it offers";
        return VK_ERROR_FEATURE_NOT_PRESENT;
    }
    if (counter.eventID >= device.khr.counters.size()) {
        *problem = which + ": the VK_KHR_performance_query block has events 0 to " + std::to_string(device.khr.counters.size() - 1) +
                   " (VkGpaPerfBlockPropertiesAMD::maxEventID)";
        return VK_ERROR_VALIDATION_FAILED_EXT;
    }
    if (counter.blockInstance != 0) {
        *problem = which + ": blockInstance " + std::to_string(counter.blockInstance) + " does not exist; every block has one instance";
        return VK_ERROR_VALIDATION_FAILED_EXT;
    }
    const KhrCounter& khr = device.khr.counters[counter.eventID];
    const uint32_t family = plan->kind.queueFamily;
    const uint32_t index = family < khr.indexInFamily.size() ? khr.indexInFamily[family] : kNotInFamily;
    if (index == kNotInFamily) {
        *problem = which + " (" + khr.description.name + ") is not a counter of queue family " + std::to_string(family) +
                   ", the family of this command buffer; vkEnumerateGpaPerfEventsOPENGPA gives each event's queueFamilyMask";
        return VK_ERROR_FEATURE_NOT_PRESENT;
    }
    std::vector<uint32_t>& indices = plan->kind.counterIndices;
    const auto found = std::find(indices.begin(), indices.end(), index);
    *position = static_cast<uint32_t>(found - indices.begin());
    if (found != indices.end()) return VK_SUCCESS;  // asked for twice: one query value serves both
    indices.push_back(index);
    plan->storages.push_back(khr.counter.storage);
    plan->names.push_back(khr.description.name);
    plan->outsideRenderPassOnly |= khr.counter.scope != VK_PERFORMANCE_COUNTER_SCOPE_COMMAND_KHR;
    return VK_SUCCESS;
}

uint32_t PassCount(const DeviceData& device, const KhrSamplePlan& plan) {
    if (plan.empty()) return 1;
    return KhrPassCount(*device.instance, device.physicalDevice, plan.kind.queueFamily, plan.kind.counterIndices);
}

VkResult CheckKhrSample(const DeviceData& device, const CommandBufferInfo& buffer, const KhrSamplePlan& plan,
                        VkQueryPool nextPool, std::string* problem) {
    if (!buffer.profilingLockHeld) {
        *problem = "the VK_KHR_performance_query counters " + Listed(plan.names) + " need the profiling lock, which Vulkan "
                   "requires before vkBeginCommandBuffer of a command buffer that samples them, and the layer did not hold "
                   "it when this command buffer began: " +
                   (device.profilingLockProblem.empty() ? std::string("it was acquired later") : device.profilingLockProblem) +
                   ". Create a VkGpaSessionAMD (the layer tries again then) before beginning the command buffer";
        return VK_ERROR_NOT_PERMITTED_KHR;
    }
    if (plan.outsideRenderPassOnly && buffer.insideRenderPass) {
        *problem = "among the VK_KHR_performance_query counters " + Listed(plan.names) + " are some of render-pass or "
                   "command-buffer scope, which Vulkan counts only in queries begun outside render pass instances; "
                   "begin the sample outside the render pass";
        return VK_ERROR_VALIDATION_FAILED_EXT;
    }
    const uint32_t passes = PassCount(device, plan);
    if (passes > 1) {
        *problem = "the VK_KHR_performance_query counters " + Listed(plan.names) + " need " + std::to_string(passes) +
                   " passes on queue family " + std::to_string(plan.kind.queueFamily) +
                   " (vkGetPhysicalDeviceQueueFamilyPerformanceQueryPassesKHR): the driver counts them by submitting the "
                   "command buffer once per pass, and a VK_AMD_gpa_interface sample is recorded once. Sample fewer of them "
                   "at a time (vkGetGpaPerfEventPassCountOPENGPA tells whether a set fits in one pass)";
        return VK_ERROR_FEATURE_NOT_PRESENT;
    }
    if (!device.khr.multipleQueryPools && buffer.performancePool != VK_NULL_HANDLE && nextPool != buffer.performancePool) {
        *problem = "this command buffer already has a sample from another VK_KHR_performance_query query pool (of "
                   "another counter set, of another session, or the samples of one set outgrew a pool of 32), and the "
                   "driver lacks performanceCounterMultipleQueryPools, so a command buffer may use one performance query "
                   "pool; sample the counters " + Listed(plan.names) + " in another command buffer";
        return VK_ERROR_FEATURE_NOT_PRESENT;
    }
    return VK_SUCCESS;
}

}  // namespace ogpa::vklayer
