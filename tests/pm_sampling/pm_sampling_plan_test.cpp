// PM-sampling plans for named chips (CUPTI's host API, no GPU): the default set in one pass where the chip has
// its metrics, what a chip lacks left out with the reason, sets of several passes refused saying so.
#include "pm_sampling/pm_sampling_plan.h"

#include "pm_sampling/device_sampling.h"
#include "pm_sampling/sample_window.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "backends/cuda/cuda_test_support.h"

namespace gpa::pm_sampling {
namespace {

bool Mentions(const std::vector<std::string>& lines, const std::string& text) {
    return std::any_of(lines.begin(), lines.end(), [&](const std::string& line) { return line.find(text) != std::string::npos; });
}

TEST(PmSamplingPlan, DefaultSetIsOnePassOnHopperAndAmpere) {
    OPENGPA_REQUIRE_CUPTI(api);
    for (const char* chip : {"GH100", "GA100"}) {
        Plan plan;
        const Outcome made = MakePlan(*api, chip, DefaultMetrics(), {}, &plan);
        ASSERT_TRUE(made.ok()) << chip << ": " << made.reason();
        EXPECT_EQ(plan.metrics, DefaultMetrics()) << chip << " left out: " << (plan.leftOut.empty() ? "" : plan.leftOut[0]);
        EXPECT_TRUE(plan.leftOut.empty());
        EXPECT_FALSE(plan.configImage.empty());
    }
}

// SM throughput's parts (configuration-prefixed names planned by their whole base, "TriageCompute.sm__throughput"):
// one pass on GH100 and GB100, beside the default set too, where ncu's own name takes 19; GA100's catalog has no
// TriageCompute.sm__throughput (its sm__throughput takes 10 passes), which is left out saying so.
TEST(PmSamplingPlan, SmThroughputsPartsAreOnePassOnHopperAndBlackwell) {
    OPENGPA_REQUIRE_CUPTI(api);
    for (const char* chip : {"GH100", "GB100"}) {
        Plan plan;
        const Outcome made = MakePlan(*api, chip, SmThroughputMetrics(), {}, &plan);
        ASSERT_TRUE(made.ok()) << chip << ": " << made.reason();
        EXPECT_EQ(plan.metrics, SmThroughputMetrics()) << chip;
        EXPECT_TRUE(plan.leftOut.empty()) << chip << ": " << (plan.leftOut.empty() ? "" : plan.leftOut[0]);
    }
    std::vector<std::string> both = DefaultMetrics();
    both.insert(both.end(), SmThroughputMetrics().begin(), SmThroughputMetrics().end());
    Plan plan;
    const Outcome made = MakePlan(*api, "GH100", both, {}, &plan);
    ASSERT_TRUE(made.ok()) << made.reason();
    EXPECT_EQ(plan.metrics, both);

    Plan ampere;
    ASSERT_TRUE(MakePlan(*api, "GA100", SmThroughputMetrics(), {}, &ampere).ok());
    EXPECT_EQ(ampere.metrics, (std::vector<std::string>(SmThroughputMetrics().begin() + 1, SmThroughputMetrics().end())));
    ASSERT_EQ(ampere.leftOut.size(), 1u);
    EXPECT_EQ(ampere.leftOut[0], "TriageCompute.sm__throughput.avg.pct_of_peak_sustained_elapsed: GA100 has no "
                                 "TriageCompute.sm__throughput that PM sampling can read");
}

TEST(PmSamplingPlan, WhatAChipLacksIsLeftOutWithTheReason) {
    OPENGPA_REQUIRE_CUPTI(api);
    Plan plan;
    const std::vector<std::string> wanted = {"dram__bytes_read.sum", "no_such__metric.sum", "dram__bytes_read.nonsense_rollup"};
    const Outcome made = MakePlan(*api, "GH100", wanted, {}, &plan);
    ASSERT_TRUE(made.ok()) << made.reason();
    EXPECT_EQ(plan.metrics, (std::vector<std::string>{"dram__bytes_read.sum"}));
    ASSERT_EQ(plan.leftOut.size(), 2u);
    EXPECT_TRUE(Mentions(plan.leftOut, "no_such__metric.sum: GH100 has no no_such__metric")) << plan.leftOut[0];
    EXPECT_TRUE(Mentions(plan.leftOut, "dram__bytes_read.nonsense_rollup: CUPTI does not take it")) << plan.leftOut[1];
}

TEST(PmSamplingPlan, AChipWithoutSomeDefaultMetricsKeepsTheRest) {
    OPENGPA_REQUIRE_CUPTI(api);
    Plan plan;
    const Outcome made = MakePlan(*api, "AD102", DefaultMetrics(), {}, &plan);
    ASSERT_TRUE(made.ok()) << made.reason();
    EXPECT_FALSE(plan.leftOut.empty()) << "AD102 (no NVLink) samples every default metric?";
    EXPECT_EQ(plan.metrics.size() + plan.leftOut.size(), DefaultMetrics().size());
    EXPECT_TRUE(std::find(plan.metrics.begin(), plan.metrics.end(), "dram__bytes_read.sum") != plan.metrics.end());
    for (const std::string& why : plan.leftOut) EXPECT_NE(why.find("AD102"), std::string::npos) << why;
}

TEST(PmSamplingPlan, SetsOfSeveralPassesAreRefusedWithTheCount) {
    OPENGPA_REQUIRE_CUPTI(api);
    Plan plan;
    const Outcome made = MakePlan(*api, "GH100", {"sm__throughput.avg.pct_of_peak_sustained_elapsed"}, {}, &plan);
    ASSERT_FALSE(made.ok());
    EXPECT_NE(made.reason().find("one pass"), std::string::npos) << made.reason();
    EXPECT_NE(made.reason().find("passes for these on GH100"), std::string::npos) << made.reason();
    EXPECT_NE(made.reason().find("one-pass TriageCompute.sm__throughput"), std::string::npos) << made.reason();
}

TEST(PmSamplingPlan, NothingSampleableAndUnknownChipsAreErrors) {
    OPENGPA_REQUIRE_CUPTI(api);
    Plan plan;
    EXPECT_FALSE(MakePlan(*api, "GH100", {"no_such__metric.sum"}, {}, &plan).ok());
    const Outcome chip = MakePlan(*api, "NOSUCHCHIP", DefaultMetrics(), {}, &plan);
    ASSERT_FALSE(chip.ok());
    EXPECT_NE(chip.reason().find("NOSUCHCHIP"), std::string::npos) << chip.reason();
}

}  // namespace
}  // namespace gpa::pm_sampling
