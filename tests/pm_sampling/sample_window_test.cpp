// Integrating PM samples over a window of time (src/pm_sampling/sample_window.h): counts by the share of each
// sample inside, rates by time, windows with samples missing refused, short windows approximate. No GPU.
#include "pm_sampling/sample_window.h"

#include <gtest/gtest.h>

namespace gpa::pm_sampling {
namespace {

const std::vector<std::string> kMetrics = {"dram__bytes_read.sum", "sm__cycles_active.avg.pct_of_peak_sustained_elapsed",
                                           "lts__t_bytes.sum.per_second", "sm__warps_active.max",
                                           "sm__inst_executed.avg.per_cycle_active"};

// Samples of 100 ns from `from`, each reading 1000 bytes and `percent` percent busy, 1e9 bytes/s.
std::vector<WindowSample> Even(uint64_t from, int count, double percent = 50) {
    std::vector<WindowSample> samples;
    for (int i = 0; i < count; ++i) {
        samples.push_back({from + uint64_t(i) * 100, from + uint64_t(i + 1) * 100, false, {1000.0, percent, 1e9, 7.0, 2.0}});
    }
    return samples;
}

TEST(SampleWindow, HowEachKindOfMetricAddsUp) {
    std::string why;
    EXPECT_EQ(IntegrationOf("dram__bytes_read.sum"), Integration::Sum);
    EXPECT_EQ(IntegrationOf("sm__cycles_active.avg"), Integration::Sum);
    EXPECT_EQ(IntegrationOf("sm__cycles_active.avg.pct_of_peak_sustained_elapsed"), Integration::TimeMean);
    EXPECT_EQ(IntegrationOf("sm__inst_executed_realtime.avg.per_cycle_elapsed"), Integration::TimeMean);
    EXPECT_EQ(IntegrationOf("dram__bytes.sum.per_second"), Integration::TimeMean);
    EXPECT_EQ(IntegrationOf("sm__warps_active.max", &why), Integration::None);
    EXPECT_NE(why.find("largest or smallest instance"), std::string::npos);
    EXPECT_EQ(IntegrationOf("sm__inst_executed.avg.per_cycle_active", &why), Integration::None);
    EXPECT_NE(why.find("not elapsed time"), std::string::npos);
    EXPECT_EQ(IntegrationOf("nodots", &why), Integration::None);
}

TEST(SampleWindow, WholeSamplesAddUpExactly) {
    const WindowResult r = IntegrateWindow(kMetrics, Even(1000, 20), 1200, 1800, 100);
    EXPECT_EQ(r.quality, WindowQuality::Measured) << r.why;
    ASSERT_TRUE(r.values[0] && r.values[1] && r.values[2]);
    EXPECT_DOUBLE_EQ(*r.values[0], 6000.0);
    EXPECT_DOUBLE_EQ(*r.values[1], 50.0);
    EXPECT_DOUBLE_EQ(*r.values[2], 1e9);
    EXPECT_FALSE(r.values[3]) << "max of instances";
    EXPECT_FALSE(r.values[4]) << "per active cycle";
    EXPECT_FALSE(r.valueWhy[3].empty());
    EXPECT_DOUBLE_EQ(r.coverage, 1.0);
    EXPECT_DOUBLE_EQ(r.edgeShare, 0.0);
    EXPECT_EQ(r.samples, 6u);
}

TEST(SampleWindow, EdgeSamplesCountByTheirShareInside) {
    // 1250..1850: half of 1200-1300, five whole, half of 1800-1900.
    const WindowResult r = IntegrateWindow(kMetrics, Even(1000, 20), 1250, 1850, 100);
    EXPECT_EQ(r.quality, WindowQuality::Measured) << r.why;
    EXPECT_DOUBLE_EQ(*r.values[0], 6000.0);
    EXPECT_NEAR(r.edgeShare, 100.0 / 600.0, 1e-12);
    EXPECT_EQ(r.samples, 7u);
}

TEST(SampleWindow, RatesAreWeightedByTime) {
    std::vector<WindowSample> samples = Even(0, 4, 20);
    samples[2].values[1] = 80.0;
    samples[3].values[1] = 80.0;
    // 100..400: 100 ns at 20 %, 200 ns at 80 %.
    const WindowResult r = IntegrateWindow(kMetrics, samples, 100, 400, 100, {2});
    EXPECT_EQ(r.quality, WindowQuality::Measured) << r.why;
    EXPECT_NEAR(*r.values[1], 60.0, 1e-12);
}

TEST(SampleWindow, ShortWindowsAreApproximateAndSaySo) {
    const WindowResult r = IntegrateWindow(kMetrics, Even(1000, 20), 1250, 1450, 100);
    EXPECT_EQ(r.quality, WindowQuality::Approximate);
    EXPECT_NE(r.why.find("shorter than 4 sampling intervals"), std::string::npos) << r.why;
    EXPECT_NE(r.why.find("50.0% of the window"), std::string::npos) << r.why;
    EXPECT_DOUBLE_EQ(*r.values[0], 2000.0);
}

TEST(SampleWindow, MissingSamplesRefuseTheWindow) {
    std::vector<WindowSample> hole = Even(1000, 20);
    hole.erase(hole.begin() + 5);  // 1500..1600 missing
    WindowResult r = IntegrateWindow(kMetrics, hole, 1200, 1800, 100);
    EXPECT_EQ(r.quality, WindowQuality::Refused);
    EXPECT_NE(r.why.find("missing inside the window"), std::string::npos) << r.why;
    for (const auto& value : r.values) EXPECT_FALSE(value) << "nothing made up";

    std::vector<WindowSample> marked = Even(1000, 20);
    marked[5].droppedBefore = true;  // lost samples just before 1500
    EXPECT_EQ(IntegrateWindow(kMetrics, marked, 1200, 1800, 100).quality, WindowQuality::Refused);
    EXPECT_EQ(IntegrateWindow(kMetrics, marked, 1500, 1900, 100).quality, WindowQuality::Measured)
        << "what was lost lies before the window";

    // The sampler started after the window began, or stopped before it ended.
    EXPECT_EQ(IntegrateWindow(kMetrics, Even(1000, 20), 500, 1500, 100).quality, WindowQuality::Refused);
    EXPECT_EQ(IntegrateWindow(kMetrics, Even(1000, 20), 2500, 3500, 100).quality, WindowQuality::Refused);
    r = IntegrateWindow(kMetrics, {}, 0, 1000, 100);
    EXPECT_EQ(r.quality, WindowQuality::Refused);
    EXPECT_NE(r.why.find("no PM sample"), std::string::npos);
    EXPECT_EQ(IntegrateWindow(kMetrics, Even(1000, 20), 1500, 1500, 100).quality, WindowQuality::Refused);
}

TEST(SampleWindow, AValueNotKnownInsideIsNotKnownForTheWindow) {
    std::vector<WindowSample> samples = Even(1000, 20);
    samples[4].values[0].reset();
    const WindowResult r = IntegrateWindow(kMetrics, samples, 1200, 1800, 100);
    EXPECT_EQ(r.quality, WindowQuality::Measured);
    EXPECT_FALSE(r.values[0]);
    EXPECT_NE(r.valueWhy[0].find("does not know it"), std::string::npos);
    EXPECT_TRUE(r.values[1]);
}

}  // namespace
}  // namespace gpa::pm_sampling
