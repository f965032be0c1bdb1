// The OpenGL backend's counters: which GL versions and extensions give which counters (pure, for drivers CI does
// not have: GLES, GL 3.3, GL 4.6), passes, and the catalog of the GL device at hand.
#include <set>

#include "backends/gl/gl_counters.h"
#include "counters/graphics_counters.h"
#include "gl_backend_fixture.h"

namespace ogpa::gltest {
namespace {

using gpa::gl::BuildCounters;
using gpa::gl::Capabilities;
using gpa::gl::GlQuery;

std::set<std::string> Names(const std::vector<gpa::HardwareCounter>& counters) {
    std::set<std::string> names;
    for (const auto& counter : counters) names.insert(counter.name);
    return names;
}

TEST(GlVersion, DesktopAndEsStrings) {
    bool gles = true;
    int major = 0, minor = 0;
    ASSERT_TRUE(gpa::gl::ParseVersion("4.5 (Core Profile) Mesa 22.3.6", &gles, &major, &minor));
    EXPECT_FALSE(gles);
    EXPECT_EQ(major, 4);
    EXPECT_EQ(minor, 5);
    ASSERT_TRUE(gpa::gl::ParseVersion("OpenGL ES 3.2 NVIDIA 580.159.04", &gles, &major, &minor));
    EXPECT_TRUE(gles);
    EXPECT_EQ(major, 3);
    EXPECT_EQ(minor, 2);
    ASSERT_TRUE(gpa::gl::ParseVersion("OpenGL ES-CM 1.1 Mesa", &gles, &major, &minor));
    EXPECT_TRUE(gles);
    EXPECT_FALSE(gpa::gl::ParseVersion("unknown", &gles, &major, &minor));
}

TEST(GlCounterSet, Desktop45WithPipelineStatisticsHasEveryCounter) {
    const auto set = BuildCounters(Capabilities(
        "4.5 (Core Profile) Mesa", {"GL_ARB_pipeline_statistics_query", "GL_ARB_transform_feedback_overflow_query"}, 4));
    const std::set<std::string> names = Names(set.hardware);
    EXPECT_EQ(names.count(gpa::graphics::kDuration), 1u);
    for (const auto& event : gpa::graphics::PipelineEvents()) EXPECT_EQ(names.count(event.name), 1u) << event.name;
    EXPECT_EQ(names.count(gpa::graphics::kAnySamplesPassed), 1u);
    for (int stream = 0; stream < 4; ++stream) {
        EXPECT_EQ(names.count(gpa::graphics::PrimitivesWritten(stream)), 1u);
        EXPECT_EQ(names.count(gpa::graphics::PrimitivesGenerated(stream)), 1u);
        EXPECT_EQ(names.count(gpa::graphics::StreamOverflow(stream)), 1u);
    }
    EXPECT_EQ(names.count(gpa::graphics::kOverflowAnyStream), 1u);
    EXPECT_TRUE(set.absent.empty());
    EXPECT_EQ(set.queries.size(), set.hardware.size());
    // Every public counter reads counters of this set.
    for (const auto& counter : set.derived) {
        const std::string input = counter.expression.substr(0, counter.expression.find(' '));
        EXPECT_EQ(names.count(input), 1u) << counter.name << " reads " << input;
    }
}

TEST(GlCounterSet, Desktop45WithoutTheExtensionHasNoStatistics) {
    const auto set = BuildCounters(Capabilities("4.5 (Core Profile)", {}, 4));
    EXPECT_EQ(Names(set.hardware).count("IA.vertices"), 0u);
    ASSERT_FALSE(set.absent.empty());
    EXPECT_NE(set.absent.front().find("GL_ARB_pipeline_statistics_query"), std::string::npos);
    EXPECT_EQ(Names(BuildCounters(Capabilities("4.6.0 NVIDIA 580.159.04", {}, 4)).hardware).count("IA.vertices"), 1u)
        << "core in GL 4.6";
}

TEST(GlCounterSet, OverflowQueriesNeedGl46OrTheExtension) {
    auto overflow = [](const gpa::gl::CounterSet& set) { return Names(set.hardware).count(gpa::graphics::kOverflowAnyStream); };
    EXPECT_EQ(overflow(BuildCounters(Capabilities("4.6.0 NVIDIA 580.159.04", {}, 4))), 1u) << "core in GL 4.6";
    EXPECT_EQ(overflow(BuildCounters(Capabilities("4.5 (Core Profile) Mesa", {"GL_ARB_transform_feedback_overflow_query"}, 4))), 1u);
    const auto without = BuildCounters(Capabilities("4.5 (Core Profile) Mesa", {}, 4));
    EXPECT_EQ(overflow(without), 0u);
    bool said = false;
    for (const std::string& why : without.absent) said = said || why.find("OverflowPred") != std::string::npos;
    EXPECT_TRUE(said) << "the reason is logged";
    EXPECT_EQ(overflow(BuildCounters(Capabilities("OpenGL ES 3.2 Mesa", {}, 4))), 0u) << "GLES has none";
}

TEST(GlCounterSet, Gles32HasOcclusionPredicateAndStreamZeroOnly) {
    const auto withTimer = BuildCounters(Capabilities("OpenGL ES 3.2 Mesa", {"GL_EXT_disjoint_timer_query"}, 4));
    const std::set<std::string> names = Names(withTimer.hardware);
    EXPECT_EQ(names.count(gpa::graphics::kDuration), 1u);
    EXPECT_EQ(names.count("DB.samples_passed"), 0u) << "GLES has no samples-passed query";
    EXPECT_EQ(names.count(gpa::graphics::kAnySamplesPassed), 1u);
    EXPECT_EQ(names.count(gpa::graphics::PrimitivesWritten(0)), 1u);
    EXPECT_EQ(names.count(gpa::graphics::PrimitivesWritten(1)), 0u);
    EXPECT_EQ(names.count("IA.vertices"), 0u);
    for (const GlQuery& query : withTimer.queries) EXPECT_FALSE(query.indexed);
    EXPECT_NE(withTimer.derived.front().description.find("GL_GPU_DISJOINT_EXT"), std::string::npos);
    const auto without = BuildCounters(Capabilities("OpenGL ES 3.0", {}, 1));
    EXPECT_EQ(Names(without.hardware).count(gpa::graphics::kDuration), 0u);
    EXPECT_EQ(Names(without.hardware).count(gpa::graphics::PrimitivesGenerated(0)), 0u) << "GLES 3.2's query";
}

TEST(GlPasses, OneOcclusionTargetAndOneQueryPerTargetAndStream) {
    EXPECT_TRUE(gpa::gl::FitInOnePass({GlQuery{}, GlQuery{GL_SAMPLES_PASSED, 0, false}, GlQuery{0x82EE, 0, false},
                                       GlQuery{GL_PRIMITIVES_GENERATED, 0, true}, GlQuery{GL_PRIMITIVES_GENERATED, 1, true}}));
    EXPECT_FALSE(gpa::gl::FitInOnePass({GlQuery{GL_SAMPLES_PASSED, 0, false}, GlQuery{GL_ANY_SAMPLES_PASSED, 0, false}}));
    EXPECT_FALSE(gpa::gl::FitInOnePass({GlQuery{GL_PRIMITIVES_GENERATED, 2, true}, GlQuery{GL_PRIMITIVES_GENERATED, 2, true}}));
}

using Counters = GlBackendTest;

TEST_F(Counters, PublicCountersOfTheDevice) {
    gpa_uint32 count = 0;
    ASSERT_GPA_OK(GPA_GetNumCounters(&count));
    std::set<std::string> names;
    for (gpa_uint32 i = 0; i < count; ++i) {
        const char* name = nullptr;
        const char* description = nullptr;
        ASSERT_GPA_OK(GPA_GetCounterName(i, &name));
        ASSERT_GPA_OK(GPA_GetCounterDescription(i, &description));
        EXPECT_GT(std::string(description).size(), 20u) << name;
        names.insert(name);
    }
    for (const char* name : {"GPUTime", "IAVertices", "IAPrimitives", "VSInvocations", "HSInvocations", "DSInvocations",
                             "GSInvocations", "GSPrimitives", "CInvocations", "CPrimitives", "PSInvocations",
                             "CSInvocations", "Occlusion", "OcclusionPredicate", "PrimsWritten", "PrimsStorageNeed",
                             "PrimsWritten_S3", "PrimsStorageNeed_S3", "OverflowPred", "OverflowPred_S3"}) {
        if (!env().IsLlvmpipe()) continue;  // other drivers: the pure tests above say what each offers
        EXPECT_EQ(names.count(name), 1u) << name << " on llvmpipe (GL 4.5 with ARB_pipeline_statistics_query)";
    }
    EXPECT_EQ(names.count("GPUTime"), 1u);
    GPA_Usage_Type usage = GPA_USAGE_TYPE__LAST;
    ASSERT_GPA_OK(GPA_GetCounterUsageType(Index("GPUTime"), &usage));
    EXPECT_EQ(usage, GPA_USAGE_TYPE_MILLISECONDS);
}

TEST_F(Counters, HardwareCountersWithTheFlag) {
    ASSERT_GPA_OK(GPA_CloseContext());
    ASSERT_GPA_OK(GPA_OpenContext(env().context(), GPA_OPENCONTEXT_ENABLE_HARDWARE_COUNTERS_BIT));
    gpa_uint32 index = 0;
    ASSERT_GPA_OK(GPA_GetCounterIndex(gpa::graphics::kDuration, &index));
    ASSERT_GPA_OK(GPA_EnableCounter(index));
    const gpa_uint32 session = RecordSession({0}, [&](gpa_uint32) { env().DrawFullScreen(); });
    gpa_uint64 nanoseconds = 0;
    ASSERT_GPA_OK(GPA_GetSampleUInt64(session, 0, index, &nanoseconds));
    EXPECT_GT(nanoseconds, 0u);
}

}  // namespace
}  // namespace ogpa::gltest

