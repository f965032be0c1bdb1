// A Vulkan instance and device for tests of the OpenGPA layer and the Vulkan GPA library, with the Khronos
// validation layer below the OpenGPA layer, so that everything the layer records is validated too. Every
// validation warning or error is kept; tests check that there are none.
//
// The OpenGPA layer is found in the build tree without installing it (VK_ADD_LAYER_PATH is set to the
// build's manifest folder unless the environment sets it); so is the test fixture layer of
// VK_KHR_performance_query (its folder is added to VK_ADD_LAYER_PATH). The device is the first Vulkan device, or the
// first whose name contains $OPENGPA_VK_DEVICE. Validation is on unless OPENGPA_VK_VALIDATION=0: without the
// layer a test skips, saying so, and with OPENGPA_VK_VALIDATION=1 (CI) it fails.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "vulkan/vk_amd_gpa_interface.h"

namespace ogpa::vktest {

struct EnvOptions {
    bool gpaLayer = true;      // enable VK_LAYER_OPENGPA_gpa_interface on the instance
    bool gpaExtension = true;  // enable VK_AMD_gpa_interface on the device
    uint32_t apiVersion = VK_API_VERSION_1_1;
    const void* deviceCreatePNext = nullptr;  // chained into VkDeviceCreateInfo
    // Enable the TEST FIXTURE layer VK_LAYER_OPENGPA_test_fixture_performance_query below the others: a
    // VK_KHR_performance_query with counters computed from recorded commands (tests/layers/vulkan/fixture_performance_query).
    bool performanceQueryFixture = false;
};

// The extension's functions, from vkGetDeviceProcAddr (NULL where the device does not have them).
struct GpaFunctions {
    PFN_vkCreateGpaSessionAMD CreateGpaSession = nullptr;
    PFN_vkDestroyGpaSessionAMD DestroyGpaSession = nullptr;
    PFN_vkSetGpaDeviceClockModeAMD SetGpaDeviceClockMode = nullptr;
    PFN_vkGetGpaDeviceClockInfoAMD GetGpaDeviceClockInfo = nullptr;
    PFN_vkCmdBeginGpaSessionAMD CmdBeginGpaSession = nullptr;
    PFN_vkCmdEndGpaSessionAMD CmdEndGpaSession = nullptr;
    PFN_vkCmdBeginGpaSampleAMD CmdBeginGpaSample = nullptr;
    PFN_vkCmdEndGpaSampleAMD CmdEndGpaSample = nullptr;
    PFN_vkGetGpaSessionStatusAMD GetGpaSessionStatus = nullptr;
    PFN_vkGetGpaSessionResultsAMD GetGpaSessionResults = nullptr;
    PFN_vkResetGpaSessionAMD ResetGpaSession = nullptr;
    PFN_vkCmdCopyGpaSessionResultsAMD CmdCopyGpaSessionResults = nullptr;
    PFN_vkGetGpaInterfaceLastMessageOPENGPA GetLastMessage = nullptr;
    PFN_vkEnumerateGpaPerfEventsOPENGPA EnumerateEvents = nullptr;
    PFN_vkGetGpaPerfEventPassCountOPENGPA GetPassCount = nullptr;
};

class VulkanEnv {
public:
    // NULL with *skipReason set when there is no Vulkan device or no validation layer (the test then skips); a
    // missing OpenGPA layer, or validation layer under OPENGPA_VK_VALIDATION=1, is a failure, reported in *failure.
    static std::unique_ptr<VulkanEnv> Create(const EnvOptions& options, std::string* skipReason, std::string* failure);
    ~VulkanEnv();
    // Destroys the device and the instance; their messages stay readable.
    void Close();
    VulkanEnv(const VulkanEnv&) = delete;
    VulkanEnv& operator=(const VulkanEnv&) = delete;

    VkInstance instance = VK_NULL_HANDLE;
    VkPhysicalDevice physicalDevice = VK_NULL_HANDLE;
    VkDevice device = VK_NULL_HANDLE;
    VkQueue queue = VK_NULL_HANDLE;
    uint32_t queueFamily = 0;
    VkCommandPool pool = VK_NULL_HANDLE;
    VkPhysicalDeviceProperties properties{};
    GpaFunctions gpa;
    bool validation = false;

    // Messages of the validation layer (warnings and errors), and of the OpenGPA layer.
    std::vector<std::string> ValidationMessages() const;
    std::vector<std::string> LayerMessages() const;
    void ClearMessages();

    VkCommandBuffer Allocate(VkCommandBufferLevel level = VK_COMMAND_BUFFER_LEVEL_PRIMARY);
    // A primary command buffer in the recording state (one-time submit).
    VkCommandBuffer Begin();
    // Ends, submits and waits for `commandBuffer`, then frees it.
    void SubmitAndWait(VkCommandBuffer commandBuffer);
    // Ends and submits without waiting; WaitIdle() waits for all of them.
    void Submit(VkCommandBuffer commandBuffer);
    void WaitIdle();

    bool HasDeviceExtension(const char* name) const;  // as the instance's layers list it

    struct MessageStore;

private:
    VulkanEnv();
    std::unique_ptr<MessageStore> messages_;
    VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
    std::vector<VkCommandBuffer> pending_;
};

// Whether the validation layer is installed (vkEnumerateInstanceLayerProperties lists it).
bool ValidationLayerInstalled();

inline constexpr const char* kPerformanceQueryFixtureLayer = "VK_LAYER_OPENGPA_test_fixture_performance_query";

// Sets VK_ADD_LAYER_PATH so that the loader finds the build tree's layers (done by VulkanEnv::Create).
void FindBuildTreeLayers();

// Reads a sample's results as 64-bit values (VK_SUCCESS or the call's VkResult).
VkResult ReadResults(const VulkanEnv& env, VkGpaSessionAMD session, uint32_t sampleId, std::vector<uint64_t>* values);

}  // namespace ogpa::vktest
