// How a tool finds the extension: listed among the device's extensions when the layer is enabled (and only
// then), its properties (exactly the blocks offered) and features, its functions from vkGetDeviceProcAddr
// only on devices that enabled it, and the layer's own structures kept away from the driver.
#include <cstring>

#include "layer_test_fixture.h"

namespace ogpa::vktest {
namespace {

class Discovery : public LayerTest {
protected:
    void SetUp() override {}  // each test opens the device it needs

    std::vector<VkGpaPerfBlockPropertiesAMD> Blocks() {
        VkPhysicalDeviceGpaPropertiesAMD gpa{};
        gpa.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GPA_PROPERTIES_AMD;
        VkPhysicalDeviceProperties2 properties{};
        properties.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
        properties.pNext = &gpa;
        vkGetPhysicalDeviceProperties2(env().physicalDevice, &properties);
        std::vector<VkGpaPerfBlockPropertiesAMD> blocks(gpa.perfBlockCount);
        gpa.pPerfBlocks = blocks.data();
        vkGetPhysicalDeviceProperties2(env().physicalDevice, &properties);
        blocks.resize(gpa.perfBlockCount);
        return blocks;
    }
};

TEST_F(Discovery, ExtensionListedOnlyWithTheLayer) {
    EnvOptions without;
    without.gpaLayer = false;
    without.gpaExtension = false;
    Open(without);
    if (env_ == nullptr) return;
    EXPECT_FALSE(env().HasDeviceExtension(VK_AMD_GPA_INTERFACE_EXTENSION_NAME)) << "this driver has it natively?";
    EXPECT_EQ(vkGetDeviceProcAddr(env().device, "vkCreateGpaSessionAMD"), nullptr);
    TearDown();

    Open(EnvOptions{});
    if (env_ == nullptr) return;
    EXPECT_TRUE(env().HasDeviceExtension(VK_AMD_GPA_INTERFACE_EXTENSION_NAME));
    uint32_t count = 0;
    ASSERT_EQ(vkEnumerateDeviceExtensionProperties(env().physicalDevice, VK_OPENGPA_GPA_INTERFACE_LAYER_NAME, &count, nullptr), VK_SUCCESS);
    ASSERT_EQ(count, 1u);
    VkExtensionProperties extension{};
    ASSERT_EQ(vkEnumerateDeviceExtensionProperties(env().physicalDevice, VK_OPENGPA_GPA_INTERFACE_LAYER_NAME, &count, &extension), VK_SUCCESS);
    EXPECT_STREQ(extension.extensionName, "VK_AMD_gpa_interface");
    EXPECT_EQ(extension.specVersion, 1u);
}

TEST_F(Discovery, FunctionsOnlyOnDevicesThatEnabledTheExtension) {
    EnvOptions options;
    options.gpaExtension = false;
    Open(options);
    if (env_ == nullptr) return;
    EXPECT_EQ(vkGetDeviceProcAddr(env().device, "vkCreateGpaSessionAMD"), nullptr);
    EXPECT_EQ(vkGetDeviceProcAddr(env().device, "vkGetGpaInterfaceLastMessageOPENGPA"), nullptr);
    EXPECT_EQ(vkGetDeviceProcAddr(env().device, "vkEnumerateGpaPerfEventsOPENGPA"), nullptr);
    EXPECT_EQ(vkGetDeviceProcAddr(env().device, "vkGetGpaPerfEventPassCountOPENGPA"), nullptr);
    TearDown();

    Open(EnvOptions{});
    if (env_ == nullptr) return;
    const GpaFunctions& f = gpa();
    for (const void* function : {reinterpret_cast<const void*>(f.CreateGpaSession), reinterpret_cast<const void*>(f.DestroyGpaSession),
                                 reinterpret_cast<const void*>(f.SetGpaDeviceClockMode), reinterpret_cast<const void*>(f.GetGpaDeviceClockInfo),
                                 reinterpret_cast<const void*>(f.CmdBeginGpaSession), reinterpret_cast<const void*>(f.CmdEndGpaSession),
                                 reinterpret_cast<const void*>(f.CmdBeginGpaSample), reinterpret_cast<const void*>(f.CmdEndGpaSample),
                                 reinterpret_cast<const void*>(f.GetGpaSessionStatus), reinterpret_cast<const void*>(f.GetGpaSessionResults),
                                 reinterpret_cast<const void*>(f.ResetGpaSession), reinterpret_cast<const void*>(f.CmdCopyGpaSessionResults),
                                 reinterpret_cast<const void*>(f.GetLastMessage), reinterpret_cast<const void*>(f.EnumerateEvents),
                                 reinterpret_cast<const void*>(f.GetPassCount)}) {
        EXPECT_NE(function, nullptr);
    }
    // Through vkGetInstanceProcAddr too (the loader's trampolines for device extension functions).
    EXPECT_NE(vkGetInstanceProcAddr(env().instance, "vkCmdBeginGpaSampleAMD"), nullptr);
}

TEST_F(Discovery, BlocksListExactlyWhatIsOffered) {
    Open(EnvOptions{});
    if (env_ == nullptr) return;
    VkPhysicalDeviceFeatures features{};
    vkGetPhysicalDeviceFeatures(env().physicalDevice, &features);
    auto blocks = Blocks();
    // The PM-sampling block comes last where the GPU has one (pm_sampling_fake_test.cpp and gpu/ test it), with
    // streaming counters; none elsewhere.
    VkPhysicalDeviceGpaFeaturesAMD gpaFeatures{};
    gpaFeatures.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GPA_FEATURES_AMD;
    VkPhysicalDeviceFeatures2 features2{};
    features2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
    features2.pNext = &gpaFeatures;
    vkGetPhysicalDeviceFeatures2(env().physicalDevice, &features2);
    const bool pm = !blocks.empty() && blocks.back().blockType == VK_GPA_PERF_BLOCK_PM_SAMPLING_OPENGPA;
    EXPECT_EQ(pm, gpaFeatures.streamingPerfCounters == VK_TRUE);
    if (pm) {
        EXPECT_EQ(blocks.back().maxStreamingCounters, blocks.back().maxEventID + 1);
        blocks.pop_back();
    }
    std::vector<std::pair<VkGpaPerfBlockAMD, uint32_t>> expected;  // block, last event
    if (features.pipelineStatisticsQuery) {
        expected = {{VK_GPA_PERF_BLOCK_IA_AMD, 1}, {VK_GPA_PERF_BLOCK_VGT_AMD, 4}, {VK_GPA_PERF_BLOCK_PA_AMD, 1}, {VK_GPA_PERF_BLOCK_SPI_AMD, 1}};
    }
    expected.push_back({VK_GPA_PERF_BLOCK_DB_AMD, 0});
    // A driver with VK_KHR_performance_query may add the block of its counters (khr_performance_query_test.cpp
    // says when); never one without it.
    const bool khr = !blocks.empty() && blocks.back().blockType == VK_GPA_PERF_BLOCK_KHR_PERFORMANCE_QUERY_OPENGPA;
    if (khr) {
        EXPECT_TRUE(env().HasDeviceExtension(VK_KHR_PERFORMANCE_QUERY_EXTENSION_NAME));
    }
    ASSERT_EQ(blocks.size(), expected.size() + (khr ? 1 : 0));
    for (size_t i = 0; i < expected.size(); ++i) {
        EXPECT_EQ(blocks[i].blockType, expected[i].first);
        EXPECT_EQ(blocks[i].maxEventID, expected[i].second);
        EXPECT_EQ(blocks[i].instanceCount, 1u);
        EXPECT_EQ(blocks[i].maxGlobalSharedCounters, expected[i].second + 1) << "every event at once";
        EXPECT_EQ(blocks[i].maxGlobalOnlyCounters, expected[i].second + 1);
        EXPECT_EQ(blocks[i].maxStreamingCounters, 0u) << "no streaming counters";
        EXPECT_EQ(blocks[i].flags, 0u);
    }
}

TEST_F(Discovery, PropertiesCountConventionAndRevision) {
    Open(EnvOptions{});
    if (env_ == nullptr) return;
    const size_t all = Blocks().size();
    ASSERT_GE(all, 2u);
    std::vector<VkGpaPerfBlockPropertiesAMD> two(2);
    VkPhysicalDeviceGpaProperties2AMD gpa2{};
    gpa2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GPA_PROPERTIES_2_AMD;
    gpa2.revisionId = 1234;
    VkPhysicalDeviceGpaPropertiesAMD gpa{};
    gpa.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GPA_PROPERTIES_AMD;
    gpa.pNext = &gpa2;
    gpa.perfBlockCount = 2;
    gpa.pPerfBlocks = two.data();
    gpa.shaderEngineCount = 77;
    VkPhysicalDeviceIDProperties ids{};  // a structure of the driver's after the layer's: still filled
    ids.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES;
    gpa2.pNext = &ids;
    VkPhysicalDeviceProperties2 properties{};
    properties.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
    properties.pNext = &gpa;
    vkGetPhysicalDeviceProperties2(env().physicalDevice, &properties);
    EXPECT_EQ(gpa.perfBlockCount, 2u);
    EXPECT_EQ(two[0].blockType, Blocks()[0].blockType);
    EXPECT_EQ(gpa.shaderEngineCount, 0u) << "unknown on this driver";
    EXPECT_EQ(gpa.maxSqttSeBufferSize, 0u) << "no thread traces";
    EXPECT_EQ(gpa2.revisionId, 0u);
    EXPECT_EQ(properties.pNext, &gpa) << "the chain is given back as it was";
    EXPECT_EQ(gpa.pNext, &gpa2);
    EXPECT_EQ(gpa2.pNext, &ids);
    uint8_t zeros[VK_UUID_SIZE] = {};
    EXPECT_NE(std::memcmp(ids.deviceUUID, zeros, VK_UUID_SIZE), 0) << "the driver filled its structure";
}

TEST_F(Discovery, FeaturesSayWhatCanBeSampled) {
    Open(EnvOptions{});
    if (env_ == nullptr) return;
    VkPhysicalDeviceGpaFeaturesAMD gpa{};
    gpa.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GPA_FEATURES_AMD;
    gpa.streamingPerfCounters = gpa.sqThreadTracing = VK_TRUE;
    VkPhysicalDeviceFeatures2 features{};
    features.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
    features.pNext = &gpa;
    vkGetPhysicalDeviceFeatures2(env().physicalDevice, &features);
    EXPECT_EQ(gpa.perfCounters, VK_TRUE);
    // Streaming counters exactly where the PM-sampling block is offered (not on a CPU: pm_sampling_block_test.cpp).
    const auto blocks = Blocks();
    const bool pm = !blocks.empty() && blocks.back().blockType == VK_GPA_PERF_BLOCK_PM_SAMPLING_OPENGPA;
    EXPECT_EQ(gpa.streamingPerfCounters, pm ? VK_TRUE : VK_FALSE);
    EXPECT_EQ(gpa.sqThreadTracing, VK_FALSE);
    if (IsLlvmpipe(env())) {
        EXPECT_EQ(gpa.clockModes, VK_FALSE) << "a CPU's clocks are not the layer's to set";
    }
}

TEST_F(Discovery, DeviceCreatedWithTheFeatureStructure) {
    VkPhysicalDeviceGpaFeaturesAMD features{};
    features.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GPA_FEATURES_AMD;
    features.perfCounters = VK_TRUE;
    EnvOptions options;
    options.deviceCreatePNext = &features;
    Open(options);
    if (env_ == nullptr) return;
    VkGpaSessionAMD session = NewSession();
    const std::vector<VkGpaPerfCounterAMD> counters = {kCSInvocations};
    const VkGpaSampleBeginInfoAMD info = CumulativeSample(counters);
    VkCommandBuffer cb = env().Begin();
    ASSERT_EQ(gpa().CmdBeginGpaSession(cb, session), VK_SUCCESS);
    uint32_t sample = 0;
    ASSERT_EQ(gpa().CmdBeginGpaSample(cb, session, &info, &sample), VK_SUCCESS) << LastMessage();
    work().Dispatch(cb, 1, 1, 1, 1);
    gpa().CmdEndGpaSample(cb, session, sample);
    ASSERT_EQ(gpa().CmdEndGpaSession(cb, session), VK_SUCCESS);
    env().SubmitAndWait(cb);
    EXPECT_EQ(Results(session, sample), std::vector<uint64_t>{kInvocationsPerWorkgroup});
}

TEST_F(Discovery, DeviceWhoseFeaturesForbidCumulativeSamples) {
    VkPhysicalDeviceGpaFeaturesAMD features{};
    features.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GPA_FEATURES_AMD;  // perfCounters left VK_FALSE
    EnvOptions options;
    options.deviceCreatePNext = &features;
    Open(options);
    if (env_ == nullptr) return;
    VkGpaSessionAMD session = NewSession();
    const std::vector<VkGpaPerfCounterAMD> counters = {kCSInvocations};
    const VkGpaSampleBeginInfoAMD cumulative = CumulativeSample(counters);
    const VkGpaSampleBeginInfoAMD timing = TimingSample();
    VkCommandBuffer cb = env().Begin();
    ASSERT_EQ(gpa().CmdBeginGpaSession(cb, session), VK_SUCCESS);
    uint32_t sample = 0;
    EXPECT_EQ(gpa().CmdBeginGpaSample(cb, session, &cumulative, &sample), VK_ERROR_VALIDATION_FAILED_EXT);
    EXPECT_NE(std::string(LastMessage()).find("perfCounters"), std::string::npos) << LastMessage();
    ASSERT_EQ(gpa().CmdBeginGpaSample(cb, session, &timing, &sample), VK_SUCCESS) << "timing samples need no feature";
    gpa().CmdEndGpaSample(cb, session, sample);
    ASSERT_EQ(gpa().CmdEndGpaSession(cb, session), VK_SUCCESS);
    env().SubmitAndWait(cb);
}

TEST_F(Discovery, TheValidationLayerIsWatching) {
    // The tests' claim "no validation message" means something only if messages do arrive: an invalid
    // command must produce one. The layer reports it and passes it on, so it has to be one every driver
    // survives: a line width other than 1 without the wideLines feature (the test device enables no
    // features) only sets state that no draw uses. (A dispatch without a pipeline, used before, crashed
    // NVIDIA's driver 580.159.04 on 2026-11-24.)
    Open(EnvOptions{});
    if (env_ == nullptr) return;
    if (!env().validation) GTEST_SKIP() << "OPENGPA_VK_VALIDATION=0";
    VkCommandBuffer cb = env().Begin();
    vkCmdSetLineWidth(cb, 2.0f);
    vkEndCommandBuffer(cb);
    bool reported = false;
    for (const std::string& message : env().ValidationMessages()) reported |= message.find("00788") != std::string::npos;
    EXPECT_TRUE(reported) << "no VUID-vkCmdSetLineWidth-lineWidth-00788 among " << env().ValidationMessages().size()
                          << " validation message(s)";
    env().ClearMessages();
    vkFreeCommandBuffers(env().device, env().pool, 1, &cb);
}

}  // namespace
}  // namespace ogpa::vktest
