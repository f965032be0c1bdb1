// The drivers' own counters (AMD_perfmon., INTEL_perfquery.) through the C API, with a scripted stand-in driver
// (fake_perf_monitor_driver.h, a test double) put in the place of the extensions' entry points, on the test's GL
// device (llvmpipe in CI, which really has neither extension): listed only with the hardware-counters bit; passes
// planned within each AMD group's maxActiveCounters and one INTEL query per pass; values from the stand-in's results
// beside the GL query counters of the same samples; a counter the driver gives no result for fails, with the reason.
#include <set>
#include <string>
#include <vector>

#include "backends/gl/gl_driver_functions.h"
#include "fake_perf_monitor_driver.h"
#include "gl_backend_fixture.h"

namespace ogpa::gltest {
namespace {

class DriverCountersApi : public GlBackendTest {
protected:
    void SetUp() override {
        driver_.ScriptExample();
        gpa::gl::SetDriverCounterFunctionsLoaderForTesting(
            [this](const std::set<std::string>&) { return driver_.Functions(offerAmd_, offerIntel_); });
        Open(false);
    }
    void TearDown() override {
        GlBackendTest::TearDown();
        gpa::gl::SetDriverCounterFunctionsLoaderForTesting(nullptr);
    }

    void OpenWithHardwareCounters() {
        ASSERT_GPA_OK(GPA_OpenContext(env().context(), GPA_OPENCONTEXT_ENABLE_HARDWARE_COUNTERS_BIT));
    }

    // One session of `samples` samples around a full-screen draw with `counters` enabled; its pass count in `passes`.
    gpa_uint32 Measure(const std::vector<const char*>& counters, gpa_uint32* passes, int samples = 1) {
        for (const char* counter : counters) EXPECT_GPA_OK(GPA_EnableCounterStr(counter)) << counter;
        std::vector<gpa_uint32> ids;
        for (int i = 0; i < samples; ++i) ids.push_back(static_cast<gpa_uint32>(i));
        gpa_uint32 session = RecordSession(ids, [&](gpa_uint32) { env().DrawFullScreen(); });
        EXPECT_GPA_OK(GPA_GetPassCount(passes));
        return session;
    }

