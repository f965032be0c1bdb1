// Readings no device can give (src/pm_sampling/impossible_values.h): percentages of peak above 101 become NaN, every
// other value stays as read.
#include "pm_sampling/impossible_values.h"

#include <gtest/gtest.h>

#include <cmath>

namespace gpa::pm_sampling {
namespace {

TEST(ImpossibleValues, PercentagesOfPeakAboveOneHundredAndOneAreWithheld) {
    const std::vector<std::string> metrics = {"TriageCompute.sm__throughput.avg.pct_of_peak_sustained_elapsed",
                                              "sm__pipe_tensor_cycles_active_realtime.avg.pct_of_peak_sustained_elapsed",
                                              "dram__bytes_write.sum", "sm__inst_executed_realtime.avg.per_cycle_elapsed",
                                              "gr__cycles_active.avg.pct_of_peak_sustained_elapsed"};
    std::vector<double> values = {1534.29, 45.13, 1e12, 300.0, 100.9};
    EXPECT_EQ(WithholdImpossibleValues(metrics, &values), 1u);
    EXPECT_TRUE(std::isnan(values[0]));
    EXPECT_EQ(values[1], 45.13) << "within 100%: kept, though the sample may be off";
    EXPECT_EQ(values[2], 1e12) << "a count has no peak here";
    EXPECT_EQ(values[3], 300.0) << "a rate per cycle is no percentage";
    EXPECT_EQ(values[4], 100.9) << "rounding above 100";
}

TEST(ImpossibleValues, WhatIsAPercentageOfPeak) {
    EXPECT_TRUE(IsPercentOfPeak("dram__throughput.avg.pct_of_peak_sustained_elapsed"));
    EXPECT_TRUE(IsPercentOfPeak("sm__cycles_active.avg.pct_of_peak_sustained_active"));
    EXPECT_FALSE(IsPercentOfPeak("lts__t_sector_hit_rate.pct"));
    EXPECT_FALSE(IsPercentOfPeak("dram__bytes_read.sum.per_second"));
}

TEST(ImpossibleValues, FewerValuesThanMetricsAreLeftAsTheyAre) {
    std::vector<double> values = {200.0};
    EXPECT_EQ(WithholdImpossibleValues({"a__b.avg.pct_of_peak_sustained_elapsed", "c__d.avg.pct_of_peak_sustained_elapsed"}, &values), 1u);
    EXPECT_EQ(values.size(), 1u);
    EXPECT_TRUE(std::isnan(values[0]));
}

}  // namespace
}  // namespace gpa::pm_sampling