namespace ogpa::gltest {
namespace {

std::vector<std::string> messages;
void KeepMessage(GPA_Logging_Type, const char* message) { messages.emplace_back(message); }

// Mesa's llvmpipe names a device UUID (GL_EXT_memory_object), but no CUDA device has it: no PM. counters, no GPUBusy,
// FetchSize, WriteSize, and GPA_OpenContext logs why.
TEST_F(Counters, NoSampledCountersOnACpuRendererAndTheReasonIsLogged) {
    if (!env().IsLlvmpipe()) GTEST_SKIP() << "the sampled counters of " << env().Renderer() << " are the GPU tests' (pm_counters_test)";
    ASSERT_GPA_OK(GPA_CloseContext());
    messages.clear();
    ASSERT_GPA_OK(GPA_RegisterLoggingCallback(GPA_LOGGING_MESSAGE, KeepMessage));
    ASSERT_GPA_OK(GPA_OpenContext(env().context(), GPA_OPENCONTEXT_ENABLE_HARDWARE_COUNTERS_BIT));
    EXPECT_FALSE(Offers("GPUBusy"));
    EXPECT_FALSE(Offers("FetchSize"));
    EXPECT_FALSE(Offers("WriteSize"));
    gpa_uint32 count = 0;
    ASSERT_GPA_OK(GPA_GetNumCounters(&count));
    for (gpa_uint32 i = 0; i < count; ++i) {
        const char* name = nullptr;
        ASSERT_GPA_OK(GPA_GetCounterName(i, &name));
        EXPECT_NE(std::string(name).rfind("PM.", 0), 0u) << name;
    }
    std::string reason;
    for (const std::string& message : messages) {
        if (message.find("NVIDIA's device-level PM sampler") != std::string::npos) reason = message;
    }
    EXPECT_NE(reason.find("GPUBusy, FetchSize, WriteSize"), std::string::npos) << reason;
    EXPECT_NE(reason.find("is not sampled: "), std::string::npos) << reason;
    std::printf("[ no PM counters ] %s\n", reason.c_str());
    GPA_RegisterLoggingCallback(GPA_LOGGING_NONE, KeepMessage);
}

}  // namespace
}  // namespace ogpa::gltest
