// A GPA context on one VkDevice (GPA_vkContextOpenInfo): checks that the device has VK_AMD_gpa_interface,
// describes the device, declares its counters (vulkan_counters.h), keeps the command buffer that samples
// record into (OGPA_SetCommandList) and creates sessions.
#pragma once

#include <memory>
#include <span>
#include <vector>

#include "backends/vulkan/gpa_interface.h"
#include "backends/vulkan/vulkan_counters.h"
#include "core/backend.h"
#include "counters/consolidated_pass_planner.h"

namespace gpa::vk {

// Where the next samples go; shared by the context and its sessions (the core serialises their calls).
struct CommandListState {
    VkCommandBuffer commandBuffer = VK_NULL_HANDLE;  // set by OGPA_SetCommandList
    bool cumulativeSampleOpen = false;                // a sample of queries is open in `commandBuffer`
};

// What sessions need of the device; set when the context opens, read-only afterwards.
struct DeviceProfile {
    GpaInterface gpa;
    double nanosecondsPerTick = 1.0;          // VkPhysicalDeviceLimits::timestampPeriod
    std::vector<VkGpaPerfCounterAMD> events;  // events[i] is hardware counter i + 1
    std::vector<ResultEncoding> encodings;    // of events[i]
    std::vector<EventPlanning> planning;      // of events[i]
};

class VulkanContext : public BackendContext {
public:
    // GPA_STATUS_ERROR_HARDWARE_NOT_SUPPORTED with the reason and what to enable when the device cannot be
    // profiled.
    static Outcome Open(void* apiContext, std::unique_ptr<BackendContext>* context);

    DeviceDescription Device() const override { return device_; }
    const std::vector<HardwareCounter>& HardwareCounters() const override { return hardware_; }
    const std::vector<DerivedCounterDefinition>& DerivedCounters() const override { return derived_; }
    PassPlanner& Planner() override { return planner_; }
    Outcome CreateSession(const PassPlan& plan, std::unique_ptr<BackendSession>* session) override;
    Outcome SetCommandList(void* commandList) override;

private:
    VulkanContext();
    // Whether the pass's events fit one VK_AMD_gpa_interface sample: the timing counter alone, or events whose
    // VK_KHR_performance_query counters need one pass in every queue family that counts them all.
    bool FitsInOneSample(std::span<const uint32_t> hardwareCounters) const;

    VkDevice vkDevice_ = VK_NULL_HANDLE;
    DeviceProfile profile_;
    CommandListState commandList_;
    DeviceDescription device_;
    std::vector<HardwareCounter> hardware_;
    std::vector<DerivedCounterDefinition> derived_;
    ConsolidatedPassPlanner planner_;
};

}  // namespace gpa::vk
