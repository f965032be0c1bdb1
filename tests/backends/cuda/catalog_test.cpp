// The counters offered on a chip, built offline from CUPTI's host API: GH100 (Hopper) and GA100 (Ampere).
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

#include "backends/cuda/chip_counters.h"
#include "backends/cuda/cuda_profiling.h"  // the header gpaprof includes compiles on its own
#include "backends/cuda/cupti_host.h"
#include "backends/cuda/gpa_compute_counters.h"
#include "backends/cuda/metric_catalog.h"
#include "cuda_test_support.h"

namespace gpa::cuda {
namespace {

// The GPA compute vocabulary mapped in reference/gpa_counters_on_gh100.tsv, plus the ComputeShader counters.
const char* const kMapped[] = {"GPUTime",      "GPUBusy",        "Wavefronts",     "VALUInsts",       "SALUInsts",
                               "VFetchInsts",  "SFetchInsts",    "VWriteInsts",    "FlatVMemInsts",   "FlatLDSInsts",
                               "LDSInsts",     "VALUUtilization", "VALUBusy",      "SALUBusy",        "FetchSize",
                               "WriteSize",    "CacheHit",       "L1CacheHit",     "L2CacheHit",      "MemUnitBusy",
                               "MemUnitStalled", "LDSBankConflict", "CSThreadGroups", "CSThreads"};

class ChipCatalog : public ::testing::TestWithParam<const char*> {};

TEST_P(ChipCatalog, OffersEveryMappedGpaCounterAndNoAbsentOne) {
    OPENGPA_REQUIRE_CUPTI(api);
    ChipCounters chip;
    const Outcome built = BuildChipCounters(*api, GetParam(), {}, &chip);
    ASSERT_TRUE(built.ok()) << built.reason();
    const CounterCatalog catalog = chip.Catalog(true, false);
    for (const OmittedCounter& omitted : catalog.omitted()) ADD_FAILURE() << omitted.name << ": " << omitted.reason;
    for (const char* name : kMapped) EXPECT_TRUE(catalog.Find(name).has_value()) << name << " missing on " << GetParam();
    EXPECT_EQ(catalog.size(), std::size(kMapped));
    for (const AbsentCounter& absent : AbsentGpaCounters()) EXPECT_FALSE(catalog.Find(absent.name)) << absent.name;
    EXPECT_FALSE(catalog.Find("GDSInsts"));
    EXPECT_FALSE(catalog.Find("WriteUnitStalled"));
}

TEST_P(ChipCatalog, GpaCountersHaveTheSeedsGroupsTypesAndUsages) {
    OPENGPA_REQUIRE_CUPTI(api);
    ChipCounters chip;
    ASSERT_TRUE(BuildChipCounters(*api, GetParam(), {}, &chip).ok());
    const CounterCatalog catalog = chip.Catalog(true, false);
    auto check = [&](const char* name, const char* group, GPA_Type type, GPA_Usage_Type usage) {
        const auto index = catalog.Find(name);
        ASSERT_TRUE(index) << name;
        EXPECT_EQ(catalog.at(*index).group, group) << name;
        EXPECT_EQ(catalog.at(*index).type, type) << name;
        EXPECT_EQ(catalog.at(*index).usage, usage) << name;
    };
    check("GPUTime", "Timing", GPA_TYPE_FLOAT64, GPA_USAGE_TYPE_MILLISECONDS);
    check("GPUBusy", "Timing", GPA_TYPE_FLOAT64, GPA_USAGE_TYPE_PERCENTAGE);
    check("Wavefronts", "General", GPA_TYPE_UINT64, GPA_USAGE_TYPE_ITEMS);
    check("VALUInsts", "General", GPA_TYPE_FLOAT64, GPA_USAGE_TYPE_ITEMS);
    check("VALUUtilization", "General", GPA_TYPE_FLOAT64, GPA_USAGE_TYPE_PERCENTAGE);
    check("FetchSize", "GlobalMemory", GPA_TYPE_FLOAT64, GPA_USAGE_TYPE_KILOBYTES);
    check("WriteSize", "GlobalMemory", GPA_TYPE_FLOAT64, GPA_USAGE_TYPE_KILOBYTES);
    check("L2CacheHit", "GlobalMemory", GPA_TYPE_FLOAT64, GPA_USAGE_TYPE_PERCENTAGE);
    check("LDSBankConflict", "LocalMemory", GPA_TYPE_FLOAT64, GPA_USAGE_TYPE_PERCENTAGE);
    check("LDSInsts", "LocalMemory", GPA_TYPE_FLOAT64, GPA_USAGE_TYPE_ITEMS);
    check("CSThreadGroups", "ComputeShader", GPA_TYPE_UINT64, GPA_USAGE_TYPE_ITEMS);
    // Approximations say so.
    for (const char* name : {"SALUInsts", "SFetchInsts", "VALUBusy", "SALUBusy", "MemUnitBusy", "MemUnitStalled"}) {
        const auto index = catalog.Find(name);
        ASSERT_TRUE(index) << name;
        EXPECT_NE(catalog.at(*index).description.find("APPROXIMATION"), std::string::npos) << name;
    }
}

TEST_P(ChipCatalog, RawCountersAreEveryBaseMetricByHardwareUnit) {
    OPENGPA_REQUIRE_CUPTI(api);
    ChipCounters chip;
    ASSERT_TRUE(BuildChipCounters(*api, GetParam(), {}, &chip).ok());
    EXPECT_GT(chip.metrics->metrics().size(), 2000u);
    const CounterCatalog raw = chip.Catalog(false, true);
    EXPECT_EQ(raw.size(), chip.hardware.size());  // names are unique, case-insensitively too
    std::set<std::string> names;
    for (const HardwareCounter& counter : chip.hardware) names.insert(counter.name);
    for (const MetricInfo& metric : chip.metrics->metrics()) {
        EXPECT_TRUE(names.count(metric.rawName)) << metric.rawName;
        // A configuration-prefixed twin of a plain metric is offered once, under the plain name.
        if (metric.baseName.find('.') != std::string::npos) {
            const std::string plain = metric.baseName.substr(metric.baseName.rfind('.') + 1);
            EXPECT_FALSE(chip.metrics->Find(RawCounterName(plain, metric.kind))) << metric.baseName;
        }
    }
    auto find = [&](const std::string& name) -> const HardwareCounter* {
        for (const HardwareCounter& counter : chip.hardware) {
            if (counter.name == name) return &counter;
        }
        return nullptr;
    };
    const HardwareCounter* bytes = find("dram__bytes_read.sum");
    ASSERT_NE(bytes, nullptr);
    EXPECT_EQ(bytes->group, "dram");
    EXPECT_EQ(bytes->type, GPA_TYPE_UINT64);
    EXPECT_EQ(bytes->usage, GPA_USAGE_TYPE_BYTES);
    EXPECT_NE(bytes->description.find("bytes read from DRAM"), std::string::npos) << bytes->description;
    const HardwareCounter* time = find("gpu__time_duration.sum");
    ASSERT_NE(time, nullptr);
    EXPECT_EQ(time->usage, GPA_USAGE_TYPE_NANOSECONDS);
    const HardwareCounter* ratio = find("lts__t_request_hit_rate.ratio");
    ASSERT_NE(ratio, nullptr);
    EXPECT_EQ(ratio->type, GPA_TYPE_FLOAT64);
    EXPECT_EQ(ratio->usage, GPA_USAGE_TYPE_RATIO);
    const HardwareCounter* throughput = find("sm__throughput.avg.pct_of_peak_sustained_elapsed");
    ASSERT_NE(throughput, nullptr);
    EXPECT_EQ(throughput->usage, GPA_USAGE_TYPE_PERCENTAGE);
    EXPECT_EQ(throughput->group, "sm");
    // Submetrics the GPA formulas read are hardware counters too.
    const HardwareCounter* busiest = find("l1tex__cycles_elapsed.max");
    ASSERT_NE(busiest, nullptr);
    EXPECT_EQ(busiest->usage, GPA_USAGE_TYPE_CYCLES);
    const HardwareCounter* percent = find("lts__t_request_hit_rate.pct");
    ASSERT_NE(percent, nullptr);
    EXPECT_EQ(percent->usage, GPA_USAGE_TYPE_PERCENTAGE);
}

TEST_P(ChipCatalog, DerivedAndRawTogetherWhenBothAreAskedFor) {
    OPENGPA_REQUIRE_CUPTI(api);
    ChipCounters chip;
    ASSERT_TRUE(BuildChipCounters(*api, GetParam(), {}, &chip).ok());
    const CounterCatalog both = chip.Catalog(true, true);
    EXPECT_EQ(both.size(), std::size(kMapped) + chip.hardware.size());
    EXPECT_TRUE(both.Find("gputime"));  // look-ups are case-insensitive
    EXPECT_TRUE(both.Find("smsp__warps_launched.sum"));
}

INSTANTIATE_TEST_SUITE_P(Chips, ChipCatalog, ::testing::Values("GH100", "GA100"));

TEST(ChipCatalog, ChipsChooseTheFormulaTheirMetricsAllow) {
    OPENGPA_REQUIRE_CUPTI(api);
    ChipCounters hopper, ampere;
    ASSERT_TRUE(BuildChipCounters(*api, "GH100", {}, &hopper).ok());
    ASSERT_TRUE(BuildChipCounters(*api, "GA100", {}, &ampere).ok());
    auto formula = [](const ChipCounters& chip, const std::string& name) {
        for (const DerivedCounterDefinition& definition : chip.derived) {
            if (definition.name == name) return definition.expression;
        }
        return std::string();
    };
    // GA100 has a separate FP16 pipe; Hopper runs FP16 on its FMA pipe.
    EXPECT_NE(formula(ampere, "VALUInsts").find("pipe_fp16"), std::string::npos);
    EXPECT_EQ(formula(hopper, "VALUInsts").find("pipe_fp16"), std::string::npos);
    // STSM (stmatrix) exists from Hopper on.
    EXPECT_NE(formula(hopper, "LDSInsts").find("stsm"), std::string::npos);
    EXPECT_EQ(formula(ampere, "LDSInsts").find("stsm"), std::string::npos);
}

TEST(ChipCatalog, EveryChipCuptiSupportsBuildsAndOmitsOnlyWhatItLacks) {
    OPENGPA_REQUIRE_CUPTI(api);
    std::vector<std::string> chips;
    ASSERT_TRUE(SupportedChips(*api, &chips).ok());
    EXPECT_GE(chips.size(), 10u);
    size_t built = 0;
    for (const std::string& name : chips) {
        ChipCounters chip;
        const Outcome outcome = BuildChipCounters(*api, name, {}, &chip);
        if (!outcome.ok()) {
            // CUPTI lists some chips (Tegra GV11B) it cannot range-profile; it must say so, not fail otherwise.
            EXPECT_NE(outcome.reason().find("CUPTI_ERROR_NOT_SUPPORTED"), std::string::npos) << name << ": " << outcome.reason();
            continue;
        }
        ++built;
        const CounterCatalog catalog = chip.Catalog(true, false);
        EXPECT_GE(catalog.size(), 15u) << name;
        for (const OmittedCounter& omitted : catalog.omitted()) {
            EXPECT_NE(omitted.reason.find("not measurable"), std::string::npos) << name << " " << omitted.name;
        }
    }
    EXPECT_GE(built, chips.size() - 2);
}

TEST(ChipCatalog, ResolveRefusesNamesCuptiDoesNotKnow) {
    OPENGPA_REQUIRE_CUPTI(api);
    std::unique_ptr<MetricCatalog> catalog;
    ASSERT_TRUE(MetricCatalog::Load(*api, "GH100", {}, &catalog).ok());
    HardwareCounter counter;
    EXPECT_EQ(catalog->Resolve("dram__bytes_read.bogus", &counter).status(), GPA_STATUS_ERROR_NOT_FOUND);
    EXPECT_EQ(catalog->Resolve("no_such__metric.sum", &counter).status(), GPA_STATUS_ERROR_NOT_FOUND);
    EXPECT_TRUE(catalog->Resolve("sm__cycles_active.avg", &counter).ok());
}

// A catalog that describes metrics only when named (gpaprof's, made ahead of the first launch) gives every name
// the counter the full catalog gives it: raw counters of plain and prefixed base metrics, other submetrics, the
// GPA counters' inputs; and refuses what the full one refuses. It lists none up front.
TEST(ChipCatalog, ANamedScopeCatalogResolvesAsTheFullOne) {
    OPENGPA_REQUIRE_CUPTI(api);
    std::unique_ptr<MetricCatalog> full, named;
    ASSERT_TRUE(MetricCatalog::Load(*api, "GH100", {}, &full).ok());
    ASSERT_TRUE(MetricCatalog::Load(*api, "GH100", {}, &named, CatalogScope::Named).ok());
    EXPECT_TRUE(named->metrics().empty());
    std::vector<std::string> names = MetricsReadByGpaCounters();
    names.insert(names.end(), {"sm__warps_active.avg.pct_of_peak_sustained_active", "lts__t_sector_hit_rate.pct",
                               "dram__bytes_read.sum", "SM__WARPS_LAUNCHED.SUM", "dram__bytes_read.bogus",
                               "no_such__metric.sum"});
    size_t prefixed = 0;
    for (const MetricInfo& metric : full->metrics()) {
        if (metric.baseName.find('.') != std::string::npos && prefixed++ < 3) names.push_back(metric.rawName);
    }
    EXPECT_GT(prefixed, 0u);
    for (const std::string& name : names) {
        HardwareCounter expected, actual;
        const Outcome a = full->Resolve(name, &expected);
        const Outcome b = named->Resolve(name, &actual);
        ASSERT_EQ(a.status(), b.status()) << name << ": " << a.reason() << " / " << b.reason();
        if (!a.ok()) continue;
        EXPECT_EQ(actual.name, expected.name) << name;
        EXPECT_EQ(actual.description, expected.description) << name;
        EXPECT_EQ(actual.group, expected.group) << name;
        EXPECT_EQ(actual.type, expected.type) << name;
        EXPECT_EQ(actual.usage, expected.usage) << name;
    }
    std::vector<std::string> unknownFull, unknownNamed;
    const std::vector<HardwareCounter> all = full->HardwareCounters(names, &unknownFull);
    const std::vector<HardwareCounter> some = named->HardwareCounters(names, &unknownNamed);
    EXPECT_EQ(unknownNamed, unknownFull);
    EXPECT_GT(all.size(), 3000u);
    EXPECT_LT(some.size(), names.size());
    for (const HardwareCounter& counter : some) {
        EXPECT_TRUE(std::any_of(all.begin(), all.end(), [&](const HardwareCounter& c) { return c.name == counter.name; }))
            << counter.name;
    }
}

TEST(ChipCatalog, UnknownChipSaysWhichChipsExist) {
    OPENGPA_REQUIRE_CUPTI(api);
    ChipCounters chip;
    const Outcome built = BuildChipCounters(*api, "XY999", {}, &chip);
    EXPECT_EQ(built.status(), GPA_STATUS_ERROR_HARDWARE_NOT_SUPPORTED);
    EXPECT_NE(built.reason().find("GH100"), std::string::npos) << built.reason();
}

TEST(GpaCounterTable, EveryFormulaReadsOnlyMetricsTheTableDeclares) {
    std::set<std::string> declared;
    for (const std::string& name : MetricsReadByGpaCounters()) declared.insert(name);
    for (const GpaComputeCounter& counter : GpaComputeCounterTable()) {
        EXPECT_FALSE(counter.formulas.empty()) << counter.name;
        const std::string description = counter.description;
        EXPECT_TRUE(description.find("NVIDIA") != std::string::npos || description.find("APPROXIMATION") != std::string::npos)
            << counter.name << " does not say how NVIDIA measures it";
        for (const GpaCounterFormula& formula : counter.formulas) {
            for (const std::string& name : Expression::Identifiers(formula.expression)) EXPECT_TRUE(declared.count(name));
        }
    }
}

}  // namespace
}  // namespace gpa::cuda
