// The base metric of a name (src/pm_sampling/metric_names.h): plain ncu names, configuration-prefixed one-pass
// variants of PM-sampling catalogs, and names without a unit__counter part.
#include "pm_sampling/metric_names.h"

#include <gtest/gtest.h>

namespace gpa::pm_sampling {
namespace {

TEST(MetricNames, ThePlainBaseEndsBeforeTheRollup) {
    EXPECT_EQ(BaseMetricOf("dram__bytes_read.sum"), "dram__bytes_read");
    EXPECT_EQ(BaseMetricOf("dram__bytes_read.sum.per_second"), "dram__bytes_read");
    EXPECT_EQ(BaseMetricOf("sm__cycles_active.avg.pct_of_peak_sustained_elapsed"), "sm__cycles_active");
    EXPECT_EQ(BaseMetricOf("dram__bytes_read"), "dram__bytes_read");
}

TEST(MetricNames, AConfigurationPrefixBelongsToTheBase) {
    EXPECT_EQ(BaseMetricOf("TriageCompute.sm__throughput.avg.pct_of_peak_sustained_elapsed"), "TriageCompute.sm__throughput");
    EXPECT_EQ(BaseMetricOf("FE_B.TriageCompute.gr__cycles_active.avg"), "FE_B.TriageCompute.gr__cycles_active");
    EXPECT_EQ(BaseMetricOf("TriageCompute.sm__throughput"), "TriageCompute.sm__throughput");
}

TEST(MetricNames, ANameWithoutAUnitCounterPartIsItsFirstPart) {
    EXPECT_EQ(BaseMetricOf("abc.def"), "abc");
    EXPECT_EQ(BaseMetricOf("abc"), "abc");
    EXPECT_EQ(BaseMetricOf(""), "");
    EXPECT_EQ(BaseMetricOf(".sum"), "");
}

}  // namespace
}  // namespace gpa::pm_sampling
