// The driver's VK_KHR_performance_query counters through the GPA C API: hardware counters "KHR.<name>"
// listed with GPA_OPENCONTEXT_ENABLE_HARDWARE_COUNTERS_BIT, typed by their storage, spread over passes
// when the driver cannot count them together. No driver here has the extension: the TEST FIXTURE layer
// VK_LAYER_OPENGPA_test_fixture_performance_query gives lavapipe one whose counters are computed from the
// recorded commands (tests/layers/vulkan/fixture_performance_query), so the answers are known.
#include <cstdlib>
#include <string>

#include "vulkan_backend_fixture.h"

namespace ogpa::vktest {
namespace {

constexpr const char* kDraws = "KHR.Draw commands";
constexpr const char* kDispatches = "KHR.Dispatch commands";
constexpr const char* kVertices = "KHR.Vertices drawn";
constexpr const char* kInstances = "KHR.Instances drawn";
constexpr const char* kWorkgroups = "KHR.Workgroups dispatched";
constexpr const char* kVerticesPerDraw = "KHR.Vertices per draw command";

bool Listed(const char* name) {
    gpa_uint32 index = 0;
    return GPA_GetCounterIndex(name, &index) == GPA_STATUS_OK;
}

class KhrHardwareCounters : public VulkanBackendTest {
protected:
    void SetUp() override { OpenWithFixture(GPA_OPENCONTEXT_ENABLE_HARDWARE_COUNTERS_BIT); }

    void OpenWithFixture(GPA_OpenContextFlags flags) {
        EnvOptions options;
        options.performanceQueryFixture = true;
        Open(options, false);
        if (env_ == nullptr) return;
        ASSERT_GPA_OK(GPA_OpenContext(&info_, flags));
        if ((flags & GPA_OPENCONTEXT_ENABLE_HARDWARE_COUNTERS_BIT) != 0 && !Listed(kDraws)) {
            GTEST_SKIP() << "no counter " << kDraws << ": the driver has VK_KHR_performance_query itself, and the test "
                            "fixture passes it through";
        }
    }

    float Float32(gpa_uint32 session, gpa_uint32 sample, const char* counter) {
        float value = -1;
        EXPECT_GPA_OK(GPA_GetSampleFloat32(session, sample, Index(counter), &value)) << counter;
        return value;
    }
    gpa_uint32 UInt32(gpa_uint32 session, gpa_uint32 sample, const char* counter) {
        gpa_uint32 value = 0;
        EXPECT_GPA_OK(GPA_GetSampleUInt32(session, sample, Index(counter), &value)) << counter;
        return value;
    }

