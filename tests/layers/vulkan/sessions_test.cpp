// Sessions: several in flight at once, status before and after the work ran, reset and reuse, many samples,
// the results' size convention, and secondary command buffers executed several times with their results
// copied into sessions created with secondaryCopySource (the seed's section 4.2).
#include "layer_test_fixture.h"

namespace ogpa::vktest {
namespace {

class Sessions : public LayerTest {
protected:
    // Records one cumulative IA-primitives sample of `triangles` triangles into a new primary command buffer.
    VkCommandBuffer RecordTriangles(VkGpaSessionAMD session, uint32_t triangles, uint32_t* sample) {
        static const std::vector<VkGpaPerfCounterAMD> counters = {kIAPrimitives};
        const VkGpaSampleBeginInfoAMD info = CumulativeSample(counters);
        VkCommandBuffer cb = env().Begin();
        EXPECT_EQ(gpa().CmdBeginGpaSession(cb, session), VK_SUCCESS) << LastMessage();
        work().BeginRenderPass(cb);
        EXPECT_EQ(gpa().CmdBeginGpaSample(cb, session, &info, sample), VK_SUCCESS) << LastMessage();
        work().DrawTriangles(cb, triangles);
        gpa().CmdEndGpaSample(cb, session, *sample);
        work().EndRenderPass(cb);
        EXPECT_EQ(gpa().CmdEndGpaSession(cb, session), VK_SUCCESS) << LastMessage();
        return cb;
    }
};

TEST_F(Sessions, StatusIsNotReadyUntilTheWorkRan) {
    VkGpaSessionAMD session = NewSession();
    uint32_t sample = 0;
    VkCommandBuffer cb = RecordTriangles(session, 3, &sample);
    EXPECT_EQ(gpa().GetGpaSessionStatus(env().device, session), VK_NOT_READY) << "recorded, not submitted";
    std::vector<uint64_t> values(1);
    size_t size = sizeof(uint64_t);
    EXPECT_EQ(gpa().GetGpaSessionResults(env().device, session, sample, &size, values.data()), VK_NOT_READY);
    env().SubmitAndWait(cb);
    EXPECT_EQ(gpa().GetGpaSessionStatus(env().device, session), VK_SUCCESS);
    EXPECT_EQ(Results(session, sample), std::vector<uint64_t>{3});
}

// A device that sampled is destroyed with its instance, and a new instance and device in the same process
// sample again (the layer's state of the first must not reach the second).
TEST_F(Sessions, ANewDeviceAfterOneThatSampledSamplesAgain) {
    for (uint32_t triangles : {3u, 5u}) {
        VkGpaSessionAMD session = NewSession();
        uint32_t sample = 0;
        VkCommandBuffer cb = RecordTriangles(session, triangles, &sample);
        env().SubmitAndWait(cb);
        EXPECT_EQ(Results(session, sample), std::vector<uint64_t>{triangles});
        if (triangles == 5u) break;
        TearDown();
        Open(EnvOptions{});
        if (env_ == nullptr) return;
    }
}

TEST_F(Sessions, SeveralSessionsInFlight) {
    constexpr uint32_t kSessions = 5;
    std::vector<VkGpaSessionAMD> sessions;
    std::vector<uint32_t> samples(kSessions);
    for (uint32_t i = 0; i < kSessions; ++i) {
        sessions.push_back(NewSession());
        env().Submit(RecordTriangles(sessions[i], 10 * (i + 1), &samples[i]));
    }
    env().WaitIdle();
    for (uint32_t i = kSessions; i-- > 0;) {  // read newest first: sessions are independent
        EXPECT_EQ(gpa().GetGpaSessionStatus(env().device, sessions[i]), VK_SUCCESS);
        EXPECT_EQ(Results(sessions[i], samples[i]), std::vector<uint64_t>{10u * (i + 1)});
    }
}

TEST_F(Sessions, ResetSessionIsReused) {
    VkGpaSessionAMD session = NewSession();
    for (uint32_t round = 1; round <= 3; ++round) {
        uint32_t sample = 99;
        env().SubmitAndWait(RecordTriangles(session, round * 7, &sample));
        EXPECT_EQ(sample, 0u) << "sample ids start again after a reset";
        EXPECT_EQ(Results(session, sample), std::vector<uint64_t>{round * 7});
        ASSERT_EQ(gpa().ResetGpaSession(env().device, session), VK_SUCCESS);
        EXPECT_EQ(gpa().GetGpaSessionStatus(env().device, session), VK_ERROR_VALIDATION_FAILED_EXT)
            << "a reset session has no results until it is ended again";
    }
}

TEST_F(Sessions, ManySamplesInOneSession) {
    // More samples than the first query pool holds: the session adds pools as it goes.
    constexpr uint32_t kSamples = 150;
    VkGpaSessionAMD session = NewSession();
    const std::vector<VkGpaPerfCounterAMD> counters = {kIAVertices};
    const VkGpaSampleBeginInfoAMD cumulative = CumulativeSample(counters);
    const VkGpaSampleBeginInfoAMD timing = TimingSample();
    VkCommandBuffer cb = env().Begin();
    ASSERT_EQ(gpa().CmdBeginGpaSession(cb, session), VK_SUCCESS);
    work().BeginRenderPass(cb);
    std::vector<uint32_t> ids;
    for (uint32_t i = 0; i < kSamples; ++i) {
        uint32_t timed = 0, counted = 0;
        ASSERT_EQ(gpa().CmdBeginGpaSample(cb, session, &timing, &timed), VK_SUCCESS);
        ASSERT_EQ(gpa().CmdBeginGpaSample(cb, session, &cumulative, &counted), VK_SUCCESS);
        work().DrawTriangles(cb, i + 1);
        gpa().CmdEndGpaSample(cb, session, counted);
        gpa().CmdEndGpaSample(cb, session, timed);
        ids.push_back(counted);
    }
    work().EndRenderPass(cb);
    ASSERT_EQ(gpa().CmdEndGpaSession(cb, session), VK_SUCCESS);
    env().SubmitAndWait(cb);
    for (uint32_t i = 0; i < kSamples; ++i) EXPECT_EQ(Results(session, ids[i]), std::vector<uint64_t>{3u * (i + 1)});
}

TEST_F(Sessions, ResultSizeConvention) {
    VkGpaSessionAMD session = NewSession();
    const std::vector<VkGpaPerfCounterAMD> counters = {kIAPrimitives, kIAVertices, kSamplesPassed};
    const VkGpaSampleBeginInfoAMD cumulative = CumulativeSample(counters);
    const VkGpaSampleBeginInfoAMD timing = TimingSample();
    VkCommandBuffer cb = env().Begin();
    ASSERT_EQ(gpa().CmdBeginGpaSession(cb, session), VK_SUCCESS);
    work().BeginRenderPass(cb);
    uint32_t counted = 0, timed = 0;
    ASSERT_EQ(gpa().CmdBeginGpaSample(cb, session, &cumulative, &counted), VK_SUCCESS);
    ASSERT_EQ(gpa().CmdBeginGpaSample(cb, session, &timing, &timed), VK_SUCCESS);
    work().DrawTriangles(cb, 2);
    gpa().CmdEndGpaSample(cb, session, timed);
    gpa().CmdEndGpaSample(cb, session, counted);
    work().EndRenderPass(cb);
    ASSERT_EQ(gpa().CmdEndGpaSession(cb, session), VK_SUCCESS);
    env().SubmitAndWait(cb);

    size_t size = 0;
    ASSERT_EQ(gpa().GetGpaSessionResults(env().device, session, counted, &size, nullptr), VK_SUCCESS);
    EXPECT_EQ(size, 3 * sizeof(uint64_t)) << "one 64-bit value per counter";
    ASSERT_EQ(gpa().GetGpaSessionResults(env().device, session, timed, &size, nullptr), VK_SUCCESS);
    EXPECT_EQ(size, 2 * sizeof(uint64_t)) << "two 64-bit timestamps";

    uint64_t values[3] = {7, 7, 7};
    size = 2 * sizeof(uint64_t);  // too small for the cumulative sample: nothing is written
    EXPECT_EQ(gpa().GetGpaSessionResults(env().device, session, counted, &size, values), VK_INCOMPLETE);
    EXPECT_EQ(values[0], 7u);
    EXPECT_EQ(size, 0u);
    EXPECT_NE(std::string(LastMessage()).find("nothing was written"), std::string::npos) << LastMessage();
    size = 64;  // larger than needed: the needed size is written back
    ASSERT_EQ(gpa().GetGpaSessionResults(env().device, session, counted, &size, values), VK_SUCCESS);
    EXPECT_EQ(size, 3 * sizeof(uint64_t));
    EXPECT_EQ(values[0], 2u);
    EXPECT_EQ(values[1], 6u);
}

TEST_F(Sessions, SecondaryCommandBufferExecutedThreeTimesWithCopies) {
    // The seed's section 4.2: a secondary command buffer samples into `secondary`; after each of the first
    // two executions the results are copied into copy1 and copy2; the third stays in `secondary`.
    VkGpaSessionAMD secondary = NewSession();
    const std::vector<VkGpaPerfCounterAMD> counters = {kIAPrimitives, kIAVertices};
    const VkGpaSampleBeginInfoAMD cumulative = CumulativeSample(counters);
    const VkGpaSampleBeginInfoAMD timing = TimingSample();
    VkCommandBuffer inner = work().BeginSecondary();
    ASSERT_EQ(gpa().CmdBeginGpaSession(inner, secondary), VK_SUCCESS);
    uint32_t counted = 0, timed = 0;
    ASSERT_EQ(gpa().CmdBeginGpaSample(inner, secondary, &timing, &timed), VK_SUCCESS) << LastMessage();
    ASSERT_EQ(gpa().CmdBeginGpaSample(inner, secondary, &cumulative, &counted), VK_SUCCESS) << LastMessage();
    work().DrawTriangles(inner, 12);
    gpa().CmdEndGpaSample(inner, secondary, counted);
    gpa().CmdEndGpaSample(inner, secondary, timed);
    ASSERT_EQ(gpa().CmdEndGpaSession(inner, secondary), VK_SUCCESS);
    ASSERT_EQ(vkEndCommandBuffer(inner), VK_SUCCESS);

    VkGpaSessionAMD copy1 = NewSession(secondary);
    VkGpaSessionAMD copy2 = NewSession(secondary);
    ASSERT_NE(copy1, VK_NULL_HANDLE);
    VkCommandBuffer primary = env().Begin();
    for (VkGpaSessionAMD copy : {copy1, copy2, VkGpaSessionAMD{VK_NULL_HANDLE}}) {
        work().BeginRenderPass(primary, VK_SUBPASS_CONTENTS_SECONDARY_COMMAND_BUFFERS);
        vkCmdExecuteCommands(primary, 1, &inner);
        work().EndRenderPass(primary);
        if (copy != VK_NULL_HANDLE) gpa().CmdCopyGpaSessionResults(primary, copy);
    }
    EXPECT_TRUE(env().LayerMessages().empty()) << Joined(env().LayerMessages());
    env().SubmitAndWait(primary);

    std::vector<std::vector<uint64_t>> times;
    for (VkGpaSessionAMD session : {copy1, copy2, secondary}) {
        EXPECT_EQ(gpa().GetGpaSessionStatus(env().device, session), VK_SUCCESS) << LastMessage();
        EXPECT_EQ(Results(session, counted), (std::vector<uint64_t>{12, 36}));
        times.push_back(Results(session, timed));
        ASSERT_EQ(times.back().size(), 2u);
        EXPECT_LE(times.back()[0], times.back()[1]);
    }
    EXPECT_LE(times[0][1], times[1][0]) << "the first execution ran before the second";
    EXPECT_LE(times[1][1], times[2][0]) << "the second execution ran before the third";

    // A reset copy target forgets what it received.
    ASSERT_EQ(gpa().ResetGpaSession(env().device, copy1), VK_SUCCESS);
    EXPECT_EQ(gpa().GetGpaSessionStatus(env().device, copy1), VK_ERROR_VALIDATION_FAILED_EXT);
    vkFreeCommandBuffers(env().device, env().pool, 1, &inner);
}

}  // namespace
}  // namespace ogpa::vktest
