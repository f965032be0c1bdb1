// VK_KHR_performance_query counters as the events of OpenGPA's block KHR. No driver here has the extension,
// so these tests put the TEST FIXTURE layer VK_LAYER_OPENGPA_test_fixture_performance_query
// (fixture_performance_query/) below the validation layer: its counters are computed from the commands a
// query spans, so the answers are known (N draw commands -> "Draw commands" = N). The validation layer,
// between OpenGPA's layer and the fixture, checks how OpenGPA's layer uses the extension.
#include <bit>
#include <cstdlib>
#include <cstring>
#include <string>

#include "layer_test_fixture.h"

namespace ogpa::vktest {
namespace {

// The fixture's counters, in its (and so the block's) order.
enum FixtureEvent : uint32_t { kDrawCommands, kDispatchCommands, kVerticesDrawn, kInstancesDrawn, kWorkgroups, kVerticesPerDraw };
constexpr uint32_t kFixtureEvents = 6;

VkGpaPerfCounterAMD Khr(uint32_t event) { return {VK_GPA_PERF_BLOCK_KHR_PERFORMANCE_QUERY_OPENGPA, 0, event}; }

int64_t AsInt64(uint64_t word) { return static_cast<int64_t>(word); }
double AsDouble(uint64_t word) { return std::bit_cast<double>(word); }

std::vector<VkGpaPerfBlockPropertiesAMD> Blocks(const VulkanEnv& env) {
    VkPhysicalDeviceGpaPropertiesAMD gpa{};
    gpa.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GPA_PROPERTIES_AMD;
    VkPhysicalDeviceProperties2 properties{};
    properties.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
    properties.pNext = &gpa;
    vkGetPhysicalDeviceProperties2(env.physicalDevice, &properties);
    std::vector<VkGpaPerfBlockPropertiesAMD> blocks(gpa.perfBlockCount);
    gpa.pPerfBlocks = blocks.data();
    vkGetPhysicalDeviceProperties2(env.physicalDevice, &properties);
    blocks.resize(gpa.perfBlockCount);
    return blocks;
}

const VkGpaPerfBlockPropertiesAMD* KhrBlock(const std::vector<VkGpaPerfBlockPropertiesAMD>& blocks) {
    for (const VkGpaPerfBlockPropertiesAMD& block : blocks) {
        if (block.blockType == VK_GPA_PERF_BLOCK_KHR_PERFORMANCE_QUERY_OPENGPA) return &block;
    }
    return nullptr;
}

// Sets an environment variable of the fixture for one test.
class ScopedVariable {
public:
    ScopedVariable(const char* name, const char* value) : name_(name) { setenv(name, value, 1); }
    ~ScopedVariable() { unsetenv(name_); }

private:
    const char* name_;
};

class KhrCounters : public LayerTest {
protected:
    void SetUp() override { OpenWithFixture(); }

    void OpenWithFixture(bool gpaExtension = true) {
        EnvOptions options;
        options.performanceQueryFixture = true;
        options.gpaExtension = gpaExtension;
        Open(options);
        if (env_ == nullptr || !gpaExtension) return;
        const std::vector<VkGpaPerfEventPropertiesOPENGPA> events = Events();
        if (events.empty() || std::strcmp(events[0].name, "Draw commands") != 0) {
            GTEST_SKIP() << "the driver has VK_KHR_performance_query itself, so the test fixture passes it through and "
                            "its known answers do not apply (the first counter is '"
                         << (events.empty() ? "" : events[0].name) << "')";
        }
    }

    std::vector<VkGpaPerfEventPropertiesOPENGPA> Events(VkGpaPerfBlockAMD block = VK_GPA_PERF_BLOCK_KHR_PERFORMANCE_QUERY_OPENGPA) {
        uint32_t count = 0;
        if (gpa().EnumerateEvents(env().device, block, &count, nullptr) != VK_SUCCESS) return {};
        std::vector<VkGpaPerfEventPropertiesOPENGPA> events(count);
        EXPECT_EQ(gpa().EnumerateEvents(env().device, block, &count, events.data()), VK_SUCCESS);
        events.resize(count);
        return events;
    }

