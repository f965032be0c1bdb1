// The PM-sampling block where the device has none (lavapipe in CI, any GPU that is not NVIDIA, a layer built
// without CUPTI): not listed, no streaming counters, its events refused, and trace samples refused, each saying why.
// (Where the block is offered, tests/layers/vulkan/gpu/ measures with it.)
#include "layer_test_fixture.h"

namespace ogpa::vktest {
namespace {

class PmSamplingBlockAbsent : public LayerTest {
protected:
    void SetUp() override {
        LayerTest::SetUp();
        if (env_ == nullptr) return;
        VkPhysicalDeviceGpaFeaturesAMD features{};
        features.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GPA_FEATURES_AMD;
        VkPhysicalDeviceFeatures2 features2{};
        features2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
        features2.pNext = &features;
        vkGetPhysicalDeviceFeatures2(env().physicalDevice, &features2);
        if (features.streamingPerfCounters == VK_TRUE) GTEST_SKIP() << "this device offers the PM-sampling block";
    }

    // Why the block is absent, as vkEnumerateGpaPerfEventsOPENGPA says.
    std::string AbsentReason() {
        uint32_t count = 0;
        EXPECT_EQ(gpa().EnumerateEvents(env().device, VK_GPA_PERF_BLOCK_PM_SAMPLING_OPENGPA, &count, nullptr),
                  VK_ERROR_FEATURE_NOT_PRESENT);
        return LastMessage();
    }
};

// One of the reasons the layer gives (pm_block.cpp, device_sampling.cpp).
bool NamesAReason(const std::string& message) {
    for (const char* reason : {"not an NVIDIA GPU", "built without CUPTI", "no CUDA device with this UUID", "CUPTI not found",
                               "no CUDA driver", "calibrated_timestamps", "OPENGPA_VK_PM_SAMPLING=0", "PM sampling could not start"}) {
        if (message.find(reason) != std::string::npos) return true;
    }
    return false;
}

TEST_F(PmSamplingBlockAbsent, NotListedAndNoStreamingCounters) {
    VkPhysicalDeviceGpaPropertiesAMD properties{};
    properties.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GPA_PROPERTIES_AMD;
    VkPhysicalDeviceProperties2 properties2{};
    properties2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
    properties2.pNext = &properties;
    vkGetPhysicalDeviceProperties2(env().physicalDevice, &properties2);
    std::vector<VkGpaPerfBlockPropertiesAMD> blocks(properties.perfBlockCount);
    properties.pPerfBlocks = blocks.data();
    vkGetPhysicalDeviceProperties2(env().physicalDevice, &properties2);
    for (const VkGpaPerfBlockPropertiesAMD& block : blocks) {
        EXPECT_NE(block.blockType, VK_GPA_PERF_BLOCK_PM_SAMPLING_OPENGPA);
        EXPECT_EQ(block.maxStreamingCounters, 0u);
    }
    const std::string why = AbsentReason();
    EXPECT_NE(why.find("does not offer block 65537"), std::string::npos) << why;
    EXPECT_TRUE(NamesAReason(why)) << why;
    if (IsLlvmpipe(env())) {  // the first check that fails: the build, then the vendor
        EXPECT_TRUE(why.find("not an NVIDIA GPU (vendorID 0x10005)") != std::string::npos ||
                    why.find("built without CUPTI's headers") != std::string::npos)
            << why;
    }
}

TEST_F(PmSamplingBlockAbsent, TraceSamplesAreRefusedSayingWhy) {
    const std::string why = AbsentReason();
    VkGpaSessionAMD session = NewSession();
    VkCommandBuffer cb = env().Begin();
    ASSERT_EQ(gpa().CmdBeginGpaSession(cb, session), VK_SUCCESS);
    const std::vector<VkGpaPerfCounterAMD> counters = {{VK_GPA_PERF_BLOCK_PM_SAMPLING_OPENGPA, 0, 0}};
    VkGpaSampleBeginInfoAMD info = CumulativeSample(counters);
    info.sampleType = VK_GPA_SAMPLE_TYPE_TRACE_AMD;
    info.streamingPerfTraceSampleInterval = 1000;
    uint32_t sample = 0;
    EXPECT_EQ(gpa().CmdBeginGpaSample(cb, session, &info, &sample), VK_ERROR_FEATURE_NOT_PRESENT);
    const std::string message = LastMessage();
    EXPECT_NE(message.find("trace samples are not available on this device"), std::string::npos) << message;
    EXPECT_TRUE(NamesAReason(message)) << message;
    EXPECT_NE(message.find("streamingPerfCounters"), std::string::npos) << message;
    // A cumulative sample of the block's events: refused, with the same reason.
    info.sampleType = VK_GPA_SAMPLE_TYPE_CUMULATIVE_AMD;
    EXPECT_EQ(gpa().CmdBeginGpaSample(cb, session, &info, &sample), VK_ERROR_FEATURE_NOT_PRESENT);
    const std::string cumulative = LastMessage();
    EXPECT_NE(cumulative.find("does not offer the PM-sampling block"), std::string::npos) << cumulative;
    EXPECT_TRUE(NamesAReason(cumulative)) << cumulative;
    // Nothing was left open.
    ASSERT_EQ(gpa().CmdEndGpaSession(cb, session), VK_SUCCESS) << LastMessage();
    env().SubmitAndWait(cb);
    EXPECT_EQ(gpa().GetGpaSessionStatus(env().device, session), VK_SUCCESS);
    static_cast<void>(why);
}

}  // namespace
}  // namespace ogpa::vktest
