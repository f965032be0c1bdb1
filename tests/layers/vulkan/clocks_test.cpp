// Clock information and clock modes: read from the device where the layer can (NVML for NVIDIA GPUs, the
// CPU's frequency for lavapipe); DEFAULT and QUERY always work; other modes are set where NVML may lock
// clocks, and refused with the reason elsewhere.
#include <cstdlib>

#include "layer_test_fixture.h"

namespace ogpa::vktest {
namespace {

using Clocks = LayerTest;

bool ClockModesFeature(const VulkanEnv& env) {
    VkPhysicalDeviceGpaFeaturesAMD gpa{};
    gpa.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GPA_FEATURES_AMD;
    VkPhysicalDeviceFeatures2 features{};
    features.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
    features.pNext = &gpa;
    vkGetPhysicalDeviceFeatures2(env.physicalDevice, &features);
    return gpa.clockModes == VK_TRUE;
}

TEST_F(Clocks, ClockInfoFromTheDevice) {
    VkGpaDeviceGetClockInfoAMD info{};
    info.sType = VK_STRUCTURE_TYPE_GPA_DEVICE_GET_CLOCK_INFO_AMD;
    const VkResult result = gpa().GetGpaDeviceClockInfo(env().device, &info);
    if (result == VK_ERROR_FEATURE_NOT_PRESENT) {
        // Only where the device has no clock source the layer reads: say why.
        EXPECT_NE(std::string(LastMessage()).find("no clock source"), std::string::npos) << LastMessage();
        GTEST_SKIP() << "no clock source on " << env().properties.deviceName << ": " << LastMessage();
    }
    ASSERT_EQ(result, VK_SUCCESS) << LastMessage();
    EXPECT_GT(info.engineClockFrequency, 0u);
    EXPECT_GE(info.engineClockRatioToPeak, 0.0f);
    EXPECT_LE(info.engineClockRatioToPeak, 1.5f);  // turbo may exceed a CPU's nominal maximum
    if (!IsLlvmpipe(env())) {
        EXPECT_GT(info.memoryClockFrequency, 0u);
        EXPECT_GT(info.engineClockRatioToPeak, 0.0f);
    }
    EXPECT_EQ(gpa().GetGpaDeviceClockInfo(env().device, nullptr), VK_ERROR_VALIDATION_FAILED_EXT);
    info.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
    EXPECT_EQ(gpa().GetGpaDeviceClockInfo(env().device, &info), VK_ERROR_VALIDATION_FAILED_EXT);
}

TEST_F(Clocks, QueryAndDefaultModes) {
    VkGpaDeviceClockModeInfoAMD info{};
    info.sType = VK_STRUCTURE_TYPE_GPA_DEVICE_CLOCK_MODE_INFO_AMD;
    info.clockMode = VK_GPA_DEVICE_CLOCK_MODE_DEFAULT_AMD;
    EXPECT_EQ(gpa().SetGpaDeviceClockMode(env().device, &info), VK_SUCCESS) << LastMessage();
    info.clockMode = VK_GPA_DEVICE_CLOCK_MODE_QUERY_AMD;
    info.engineClockRatioToPeak = -1.0f;
    const VkResult result = gpa().SetGpaDeviceClockMode(env().device, &info);
    if (result == VK_ERROR_FEATURE_NOT_PRESENT) GTEST_SKIP() << LastMessage();
    ASSERT_EQ(result, VK_SUCCESS) << LastMessage();
    EXPECT_GE(info.engineClockRatioToPeak, 0.0f) << "filled";
    EXPECT_EQ(gpa().SetGpaDeviceClockMode(env().device, nullptr), VK_ERROR_VALIDATION_FAILED_EXT);
    info.clockMode = static_cast<VkGpaDeviceClockModeAMD>(42);
    EXPECT_EQ(gpa().SetGpaDeviceClockMode(env().device, &info), VK_ERROR_VALIDATION_FAILED_EXT);
    EXPECT_NE(std::string(LastMessage()).find("clockMode 42"), std::string::npos) << LastMessage();
}

TEST_F(Clocks, OtherModesWhereClocksCanBeLocked) {
    VkGpaDeviceClockModeInfoAMD info{};
    info.sType = VK_STRUCTURE_TYPE_GPA_DEVICE_CLOCK_MODE_INFO_AMD;
    const bool settable = ClockModesFeature(env());
    const char* allowed = std::getenv("OPENGPA_VK_TEST_CLOCK_LOCKING");
    if (settable && (allowed == nullptr || std::string(allowed) != "1")) {
        // Locking a shared GPU's clocks changes the machine for everyone on it (the GPU machine's rules
        // forbid it): only on a machine of one's own.
        GTEST_SKIP() << "clock modes can be set here, which would change the GPU's clocks; set "
                        "OPENGPA_VK_TEST_CLOCK_LOCKING=1 to test them on a machine of your own";
    }
    for (VkGpaDeviceClockModeAMD mode : {VK_GPA_DEVICE_CLOCK_MODE_PROFILING_AMD, VK_GPA_DEVICE_CLOCK_MODE_PEAK_AMD,
                                         VK_GPA_DEVICE_CLOCK_MODE_MIN_ENGINE_AMD, VK_GPA_DEVICE_CLOCK_MODE_MIN_MEMORY_AMD}) {
        info.clockMode = mode;
        const VkResult result = gpa().SetGpaDeviceClockMode(env().device, &info);
        if (!settable) {
            EXPECT_EQ(result, VK_ERROR_FEATURE_NOT_PRESENT);
            EXPECT_NE(std::string(LastMessage()).find("only DEFAULT and QUERY"), std::string::npos) << LastMessage();
        } else if (result != VK_SUCCESS) {
            // NVML may refuse (no permission in a container, or a GPU that does not allow it): said why.
            EXPECT_EQ(result, VK_ERROR_FEATURE_NOT_PRESENT);
            EXPECT_NE(std::string(LastMessage()).find("could not be set"), std::string::npos) << LastMessage();
            std::printf("clock mode %d: %s\n", static_cast<int>(mode), LastMessage().c_str());
        }
        info.clockMode = VK_GPA_DEVICE_CLOCK_MODE_DEFAULT_AMD;
        EXPECT_EQ(gpa().SetGpaDeviceClockMode(env().device, &info), VK_SUCCESS) << "back to default";
    }
}

}  // namespace
}  // namespace ogpa::vktest