    // One cumulative sample of `counters` around `record` (outside a render pass unless `renderPass`).
    template <typename Record>
    std::vector<uint64_t> Measure(const std::vector<VkGpaPerfCounterAMD>& counters, bool renderPass, Record&& record) {
        VkGpaSessionAMD session = NewSession();
        const VkGpaSampleBeginInfoAMD info = CumulativeSample(counters);
        VkCommandBuffer cb = env().Begin();
        EXPECT_EQ(gpa().CmdBeginGpaSession(cb, session), VK_SUCCESS);
        if (renderPass) work().BeginRenderPass(cb);
        uint32_t sample = UINT32_MAX;
        EXPECT_EQ(gpa().CmdBeginGpaSample(cb, session, &info, &sample), VK_SUCCESS) << LastMessage();
        record(cb);
        gpa().CmdEndGpaSample(cb, session, sample);
        if (renderPass) work().EndRenderPass(cb);
        EXPECT_EQ(gpa().CmdEndGpaSession(cb, session), VK_SUCCESS);
        env().SubmitAndWait(cb);
        EXPECT_EQ(gpa().GetGpaSessionStatus(env().device, session), VK_SUCCESS) << LastMessage();
        std::vector<uint64_t> values = Results(session, sample);
        EXPECT_EQ(values.size(), counters.size());
        values.resize(counters.size());
        return values;
    }

