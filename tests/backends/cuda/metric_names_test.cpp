// Every metric name ncu accepts, resolved offline through CUPTI's host API for GH100: base metric + rollup +
// submetric, ratios and throughputs with theirs; refusals that say what is wrong; pass counts of sets mixing
// such names equal to CUPTI's own; their values evaluated from the recorded GH100 counter data.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <set>

#include "backends/cuda/chip_counters.h"
#include "backends/cuda/counter_data_fixture.h"
#include "backends/cuda/cupti_host.h"
#include "backends/cuda/metric_names.h"
#include "cuda_test_support.h"

namespace gpa::cuda {
namespace {

// The names people bring from ncu scripts (issue 8).
const char* const kNcuNames[] = {"sm__warps_active.avg.pct_of_peak_sustained_active", "lts__t_sector_hit_rate.pct",
                                 "dram__throughput.avg.pct_of_peak_sustained_elapsed"};

std::unique_ptr<MetricCatalog> LoadGh100(const CuptiApi& api) {
    std::unique_ptr<MetricCatalog> catalog;
    const Outcome loaded = MetricCatalog::Load(api, "GH100", {}, &catalog);
    EXPECT_TRUE(loaded.ok()) << loaded.reason();
    return catalog;
}

uint32_t CuptiPasses(const CuptiApi& api, const std::vector<std::string>& metrics) {
    std::unique_ptr<HostObject> host;
    EXPECT_TRUE(HostObject::Create(api, "GH100", {}, &host).ok());
    EXPECT_EQ(host->AddMetrics(metrics), CUPTI_SUCCESS);
    std::vector<uint8_t> image;
    EXPECT_TRUE(host->ConfigImage(&image).ok());
    uint32_t passes = 0;
    EXPECT_TRUE(ConfigPassCount(api, image, &passes).ok());
    return passes;
}

bool Contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// ---- names alone (no CUPTI) ----------------------------------------------------------------------------------

TEST(MetricNames, CloseMatchesFindMisspellingsAndNamesCutShort) {
    const std::vector<std::string> names = {"sm__warps_active", "smsp__warps_active", "dram__bytes_read", "GPUTime"};
    EXPECT_EQ(CloseMatches("sm__warps_activ", names), (std::vector<std::string>{"sm__warps_active", "smsp__warps_active"}));
    EXPECT_EQ(CloseMatches("gputme", names), std::vector<std::string>{"GPUTime"});
    EXPECT_EQ(CloseMatches("dram__bytes", names), std::vector<std::string>{"dram__bytes_read"});
    EXPECT_TRUE(CloseMatches("completely_different", names).empty());
    EXPECT_EQ(CloseMatches("sm__warps_activ", names, 1).size(), 1u);
}

TEST(MetricNames, SubmetricListsAreSummarizedByRollup) {
    EXPECT_EQ(SummarizeSubmetrics({".max_rate", ".pct", ".ratio"}), ".max_rate .pct .ratio");
    EXPECT_EQ(SummarizeSubmetrics({".avg", ".avg.per_second", ".max", ".max.per_second", ".min", ".min.per_second", ".sum",
                                   ".sum.per_second"}),
              ".sum .avg .min .max, each alone or followed by one of .per_second");
    EXPECT_EQ(SummarizeSubmetrics({".avg.pct_of_peak_sustained_active", ".sum.pct_of_peak_sustained_active"}),
              ".sum .avg, each followed by one of .pct_of_peak_sustained_active");
    // Rollups that differ are listed as they are.
    EXPECT_EQ(SummarizeSubmetrics({".avg", ".sum.per_second"}), ".avg .sum.per_second");
}

TEST(MetricNames, SubmetricsAreExplainedAndTyped) {
    EXPECT_EQ(ExplainSubmetric(".avg.pct_of_peak_sustained_active", "sm"),
              "Average over the sm units, in percent of the peak sustained rate over the unit's active cycles.");
    EXPECT_EQ(ExplainSubmetric(".sum", "dram"), "Total over all dram units.");
    EXPECT_EQ(ExplainSubmetric(".pct", "lts"), "The ratio in percent.");
    EXPECT_TRUE(Contains(ExplainSubmetric(".max.per_frame", "sm"), "as CUPTI defines it"));
    GPA_Type type{};
    GPA_Usage_Type usage{};
    SubmetricTypeAndUsage(true, false, ".sum", "byte", &type, &usage);
    EXPECT_EQ(type, GPA_TYPE_UINT64);
    EXPECT_EQ(usage, GPA_USAGE_TYPE_BYTES);
    SubmetricTypeAndUsage(true, false, ".avg", "gpc_cycle", &type, &usage);
    EXPECT_EQ(type, GPA_TYPE_FLOAT64);
    EXPECT_EQ(usage, GPA_USAGE_TYPE_CYCLES);
    SubmetricTypeAndUsage(true, false, ".avg.pct_of_peak_sustained_active", "percent", &type, &usage);
    EXPECT_EQ(usage, GPA_USAGE_TYPE_PERCENTAGE);
    SubmetricTypeAndUsage(false, true, ".ratio", "", &type, &usage);
    EXPECT_EQ(usage, GPA_USAGE_TYPE_RATIO);
    SubmetricTypeAndUsage(true, false, ".sum.per_second", "byte/second", &type, &usage);
    EXPECT_EQ(type, GPA_TYPE_FLOAT64);
    EXPECT_EQ(usage, GPA_USAGE_TYPE_ITEMS);
}

// ---- resolution through CUPTI ---------------------------------------------------------------------------------

TEST(MetricNameResolution, TheNamesFromNcuScriptsResolve) {
    OPENGPA_REQUIRE_CUPTI(api);
    const std::unique_ptr<MetricCatalog> catalog = LoadGh100(*api);
    const char* const groups[] = {"sm", "lts", "dram"};
    for (size_t i = 0; i < std::size(kNcuNames); ++i) {
        HardwareCounter counter;
        const Outcome resolved = catalog->Resolve(kNcuNames[i], &counter);
        ASSERT_TRUE(resolved.ok()) << kNcuNames[i] << ": " << resolved.reason();
        EXPECT_EQ(counter.name, kNcuNames[i]);
        EXPECT_EQ(counter.group, groups[i]);
        EXPECT_EQ(counter.type, GPA_TYPE_FLOAT64);
        EXPECT_EQ(counter.usage, GPA_USAGE_TYPE_PERCENTAGE);
        EXPECT_FALSE(counter.description.empty());
    }
    HardwareCounter warps;
    ASSERT_TRUE(catalog->Resolve(kNcuNames[0], &warps).ok());
    EXPECT_TRUE(Contains(warps.description, "warps in flight")) << warps.description;  // CUPTI's words
    EXPECT_TRUE(Contains(warps.description, "active cycles")) << warps.description;    // what the submetric is
}

TEST(MetricNameResolution, EverySubmetricCuptiListsResolvesForEachMetricType) {
    OPENGPA_REQUIRE_CUPTI(api);
    const std::unique_ptr<MetricCatalog> catalog = LoadGh100(*api);
    // A counter, a ratio and a throughput.
    for (const char* base : {"sm__warps_active", "lts__t_sector_hit_rate", "dram__throughput"}) {
        const std::vector<std::string> submetrics = catalog->Submetrics(base);
        ASSERT_FALSE(submetrics.empty()) << base;
        for (const std::string& submetric : submetrics) {
            HardwareCounter counter;
            const Outcome resolved = catalog->Resolve(base + submetric, &counter);
            EXPECT_TRUE(resolved.ok()) << base << submetric << ": " << resolved.reason();
            EXPECT_EQ(counter.name, base + submetric);
        }
    }
    EXPECT_EQ(catalog->Submetrics("lts__t_sector_hit_rate"), (std::vector<std::string>{".max_rate", ".pct", ".ratio"}));
    EXPECT_TRUE(catalog->Submetrics("no_such__metric").empty());
}

TEST(MetricNameResolution, LetterCaseFollowsCupti) {
    OPENGPA_REQUIRE_CUPTI(api);
    const std::unique_ptr<MetricCatalog> catalog = LoadGh100(*api);
    HardwareCounter counter;
    ASSERT_TRUE(catalog->Resolve("SM__Warps_Active.AVG.Pct_Of_Peak_Sustained_Active", &counter).ok());
    EXPECT_EQ(counter.name, "sm__warps_active.avg.pct_of_peak_sustained_active");
    ASSERT_TRUE(catalog->Resolve("DRAM__BYTES_READ.SUM", &counter).ok());  // a listed raw counter
    EXPECT_EQ(counter.name, "dram__bytes_read.sum");
    EXPECT_EQ(counter.type, GPA_TYPE_UINT64);
}

TEST(MetricNameResolution, BadNamesAreRefusedWithTheReason) {
    OPENGPA_REQUIRE_CUPTI(api);
    const std::unique_ptr<MetricCatalog> catalog = LoadGh100(*api);
    auto refusal = [&](const std::string& name) {
        HardwareCounter counter;
        const Outcome resolved = catalog->Resolve(name, &counter);
        EXPECT_EQ(resolved.status(), GPA_STATUS_ERROR_NOT_FOUND) << name;
        return resolved.reason();
    };
    // A submetric the metric's type lacks, with the close ones and the whole list.
    const std::string cutShort = refusal("sm__warps_active.avg.pct");
    EXPECT_TRUE(Contains(cutShort, "'.avg.pct' is not a submetric of sm__warps_active (a counter metric)")) << cutShort;
    EXPECT_TRUE(Contains(cutShort, "did you mean sm__warps_active.avg.pct_of_peak_sustained_active")) << cutShort;
    EXPECT_TRUE(Contains(cutShort, ".sum .avg .min .max, each alone or followed by one of")) << cutShort;
    const std::string counterRollupOnRatio = refusal("lts__t_sector_hit_rate.sum");
    EXPECT_TRUE(Contains(counterRollupOnRatio, "(a ratio metric)")) << counterRollupOnRatio;
    EXPECT_TRUE(Contains(counterRollupOnRatio, "Its submetrics: .max_rate .pct .ratio.")) << counterRollupOnRatio;
    const std::string rollupAloneOnThroughput = refusal("dram__throughput.avg");
    EXPECT_TRUE(Contains(rollupAloneOnThroughput, "(a throughput metric)")) << rollupAloneOnThroughput;
    EXPECT_TRUE(Contains(rollupAloneOnThroughput, "each followed by one of .pct_of_peak_sustained_active")) << rollupAloneOnThroughput;
    EXPECT_TRUE(Contains(refusal("sm__warps_active.avg.foo"), "is not a submetric"));
    EXPECT_TRUE(Contains(refusal("lts__t_sector_hit_rate.pc"), "did you mean lts__t_sector_hit_rate.pct?"));
    // A base metric alone names no value (CUPTI describes it, but takes it in no configuration).
    const std::string bare = refusal("dram__throughput");
    EXPECT_TRUE(Contains(bare, "is a base metric")) << bare;
    EXPECT_TRUE(Contains(bare, "e.g. dram__throughput.avg.pct_of_peak_sustained_elapsed")) << bare;
    // An unknown base metric, with the close ones when there are any.
    const std::string misspelt = refusal("sm__warps_activ.avg");
    EXPECT_TRUE(Contains(misspelt, "CUPTI lists no NVIDIA metric named 'sm__warps_activ' on GH100")) << misspelt;
    EXPECT_TRUE(Contains(misspelt, "did you mean sm__warps_active")) << misspelt;
    EXPECT_TRUE(Contains(refusal("qqq__zzz_xxx.sum"), "gpa-counters --chip GH100 --hardware lists them"));
    EXPECT_TRUE(Contains(refusal(""), "CUPTI lists no NVIDIA metric named ''"));
    EXPECT_TRUE(Contains(refusal(".sum"), "CUPTI lists no NVIDIA metric"));
}

TEST(MetricNameResolution, HardwareCountersTakeNcuNamesAndSkipTheOthers) {
    OPENGPA_REQUIRE_CUPTI(api);
    const std::unique_ptr<MetricCatalog> catalog = LoadGh100(*api);
    std::vector<std::string> unknown;
    const std::vector<HardwareCounter> counters = catalog->HardwareCounters(
        {"sm__warps_active.avg.pct_of_peak_sustained_active", "LTS__T_SECTOR_HIT_RATE.PCT", "dram__throughput",
         "sm__warps_active.avg.pct", "dram__bytes_read.sum"},
        &unknown);
    EXPECT_EQ(counters.size(), catalog->metrics().size() + 2);
    EXPECT_EQ(counters[counters.size() - 2].name, "sm__warps_active.avg.pct_of_peak_sustained_active");
    EXPECT_EQ(counters.back().name, "lts__t_sector_hit_rate.pct");
    EXPECT_EQ(unknown, (std::vector<std::string>{"dram__throughput", "sm__warps_active.avg.pct"}));
}

// ---- counters of a chip, and their passes ---------------------------------------------------------------------

TEST(MetricNameResolution, ChipCountersAddNcuNamesOnceAndNameGpaCountersInRefusals) {
    OPENGPA_REQUIRE_CUPTI(api);
    ChipCounters chip;
    ASSERT_TRUE(BuildChipCounters(*api, "GH100", {}, &chip).ok());
    const size_t listed = chip.hardware.size();
    uint32_t index = 0;
    bool added = false;
    ASSERT_TRUE(chip.AddMetric(kNcuNames[0], &index, &added).ok());
    EXPECT_TRUE(added);
    EXPECT_EQ(index, listed);
    EXPECT_EQ(chip.hardware.size(), listed + 1);
    uint32_t again = 0;
    ASSERT_TRUE(chip.AddMetric("SM__WARPS_ACTIVE.avg.pct_of_peak_sustained_active", &again, &added).ok());
    EXPECT_FALSE(added);
    EXPECT_EQ(again, index);
    ASSERT_TRUE(chip.AddMetric(kNcuNames[2], &index, &added).ok());  // listed already
    EXPECT_FALSE(added);
    EXPECT_EQ(chip.hardware[index].name, kNcuNames[2]);
    EXPECT_EQ(chip.hardware.size(), listed + 1);

    const Outcome gpaLike = chip.AddMetric("GPUTme", &index);
    EXPECT_EQ(gpaLike.status(), GPA_STATUS_ERROR_NOT_FOUND);
    EXPECT_TRUE(Contains(gpaLike.reason(), "not a GPA counter of GH100 (did you mean GPUTime?)")) << gpaLike.reason();
    EXPECT_TRUE(Contains(chip.AddMetric("GDSInsts", &index).reason(), "has no NVIDIA equivalent"));
    const Outcome many = chip.AddMetrics({"GPUTime", kNcuNames[1], "sm__warps_active.avg.pct"});
    EXPECT_EQ(many.status(), GPA_STATUS_ERROR_NOT_FOUND);
    EXPECT_TRUE(Contains(many.reason(), "no counter is named 'sm__warps_active.avg.pct' on GH100: ")) << many.reason();
    EXPECT_EQ(chip.hardware.back().name, kNcuNames[1]);  // added before the bad name stopped the list
}

// The plan's count is the sum of CUPTI's own counts for the configurations it builds (the exact metric lists),
// and never more than CUPTI's count for the metrics in the order they were asked for.
void ExpectCuptisPassCount(const CuptiApi& api, const MetricPlan& plan, const std::vector<std::string>& asked) {
    uint32_t sum = 0;
    std::set<std::string> planned;
    for (const ConfigGroup& group : plan.groups) {
        EXPECT_EQ(group.passes, CuptiPasses(api, group.metrics));
        sum += group.passes;
        planned.insert(group.metrics.begin(), group.metrics.end());
    }
    EXPECT_EQ(plan.passCount, sum);
    EXPECT_EQ(planned, std::set<std::string>(asked.begin(), asked.end()));
    if (plan.groups.size() == 1) {
        EXPECT_LE(plan.passCount, CuptiPasses(api, asked));
    }
}

TEST(MetricNameResolution, PassCountsOfSetsMixingNcuNamesAreCuptis) {
    OPENGPA_REQUIRE_CUPTI(api);
    const std::vector<std::vector<std::string>> sets = {
        {kNcuNames[0]},
        {kNcuNames[1]},
        {kNcuNames[0], kNcuNames[1], kNcuNames[2]},
        {"GPUTime", kNcuNames[0], "L2CacheHit", kNcuNames[1]},
        {"sm__warps_active.avg.per_cycle_active", "smsp__inst_executed.sum.per_second", "lts__t_sector_hit_rate.ratio",
         "l1tex__throughput.max.pct_of_peak_sustained_active", "dram__bytes_read.sum", "FetchSize"},
        {"gpu__time_duration.avg", "sm__cycles_active.max.peak_sustained", "pcie__read_bytes.sum.per_second", kNcuNames[2]},
    };
    for (const std::vector<std::string>& set : sets) {
        std::string list;
        for (const std::string& name : set) list += (list.empty() ? "" : ",") + name;
        SCOPED_TRACE(list);
        // gpa-counters' path: names become hardware counters, then the set is planned as GPA_GetPassCount plans it.
        ChipCounters chip;
        ASSERT_TRUE(BuildChipCounters(*api, "GH100", {}, &chip).ok());
        const std::vector<std::string> listed = chip.HardwareNames();
        const Outcome added = chip.AddMetrics(set);
        ASSERT_TRUE(added.ok()) << added.reason();
        const CounterCatalog catalog = chip.Catalog(true, true);
        CounterPlan plan;
        const Outcome planned = PlanCounters(*api, chip, catalog, set, {}, &plan);
        ASSERT_TRUE(planned.ok()) << planned.reason();
        ExpectCuptisPassCount(*api, plan.plan, plan.metrics);

        // The CUDA context's path: a planner made with the listed names, told of each name added afterwards.
        CuptiPassPlanner planner(*api, "GH100", {}, listed);
        for (size_t i = listed.size(); i < chip.hardware.size(); ++i) planner.AddHardwareName(chip.hardware[i].name);
        std::vector<std::vector<uint32_t>> inputs;
        for (uint32_t counter : plan.counters) inputs.push_back(catalog.at(counter).hardware);
        PassPlan passes;
        ASSERT_TRUE(planner.Plan(inputs, &passes).ok());
        EXPECT_EQ(passes.passCount, plan.plan.passCount);
        CuptiPassPlanner::Resolved resolved;
        ASSERT_TRUE(planner.Resolve(passes, &resolved).ok());
        ExpectCuptisPassCount(*api, *resolved.metrics, plan.metrics);
    }
}

// ---- values, offline: the recorded GH100 counter data evaluated under other submetrics of its metrics ----------

TEST(MetricNameResolution, OtherSubmetricsOfRecordedMetricsEvaluateConsistently) {
    OPENGPA_REQUIRE_CUPTI(api);
    const std::filesystem::path root = std::filesystem::path(OPENGPA_CUDA_FIXTURES) / "gh100";
    if (!std::filesystem::exists(root / "cache_hits")) GTEST_SKIP() << "no GH100 counter data fixtures in " << root;
    const std::unique_ptr<MetricCatalog> catalog = LoadGh100(*api);
    CounterDataFixture fixture;
    ASSERT_TRUE(ReadCounterDataFixture((root / "cache_hits").string(), &fixture).ok());
    const CounterDataFixture::Group& group = fixture.groups.front();  // lts__t_request_hit_rate.pct, dram__bytes_read.sum
    std::unique_ptr<HostObject> host;
    ASSERT_TRUE(HostObject::Create(*api, fixture.chip, {}, &host).ok());
    ASSERT_EQ(host->AddMetrics(group.metrics), CUPTI_SUCCESS);
    std::vector<std::string> ranges;
    ASSERT_TRUE(CounterDataRangeNames(*api, group.counterData, &ranges).ok());
    ASSERT_FALSE(ranges.empty());
    // Names as users write them, resolved as GPA_EnableCounterStr resolves them.
    std::vector<std::string> names;
    for (const char* name : {"LTS__T_REQUEST_HIT_RATE.PCT", "lts__t_request_hit_rate.ratio", "lts__t_request_hit_rate.max_rate",
                             "dram__bytes_read.sum", "dram__bytes_read.avg", "dram__bytes_read.min", "dram__bytes_read.max"}) {
        HardwareCounter counter;
        ASSERT_TRUE(catalog->Resolve(name, &counter).ok()) << name;
        names.push_back(counter.name);
    }
    for (size_t range = 0; range < ranges.size(); ++range) {
        SCOPED_TRACE("range " + ranges[range]);
        std::vector<double> v;
        ASSERT_TRUE(host->Evaluate(group.counterData, range, names, &v).ok());
        EXPECT_NEAR(v[1] * 100.0, v[0], 1e-9 * std::max(1.0, v[0]));  // .ratio is .pct / 100
        EXPECT_EQ(v[2], 1.0);                                          // a hit rate's largest value
        EXPECT_GT(v[3], 0.0);
        EXPECT_LE(v[6], v[3]);  // no unit more than the total
        EXPECT_LE(v[4], v[6]);  // the average within the extremes
        EXPECT_GE(v[4], v[5]);
        const double units = v[3] / v[4];  // the total is the average times the number of DRAM units
        EXPECT_NEAR(units, std::round(units), 1e-6) << units;
    }
}

}  // namespace
}  // namespace gpa::cuda
