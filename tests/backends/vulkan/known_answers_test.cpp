// libGPUPerfAPIVK.so's counters give known answers, through the GPA C API as an application calls it:
// N triangles are N primitives and 3N shaded vertices, a pass covering W x H pixels shades and passes
// W x H samples, X x Y x Z workgroups of 64 are 64 XYZ compute invocations, and GPUTime grows with the work.
#include <cstdio>

#include "vulkan_backend_fixture.h"

namespace ogpa::vktest {
namespace {

using KnownAnswers = VulkanBackendTest;

TEST_F(KnownAnswers, TrianglesThroughTheGraphicsCounters) {
    for (const char* name : {"IAVertices", "IAPrimitives", "VSInvocations", "CInvocations", "CPrimitives", "GSInvocations",
                             "GSPrimitives", "HSInvocations", "DSInvocations"}) {
        ASSERT_GPA_OK(GPA_EnableCounterStr(name));
    }
    gpa_uint32 passes = 0;
    ASSERT_GPA_OK(GPA_GetPassCount(&passes));
    EXPECT_EQ(passes, 1u) << "pipeline statistics are counted together";
    const std::vector<uint32_t> triangles = {1, 30, 600};
    const gpa_uint32 session = RecordSession({0, 1, 2}, true, [&](VkCommandBuffer cb, gpa_uint32 sample) {
        work().DrawTriangles(cb, triangles[sample]);
    });
    for (gpa_uint32 sample = 0; sample < 3; ++sample) {
        const uint64_t n = triangles[sample];
        std::printf("[figure] %s: %llu triangles: IAVertices %llu IAPrimitives %llu VSInvocations %llu CInvocations %llu "
                    "CPrimitives %llu\n", env().properties.deviceName, static_cast<unsigned long long>(n),
                    static_cast<unsigned long long>(UInt64(session, sample, "IAVertices")),
                    static_cast<unsigned long long>(UInt64(session, sample, "IAPrimitives")),
                    static_cast<unsigned long long>(UInt64(session, sample, "VSInvocations")),
                    static_cast<unsigned long long>(UInt64(session, sample, "CInvocations")),
                    static_cast<unsigned long long>(UInt64(session, sample, "CPrimitives")));
        EXPECT_EQ(UInt64(session, sample, "IAPrimitives"), n);
        EXPECT_EQ(UInt64(session, sample, "IAVertices"), 3 * n);
        EXPECT_EQ(UInt64(session, sample, "VSInvocations"), 3 * n);
        EXPECT_EQ(UInt64(session, sample, "CInvocations"), n);
        EXPECT_EQ(UInt64(session, sample, "CPrimitives"), n);
        for (const char* idle : {"GSInvocations", "GSPrimitives", "HSInvocations", "DSInvocations"}) {
            EXPECT_EQ(UInt64(session, sample, idle), 0u) << idle << ": no such stage in the pipeline";
        }
    }
}

TEST_F(KnownAnswers, FullscreenPassThroughPSInvocationsAndOcclusion) {
    ASSERT_GPA_OK(GPA_EnableCounterStr("PSInvocations"));
    ASSERT_GPA_OK(GPA_EnableCounterStr("Occlusion"));
    const gpa_uint32 session = RecordSession({7}, true, [&](VkCommandBuffer cb, gpa_uint32) { work().DrawFullscreen(cb); });
    const uint64_t pixels = uint64_t{kWidth} * kHeight;
    EXPECT_EQ(UInt64(session, 7, "Occlusion"), pixels);
    const uint64_t shaded = UInt64(session, 7, "PSInvocations");
    std::printf("[figure] %s: %ux%u pass: PSInvocations %llu, Occlusion %llu\n", env().properties.deviceName, kWidth, kHeight,
                static_cast<unsigned long long>(shaded), static_cast<unsigned long long>(UInt64(session, 7, "Occlusion")));
    if (IsLlvmpipe(env())) {
        EXPECT_GE(shaded, pixels) << "llvmpipe counts whole 4 x 4 blocks (see the counter's description)";
    } else {
        EXPECT_EQ(shaded, pixels);
    }
}

// The incompressible full-screen pass that the GPU tests count DRAM writes of: the same fragments as the solid one.
TEST_F(KnownAnswers, NoiseFullscreenPassShadesEveryPixel) {
    ASSERT_GPA_OK(GPA_EnableCounterStr("Occlusion"));
    const gpa_uint32 session =
        RecordSession({3}, true, [&](VkCommandBuffer cb, gpa_uint32) { work().DrawFullscreenNoise(cb, 5); });
    EXPECT_EQ(UInt64(session, 3, "Occlusion"), uint64_t{kWidth} * kHeight);
}

TEST_F(KnownAnswers, DispatchThroughCSInvocations) {
    ASSERT_GPA_OK(GPA_EnableCounterStr("CSInvocations"));
    const gpa_uint32 session = RecordSession({0, 1}, false, [&](VkCommandBuffer cb, gpa_uint32 sample) {
        if (sample == 0) work().Dispatch(cb, 3, 2, 2, 1);
        else work().Dispatch(cb, 16, 8, 1, 1);
    });
    std::printf("[figure] %s: dispatches 3x2x2 and 16x8x1 workgroups of 64: CSInvocations %llu, %llu\n",
                env().properties.deviceName, static_cast<unsigned long long>(UInt64(session, 0, "CSInvocations")),
                static_cast<unsigned long long>(UInt64(session, 1, "CSInvocations")));
    EXPECT_EQ(UInt64(session, 0, "CSInvocations"), 3u * 2u * 2u * kInvocationsPerWorkgroup);
    EXPECT_EQ(UInt64(session, 1, "CSInvocations"), 16u * 8u * kInvocationsPerWorkgroup);
}

TEST_F(KnownAnswers, GpuTimeIsPositiveAndGrowsWithTheWork) {
    ASSERT_GPA_OK(GPA_EnableCounterStr("GPUTime"));
    RecordSession({0}, false, [&](VkCommandBuffer cb, gpa_uint32) { work().Dispatch(cb, 1, 1, 1, 1); });  // warm-up
    const gpa_uint32 session = RecordSession({0, 1}, false, [&](VkCommandBuffer cb, gpa_uint32 sample) {
        if (sample == 0) work().Dispatch(cb, 1, 1, 1, 10);
        else work().Dispatch(cb, 256, 1, 1, 20000);
    });
    const double small = Float64(session, 0, "GPUTime"), large = Float64(session, 1, "GPUTime");
    std::printf("[figure] %s: GPUTime %.6f ms (1 workgroup, 10 steps), %.6f ms (256 workgroups, 20000 steps)\n",
                env().properties.deviceName, small, large);
    EXPECT_GT(small, 0.0);
    EXPECT_GT(large, small * 4) << "GPUTime in ms: small " << small << ", large " << large;
    EXPECT_LT(large, 60e3);
}

TEST_F(KnownAnswers, GpuTimeAndStatisticsTakeTwoPasses) {
    ASSERT_GPA_OK(GPA_EnableCounterStr("GPUTime"));
    ASSERT_GPA_OK(GPA_EnableCounterStr("IAPrimitives"));
    ASSERT_GPA_OK(GPA_EnableCounterStr("Occlusion"));
    gpa_uint32 passes = 0;
    ASSERT_GPA_OK(GPA_GetPassCount(&passes));
    EXPECT_EQ(passes, 2u) << "a VK_AMD_gpa_interface sample is either a timing or a cumulative sample";
    const gpa_uint32 session = RecordSession({0}, true, [&](VkCommandBuffer cb, gpa_uint32) {
        work().DrawTriangles(cb, 40);
        work().DrawFullscreen(cb);
    });
    EXPECT_GT(Float64(session, 0, "GPUTime"), 0.0);
    EXPECT_EQ(UInt64(session, 0, "IAPrimitives"), 41u);
    EXPECT_GE(UInt64(session, 0, "Occlusion"), uint64_t{kWidth} * kHeight);
}

TEST_F(KnownAnswers, AllCountersInOneSession) {
    ASSERT_GPA_OK(GPA_EnableAllCounters());
    const gpa_uint32 session = RecordSession({0}, true, [&](VkCommandBuffer cb, gpa_uint32) { work().DrawTriangles(cb, 9); });
    EXPECT_EQ(UInt64(session, 0, "IAPrimitives"), 9u);
    EXPECT_GT(Float64(session, 0, "GPUTime"), 0.0);
    bool ready = false;
    EXPECT_GPA_OK(GPA_IsSessionReady(&ready, session));
    EXPECT_TRUE(ready);
}

TEST_F(KnownAnswers, SessionSpanningCommandBuffers) {
    // One pass over two command buffers: the pass begins in the first, ends in the second.
    ASSERT_GPA_OK(GPA_EnableCounterStr("IAPrimitives"));
    gpa_uint32 session = 0;
    ASSERT_GPA_OK(GPA_BeginSession(&session));
    ASSERT_GPA_OK(GPA_BeginPass());
    VkCommandBuffer first = env().Begin();
    ASSERT_GPA_OK(OGPA_SetCommandList(first));
    work().BeginRenderPass(first);
    ASSERT_GPA_OK(GPA_BeginSample(0));
    work().DrawTriangles(first, 5);
    ASSERT_GPA_OK(GPA_EndSample());
    work().EndRenderPass(first);
    env().Submit(first);
    VkCommandBuffer second = env().Begin();
    ASSERT_GPA_OK(OGPA_SetCommandList(second));
    work().BeginRenderPass(second);
    ASSERT_GPA_OK(GPA_BeginSample(1));
    work().DrawTriangles(second, 50);
    ASSERT_GPA_OK(GPA_EndSample());
    work().EndRenderPass(second);
    ASSERT_GPA_OK(GPA_EndPass());
    env().Submit(second);
    ASSERT_GPA_OK(GPA_EndSession());
    env().WaitIdle();
    EXPECT_EQ(UInt64(session, 0, "IAPrimitives"), 5u);
    EXPECT_EQ(UInt64(session, 1, "IAPrimitives"), 50u);
}

}  // namespace
}  // namespace ogpa::vktest