    // Sample 0: two draws (10 triangles, then 6 vertices x 4 instances); sample 1: dispatches of 3 x 2 x 1 and
    // 1 x 1 x 1 workgroups.
    gpa_uint32 RecordKnownWork() {
        return RecordSession({0, 1}, false, [&](VkCommandBuffer cb, gpa_uint32 sample) {
            if (sample == 0) {
                work().BeginRenderPass(cb);
                work().DrawTriangles(cb, 10);
                vkCmdDraw(cb, 6, 4, 0, 0);
                work().EndRenderPass(cb);
            } else {
                work().Dispatch(cb, 3, 2, 1, 1);
                work().Dispatch(cb, 1, 1, 1, 1);
            }
        });
    }
};

TEST_F(KhrHardwareCounters, ListedAsHardwareCountersTypedByTheirStorage) {
    struct Expected {
        const char* name;
        GPA_Type type;
    };
    for (const Expected& expected : {Expected{kDraws, GPA_TYPE_UINT64}, Expected{kDispatches, GPA_TYPE_UINT32},
                                     Expected{kVertices, GPA_TYPE_FLOAT64}, Expected{kInstances, GPA_TYPE_FLOAT64},
                                     Expected{kWorkgroups, GPA_TYPE_FLOAT64}, Expected{kVerticesPerDraw, GPA_TYPE_FLOAT32}}) {
        const gpa_uint32 index = Index(expected.name);
        GPA_Type type = GPA_TYPE__LAST;
        GPA_Usage_Type usage = GPA_USAGE_TYPE__LAST;
        const char* group = nullptr;
        const char* description = nullptr;
        ASSERT_GPA_OK(GPA_GetCounterDataType(index, &type));
        ASSERT_GPA_OK(GPA_GetCounterUsageType(index, &usage));
        ASSERT_GPA_OK(GPA_GetCounterCategory(index, &group));
        ASSERT_GPA_OK(GPA_GetCounterDescription(index, &description));
        EXPECT_EQ(type, expected.type) << expected.name << " (signed integers are read as float64)";
        EXPECT_EQ(usage, GPA_USAGE_TYPE_ITEMS) << expected.name;
        EXPECT_STREQ(group, "KHR");
        EXPECT_NE(std::string(description).find("test fixture"), std::string::npos) << description;
    }
}

TEST_F(KhrHardwareCounters, KnownAnswers) {
    for (const char* name : {kDraws, kDispatches, kVertices, kInstances, kWorkgroups, kVerticesPerDraw}) {
        ASSERT_GPA_OK(GPA_EnableCounterStr(name));
    }
    ASSERT_GPA_OK(GPA_EnableCounterStr("IAPrimitives"));
    gpa_uint32 passes = 0;
    ASSERT_GPA_OK(GPA_GetPassCount(&passes));
    EXPECT_EQ(passes, 1u) << "the fixture counts all of them, and pipeline statistics, in one pass";
    const gpa_uint32 session = RecordKnownWork();
    EXPECT_EQ(UInt64(session, 0, kDraws), 2u);
    EXPECT_EQ(UInt32(session, 0, kDispatches), 0u);
    EXPECT_EQ(Float64(session, 0, kVertices), 54.0);
    EXPECT_EQ(Float64(session, 0, kInstances), 5.0);
    EXPECT_EQ(Float32(session, 0, kVerticesPerDraw), 27.0f);
    EXPECT_EQ(UInt64(session, 0, "IAPrimitives"), 10u + 8u) << "10 triangles, then 4 instances of 2";
    EXPECT_EQ(UInt64(session, 1, kDraws), 0u);
    EXPECT_EQ(UInt32(session, 1, kDispatches), 2u);
    EXPECT_EQ(Float64(session, 1, kWorkgroups), 7.0);
    EXPECT_EQ(Float32(session, 1, kVerticesPerDraw), 0.0f);
}

TEST_F(KhrHardwareCounters, WithGpuTimeInTwoPasses) {
    ASSERT_GPA_OK(GPA_EnableCounterStr(kDispatches));
    ASSERT_GPA_OK(GPA_EnableCounterStr("GPUTime"));
    gpa_uint32 passes = 0;
    ASSERT_GPA_OK(GPA_GetPassCount(&passes));
    EXPECT_EQ(passes, 2u);
    const gpa_uint32 session = RecordKnownWork();
    EXPECT_EQ(UInt32(session, 1, kDispatches), 2u);
    EXPECT_GT(Float64(session, 1, "GPUTime"), 0.0);
}

TEST_F(KhrHardwareCounters, NotListedWithoutTheHardwareCountersBit) {
    ASSERT_GPA_OK(GPA_CloseContext());
    ASSERT_GPA_OK(GPA_OpenContext(&info_, GPA_OPENCONTEXT_DEFAULT_BIT));
    EXPECT_FALSE(Listed(kDraws)) << "GPA's vocabulary derives nothing from them";
    EXPECT_TRUE(Listed("IAPrimitives"));
}

// OPENGPA_TEST_FIXTURE_PERF_QUERY_COUNTERS_PER_PASS=2: the planner asks the layer how many passes a set needs
// and splits the counters so that each pass's set needs one.
class KhrHardwareCountersTwoPerPass : public KhrHardwareCounters {
protected:
    void SetUp() override {
        setenv("OPENGPA_TEST_FIXTURE_PERF_QUERY_COUNTERS_PER_PASS", "2", 1);
        KhrHardwareCounters::SetUp();
    }
    void TearDown() override {
        KhrHardwareCounters::TearDown();
        unsetenv("OPENGPA_TEST_FIXTURE_PERF_QUERY_COUNTERS_PER_PASS");
    }
};

TEST_F(KhrHardwareCountersTwoPerPass, SetsTheDriverCannotCountTogetherAreSplit) {
    for (const char* name : {kDraws, kVertices, kInstances, kDispatches}) ASSERT_GPA_OK(GPA_EnableCounterStr(name));
    gpa_uint32 passes = 0;
    ASSERT_GPA_OK(GPA_GetPassCount(&passes));
    EXPECT_EQ(passes, 2u) << "four counters, two per pass";
    const gpa_uint32 session = RecordKnownWork();
    EXPECT_EQ(UInt64(session, 0, kDraws), 2u);
    EXPECT_EQ(Float64(session, 0, kVertices), 54.0);
    EXPECT_EQ(Float64(session, 0, kInstances), 5.0);
    EXPECT_EQ(UInt32(session, 1, kDispatches), 2u);
}

TEST(KhrHardwareCountersWithoutTheFixture, NoneOnLavapipe) {
    std::string skip, failure;
    auto env = VulkanEnv::Create(EnvOptions{}, &skip, &failure);
    ASSERT_TRUE(failure.empty()) << failure;
    if (env == nullptr) GTEST_SKIP() << skip;
    if (env->HasDeviceExtension(VK_KHR_PERFORMANCE_QUERY_EXTENSION_NAME)) GTEST_SKIP() << "the driver has VK_KHR_performance_query";
    GPA_vkContextOpenInfo info{env->instance, env->physicalDevice, env->device};
    ASSERT_GPA_OK(GPA_Initialize());
    ASSERT_GPA_OK(GPA_OpenContext(&info, GPA_OPENCONTEXT_ENABLE_HARDWARE_COUNTERS_BIT));
    gpa_uint32 count = 0;
    ASSERT_GPA_OK(GPA_GetNumCounters(&count));
    for (gpa_uint32 i = 0; i < count; ++i) {
        const char* name = nullptr;
        ASSERT_GPA_OK(GPA_GetCounterName(i, &name));
        EXPECT_NE(std::string(name).rfind("KHR.", 0), 0u) << name;
    }
    EXPECT_GPA_OK(GPA_Destroy());
    env->Close();
    EXPECT_TRUE(env->ValidationMessages().empty());
}

}  // namespace
}  // namespace ogpa::vktest
