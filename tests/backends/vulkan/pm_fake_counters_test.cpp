// libGPUPerfAPIVK.so's sampled counters through OpenGPA's layer and its PM-sampling test hook
// (OPENGPA_VK_PM_SAMPLING_FAKE=1, set by CMake for this program: samples made up from CLOCK_MONOTONIC, a count metric
// counting (its index in GraphicsMetrics() + 1) per ns, a rate reading 25 + its index), on lavapipe in CI: the block's
// events become PM.<metric> counters and GPUBusy/FetchSize/WriteSize read their exact made-up values.
#include <algorithm>
#include <cstdio>

#include "pm_sampling/device_sampling.h"
#include "vulkan_backend_fixture.h"

namespace ogpa::vktest {
namespace {

double MetricIndex(const char* metric) {
    const auto& metrics = gpa::pm_sampling::GraphicsMetrics();
    return static_cast<double>(std::find(metrics.begin(), metrics.end(), metric) - metrics.begin());
}

class PmFakeCounters : public VulkanBackendTest {
protected:
    void SetUp() override {
        Open(EnvOptions{}, false);
        if (HasFatalFailure() || IsSkipped()) return;
        ASSERT_GPA_OK(GPA_OpenContext(&info_, GPA_OPENCONTEXT_ENABLE_HARDWARE_COUNTERS_BIT));
        gpa_uint32 index = 0;
        if (GPA_GetCounterIndex("GPUBusy", &index) != GPA_STATUS_OK) {
            GTEST_SKIP() << "the layer's PM-sampling test source gives no block here (a layer built without CUPTI, or a "
                            "driver without calibrated timestamps against CLOCK_MONOTONIC)";
        }
    }
};

TEST_F(PmFakeCounters, PublicAndRawCountersReadTheWindowsValues) {
    for (const char* name : {"PM.gr__cycles_active.avg.pct_of_peak_sustained_elapsed", "PM.dram__bytes_read.sum",
                             "PM.dram__bytes_write.sum", "FetchSize", "WriteSize"}) {
        ASSERT_GPA_OK(GPA_EnableCounterStr(name)) << name;
    }
    ASSERT_GPA_OK(GPA_EnableCounterStr("GPUBusy"));
    ASSERT_GPA_OK(GPA_EnableCounterStr("IAPrimitives"));  // a pipeline statistic in the same pass
    gpa_uint32 passes = 0;
    const gpa_uint32 session = RecordSession({0}, true, [&](VkCommandBuffer cb, gpa_uint32) {
        work().DrawTriangles(cb, 30);
    });
    ASSERT_GPA_OK(GPA_GetPassCount(&passes));
    EXPECT_EQ(passes, 1u) << "the PM events join the statistics' pass";
    EXPECT_EQ(UInt64(session, 0, "IAPrimitives"), 30u);
    const double busy = Float64(session, 0, "GPUBusy");
    EXPECT_DOUBLE_EQ(busy, 25.0 + MetricIndex("gr__cycles_active.avg.pct_of_peak_sustained_elapsed"));
    const double read = Float64(session, 0, "PM.dram__bytes_read.sum");
    const double written = Float64(session, 0, "PM.dram__bytes_write.sum");
    ASSERT_GT(read, 0.0);
    // Counts of (index + 1) per ns over one window: their ratio is exact whatever the window's length.
    EXPECT_NEAR(written / read, (MetricIndex("dram__bytes_write.sum") + 1) / (MetricIndex("dram__bytes_read.sum") + 1), 1e-9);
    EXPECT_DOUBLE_EQ(Float64(session, 0, "FetchSize"), read / 1024);
    EXPECT_DOUBLE_EQ(Float64(session, 0, "WriteSize"), written / 1024);
    std::printf("[ fake window ] %.0f ns (from dram__bytes_read.sum), GPUBusy %.1f\n",
                read / (MetricIndex("dram__bytes_read.sum") + 1), busy);
}

}  // namespace
}  // namespace ogpa::vktest