    FakePerfMonitorDriver driver_;
    bool offerAmd_ = true, offerIntel_ = true;
};

TEST_F(DriverCountersApi, ListedOnlyWithTheHardwareCountersBit) {
    ASSERT_GPA_OK(GPA_OpenContext(env().context(), GPA_OPENCONTEXT_DEFAULT_BIT));
    EXPECT_FALSE(Offers("AMD_perfmon.GRBM.GRBM_COUNT"));
    EXPECT_FALSE(Offers("INTEL_perfquery.RenderBasic.GpuTime"));
    EXPECT_TRUE(Offers("GPUTime"));
    ASSERT_GPA_OK(GPA_CloseContext());
    OpenWithHardwareCounters();
    for (const char* name : {"AMD_perfmon.GRBM.GRBM_COUNT", "AMD_perfmon.GRBM.GRBM_GUI_ACTIVE", "AMD_perfmon.GRBM.GPU_BUSY",
                             "AMD_perfmon.SQ.SQ_WAVES", "AMD_perfmon.SQ.SQ_ALU_RATE", "INTEL_perfquery.RenderBasic.GpuTime",
                             "INTEL_perfquery.RenderBasic.GpuBusy", "INTEL_perfquery.Compute Basic.EuActive"}) {
        EXPECT_TRUE(Offers(name)) << name;
    }
    EXPECT_FALSE(Offers("INTEL_perfquery.RenderBasic.Broken"));
    GPA_Usage_Type usage{};
    GPA_Type type{};
    ASSERT_GPA_OK(GPA_GetCounterUsageType(Index("AMD_perfmon.GRBM.GPU_BUSY"), &usage));
    EXPECT_EQ(usage, GPA_USAGE_TYPE_PERCENTAGE);
    ASSERT_GPA_OK(GPA_GetCounterDataType(Index("AMD_perfmon.GRBM.GRBM_GUI_ACTIVE"), &type));
    EXPECT_EQ(type, GPA_TYPE_UINT64);
    ASSERT_GPA_OK(GPA_GetCounterUsageType(Index("INTEL_perfquery.RenderBasic.GpuTime"), &usage));
    EXPECT_EQ(usage, GPA_USAGE_TYPE_NANOSECONDS);
    const char* description = nullptr;
    ASSERT_GPA_OK(GPA_GetCounterDescription(Index("INTEL_perfquery.RenderBasic.GpuTime"), &description));
    EXPECT_EQ(std::string(description).rfind("Time elapsed on the GPU during the measurement.", 0), 0u) << description;
}

TEST_F(DriverCountersApi, MoreCountersOfAnAmdGroupThanItsMaxActiveTakeMorePasses) {
    OpenWithHardwareCounters();
    gpa_uint32 passes = 0;
    const gpa_uint32 two = Measure({"GPUTime", "AMD_perfmon.GRBM.GRBM_COUNT", "AMD_perfmon.GRBM.GRBM_GUI_ACTIVE"}, &passes);
    EXPECT_EQ(passes, 1u);
    EXPECT_EQ(UInt64(two, 0, "AMD_perfmon.GRBM.GRBM_COUNT"), 1234u);
    EXPECT_EQ(UInt64(two, 0, "AMD_perfmon.GRBM.GRBM_GUI_ACTIVE"), 5000000007u);
    EXPECT_GT(Float64(two, 0, "GPUTime"), 0.0);
    ASSERT_GPA_OK(GPA_EnableCounterStr("AMD_perfmon.GRBM.GPU_BUSY"));  // a third of GRBM, which counts 2 at once
    const gpa_uint32 three = Measure({}, &passes, 2);
    EXPECT_EQ(passes, 2u);
    for (gpa_uint32 sample : {0u, 1u}) {
        EXPECT_EQ(UInt64(three, sample, "AMD_perfmon.GRBM.GRBM_COUNT"), 1234u);
        EXPECT_EQ(UInt64(three, sample, "AMD_perfmon.GRBM.GRBM_GUI_ACTIVE"), 5000000007u);
        EXPECT_EQ(Float64(three, sample, "AMD_perfmon.GRBM.GPU_BUSY"), 87.5);
    }
    // Every monitor the stand-in was given held at most 2 GRBM counters, was begun and ended once, and was deleted.
    size_t monitors = 0;
    for (const auto& [name, monitor] : driver_.monitors) {
        ++monitors;
        EXPECT_LE(monitor.selected.count(3) ? monitor.selected.at(3).size() : 0u, 2u) << "monitor " << name;
        EXPECT_EQ(monitor.begun, 1);
        EXPECT_EQ(monitor.ended, 1);
        EXPECT_TRUE(monitor.deleted);
    }
    EXPECT_EQ(monitors, 1u + 2u * 2u);  // the first session's sample; two passes of two samples
}

TEST_F(DriverCountersApi, CountersOfDifferentIntelQueriesTakeDifferentPasses) {
    OpenWithHardwareCounters();
    gpa_uint32 passes = 0;
    const gpa_uint32 one = Measure({"INTEL_perfquery.RenderBasic.GpuTime", "INTEL_perfquery.RenderBasic.GpuBusy",
                                    "INTEL_perfquery.RenderBasic.VertexCount", "INTEL_perfquery.RenderBasic.HizEnabled"},
                                   &passes);
    EXPECT_EQ(passes, 1u);
    EXPECT_EQ(UInt64(one, 0, "INTEL_perfquery.RenderBasic.GpuTime"), 123456789012u);
    EXPECT_EQ(Float64(one, 0, "INTEL_perfquery.RenderBasic.GpuBusy"), 62.5);
    EXPECT_EQ(UInt64(one, 0, "INTEL_perfquery.RenderBasic.VertexCount"), 96u);
    EXPECT_EQ(UInt64(one, 0, "INTEL_perfquery.RenderBasic.HizEnabled"), 1u);
    ASSERT_GPA_OK(GPA_EnableCounterStr("INTEL_perfquery.Compute Basic.EuActive"));
    const gpa_uint32 two = Measure({}, &passes);
    EXPECT_EQ(passes, 2u);
    EXPECT_EQ(Float64(two, 0, "INTEL_perfquery.Compute Basic.EuActive"), 33.25);
    EXPECT_EQ(UInt64(two, 0, "INTEL_perfquery.RenderBasic.GpuTime"), 123456789012u);
    EXPECT_EQ(driver_.instances.size(), 1u + 2u);
}

TEST_F(DriverCountersApi, AmdAndIntelCountersNeverShareAPass) {
    OpenWithHardwareCounters();
    gpa_uint32 passes = 0;
    const gpa_uint32 session = Measure({"AMD_perfmon.SQ.SQ_WAVES", "INTEL_perfquery.RenderBasic.VertexCount"}, &passes);
    EXPECT_EQ(passes, 2u);
    EXPECT_EQ(UInt64(session, 0, "AMD_perfmon.SQ.SQ_WAVES"), 4096u);
    EXPECT_EQ(UInt64(session, 0, "INTEL_perfquery.RenderBasic.VertexCount"), 96u);
}

TEST_F(DriverCountersApi, ACounterTheDriverRefusedFailsToReadWithTheReasonAndTheOthersRead) {
    driver_.amdRefused.insert({3, 1});  // GRBM_COUNT: selected, never in the results
    OpenWithHardwareCounters();
    gpa_uint32 passes = 0;
    const gpa_uint32 session = Measure({"GPUTime", "AMD_perfmon.GRBM.GRBM_COUNT", "AMD_perfmon.SQ.SQ_WAVES"}, &passes);
    gpa_uint64 value = 99;
    EXPECT_EQ(GPA_GetSampleUInt64(session, 0, Index("AMD_perfmon.GRBM.GRBM_COUNT"), &value),
              GPA_STATUS_ERROR_READING_COUNTER_RESULT);
    EXPECT_EQ(value, 99u);  // nothing written
    const std::string message = OGPA_GetLastErrorMessage();
    EXPECT_NE(message.find("no value of AMD_perfmon.GRBM.GRBM_COUNT"), std::string::npos) << message;
    EXPECT_EQ(UInt64(session, 0, "AMD_perfmon.SQ.SQ_WAVES"), 4096u);
    EXPECT_GT(Float64(session, 0, "GPUTime"), 0.0);
}

TEST_F(DriverCountersApi, AnIntelQueryWithoutDataFailsItsCounters) {
    driver_.intelNoData = true;
    OpenWithHardwareCounters();
    gpa_uint32 passes = 0;
    const gpa_uint32 session = Measure({"INTEL_perfquery.Compute Basic.EuActive", "GPUTime"}, &passes);
    double value = -1;
    EXPECT_EQ(GPA_GetSampleFloat64(session, 0, Index("INTEL_perfquery.Compute Basic.EuActive"), &value),
              GPA_STATUS_ERROR_READING_COUNTER_RESULT);
    EXPECT_NE(std::string(OGPA_GetLastErrorMessage()).find("glGetPerfQueryDataINTEL(GL_PERFQUERY_WAIT_INTEL) wrote nothing"),
              std::string::npos)
        << OGPA_GetLastErrorMessage();
    EXPECT_GT(Float64(session, 0, "GPUTime"), 0.0);
}

TEST_F(DriverCountersApi, WithoutEitherExtensionThereAreNone) {
    offerAmd_ = offerIntel_ = false;
    OpenWithHardwareCounters();
    EXPECT_FALSE(Offers("AMD_perfmon.GRBM.GRBM_COUNT"));
    EXPECT_FALSE(Offers("INTEL_perfquery.RenderBasic.GpuTime"));
    EXPECT_TRUE(Offers("GPUTime"));
}

}  // namespace
}  // namespace ogpa::gltest
