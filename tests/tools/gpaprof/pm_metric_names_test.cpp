// gpaprof --pm-metrics: which names stop gpaprof before the application starts, and what it suggests
// (src/tools/gpaprof/cli/pm_metric_names.h). Needs CUPTI's host API (no GPU); skipped, saying why, without it.
#include "tools/gpaprof/cli/pm_metric_names.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

namespace gpaprof::cli {
namespace {

PmMetricCheck Checked(const std::vector<std::string>& names) {
    PmMetricCheck check = CheckPmMetricNames(names);
    std::printf("check of %zu names: %.3f s, %zu chips%s\n", names.size(), check.seconds, check.chips,
                check.checked ? "" : " (not checked)");
    return check;
}

#define SKIP_WITHOUT_CUPTI(check)                                            \
    if (!(check).checked) GTEST_SKIP() << (check).note;

TEST(PmMetricNames, NoNamesNeedNoCheck) {
    const PmMetricCheck check = CheckPmMetricNames({});
    EXPECT_TRUE(check.checked);
    EXPECT_TRUE(check.refusal.empty());
}

TEST(PmMetricNames, WithoutCuptiTheNamesGoToTheRunWithANote) {
    const PmMetricCheck check = Checked({"dram__bytes_read.sum"});
    if (check.checked) GTEST_SKIP() << "CUPTI is here";
    EXPECT_TRUE(check.refusal.empty());
    EXPECT_NE(check.note.find("not checked"), std::string::npos) << check.note;
    EXPECT_NE(check.note.find("LeftOut"), std::string::npos) << check.note;
}

// The default set's names and others a chip of each generation has pass; an NVLink metric that AD102 lacks passes
// (another chip has it).
TEST(PmMetricNames, NamesSomeChipSamplesPass) {
    const PmMetricCheck check = Checked({"dram__bytes_read.sum", "sm__cycles_active.avg.pct_of_peak_sustained_elapsed",
                                         "lts__t_bytes.sum", "nvlrx__bytes.sum", "pcie__read_bytes.sum",
                                         "dram__bytes_write.sum.per_second"});
    SKIP_WITHOUT_CUPTI(check);
    EXPECT_EQ(check.refusal, "");
    EXPECT_GT(check.chips, 0u);
    EXPECT_LT(check.seconds, 5.0) << "the check runs before every --pm-metrics run";
}

TEST(PmMetricNames, AnUnknownBaseMetricIsRefusedWithTheNearestNames) {
    const PmMetricCheck check = Checked({"dram__bytes_read.sum", "dram__bytes_red.sum"});
    SKIP_WITHOUT_CUPTI(check);
    EXPECT_NE(check.refusal.find("no chip's PM-sampling catalog has a metric dram__bytes_red ('dram__bytes_red.sum')"),
              std::string::npos)
        << check.refusal;
    EXPECT_NE(check.refusal.find("did you mean dram__bytes_read.sum"), std::string::npos) << check.refusal;
    EXPECT_NE(check.refusal.find("The application was not started"), std::string::npos) << check.refusal;
    EXPECT_EQ(check.refusal.find("'dram__bytes_read.sum'"), std::string::npos) << "a good name is not named";
    EXPECT_LT(check.seconds, 5.0) << "every chip's catalog was read";
}

// The base metric exists but not with that rollup or submetric, or not in that letter case (CUPTI takes ncu's
// spelling only, as the CUDA part's plan does).
TEST(PmMetricNames, AWholeNameCuptiRefusesIsRefusedWithTheNearestSubmetrics) {
    const PmMetricCheck check = Checked({"dram__bytes_read.summ", "DRAM__bytes_read.sum", "dram__bytes_read"});
    SKIP_WITHOUT_CUPTI(check);
    EXPECT_NE(check.refusal.find("CUPTI takes no 'dram__bytes_read.summ' for PM sampling on any of the"),
              std::string::npos)
        << check.refusal;
    EXPECT_NE(check.refusal.find("chips that have dram__bytes_read (did you mean dram__bytes_read.sum"),
              std::string::npos)
        << check.refusal;
    EXPECT_NE(check.refusal.find("CUPTI takes no 'DRAM__bytes_read.sum'"), std::string::npos) << check.refusal;
    EXPECT_NE(check.refusal.find("CUPTI takes no 'dram__bytes_read' "), std::string::npos) << check.refusal;
}

// PM sampling has one pass: a set that needs more on every chip is refused with the count (ncu's sm__throughput: 19
// passes on GH100, docs/pm_sampling.md).
TEST(PmMetricNames, ASetOfSeveralPassesOnEveryChipIsRefusedWithTheCount) {
    const PmMetricCheck check = Checked({"sm__throughput.avg.pct_of_peak_sustained_elapsed"});
    SKIP_WITHOUT_CUPTI(check);
    EXPECT_NE(check.refusal.find("PM sampling reads every metric in one pass"), std::string::npos) << check.refusal;
    EXPECT_NE(check.refusal.find(" on GH100"), std::string::npos) << check.refusal;
    EXPECT_NE(check.refusal.find("--pm-metrics sm-throughput samples SM throughput's parts in one pass"),
              std::string::npos)
        << check.refusal;
}

// The one-pass SM throughput of GH100's and GB100's catalogs passes under its configuration-prefixed name; a typo in
// such a name is refused with the nearest prefixed names.
TEST(PmMetricNames, ConfigurationPrefixedNamesAreChecked) {
    const PmMetricCheck good = Checked({"TriageCompute.sm__throughput.avg.pct_of_peak_sustained_elapsed", "dram__bytes_read.sum"});
    SKIP_WITHOUT_CUPTI(good);
    EXPECT_EQ(good.refusal, "");
    const PmMetricCheck typo = Checked({"TriageCompute.sm__througput.avg.pct_of_peak_sustained_elapsed"});
    EXPECT_NE(typo.refusal.find("no chip's PM-sampling catalog has a metric TriageCompute.sm__througput"), std::string::npos)
        << typo.refusal;
    EXPECT_NE(typo.refusal.find("did you mean TriageCompute.sm__throughput.avg.pct_of_peak_sustained_elapsed"),
              std::string::npos)
        << typo.refusal;
}

}  // namespace
}  // namespace gpaprof::cli
