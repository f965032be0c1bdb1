// Cumulative samples give known answers: N triangles are N primitives of 3 vertices each, a viewport-filling
// triangle shades W x H pixels and passes W x H samples, a dispatch of X x Y x Z workgroups of 64 runs
// 64 X Y Z compute invocations. Results come one per requested counter, in the requested order.
#include "layer_test_fixture.h"

namespace ogpa::vktest {
namespace {

class CumulativeSamples : public LayerTest {
protected:
    // One session, one cumulative sample around `record`; returns the sample's results.
    template <typename Record>
    std::vector<uint64_t> Measure(const std::vector<VkGpaPerfCounterAMD>& counters, bool insideRenderPass, Record&& record) {
        VkGpaSessionAMD session = NewSession();
        const VkGpaSampleBeginInfoAMD info = CumulativeSample(counters);
        VkCommandBuffer commandBuffer = env().Begin();
        EXPECT_EQ(gpa().CmdBeginGpaSession(commandBuffer, session), VK_SUCCESS);
        if (insideRenderPass) work().BeginRenderPass(commandBuffer);
        uint32_t sample = UINT32_MAX;
        EXPECT_EQ(gpa().CmdBeginGpaSample(commandBuffer, session, &info, &sample), VK_SUCCESS) << LastMessage();
        record(commandBuffer);
        gpa().CmdEndGpaSample(commandBuffer, session, sample);
        if (insideRenderPass) work().EndRenderPass(commandBuffer);
        EXPECT_EQ(gpa().CmdEndGpaSession(commandBuffer, session), VK_SUCCESS);
        env().SubmitAndWait(commandBuffer);
        EXPECT_EQ(gpa().GetGpaSessionStatus(env().device, session), VK_SUCCESS) << LastMessage();
        std::vector<uint64_t> values = Results(session, sample);
        EXPECT_EQ(values.size(), counters.size());
        return values;
    }
};

TEST_F(CumulativeSamples, TrianglesGiveInputAssemblyVertexShaderAndClippingCounts) {
    constexpr uint32_t kTriangles = 100;
    const std::vector<VkGpaPerfCounterAMD> counters = {kIAVertices, kIAPrimitives, kVSInvocations, kCInvocations, kCPrimitives};
    const auto values = Measure(counters, true, [&](VkCommandBuffer cb) { work().DrawTriangles(cb, kTriangles); });
    ASSERT_EQ(values.size(), 5u);
    EXPECT_EQ(values[0], 3u * kTriangles) << "IA vertices";
    EXPECT_EQ(values[1], kTriangles) << "IA primitives";
    EXPECT_EQ(values[2], 3u * kTriangles) << "vertex shader invocations (a non-indexed draw shades every vertex)";
    EXPECT_EQ(values[3], kTriangles) << "primitives sent to the clipper";
    EXPECT_EQ(values[4], kTriangles) << "primitives out of the clipper (none of them is clipped)";
}

TEST_F(CumulativeSamples, CountsScaleWithTheDraw) {
    for (uint32_t triangles : {1u, 7u, 1000u}) {
        const auto values = Measure({kIAPrimitives}, true, [&](VkCommandBuffer cb) { work().DrawTriangles(cb, triangles); });
        ASSERT_EQ(values.size(), 1u);
        EXPECT_EQ(values[0], triangles);
    }
}

TEST_F(CumulativeSamples, FullscreenPassShadesAndPassesEveryPixel) {
    const auto values = Measure({kPSInvocations, kSamplesPassed}, true, [&](VkCommandBuffer cb) { work().DrawFullscreen(cb); });
    ASSERT_EQ(values.size(), 2u);
    const uint64_t pixels = uint64_t{kWidth} * kHeight;
    EXPECT_EQ(values[1], pixels) << "occlusion: samples that passed";
    if (IsLlvmpipe(env())) {
        // llvmpipe's statistic counts each 4 x 4 raster block its fragment shader ran on as 16 invocations,
        // once per bin it falls in (Mesa's lp_query.c), so it overcounts; the layer passes it on as it is.
        EXPECT_GE(values[0], pixels) << "fragment shader invocations";
        EXPECT_EQ(values[0] % 16, 0u) << "llvmpipe counts whole 4 x 4 blocks";
    } else {
        EXPECT_EQ(values[0], pixels) << "fragment shader invocations";
    }
}

TEST_F(CumulativeSamples, OcclusionAloneCountsSamples) {
    const auto values = Measure({kSamplesPassed}, true, [&](VkCommandBuffer cb) {
        work().DrawFullscreen(cb);
        work().DrawFullscreen(cb);
    });
    ASSERT_EQ(values.size(), 1u);
    EXPECT_EQ(values[0], 2ull * kWidth * kHeight);
}

TEST_F(CumulativeSamples, DispatchGivesComputeInvocations) {
    const auto values = Measure({kCSInvocations}, false, [&](VkCommandBuffer cb) { work().Dispatch(cb, 5, 3, 2, 1); });
    ASSERT_EQ(values.size(), 1u);
    EXPECT_EQ(values[0], 5u * 3u * 2u * kInvocationsPerWorkgroup);
}

TEST_F(CumulativeSamples, StagesThatDidNotRunCountZero) {
    const std::vector<VkGpaPerfCounterAMD> counters = {kGSInvocations, kGSPrimitives, kHSPatches, kDSInvocations, kCSInvocations};
    const auto values = Measure(counters, true, [&](VkCommandBuffer cb) { work().DrawTriangles(cb, 10); });
    ASSERT_EQ(values.size(), counters.size());
    for (size_t i = 0; i < values.size(); ++i) EXPECT_EQ(values[i], 0u) << "counter " << i;
}

TEST_F(CumulativeSamples, ResultsFollowTheRequestedOrderWithRepeats) {
    const std::vector<VkGpaPerfCounterAMD> counters = {kSamplesPassed, kIAPrimitives, kSamplesPassed, kIAVertices};
    const auto values = Measure(counters, true, [&](VkCommandBuffer cb) {
        work().DrawTriangles(cb, 4);
        work().DrawFullscreen(cb);
    });
    ASSERT_EQ(values.size(), 4u);
    EXPECT_EQ(values[1], 5u);  // 4 + 1 primitives
    EXPECT_EQ(values[3], 15u);
    EXPECT_EQ(values[0], values[2]);
    EXPECT_GE(values[0], uint64_t{kWidth} * kHeight);  // the fullscreen pass, plus the small triangles' pixels
}

TEST_F(CumulativeSamples, SampleOutsideARenderPassCoversWholeRenderPasses) {
    VkGpaSessionAMD session = NewSession();
    const std::vector<VkGpaPerfCounterAMD> counters = {kIAPrimitives, kCSInvocations};
    const VkGpaSampleBeginInfoAMD info = CumulativeSample(counters);
    VkCommandBuffer cb = env().Begin();
    ASSERT_EQ(gpa().CmdBeginGpaSession(cb, session), VK_SUCCESS);
    uint32_t sample = 0;
    ASSERT_EQ(gpa().CmdBeginGpaSample(cb, session, &info, &sample), VK_SUCCESS) << LastMessage();
    for (int pass = 0; pass < 2; ++pass) {
        work().BeginRenderPass(cb);
        work().DrawTriangles(cb, 3);
        work().EndRenderPass(cb);
    }
    work().Dispatch(cb, 2, 1, 1, 1);
    gpa().CmdEndGpaSample(cb, session, sample);
    ASSERT_EQ(gpa().CmdEndGpaSession(cb, session), VK_SUCCESS);
    env().SubmitAndWait(cb);
    const auto values = Results(session, sample);
    ASSERT_EQ(values.size(), 2u);
    EXPECT_EQ(values[0], 6u);
    EXPECT_EQ(values[1], 2u * kInvocationsPerWorkgroup);
}

TEST_F(CumulativeSamples, ConsecutiveSamplesCountTheirOwnWork) {
    VkGpaSessionAMD session = NewSession();
    const std::vector<VkGpaPerfCounterAMD> counters = {kIAPrimitives};
    const VkGpaSampleBeginInfoAMD info = CumulativeSample(counters);
    VkCommandBuffer cb = env().Begin();
    ASSERT_EQ(gpa().CmdBeginGpaSession(cb, session), VK_SUCCESS);
    work().BeginRenderPass(cb);
    std::vector<uint32_t> ids;
    for (uint32_t triangles : {2u, 20u, 200u}) {
        uint32_t id = 0;
        ASSERT_EQ(gpa().CmdBeginGpaSample(cb, session, &info, &id), VK_SUCCESS);
        work().DrawTriangles(cb, triangles);
        gpa().CmdEndGpaSample(cb, session, id);
        ids.push_back(id);
    }
    work().EndRenderPass(cb);
    ASSERT_EQ(gpa().CmdEndGpaSession(cb, session), VK_SUCCESS);
    env().SubmitAndWait(cb);
    EXPECT_EQ(ids, (std::vector<uint32_t>{0, 1, 2}));
    EXPECT_EQ(Results(session, ids[0]), std::vector<uint64_t>{2});
    EXPECT_EQ(Results(session, ids[1]), std::vector<uint64_t>{20});
    EXPECT_EQ(Results(session, ids[2]), std::vector<uint64_t>{200});
}

TEST_F(CumulativeSamples, CumulativeAndTimingSamplesOverlap) {
    VkGpaSessionAMD session = NewSession();
    const std::vector<VkGpaPerfCounterAMD> counters = {kCSInvocations};
    const VkGpaSampleBeginInfoAMD cumulative = CumulativeSample(counters);
    const VkGpaSampleBeginInfoAMD timing = TimingSample();
    VkCommandBuffer cb = env().Begin();
    ASSERT_EQ(gpa().CmdBeginGpaSession(cb, session), VK_SUCCESS);
    uint32_t a = 0, b = 0;
    ASSERT_EQ(gpa().CmdBeginGpaSample(cb, session, &cumulative, &a), VK_SUCCESS);
    ASSERT_EQ(gpa().CmdBeginGpaSample(cb, session, &timing, &b), VK_SUCCESS);
    work().Dispatch(cb, 4, 4, 1, 10);
    gpa().CmdEndGpaSample(cb, session, b);
    gpa().CmdEndGpaSample(cb, session, a);
    ASSERT_EQ(gpa().CmdEndGpaSession(cb, session), VK_SUCCESS);
    env().SubmitAndWait(cb);
    EXPECT_EQ(Results(session, a), std::vector<uint64_t>{16u * kInvocationsPerWorkgroup});
    const auto times = Results(session, b);
    ASSERT_EQ(times.size(), 2u);
    EXPECT_LT(times[0], times[1]);
}

}  // namespace
}  // namespace ogpa::vktest
