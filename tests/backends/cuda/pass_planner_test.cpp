// Pass planning through CUPTI's scheduler: the count reported is CUPTI's own count for the configurations
// the session will use, metrics are de-duplicated, domains that cannot share a configuration are split.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <random>
#include <set>

#include "backends/cuda/chip_counters.h"
#include "backends/cuda/cupti_host.h"
#include "backends/cuda/cupti_pass_planner.h"
#include "cuda_test_support.h"

namespace gpa::cuda {
namespace {

// CUPTI's count for a configuration of exactly these metrics, built independently of the planner.
uint32_t CuptiPasses(const CuptiApi& api, const std::string& chip, const std::vector<std::string>& metrics) {
    std::unique_ptr<HostObject> host;
    EXPECT_TRUE(HostObject::Create(api, chip, {}, &host).ok());
    EXPECT_EQ(host->AddMetrics(metrics), CUPTI_SUCCESS);
    std::vector<uint8_t> image;
    EXPECT_TRUE(host->ConfigImage(&image).ok());
    uint32_t passes = 0;
    EXPECT_TRUE(ConfigPassCount(api, image, &passes).ok());
    return passes;
}

// The chip's hardware counters whose names start with `prefix`, in catalog order.
std::vector<std::string> MetricsStartingWith(const ChipCounters& chip, const std::string& prefix) {
    std::vector<std::string> metrics;
    for (const HardwareCounter& counter : chip.hardware) {
        if (counter.name.rfind(prefix, 0) == 0) metrics.push_back(counter.name);
    }
    return metrics;
}

// The plan's count is the sum of CUPTI's counts for its groups, every metric is planned exactly once, and
// no group is worse than CUPTI's count for the metrics in the order they were given.
void ExpectPlanMatchesCupti(const CuptiApi& api, const std::string& chip, const std::vector<std::string>& metrics) {
    MetricPlan plan;
    const Outcome planned = PlanMetrics(api, chip, {}, metrics, &plan);
    ASSERT_TRUE(planned.ok()) << planned.reason();
    uint32_t sum = 0;
    std::multiset<std::string> scheduled;
    for (const ConfigGroup& group : plan.groups) {
        const uint32_t cupti = CuptiPasses(api, chip, group.metrics);
        EXPECT_EQ(group.passes, cupti);
        sum += cupti;
        scheduled.insert(group.metrics.begin(), group.metrics.end());
    }
    EXPECT_EQ(plan.passCount, sum);
    const std::set<std::string> unique(metrics.begin(), metrics.end());
    EXPECT_EQ(scheduled.size(), unique.size());
    EXPECT_EQ(std::set<std::string>(scheduled.begin(), scheduled.end()), unique);
    if (plan.groups.size() == 1) {
        std::vector<std::string> givenOrder;
        for (const std::string& metric : metrics) {
            if (std::find(givenOrder.begin(), givenOrder.end(), metric) == givenOrder.end()) givenOrder.push_back(metric);
        }
        EXPECT_LE(plan.passCount, CuptiPasses(api, chip, givenOrder));
    }
}

TEST(CuptiPassPlanner, EachGpaCounterAloneAndAllTogetherMatchCupti) {
    OPENGPA_REQUIRE_CUPTI(api);
    for (const char* chipName : {"GH100", "GA100"}) {
        ChipCounters chip;
        ASSERT_TRUE(BuildChipCounters(*api, chipName, {}, &chip).ok());
        const CounterCatalog catalog = chip.Catalog(true, false);
        std::vector<std::string> all;
        for (const ExposedCounter& counter : catalog.counters()) {
            std::vector<std::string> metrics;
            for (uint32_t index : counter.hardware) metrics.push_back(chip.hardware[index].name);
            SCOPED_TRACE(std::string(chipName) + " " + counter.name);
            ExpectPlanMatchesCupti(*api, chipName, metrics);
            all.insert(all.end(), metrics.begin(), metrics.end());
        }
        SCOPED_TRACE(std::string(chipName) + " all GPA counters");
        ExpectPlanMatchesCupti(*api, chipName, all);
    }
}

TEST(CuptiPassPlanner, RandomSetsOfGpaAndRawMetricsMatchCupti) {
    OPENGPA_REQUIRE_CUPTI(api);
    ChipCounters chip;
    ASSERT_TRUE(BuildChipCounters(*api, "GH100", {}, &chip).ok());
    std::vector<std::string> pool;
    for (const HardwareCounter& counter : chip.hardware) {
        const std::string& name = counter.name;
        if (name.rfind("sm", 0) == 0 || name.rfind("l1tex", 0) == 0 || name.rfind("lts__t_sectors", 0) == 0 ||
            name.rfind("dram", 0) == 0 || name.rfind("gpu__", 0) == 0) {
            pool.push_back(name);
        }
    }
    ASSERT_GT(pool.size(), 200u);
    std::mt19937 random(7);
    for (size_t size : {2u, 3u, 5u, 8u, 13u, 21u, 34u, 55u, 89u}) {
        std::vector<std::string> metrics;
        for (size_t i = 0; i < size; ++i) metrics.push_back(pool[random() % pool.size()]);
        SCOPED_TRACE("random set of " + std::to_string(size));
        ExpectPlanMatchesCupti(*api, "GH100", metrics);
    }
}

TEST(CuptiPassPlanner, DuplicatesArePlannedOnce) {
    OPENGPA_REQUIRE_CUPTI(api);
    MetricPlan once, twice;
    ASSERT_TRUE(PlanMetrics(*api, "GH100", {}, {"dram__bytes_read.sum", "smsp__warps_launched.sum"}, &once).ok());
    ASSERT_TRUE(PlanMetrics(*api, "GH100", {},
                            {"dram__bytes_read.sum", "smsp__warps_launched.sum", "dram__bytes_read.sum",
                             "smsp__warps_launched.sum"},
                            &twice)
                    .ok());
    EXPECT_EQ(once.passCount, twice.passCount);
    ASSERT_EQ(twice.groups.size(), 1u);
    EXPECT_EQ(twice.groups[0].metrics.size(), 2u);
}

TEST(CuptiPassPlanner, InterconnectMetricsGetTheirOwnConfiguration) {
    OPENGPA_REQUIRE_CUPTI(api);
    // CUPTI refuses PCIe/NVLink metrics in one configuration with SM, L2 or DRAM metrics.
    const std::vector<std::string> mixed = {"gpu__time_duration.sum", "pcie__read_bytes.sum", "dram__bytes_read.sum",
                                            "nvltx__bytes.sum", "sm__cycles_active.avg", "lts__t_sectors.sum",
                                            "nvlrx__bytes.sum", "pcie__write_bytes.sum"};
    MetricPlan plan;
    const Outcome planned = PlanMetrics(*api, "GH100", {}, mixed, &plan);
    ASSERT_TRUE(planned.ok()) << planned.reason();
    ASSERT_EQ(plan.groups.size(), 2u);
    std::set<std::string> interconnect(plan.groups[0].metrics.begin(), plan.groups[0].metrics.end());
    EXPECT_TRUE(interconnect.count("pcie__read_bytes.sum"));
    EXPECT_TRUE(interconnect.count("nvltx__bytes.sum"));
    EXPECT_TRUE(interconnect.count("nvlrx__bytes.sum"));
    EXPECT_FALSE(interconnect.count("dram__bytes_read.sum"));
    EXPECT_FALSE(interconnect.count("sm__cycles_active.avg"));
    ExpectPlanMatchesCupti(*api, "GH100", mixed);
    // Interconnect metrics alone share one configuration.
    ExpectPlanMatchesCupti(*api, "GH100", {"pcie__read_bytes.sum", "pcie__write_bytes.sum", "nvltx__bytes.sum"});
    ExpectPlanMatchesCupti(*api, "GA100", {"pcie__read_bytes.sum", "sm__cycles_active.avg", "dram__bytes_write.sum"});
}

TEST(CuptiPassPlanner, LargeRawSetsStillPlanAndMatchCupti) {
    OPENGPA_REQUIRE_CUPTI(api);
    ChipCounters chip;
    ASSERT_TRUE(BuildChipCounters(*api, "GH100", {}, &chip).ok());
    std::vector<std::string> smsp;
    for (const HardwareCounter& counter : chip.hardware) {
        if (counter.group == "smsp" && smsp.size() < 150) smsp.push_back(counter.name);
    }
    MetricPlan plan;
    ASSERT_TRUE(PlanMetrics(*api, "GH100", {}, smsp, &plan).ok());
    EXPECT_GE(plan.passCount, 10u);  // the basis of the GPU test's session of ten and more passes
    ExpectPlanMatchesCupti(*api, "GH100", smsp);
}

TEST(CuptiPassPlanner, PlansAreDeterministic) {
    OPENGPA_REQUIRE_CUPTI(api);
    ChipCounters chip;
    ASSERT_TRUE(BuildChipCounters(*api, "GH100", {}, &chip).ok());
    const std::vector<std::string> metrics = MetricsStartingWith(chip, "smsp__inst_executed_op");
    MetricPlan first, second;
    ASSERT_TRUE(PlanMetrics(*api, "GH100", {}, metrics, &first).ok());
    ASSERT_TRUE(PlanMetrics(*api, "GH100", {}, metrics, &second).ok());
    ASSERT_EQ(first.groups.size(), second.groups.size());
    for (size_t g = 0; g < first.groups.size(); ++g) {
        EXPECT_EQ(first.groups[g].metrics, second.groups[g].metrics);
        EXPECT_EQ(first.groups[g].configImage, second.groups[g].configImage);
    }
}

// The same passes, groups, metrics and configuration images in both plans.
void ExpectSamePlan(const MetricPlan& actual, const MetricPlan& expected) {
    EXPECT_EQ(actual.passCount, expected.passCount);
    ASSERT_EQ(actual.groups.size(), expected.groups.size());
    for (size_t g = 0; g < expected.groups.size(); ++g) {
        EXPECT_EQ(actual.groups[g].metrics, expected.groups[g].metrics);
        EXPECT_EQ(actual.groups[g].configImage, expected.groups[g].configImage);
    }
}

// Plans that share a configuration cache (gpaprof plans a set, the set with one counter more, then the one it
// keeps) give exactly the plans made without it, split sets included, and a second plan of the same metrics
// makes no configuration anew.
TEST(CuptiPassPlanner, ASharedConfigurationCacheGivesTheSamePlans) {
    OPENGPA_REQUIRE_CUPTI(api);
    ChipCounters chip;
    ASSERT_TRUE(BuildChipCounters(*api, "GH100", {}, &chip).ok());
    const std::vector<std::string> smsp = MetricsStartingWith(chip, "smsp__inst_executed_op");
    std::vector<std::string> more = smsp;
    more.push_back("sm__warps_active.avg.pct_of_peak_sustained_active");
    const std::vector<std::string> split = {"gpu__time_duration.sum", "pcie__read_bytes.sum", "dram__bytes_read.sum",
                                            "sm__cycles_active.avg"};
    ConfigurationCache cache;
    const std::vector<const std::vector<std::string>*> sets = {&smsp, &more, &smsp, &split, &split};
    for (const std::vector<std::string>* metrics : sets) {
        for (uint32_t orderings : {2u, 6u}) {
            PlannerOptions alone, shared;
            alone.orderings = shared.orderings = orderings;
            shared.cache = &cache;
            MetricPlan expected, actual;
            ASSERT_TRUE(PlanMetrics(*api, "GH100", {}, *metrics, &expected, alone).ok());
            const size_t cachedBefore = cache.byOrder.size();
            ASSERT_TRUE(PlanMetrics(*api, "GH100", {}, *metrics, &actual, shared).ok());
            ASSERT_NO_FATAL_FAILURE(ExpectSamePlan(actual, expected));
            for (size_t g = 0; g < expected.groups.size(); ++g) {
                EXPECT_EQ(actual.groups[g].passes, expected.groups[g].passes);
            }
            // Planned before with as many orderings: every order was in the cache.
            if (metrics == &smsp && cachedBefore > 0 && orderings == 2) {
                EXPECT_EQ(cache.byOrder.size(), cachedBefore);
            }
        }
    }
    EXPECT_GE(cache.byOrder.size(), 6u);
}

// Orderings made on several threads at once (CUPTI's host API documents no thread safety; each thread has host
// objects of its own) give byte for byte the plans made one ordering at a time, repeatedly, split sets included.
TEST(CuptiPassPlanner, PlanningOnSeveralThreadsGivesTheSamePlans) {
    OPENGPA_REQUIRE_CUPTI(api);
    ChipCounters chip;
    ASSERT_TRUE(BuildChipCounters(*api, "GH100", {}, &chip).ok());
    const std::vector<std::string> smsp = MetricsStartingWith(chip, "smsp__inst_executed_op");
    const std::vector<std::string> split = {"gpu__time_duration.sum", "pcie__read_bytes.sum", "dram__bytes_read.sum",
                                            "sm__cycles_active.avg", "smsp__warps_launched.sum"};
    for (const std::vector<std::string>* metrics : {&smsp, &split}) {
        PlannerOptions alone;
        ConfigurationCache sequential;
        alone.cache = &sequential;
        MetricPlan expected;
        ASSERT_TRUE(PlanMetrics(*api, "GH100", {}, *metrics, &expected, alone).ok());
        for (int round = 0; round < 3; ++round) {
            PlannerOptions parallel;
            parallel.threads = 6;
            ConfigurationCache cache;
            parallel.cache = &cache;
            MetricPlan actual;
            ASSERT_TRUE(PlanMetrics(*api, "GH100", {}, *metrics, &actual, parallel).ok());
            ASSERT_NO_FATAL_FAILURE(ExpectSamePlan(actual, expected));
            // Every ordering tried one at a time was made (on the threads) and kept the same; a split set also
            // has the orderings of the whole set, tried at once before CUPTI refused them.
            EXPECT_GE(cache.byOrder.size(), sequential.byOrder.size());
            for (const auto& [order, made] : sequential.byOrder) {
                const auto found = cache.byOrder.find(order);
                ASSERT_NE(found, cache.byOrder.end());
                ASSERT_EQ(found->second.has_value(), made.has_value());
                if (made) {
                    EXPECT_EQ(found->second->configImage, made->configImage);
                }
            }
        }
    }
}

TEST(CuptiPassPlanner, PlanningThreadsComeFromTheEnvironment) {
    ::setenv("OPENGPA_CUDA_PLAN_THREADS", "3", 1);
    EXPECT_EQ(PlanningThreads(), 3u);
    EXPECT_EQ(PlannerOptionsFromEnvironment().threads, 3u);
    ::setenv("OPENGPA_CUDA_PLAN_THREADS", "zero", 1);
    EXPECT_GE(PlanningThreads(), 1u);
    EXPECT_LE(PlanningThreads(), 8u);
    ::unsetenv("OPENGPA_CUDA_PLAN_THREADS");
}

TEST(CuptiPassPlanner, ConfigurationsCanBeCappedInSize) {
    OPENGPA_REQUIRE_CUPTI(api);
    ChipCounters chip;
    ASSERT_TRUE(BuildChipCounters(*api, "GH100", {}, &chip).ok());
    const CounterCatalog catalog = chip.Catalog(true, false);
    std::vector<std::string> metrics;
    for (const ExposedCounter& counter : catalog.counters()) {
        for (uint32_t index : counter.hardware) metrics.push_back(chip.hardware[index].name);
    }
    PlannerOptions options;
    options.maxMetricsPerConfiguration = 8;
    MetricPlan plan;
    ASSERT_TRUE(PlanMetrics(*api, "GH100", {}, metrics, &plan, options).ok());
    EXPECT_GE(plan.groups.size(), 5u);
    uint32_t sum = 0;
    for (const ConfigGroup& group : plan.groups) {
        EXPECT_LE(group.metrics.size(), 8u);
        EXPECT_EQ(group.passes, CuptiPasses(*api, "GH100", group.metrics));
        sum += group.passes;
    }
    EXPECT_EQ(plan.passCount, sum);
}

TEST(CuptiPassPlanner, LocatePassWalksTheGroups) {
    MetricPlan plan;
    plan.groups.resize(3);
    plan.groups[0].passes = 2;
    plan.groups[1].passes = 1;
    plan.groups[2].passes = 3;
    EXPECT_EQ(plan.LocatePass(0), std::make_pair(0u, 0u));
    EXPECT_EQ(plan.LocatePass(1), std::make_pair(0u, 1u));
    EXPECT_EQ(plan.LocatePass(2), std::make_pair(1u, 0u));
    EXPECT_EQ(plan.LocatePass(5), std::make_pair(2u, 2u));
    EXPECT_EQ(plan.LocatePass(6).first, 3u);
}

TEST(CuptiPassPlanner, UnknownMetricsAreNamed) {
    OPENGPA_REQUIRE_CUPTI(api);
    MetricPlan plan;
    const Outcome planned = PlanMetrics(*api, "GH100", {}, {"dram__bytes_read.sum", "no_such__metric.sum"}, &plan);
    EXPECT_EQ(planned.status(), GPA_STATUS_ERROR_NOT_FOUND);
    EXPECT_NE(planned.reason().find("no_such__metric.sum"), std::string::npos) << planned.reason();
}

TEST(CuptiPassPlanner, TheCorePlannerInterfaceReportsTheSamePassesAndResolvesToTheGroups) {
    OPENGPA_REQUIRE_CUPTI(api);
    ChipCounters chip;
    ASSERT_TRUE(BuildChipCounters(*api, "GH100", {}, &chip).ok());
    const CounterCatalog catalog = chip.Catalog(true, true);
    CuptiPassPlanner planner(*api, "GH100", {}, chip.HardwareNames());
    const std::vector<std::string> names = {"GPUTime", "FetchSize", "VALUUtilization", "pcie__read_bytes.sum", "L2CacheHit"};
    std::vector<std::vector<uint32_t>> inputs;
    for (const std::string& name : names) inputs.push_back(catalog.at(*catalog.Find(name)).hardware);
    PassPlan plan;
    ASSERT_TRUE(planner.Plan(inputs, &plan).ok());
    CounterPlan offline;
    ASSERT_TRUE(PlanCounters(*api, chip, catalog, names, {}, &offline).ok());
    EXPECT_EQ(plan.passCount, offline.plan.passCount);
    EXPECT_GE(offline.plan.groups.size(), 2u);
    CuptiPassPlanner::Resolved resolved;
    ASSERT_TRUE(planner.Resolve(plan, &resolved).ok());
    ASSERT_EQ(resolved.groupCounters.size(), resolved.metrics->groups.size());
    for (size_t g = 0; g < resolved.groupCounters.size(); ++g) {
        for (size_t m = 0; m < resolved.groupCounters[g].size(); ++m) {
            EXPECT_EQ(chip.hardware[resolved.groupCounters[g][m]].name, resolved.metrics->groups[g].metrics[m]);
        }
    }
    // A planner that never saw the plan (its cache lost it) plans it again identically.
    CuptiPassPlanner fresh(*api, "GH100", {}, chip.HardwareNames());
    CuptiPassPlanner::Resolved again;
    ASSERT_TRUE(fresh.Resolve(plan, &again).ok());
    EXPECT_EQ(again.metrics->passCount, plan.passCount);
    EXPECT_EQ(again.groupCounters, resolved.groupCounters);
}

}  // namespace
}  // namespace gpa::cuda
