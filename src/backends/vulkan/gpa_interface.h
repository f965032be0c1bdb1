// VK_AMD_gpa_interface as the Vulkan backend sees it: the extension's functions on one VkDevice (from
// vkGetDeviceProcAddr, so that a driver's own implementation and OpenGPA's layer are used the same way),
// the counter blocks of its physical device, and the reason of a refusal.
#pragma once

#include <string>
#include <vector>

#include "GPUPerfAPI-Vk.h"
#include "core/outcome.h"

namespace gpa::vk {

struct GpaInterface {
    VkDevice device = VK_NULL_HANDLE;
    PFN_vkCreateGpaSessionAMD CreateGpaSession = nullptr;
    PFN_vkDestroyGpaSessionAMD DestroyGpaSession = nullptr;
    PFN_vkCmdBeginGpaSessionAMD CmdBeginGpaSession = nullptr;
    PFN_vkCmdEndGpaSessionAMD CmdEndGpaSession = nullptr;
    PFN_vkCmdBeginGpaSampleAMD CmdBeginGpaSample = nullptr;
    PFN_vkCmdEndGpaSampleAMD CmdEndGpaSample = nullptr;
    PFN_vkGetGpaSessionStatusAMD GetGpaSessionStatus = nullptr;
    PFN_vkGetGpaSessionResultsAMD GetGpaSessionResults = nullptr;
    PFN_vkResetGpaSessionAMD ResetGpaSession = nullptr;
    // OpenGPA's layer only: present exactly when the layer (not the driver) implements the extension.
    PFN_vkGetGpaInterfaceLastMessageOPENGPA GetLastMessage = nullptr;
    PFN_vkEnumerateGpaPerfEventsOPENGPA EnumerateEvents = nullptr;  // names of events (the KHR block's come from the driver)
    PFN_vkGetGpaPerfEventPassCountOPENGPA GetPassCount = nullptr;

    bool ImplementedByOpenGpaLayer() const { return GetLastMessage != nullptr; }
    // "vkCall failed with VK_ERROR_...", plus the layer's reason where it gives one.
    std::string Failure(const char* call, VkResult result) const;
};

// Loads the extension's functions of `device`; GPA_STATUS_ERROR_HARDWARE_NOT_SUPPORTED with what to enable
// when the device lacks the extension.
Outcome LoadGpaInterface(VkDevice device, GpaInterface* gpa);

// The counter blocks the physical device offers (vkGetPhysicalDeviceProperties2 with
// VkPhysicalDeviceGpaPropertiesAMD); GPA_STATUS_ERROR_HARDWARE_NOT_SUPPORTED when the instance cannot query
// them (it needs Vulkan 1.1 or VK_KHR_get_physical_device_properties2).
Outcome QueryPerfBlocks(VkInstance instance, VkPhysicalDevice physicalDevice, std::vector<VkGpaPerfBlockPropertiesAMD>* blocks);

// OpenGPA's block of NVIDIA metrics from device-level PM sampling (vk_amd_gpa_interface.h defines it; a local value
// where the header is older).
#ifndef VK_GPA_PERF_BLOCK_PM_SAMPLING_OPENGPA
#define VK_GPA_PERF_BLOCK_PM_SAMPLING_OPENGPA ((VkGpaPerfBlockAMD)0x10001)
#endif

// The events of one of the layer's blocks described by vkEnumerateGpaPerfEventsOPENGPA (empty where the block is not
// offered, or the layer is older than the block).
std::vector<VkGpaPerfEventPropertiesOPENGPA> QueryBlockEvents(const GpaInterface& gpa,
                                                              const std::vector<VkGpaPerfBlockPropertiesAMD>& blocks,
                                                              VkGpaPerfBlockAMD block);
// The events of the layer's VK_KHR_performance_query block.
std::vector<VkGpaPerfEventPropertiesOPENGPA> QueryKhrEvents(const GpaInterface& gpa,
                                                            const std::vector<VkGpaPerfBlockPropertiesAMD>& blocks);

const char* ResultName(VkResult result);

}  // namespace gpa::vk