    // Whether vkCmdBeginGpaSampleAMD of `counters` is refused in a fresh command buffer with `expected`.
    void ExpectRefused(const std::vector<VkGpaPerfCounterAMD>& counters, VkResult expected, const char* messagePart) {
        VkGpaSessionAMD session = NewSession();
        const VkGpaSampleBeginInfoAMD info = CumulativeSample(counters);
        VkCommandBuffer cb = env().Begin();
        ASSERT_EQ(gpa().CmdBeginGpaSession(cb, session), VK_SUCCESS);
        uint32_t sample = UINT32_MAX;
        EXPECT_EQ(gpa().CmdBeginGpaSample(cb, session, &info, &sample), expected);
        EXPECT_NE(LastMessage().find(messagePart), std::string::npos) << LastMessage();
        EXPECT_EQ(gpa().CmdEndGpaSession(cb, session), VK_SUCCESS);
        env().SubmitAndWait(cb);
    }
};

// Two draws (10 triangles, then 6 vertices x 4 instances) in a render pass, then dispatches of 3 x 2 x 1 and
// 1 x 1 x 1 workgroups.
void RecordKnownWork(Workloads& work, VkCommandBuffer cb) {
    work.BeginRenderPass(cb);
    work.DrawTriangles(cb, 10);
    vkCmdDraw(cb, 6, 4, 0, 0);  // the triangles pipeline is still bound
    work.EndRenderPass(cb);
    work.Dispatch(cb, 3, 2, 1, 1);
    work.Dispatch(cb, 1, 1, 1, 1);
}

TEST(KhrBlock, AbsentWhereTheDriverLacksTheExtension) {
    std::string skip, failure;
    auto env = VulkanEnv::Create(EnvOptions{}, &skip, &failure);
    ASSERT_TRUE(failure.empty()) << failure;
    if (env == nullptr) GTEST_SKIP() << skip;
    const bool driverHasIt = env->HasDeviceExtension(VK_KHR_PERFORMANCE_QUERY_EXTENSION_NAME);
    const auto blocks = Blocks(*env);
    if (IsLlvmpipe(*env)) {
        EXPECT_FALSE(driverHasIt) << "lavapipe has no VK_KHR_performance_query";
    }
    if (!driverHasIt) {
        EXPECT_EQ(KhrBlock(blocks), nullptr) << "no block of counters the driver does not have";
        uint32_t count = 0;
        EXPECT_EQ(env->gpa.EnumerateEvents(env->device, VK_GPA_PERF_BLOCK_KHR_PERFORMANCE_QUERY_OPENGPA, &count, nullptr),
                  VK_ERROR_FEATURE_NOT_PRESENT);
        EXPECT_NE(std::string(env->gpa.GetLastMessage(env->device)).find("does not have VK_KHR_performance_query"), std::string::npos)
            << env->gpa.GetLastMessage(env->device);
    }
    env->Close();
    EXPECT_TRUE(env->ValidationMessages().empty());
}

TEST_F(KhrCounters, BlockListsTheDriversCountersLast) {
    auto blocks = Blocks(env());
    // The PM-sampling block, where the GPU has one (NVIDIA), comes after it.
    if (!blocks.empty() && blocks.back().blockType == VK_GPA_PERF_BLOCK_PM_SAMPLING_OPENGPA) blocks.pop_back();
    ASSERT_FALSE(blocks.empty());
    const VkGpaPerfBlockPropertiesAMD& khr = blocks.back();
    EXPECT_EQ(khr.blockType, VK_GPA_PERF_BLOCK_KHR_PERFORMANCE_QUERY_OPENGPA);
    EXPECT_EQ(khr.instanceCount, 1u);
    EXPECT_EQ(khr.maxEventID, kFixtureEvents - 1);
    EXPECT_EQ(khr.maxGlobalSharedCounters, kFixtureEvents) << "all of them fit one pass";
    EXPECT_EQ(khr.maxGlobalOnlyCounters, kFixtureEvents);
    EXPECT_EQ(khr.maxStreamingCounters, 0u);

    const auto events = Events();
    ASSERT_EQ(events.size(), kFixtureEvents);
    const char* names[] = {"Draw commands", "Dispatch commands", "Vertices drawn", "Instances drawn", "Workgroups dispatched",
                           "Vertices per draw command"};
    const VkPerformanceCounterStorageKHR storages[] = {
        VK_PERFORMANCE_COUNTER_STORAGE_UINT64_KHR, VK_PERFORMANCE_COUNTER_STORAGE_UINT32_KHR, VK_PERFORMANCE_COUNTER_STORAGE_INT64_KHR,
        VK_PERFORMANCE_COUNTER_STORAGE_INT32_KHR, VK_PERFORMANCE_COUNTER_STORAGE_FLOAT64_KHR, VK_PERFORMANCE_COUNTER_STORAGE_FLOAT32_KHR};
    for (uint32_t i = 0; i < kFixtureEvents; ++i) {
        EXPECT_EQ(events[i].blockType, VK_GPA_PERF_BLOCK_KHR_PERFORMANCE_QUERY_OPENGPA);
        EXPECT_EQ(events[i].eventID, i);
        EXPECT_STREQ(events[i].name, names[i]);
        EXPECT_NE(std::string(events[i].category).find("test fixture"), std::string::npos);
        EXPECT_EQ(events[i].storage, storages[i]);
        EXPECT_EQ(events[i].unit, VK_PERFORMANCE_COUNTER_UNIT_GENERIC_KHR);
        EXPECT_EQ(events[i].scope, VK_PERFORMANCE_COUNTER_SCOPE_COMMAND_KHR);
        EXPECT_NE(events[i].queueFamilyMask & (1u << env().queueFamily), 0u);
        EXPECT_EQ(events[i].uuid[VK_UUID_SIZE - 1], i) << "the driver's UUID";
    }
    // Count, then fill; too small an array is VK_INCOMPLETE.
    uint32_t two = 2;
    std::vector<VkGpaPerfEventPropertiesOPENGPA> some(2);
    EXPECT_EQ(gpa().EnumerateEvents(env().device, VK_GPA_PERF_BLOCK_KHR_PERFORMANCE_QUERY_OPENGPA, &two, some.data()), VK_INCOMPLETE);
    EXPECT_EQ(two, 2u);
    EXPECT_STREQ(some[1].name, "Dispatch commands");
}

TEST_F(KhrCounters, OtherBlocksAreDescribedToo) {
    const auto ia = Events(VK_GPA_PERF_BLOCK_IA_AMD);
    if (ia.empty()) GTEST_SKIP() << "no pipeline statistics on this device";
    ASSERT_EQ(ia.size(), 2u);
    EXPECT_STREQ(ia[0].name, "IA.vertices");
    EXPECT_STREQ(ia[1].name, "IA.primitives");
    EXPECT_EQ(ia[0].storage, VK_PERFORMANCE_COUNTER_STORAGE_UINT64_KHR);
    const auto db = Events(VK_GPA_PERF_BLOCK_DB_AMD);
    ASSERT_EQ(db.size(), 1u);
    EXPECT_STREQ(db[0].name, "DB.samples_passed");
    uint32_t count = 0;
    EXPECT_EQ(gpa().EnumerateEvents(env().device, VK_GPA_PERF_BLOCK_SQ_AMD, &count, nullptr), VK_ERROR_FEATURE_NOT_PRESENT);
}

TEST_F(KhrCounters, KnownAnswersInEveryStorageType) {
    const auto values = Measure({Khr(kDrawCommands), Khr(kDispatchCommands), Khr(kVerticesDrawn), Khr(kInstancesDrawn),
                                 Khr(kWorkgroups), Khr(kVerticesPerDraw)},
                                false, [&](VkCommandBuffer cb) { RecordKnownWork(work(), cb); });
    EXPECT_EQ(values[0], 2u) << "uint64: draw commands";
    EXPECT_EQ(values[1], 2u) << "uint32 widened: dispatch commands";
    EXPECT_EQ(AsInt64(values[2]), 30 + 24) << "int64: vertices (10 triangles, then 6 vertices x 4 instances)";
    EXPECT_EQ(AsInt64(values[3]), 1 + 4) << "int32 widened: instances";
    EXPECT_EQ(AsDouble(values[4]), 7.0) << "float64 as the bits of a double: workgroups (3 x 2 x 1 + 1)";
    EXPECT_EQ(AsDouble(values[5]), 27.0) << "float32 widened to a double: vertices per draw (54 / 2)";
}

TEST_F(KhrCounters, NDrawsCountN) {
    for (uint32_t draws : {1u, 5u, 40u}) {
        const auto values = Measure({Khr(kDrawCommands), Khr(kVerticesDrawn)}, true, [&](VkCommandBuffer cb) {
            for (uint32_t i = 0; i < draws; ++i) work().DrawTriangles(cb, 2);
        });
        EXPECT_EQ(values[0], draws);
        EXPECT_EQ(AsInt64(values[1]), 6 * static_cast<int64_t>(draws));
    }
}

TEST_F(KhrCounters, FractionalFloatValue) {
    const auto values = Measure({Khr(kVerticesPerDraw)}, true, [&](VkCommandBuffer cb) {
        work().DrawTriangles(cb, 1);  // 3 vertices
        work().DrawTriangles(cb, 2);  // 6 vertices
    });
    EXPECT_EQ(AsDouble(values[0]), 4.5);
}

TEST_F(KhrCounters, MixedWithQueriesInRequestedOrderRepeatsAllowed) {
    constexpr uint32_t kTriangles = 12;
    const auto values = Measure({kIAPrimitives, Khr(kDrawCommands), kSamplesPassed, Khr(kVerticesDrawn), Khr(kDrawCommands)}, true,
                                [&](VkCommandBuffer cb) {
                                    work().DrawTriangles(cb, kTriangles);
                                    work().DrawFullscreen(cb);
                                });
    EXPECT_EQ(values[0], kTriangles + 1) << "IA primitives";
    EXPECT_EQ(values[1], 2u) << "draw commands";
    EXPECT_EQ(values[2], uint64_t{kWidth} * kHeight) << "occlusion";
    EXPECT_EQ(AsInt64(values[3]), 3 * kTriangles + 3);
    EXPECT_EQ(values[4], 2u) << "asked for twice";
}

TEST_F(KhrCounters, SamplesOfOneSetShareACommandBufferOthersAreRefused) {
    VkGpaSessionAMD session = NewSession();
    const std::vector<VkGpaPerfCounterAMD> draws = {Khr(kDrawCommands)}, dispatches = {Khr(kDispatchCommands)};
    const VkGpaSampleBeginInfoAMD drawInfo = CumulativeSample(draws), dispatchInfo = CumulativeSample(dispatches);
    VkCommandBuffer cb = env().Begin();
    ASSERT_EQ(gpa().CmdBeginGpaSession(cb, session), VK_SUCCESS);
    uint32_t first = UINT32_MAX, second = UINT32_MAX, other = UINT32_MAX;
    ASSERT_EQ(gpa().CmdBeginGpaSample(cb, session, &drawInfo, &first), VK_SUCCESS) << LastMessage();
    EXPECT_EQ(gpa().CmdBeginGpaSample(cb, session, &drawInfo, &other), VK_ERROR_VALIDATION_FAILED_EXT) << "one active query per type";
    work().BeginRenderPass(cb);
    work().DrawTriangles(cb, 1);
    work().EndRenderPass(cb);
    gpa().CmdEndGpaSample(cb, session, first);
    ASSERT_EQ(gpa().CmdBeginGpaSample(cb, session, &drawInfo, &second), VK_SUCCESS) << LastMessage();
    work().BeginRenderPass(cb);
    work().DrawTriangles(cb, 1);
    work().DrawTriangles(cb, 1);
    work().EndRenderPass(cb);
    gpa().CmdEndGpaSample(cb, session, second);
    // Another set would need another query pool, which the fixture's driver does not allow in one command buffer.
    EXPECT_EQ(gpa().CmdBeginGpaSample(cb, session, &dispatchInfo, &other), VK_ERROR_FEATURE_NOT_PRESENT);
    EXPECT_NE(LastMessage().find("performanceCounterMultipleQueryPools"), std::string::npos) << LastMessage();
    ASSERT_EQ(gpa().CmdEndGpaSession(cb, session), VK_SUCCESS);
    env().SubmitAndWait(cb);
    ASSERT_EQ(gpa().GetGpaSessionStatus(env().device, session), VK_SUCCESS) << LastMessage();
    EXPECT_EQ(Results(session, first), std::vector<uint64_t>{1});
    EXPECT_EQ(Results(session, second), std::vector<uint64_t>{2});
}

TEST_F(KhrCounters, SessionsCanBeResetAndRecordedAgain) {
    VkGpaSessionAMD session = NewSession();
    const std::vector<VkGpaPerfCounterAMD> counters = {Khr(kDrawCommands)};
    const VkGpaSampleBeginInfoAMD info = CumulativeSample(counters);
    for (uint32_t draws : {3u, 1u}) {
        VkCommandBuffer cb = env().Begin();
        ASSERT_EQ(gpa().CmdBeginGpaSession(cb, session), VK_SUCCESS);
        work().BeginRenderPass(cb);
        uint32_t sample = UINT32_MAX;
        ASSERT_EQ(gpa().CmdBeginGpaSample(cb, session, &info, &sample), VK_SUCCESS) << LastMessage();
        for (uint32_t i = 0; i < draws; ++i) work().DrawTriangles(cb, 1);
        gpa().CmdEndGpaSample(cb, session, sample);
        work().EndRenderPass(cb);
        ASSERT_EQ(gpa().CmdEndGpaSession(cb, session), VK_SUCCESS);
        env().SubmitAndWait(cb);
        ASSERT_EQ(gpa().GetGpaSessionStatus(env().device, session), VK_SUCCESS) << LastMessage();
        EXPECT_EQ(Results(session, sample), std::vector<uint64_t>{draws});
        ASSERT_EQ(gpa().ResetGpaSession(env().device, session), VK_SUCCESS);
    }
}

TEST_F(KhrCounters, EventsBeyondTheBlockAreRefused) {
    ExpectRefused({Khr(kFixtureEvents)}, VK_ERROR_VALIDATION_FAILED_EXT, "maxEventID");
    ExpectRefused({{VK_GPA_PERF_BLOCK_KHR_PERFORMANCE_QUERY_OPENGPA, 1, kDrawCommands}}, VK_ERROR_VALIDATION_FAILED_EXT, "blockInstance");
}

TEST_F(KhrCounters, CopyTargetsOfTheirSamplesAreRefused) {
    VkGpaSessionAMD source = NewSession();
    const std::vector<VkGpaPerfCounterAMD> counters = {Khr(kDrawCommands)};
    const VkGpaSampleBeginInfoAMD info = CumulativeSample(counters);
    VkCommandBuffer cb = env().Begin();
    ASSERT_EQ(gpa().CmdBeginGpaSession(cb, source), VK_SUCCESS);
    uint32_t sample = UINT32_MAX;
    ASSERT_EQ(gpa().CmdBeginGpaSample(cb, source, &info, &sample), VK_SUCCESS) << LastMessage();
    gpa().CmdEndGpaSample(cb, source, sample);
    ASSERT_EQ(gpa().CmdEndGpaSession(cb, source), VK_SUCCESS);
    env().SubmitAndWait(cb);
    VkGpaSessionCreateInfoAMD copy{};
    copy.sType = VK_STRUCTURE_TYPE_GPA_SESSION_CREATE_INFO_AMD;
    copy.secondaryCopySource = source;
    VkGpaSessionAMD target = VK_NULL_HANDLE;
    EXPECT_EQ(gpa().CreateGpaSession(env().device, &copy, nullptr, &target), VK_ERROR_FEATURE_NOT_PRESENT);
    EXPECT_NE(LastMessage().find("VUID-vkCmdResetQueryPool-firstQuery-02862"), std::string::npos) << LastMessage();
}

TEST_F(KhrCounters, PassCountOfASet) {
    const std::vector<VkGpaPerfCounterAMD> counters = {Khr(kDrawCommands), kIAVertices, Khr(kWorkgroups)};
    uint32_t passes = 0;
    ASSERT_EQ(gpa().GetPassCount(env().device, env().queueFamily, 3, counters.data(), &passes), VK_SUCCESS) << LastMessage();
    EXPECT_EQ(passes, 1u);
    const VkGpaPerfCounterAMD beyond = Khr(kFixtureEvents);
    EXPECT_EQ(gpa().GetPassCount(env().device, env().queueFamily, 1, &beyond, &passes), VK_ERROR_VALIDATION_FAILED_EXT);
}

// OPENGPA_TEST_FIXTURE_PERF_QUERY_COUNTERS_PER_PASS=2: three counters need two passes.
class KhrMultiPass : public KhrCounters {
protected:
    void SetUp() override { OpenWithFixture(); }
    ScopedVariable twoPerPass_{"OPENGPA_TEST_FIXTURE_PERF_QUERY_COUNTERS_PER_PASS", "2"};
};

TEST_F(KhrMultiPass, SetsOfMoreThanOnePassAreRefusedSmallerOnesCounted) {
    const auto blocks = Blocks(env());
    ASSERT_NE(KhrBlock(blocks), nullptr);
    EXPECT_EQ(KhrBlock(blocks)->maxGlobalSharedCounters, 1u) << "not all of them at once: only one is sure to fit";
    const std::vector<VkGpaPerfCounterAMD> three = {Khr(kDrawCommands), Khr(kVerticesDrawn), Khr(kInstancesDrawn)};
    uint32_t passes = 0;
    ASSERT_EQ(gpa().GetPassCount(env().device, env().queueFamily, 3, three.data(), &passes), VK_SUCCESS);
    EXPECT_EQ(passes, 2u);
    ExpectRefused(three, VK_ERROR_FEATURE_NOT_PRESENT, "need 2 passes");
    const auto values = Measure({Khr(kDrawCommands), Khr(kVerticesDrawn), Khr(kDrawCommands)}, true,
                                [&](VkCommandBuffer cb) { work().DrawTriangles(cb, 4); });
    EXPECT_EQ(values[0], 1u) << "two distinct counters: one pass";
    EXPECT_EQ(AsInt64(values[1]), 12);
    EXPECT_EQ(values[2], 1u);
}

// OPENGPA_TEST_FIXTURE_PERF_QUERY_LOCK=fail: the profiling lock cannot be acquired at vkCreateDevice.
class KhrLockRefused : public KhrCounters {
protected:
    void SetUp() override {
        ScopedVariable refuse("OPENGPA_TEST_FIXTURE_PERF_QUERY_LOCK", "fail");
        OpenWithFixture();
    }
};

TEST_F(KhrLockRefused, SamplesAreRefusedUntilTheLockIsAcquired) {
    bool warned = false;
    for (const std::string& message : env().LayerMessages()) warned |= message.find("vkAcquireProfilingLockKHR failed") != std::string::npos;
    EXPECT_TRUE(warned) << "vkCreateDevice reports the lock it could not take";

    {
        // Still refused: the layer's retry at vkCreateGpaSessionAMD fails too.
        ScopedVariable stillRefused("OPENGPA_TEST_FIXTURE_PERF_QUERY_LOCK", "fail");
        ExpectRefused({Khr(kDrawCommands)}, VK_ERROR_NOT_PERMITTED_KHR, "profiling lock");
        EXPECT_NE(LastMessage().find("VK_TIMEOUT"), std::string::npos) << LastMessage();
        // The other blocks do not need the lock.
        const auto statistics = Measure({kIAPrimitives}, true, [&](VkCommandBuffer cb) { work().DrawTriangles(cb, 3); });
        EXPECT_EQ(statistics[0], 3u);
    }
    // Once the lock comes free, the next session takes it, and command buffers begun after that can sample.
    const auto values = Measure({Khr(kDrawCommands)}, true, [&](VkCommandBuffer cb) { work().DrawTriangles(cb, 3); });
    EXPECT_EQ(values[0], 1u);
}

// The same options twice in one process: a second instance and device with the fixture, as
// EnabledOnlyOnDevicesThatEnableTheGpaExtension and TheApplicationsFeatureStructureIsGivenBack make with
// other options. (On the GPU machine all three crashed until its script kept libstdc++.so.6 loaded: the
// validation layer reloaded it there, docs/vulkan_backend.md.)
TEST_F(KhrCounters, ANewDeviceAfterOneThatSampledSamplesAgain) {
    EXPECT_EQ(Measure({Khr(kDrawCommands)}, true, [&](VkCommandBuffer cb) { work().DrawTriangles(cb, 3); })[0], 1u);
    TearDown();
    OpenWithFixture();
    if (env_ == nullptr) return;
    EXPECT_EQ(Measure({Khr(kDrawCommands)}, true, [&](VkCommandBuffer cb) {
                  work().DrawTriangles(cb, 3);
                  work().DrawTriangles(cb, 3);
              })[0],
              2u);
}

TEST_F(KhrCounters, EnabledOnlyOnDevicesThatEnableTheGpaExtension) {
    // With VK_AMD_gpa_interface the layer enables the fixture's extension below itself ...
    EXPECT_NE(vkGetDeviceProcAddr(env().device, "vkAcquireProfilingLockKHR"), nullptr);
    TearDown();
    // ... without it the device is created as the application asked, without VK_KHR_performance_query.
    OpenWithFixture(false);
    if (env_ == nullptr) return;
    EXPECT_EQ(vkGetDeviceProcAddr(env().device, "vkAcquireProfilingLockKHR"), nullptr);
}

TEST_F(KhrCounters, TheApplicationsFeatureStructureIsGivenBack) {
    TearDown();
    VkPhysicalDevicePerformanceQueryFeaturesKHR features{};
    features.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PERFORMANCE_QUERY_FEATURES_KHR;
    EnvOptions options;
    options.performanceQueryFixture = true;
    options.deviceCreatePNext = &features;
    Open(options);
    if (env_ == nullptr) return;
    EXPECT_EQ(features.performanceCounterQueryPools, VK_FALSE) << "switched on for the call only";
    EXPECT_EQ(features.pNext, nullptr);
    const auto values = Measure({Khr(kDrawCommands)}, true, [&](VkCommandBuffer cb) { work().DrawTriangles(cb, 1); });
    EXPECT_EQ(values[0], 1u);
}

}  // namespace
}  // namespace ogpa::vktest
