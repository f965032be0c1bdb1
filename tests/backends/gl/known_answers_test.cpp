// Known answers of libGPUPerfAPIGL.so on the GL device (llvmpipe in CI): counts that follow from the draws, and
// what llvmpipe's own queries say where the driver decides (its fragment shader invocations).
#include "gl_backend_fixture.h"

namespace ogpa::gltest {
namespace {

using KnownAnswers = GlBackendTest;

TEST_F(KnownAnswers, FullScreenQuadAndSmallTriangles) {
    ASSERT_GPA_OK(GPA_EnableAllCounters());
    gpa_uint32 passes = 0;
    const gpa_uint32 session = RecordSession({0, 1}, [&](gpa_uint32 sample) {
        if (sample == 0) env().DrawFullScreen();
        if (sample == 1) env().DrawSmallTriangles(30);
    });
    ASSERT_GPA_OK(GPA_GetPassCount(&passes));
    EXPECT_EQ(passes, 2u) << "Occlusion and OcclusionPredicate are queries of two occlusion targets: a pass each";
    const double pixels = GlEnv::kWidth * GlEnv::kHeight;
    EXPECT_EQ(UInt64(session, 0, "IAVertices"), 6u);
    EXPECT_EQ(UInt64(session, 0, "IAPrimitives"), 2u);
    EXPECT_EQ(UInt64(session, 0, "VSInvocations"), env().IsLlvmpipe() ? 6u : UInt64(session, 0, "VSInvocations"));
    EXPECT_EQ(UInt64(session, 0, "CInvocations"), 2u);
    EXPECT_EQ(UInt64(session, 0, "Occlusion"), static_cast<uint64_t>(pixels));
    EXPECT_EQ(UInt64(session, 0, "OcclusionPredicate"), 1u);
    const uint64_t fragments = UInt64(session, 0, "PSInvocations");
    EXPECT_GE(fragments, static_cast<uint64_t>(pixels));
    if (env().IsLlvmpipe()) {
        EXPECT_EQ(fragments, 3456u) << "llvmpipe shades the blocks on the diagonal for both triangles";
    }
    EXPECT_EQ(UInt64(session, 0, "CSInvocations"), 0u);
    EXPECT_EQ(UInt64(session, 0, "GSInvocations"), 0u);
    EXPECT_GT(Float64(session, 0, "GPUTime"), 0.0);
    EXPECT_EQ(UInt64(session, 1, "IAVertices"), 90u);
    EXPECT_EQ(UInt64(session, 1, "IAPrimitives"), 30u);
    EXPECT_EQ(UInt64(session, 1, "CInvocations"), 30u);
    EXPECT_LT(UInt64(session, 1, "Occlusion"), static_cast<uint64_t>(pixels) / 4);
    EXPECT_GT(Float64(session, 1, "GPUTime"), 0.0);
    EXPECT_EQ(UInt64(session, 1, "PrimsWritten"), 0u) << "no transform feedback";
    if (Offers("OverflowPred")) {
        // What the driver's overflow query says without transform feedback: llvmpipe compares the primitives
        // generated (30) with those written (0) whether or not transform feedback is active, so it says 1.
        EXPECT_EQ(UInt64(session, 1, "OverflowPred"), env().IsLlvmpipe() ? 1u : 0u) << "no transform feedback";
    }
}

TEST_F(KnownAnswers, TransformFeedbackWrittenAndNeeded) {
    ASSERT_GPA_OK(GPA_EnableCounterStr("PrimsWritten"));
    ASSERT_GPA_OK(GPA_EnableCounterStr("PrimsStorageNeed"));
    ASSERT_GPA_OK(GPA_EnableCounterStr("PrimsWritten_S0"));
    ASSERT_GPA_OK(GPA_EnableCounterStr("PrimsStorageNeed_S0"));
    ASSERT_GPA_OK(GPA_EnableCounterStr("PrimsWritten_S1"));
    // 30 points captured into room for 10: 10 written, 30 needing room; nothing on stream 1.
    const gpa_uint32 session = RecordSession({0}, [&](gpa_uint32) { env().CapturePoints(30, 10); });
    EXPECT_EQ(UInt64(session, 0, "PrimsWritten"), 10u);
    EXPECT_EQ(UInt64(session, 0, "PrimsStorageNeed"), 30u);
    EXPECT_EQ(UInt64(session, 0, "PrimsWritten_S0"), 10u);
    EXPECT_EQ(UInt64(session, 0, "PrimsStorageNeed_S0"), 30u);
    EXPECT_EQ(UInt64(session, 0, "PrimsWritten_S1"), 0u);
}

TEST_F(KnownAnswers, TransformFeedbackOverflow) {
    if (!Offers("OverflowPred")) GTEST_SKIP() << "the context has no overflow queries (GL 4.6, ARB_transform_feedback_overflow_query)";
    ASSERT_GPA_OK(GPA_EnableCounterStr("OverflowPred"));
    ASSERT_GPA_OK(GPA_EnableCounterStr("OverflowPred_S0"));
    ASSERT_GPA_OK(GPA_EnableCounterStr("OverflowPred_S1"));
    // 30 points into room for 10 overflow stream 0; 5 into room for 10 do not.
    const gpa_uint32 session = RecordSession({0, 1}, [&](gpa_uint32 sample) { env().CapturePoints(sample == 0 ? 30 : 5, 10); });
    EXPECT_EQ(UInt64(session, 0, "OverflowPred"), 1u);
    EXPECT_EQ(UInt64(session, 0, "OverflowPred_S0"), 1u);
    EXPECT_EQ(UInt64(session, 0, "OverflowPred_S1"), 0u);
    EXPECT_EQ(UInt64(session, 1, "OverflowPred"), 0u);
    EXPECT_EQ(UInt64(session, 1, "OverflowPred_S0"), 0u);
}

TEST_F(KnownAnswers, SamplesAddUpAndResultsMatchEveryPass) {
    ASSERT_GPA_OK(GPA_EnableCounterStr("IAPrimitives"));
    ASSERT_GPA_OK(GPA_EnableCounterStr("Occlusion"));
    const gpa_uint32 session = RecordSession({3, 7}, [&](gpa_uint32 sample) {
        for (gpa_uint32 i = 0; i < (sample == 3 ? 1u : 4u); ++i) env().DrawFullScreen();
    });
    EXPECT_EQ(UInt64(session, 3, "IAPrimitives"), 2u);
    EXPECT_EQ(UInt64(session, 7, "IAPrimitives"), 8u);
    EXPECT_EQ(UInt64(session, 7, "Occlusion"), 4u * GlEnv::kWidth * GlEnv::kHeight);
}

}  // namespace
}  // namespace ogpa::gltest
