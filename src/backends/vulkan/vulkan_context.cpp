#include "backends/vulkan/vulkan_context.h"

#include <string>

#include "backends/vulkan/device_identity.h"
#include "backends/vulkan/vulkan_counters.h"
#include "backends/vulkan/vulkan_session.h"
#include "core/logger.h"

namespace gpa::vk {

namespace {

Outcome NotSupported(const std::string& reason) { return Fail(GPA_STATUS_ERROR_HARDWARE_NOT_SUPPORTED, reason); }

// The loader gives every dispatchable object of a device (its queues and command buffers) the device's
// dispatch table: the first word of the object.
const void* DispatchKey(const void* dispatchable) { return *static_cast<const void* const*>(dispatchable); }

}  // namespace

// A pass holds one kind of VK_AMD_gpa_interface sample: the timing sample (GPUTime) or one cumulative sample
// counting a set of events (every event of the query-based blocks can be counted at once; a set of
// VK_KHR_performance_query counters as long as the driver counts it in one pass).
VulkanContext::VulkanContext()
    : planner_([this](std::span<const uint32_t> counters) { return FitsInOneSample(counters); }) {}

bool VulkanContext::FitsInOneSample(std::span<const uint32_t> hardwareCounters) const {
    bool timing = false;
    std::vector<VkGpaPerfCounterAMD> khr;
    uint32_t families = ~0u;
    for (uint32_t counter : hardwareCounters) {
        timing |= counter == kTimingCounter;
        if (counter == kTimingCounter || !profile_.planning.at(counter - 1).khr) continue;
        khr.push_back(profile_.events.at(counter - 1));
        families &= profile_.planning.at(counter - 1).queueFamilyMask;
    }
    if (timing) return hardwareCounters.size() == 1;
    if (khr.size() <= 1) return true;
    if (families == 0) return false;  // no queue family counts them all in one command buffer
    for (uint32_t family = 0; family < 32; ++family) {
        if ((families & (1u << family)) == 0) continue;
        uint32_t passes = 0;
        const VkResult result = profile_.gpa.GetPassCount(profile_.gpa.device, family, static_cast<uint32_t>(khr.size()), khr.data(), &passes);
        if (result != VK_SUCCESS || passes > 1) return false;
    }
    return true;
}

Outcome VulkanContext::Open(void* apiContext, std::unique_ptr<BackendContext>* context) {
    const auto* info = static_cast<const GPA_vkContextOpenInfo*>(apiContext);
    const char* missing = info->instance == VK_NULL_HANDLE         ? "instance"
                          : info->physicalDevice == VK_NULL_HANDLE ? "physicalDevice"
                          : info->device == VK_NULL_HANDLE         ? "device"
                                                                   : nullptr;
    if (missing != nullptr) {
        return NotSupported(std::string("GPA_vkContextOpenInfo::") + missing +
                            " is VK_NULL_HANDLE; the Vulkan GPA library takes a GPA_vkContextOpenInfo (GPUPerfAPI-Vk.h) "
                            "with the VkInstance, VkPhysicalDevice and VkDevice to profile, cast to void*");
    }
    std::unique_ptr<VulkanContext> opened(new VulkanContext());
    opened->vkDevice_ = info->device;
    if (Outcome o = LoadGpaInterface(info->device, &opened->profile_.gpa); !o.ok()) return o;
    std::vector<VkGpaPerfBlockPropertiesAMD> blocks;
    if (Outcome o = QueryPerfBlocks(info->instance, info->physicalDevice, &blocks); !o.ok()) return o;

    VkPhysicalDeviceProperties properties{};
    vkGetPhysicalDeviceProperties(info->physicalDevice, &properties);
    opened->device_ = DescribeDevice(properties);
    opened->profile_.nanosecondsPerTick = properties.limits.timestampPeriod;

    const bool layer = opened->profile_.gpa.ImplementedByOpenGpaLayer();
    CounterSet counters = BuildCounters(
        blocks, layer,
        layer ? QueryKhrEvents(opened->profile_.gpa, blocks) : std::vector<VkGpaPerfEventPropertiesOPENGPA>{},
        layer ? QueryBlockEvents(opened->profile_.gpa, blocks, VK_GPA_PERF_BLOCK_PM_SAMPLING_OPENGPA)
              : std::vector<VkGpaPerfEventPropertiesOPENGPA>{});
    for (const std::string& absent : counters.absent) Logger::Instance().Message("Vulkan counters absent on this device: " + absent);
    opened->hardware_ = std::move(counters.hardware);
    opened->derived_ = std::move(counters.derived);
    opened->profile_.events = std::move(counters.events);
    opened->profile_.encodings = std::move(counters.encodings);
    opened->profile_.planning = std::move(counters.planning);
    *context = std::move(opened);
    return Outcome::Ok();
}

Outcome VulkanContext::CreateSession(const PassPlan& plan, std::unique_ptr<BackendSession>* session) {
    *session = std::make_unique<VulkanSession>(profile_, commandList_, plan);
    return Outcome::Ok();
}

Outcome VulkanContext::SetCommandList(void* commandList) {
    auto commandBuffer = static_cast<VkCommandBuffer>(commandList);
    if (DispatchKey(commandBuffer) != DispatchKey(vkDevice_)) {
        return Fail(GPA_STATUS_ERROR_FAILED,
                    "pCommandList is not a VkCommandBuffer of the VkDevice given to GPA_OpenContext; pass a command "
                    "buffer allocated on that device, cast to void*");
    }
    if (commandList_.cumulativeSampleOpen && commandBuffer != commandList_.commandBuffer) {
        return Fail(GPA_STATUS_ERROR_SAMPLE_NOT_ENDED,
                    "a sample of this pass counts with Vulkan queries, which begin and end in one command buffer; call "
                    "GPA_EndSample before naming another command buffer");
    }
    commandList_.commandBuffer = commandBuffer;
    return Outcome::Ok();
}

}  // namespace gpa::vk
