// Timing samples: two raw device timestamps (begin, end), in the ticks of
// VkPhysicalDeviceLimits::timestampPeriod; the difference grows with the work.
#include "layer_test_fixture.h"

namespace ogpa::vktest {
namespace {

class TimingSamples : public LayerTest {
protected:
    // Nanoseconds of one timing sample around a dispatch of x workgroups of `iterations` loop steps.
    double DispatchNanoseconds(uint32_t x, uint32_t iterations) {
        VkGpaSessionAMD session = NewSession();
        const VkGpaSampleBeginInfoAMD info = TimingSample();
        VkCommandBuffer cb = env().Begin();
        EXPECT_EQ(gpa().CmdBeginGpaSession(cb, session), VK_SUCCESS);
        uint32_t sample = 0;
        EXPECT_EQ(gpa().CmdBeginGpaSample(cb, session, &info, &sample), VK_SUCCESS) << LastMessage();
        work().Dispatch(cb, x, 1, 1, iterations);
        gpa().CmdEndGpaSample(cb, session, sample);
        EXPECT_EQ(gpa().CmdEndGpaSession(cb, session), VK_SUCCESS);
        env().SubmitAndWait(cb);
        const auto values = Results(session, sample);
        if (values.size() != 2) return -1;
        EXPECT_LT(values[0], values[1]);
        return static_cast<double>(values[1] - values[0]) * env().properties.limits.timestampPeriod;
    }
};

TEST_F(TimingSamples, TwoTimestampsAroundTheWork) {
    const double nanoseconds = DispatchNanoseconds(4, 100);
    EXPECT_GT(nanoseconds, 0.0);
    EXPECT_LT(nanoseconds, 10e9) << "a small dispatch takes less than 10 s";
}

TEST_F(TimingSamples, DurationGrowsWithTheWork) {
    DispatchNanoseconds(1, 1);  // first use of the pipeline (a CPU driver compiles it lazily)
    const double small = DispatchNanoseconds(1, 10);
    const double large = DispatchNanoseconds(256, 20000);
    EXPECT_GT(large, small * 4) << "small " << small << " ns, large " << large << " ns";
}

TEST_F(TimingSamples, NestedSamplesAreOrdered) {
    VkGpaSessionAMD session = NewSession();
    const VkGpaSampleBeginInfoAMD info = TimingSample();
    VkCommandBuffer cb = env().Begin();
    ASSERT_EQ(gpa().CmdBeginGpaSession(cb, session), VK_SUCCESS);
    uint32_t outer = 0, inner = 0;
    ASSERT_EQ(gpa().CmdBeginGpaSample(cb, session, &info, &outer), VK_SUCCESS);
    work().Dispatch(cb, 8, 1, 1, 1000);
    ASSERT_EQ(gpa().CmdBeginGpaSample(cb, session, &info, &inner), VK_SUCCESS);
    work().Dispatch(cb, 8, 1, 1, 1000);
    gpa().CmdEndGpaSample(cb, session, inner);
    work().Dispatch(cb, 8, 1, 1, 1000);
    gpa().CmdEndGpaSample(cb, session, outer);
    ASSERT_EQ(gpa().CmdEndGpaSession(cb, session), VK_SUCCESS);
    env().SubmitAndWait(cb);
    const auto o = Results(session, outer), i = Results(session, inner);
    ASSERT_EQ(o.size(), 2u);
    ASSERT_EQ(i.size(), 2u);
    EXPECT_LE(o[0], i[0]);
    EXPECT_LT(i[0], i[1]);
    EXPECT_LE(i[1], o[1]);
}

TEST_F(TimingSamples, SampleMaySpanCommandBuffersAndTheSessionToo) {
    VkGpaSessionAMD session = NewSession();
    const VkGpaSampleBeginInfoAMD info = TimingSample();
    VkCommandBuffer first = env().Begin();
    ASSERT_EQ(gpa().CmdBeginGpaSession(first, session), VK_SUCCESS);
    uint32_t sample = 0;
    ASSERT_EQ(gpa().CmdBeginGpaSample(first, session, &info, &sample), VK_SUCCESS);
    work().Dispatch(first, 8, 1, 1, 1000);
    env().Submit(first);
    VkCommandBuffer second = env().Begin();
    work().Dispatch(second, 8, 1, 1, 1000);
    gpa().CmdEndGpaSample(second, session, sample);
    ASSERT_EQ(gpa().CmdEndGpaSession(second, session), VK_SUCCESS);
    env().Submit(second);
    env().WaitIdle();
    ASSERT_EQ(gpa().GetGpaSessionStatus(env().device, session), VK_SUCCESS);
    const auto values = Results(session, sample);
    ASSERT_EQ(values.size(), 2u);
    EXPECT_LT(values[0], values[1]);
}

TEST_F(TimingSamples, AnyStagesAreAccepted) {
    // The latest stage of each mask is where the timestamp is written; an empty mask means top / bottom.
    for (auto [pre, post] : {std::pair<VkPipelineStageFlags, VkPipelineStageFlags>{0, 0},
                             {VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT},
                             {VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
                              VK_PIPELINE_STAGE_ALL_COMMANDS_BIT}}) {
        VkGpaSessionAMD session = NewSession();
        const VkGpaSampleBeginInfoAMD info = TimingSample(pre, post);
        VkCommandBuffer cb = env().Begin();
        ASSERT_EQ(gpa().CmdBeginGpaSession(cb, session), VK_SUCCESS);
        uint32_t sample = 0;
        ASSERT_EQ(gpa().CmdBeginGpaSample(cb, session, &info, &sample), VK_SUCCESS);
        work().Dispatch(cb, 2, 1, 1, 100);
        gpa().CmdEndGpaSample(cb, session, sample);
        ASSERT_EQ(gpa().CmdEndGpaSession(cb, session), VK_SUCCESS);
        env().SubmitAndWait(cb);
        const auto values = Results(session, sample);
        ASSERT_EQ(values.size(), 2u);
        EXPECT_LE(values[0], values[1]);
    }
}

TEST_F(TimingSamples, InsideARenderPass) {
    VkGpaSessionAMD session = NewSession();
    const VkGpaSampleBeginInfoAMD info = TimingSample();
    VkCommandBuffer cb = env().Begin();
    ASSERT_EQ(gpa().CmdBeginGpaSession(cb, session), VK_SUCCESS);
    work().BeginRenderPass(cb);
    uint32_t sample = 0;
    ASSERT_EQ(gpa().CmdBeginGpaSample(cb, session, &info, &sample), VK_SUCCESS);
    work().DrawTriangles(cb, 500);
    gpa().CmdEndGpaSample(cb, session, sample);
    work().EndRenderPass(cb);
    ASSERT_EQ(gpa().CmdEndGpaSession(cb, session), VK_SUCCESS);
    env().SubmitAndWait(cb);
    const auto values = Results(session, sample);
    ASSERT_EQ(values.size(), 2u);
    EXPECT_LE(values[0], values[1]);
}

}  // namespace
}  // namespace ogpa::vktest
