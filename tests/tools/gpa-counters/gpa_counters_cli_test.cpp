// gpa-counters, run as users run it: offline listings and plans for named chips, and its errors.
#include <gtest/gtest.h>

#include <dlfcn.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "backends/cuda/chip_counters.h"
#include "backends/cuda/cupti_loader.h"

namespace {

struct CliRun {
    int status = -1;
    std::string output;  // stdout and stderr
};

CliRun Cli(const std::string& arguments) {
    CliRun run;
    const std::string command = std::string(OPENGPA_GPA_COUNTERS) + " " + arguments + " 2>&1";
    FILE* pipe = popen(command.c_str(), "r");
    if (pipe == nullptr) return run;
    std::array<char, 4096> buffer{};
    while (size_t n = fread(buffer.data(), 1, buffer.size(), pipe)) run.output.append(buffer.data(), n);
    const int status = pclose(pipe);
    run.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return run;
}

bool HaveCupti() {
    const gpa::cuda::CuptiApi* api = nullptr;
    return gpa::cuda::LoadCupti(&api).ok();
}

#define REQUIRE_CUPTI() \
    if (!HaveCupti()) GTEST_SKIP() << "CUPTI is not installed on this machine"

// The number on the last "passes: N" line (no <regex>: GCC 12 warns inside it under the sanitizers).
int Passes(const std::string& output) {
    const size_t at = output.rfind("passes: ");
    if (at == std::string::npos || (at > 0 && output[at - 1] != '\n')) return -1;
    return std::atoi(output.c_str() + at + 8);
}

TEST(GpaCountersCli, HelpExplainsTheOptions) {
    const CliRun run = Cli("--help");
    EXPECT_EQ(run.status, 0);
    for (const char* text : {"Usage", "--chip", "--device", "--hardware", "--counters", "passes: N", "--list-chips"}) {
        EXPECT_NE(run.output.find(text), std::string::npos) << text;
    }
}

TEST(GpaCountersCli, ListsTheGpaCountersOfAChipWithoutAGpu) {
    REQUIRE_CUPTI();
    for (const char* chip : {"GH100", "GA100"}) {
        const CliRun run = Cli(std::string("--chip ") + chip);
        EXPECT_EQ(run.status, 0) << run.output;
        for (const char* counter : {"GPUTime", "Wavefronts", "VALUInsts", "FetchSize", "L2CacheHit", "LDSBankConflict",
                                    "CSThreadGroups"}) {
            EXPECT_NE(run.output.find(counter), std::string::npos) << chip << " " << counter;
        }
        EXPECT_NE(run.output.find("absent on NVIDIA GPUs: GDSInsts"), std::string::npos);
    }
}

TEST(GpaCountersCli, ListsRawMetricsByHardwareUnit) {
    REQUIRE_CUPTI();
    const CliRun run = Cli("--chip GH100 --hardware");
    EXPECT_EQ(run.status, 0);
    EXPECT_NE(run.output.find("[dram]"), std::string::npos);
    EXPECT_NE(run.output.find("[lts]"), std::string::npos);
    EXPECT_NE(run.output.find("dram__bytes_read.sum"), std::string::npos);
    EXPECT_NE(run.output.find("lts__t_request_hit_rate.ratio"), std::string::npos);
}

TEST(GpaCountersCli, ListsGroups) {
    REQUIRE_CUPTI();
    const CliRun run = Cli("--chip GH100 --groups");
    EXPECT_EQ(run.status, 0);
    for (const char* group : {"Timing", "General", "GlobalMemory", "LocalMemory", "ComputeShader", "dram", "smsp"}) {
        EXPECT_NE(run.output.find(group), std::string::npos) << group;
    }
}

TEST(GpaCountersCli, PlansGpaAndRawCountersAndEndsWithThePassCount) {
    REQUIRE_CUPTI();
    const gpa::cuda::CuptiApi* api = nullptr;
    ASSERT_TRUE(gpa::cuda::LoadCupti(&api).ok());
    gpa::cuda::ChipCounters chip;
    ASSERT_TRUE(gpa::cuda::BuildChipCounters(*api, "GH100", {}, &chip).ok());
    const gpa::CounterCatalog catalog = chip.Catalog(true, true);
    const std::vector<std::vector<std::string>> sets = {
        {"GPUTime"},
        {"GPUTime", "FetchSize", "WriteSize"},
        {"VALUUtilization", "LDSBankConflict", "L2CacheHit"},
        {"FlatLDSInsts", "FlatVMemInsts"},
        {"GPUTime", "pcie__read_bytes.sum", "dram__bytes_read.sum"},
        {"smsp__inst_executed_op_global_ld.sum", "Wavefronts", "VFetchInsts"},
    };
    for (const auto& set : sets) {
        std::string list;
        for (const std::string& name : set) list += (list.empty() ? "" : ",") + name;
        const CliRun run = Cli("--chip GH100 --counters " + list);
        ASSERT_EQ(run.status, 0) << run.output;
        gpa::cuda::CounterPlan plan;
        ASSERT_TRUE(gpa::cuda::PlanCounters(*api, chip, catalog, set, {}, &plan).ok());
        EXPECT_EQ(Passes(run.output), static_cast<int>(plan.plan.passCount)) << list;
        EXPECT_EQ(run.output.substr(run.output.rfind("passes: ")), "passes: " + std::to_string(plan.plan.passCount) + "\n");
    }
    const CliRun interconnect = Cli("--chip GH100 --counters GPUTime,pcie__read_bytes.sum,dram__bytes_read.sum");
    EXPECT_NE(interconnect.output.find("configuration 2"), std::string::npos) << interconnect.output;
}

TEST(GpaCountersCli, PlansNcuMetricNamesWithThePassCountOfTheLibrary) {
    REQUIRE_CUPTI();
    const gpa::cuda::CuptiApi* api = nullptr;
    ASSERT_TRUE(gpa::cuda::LoadCupti(&api).ok());
    const std::vector<std::vector<std::string>> sets = {
        {"sm__warps_active.avg.pct_of_peak_sustained_active"},
        {"lts__t_sector_hit_rate.pct"},
        {"dram__throughput.avg.pct_of_peak_sustained_elapsed"},
        {"GPUTime", "sm__warps_active.avg.pct_of_peak_sustained_active", "lts__t_sector_hit_rate.pct",
         "dram__throughput.avg.pct_of_peak_sustained_elapsed", "smsp__inst_executed.sum.per_cycle_active"},
        {"L2CacheHit", "LTS__T_SECTOR_HIT_RATE.RATIO", "dram__bytes_read.sum.per_second"},
    };
    for (const auto& set : sets) {
        std::string list;
        for (const std::string& name : set) list += (list.empty() ? "" : ",") + name;
        const CliRun run = Cli("--chip GH100 --counters " + list);
        ASSERT_EQ(run.status, 0) << run.output;
        gpa::cuda::ChipCounters chip;
        ASSERT_TRUE(gpa::cuda::BuildChipCounters(*api, "GH100", {}, &chip).ok());
        ASSERT_TRUE(chip.AddMetrics(set).ok());
        const gpa::CounterCatalog catalog = chip.Catalog(true, true);
        gpa::cuda::CounterPlan plan;
        ASSERT_TRUE(gpa::cuda::PlanCounters(*api, chip, catalog, set, {}, &plan).ok());
        EXPECT_EQ(Passes(run.output), static_cast<int>(plan.plan.passCount)) << list;
        for (const std::string& metric : plan.metrics) EXPECT_NE(run.output.find("  " + metric + "\n"), std::string::npos) << metric;
    }
    // CUPTI's spelling whatever the letter case asked for.
    const CliRun upper = Cli("--chip GH100 --counters SM__WARPS_ACTIVE.AVG.PCT_OF_PEAK_SUSTAINED_ACTIVE");
    EXPECT_EQ(upper.status, 0) << upper.output;
    EXPECT_NE(upper.output.find("  sm__warps_active.avg.pct_of_peak_sustained_active\n"), std::string::npos) << upper.output;
}

TEST(GpaCountersCli, HardwareListingSaysWhichOtherNamesAreAccepted) {
    REQUIRE_CUPTI();
    const CliRun run = Cli("--chip GH100 --hardware");
    EXPECT_EQ(run.status, 0);
    for (const char* text : {"Every name ncu accepts for GH100 is accepted too",
                             "(listed as <metric>.sum): .sum .avg .min .max, each alone or followed by one of",
                             ".per_cycle_active", "(listed as <metric>.ratio): .max_rate .pct .ratio",
                             "(listed as <metric>.avg.pct_of_peak_sustained_elapsed): .sum .avg .min .max, each followed by one of"}) {
        EXPECT_NE(run.output.find(text), std::string::npos) << text;
    }
}

TEST(GpaCountersCli, BadMetricNamesSayWhatIsWrong) {
    REQUIRE_CUPTI();
    const std::pair<const char*, const char*> cases[] = {
        {"sm__warps_active.avg.pct", "did you mean sm__warps_active.avg.pct_of_peak_sustained_active"},
        {"lts__t_sector_hit_rate.avg", "is not a submetric of lts__t_sector_hit_rate (a ratio metric)"},
        {"dram__throughput", "is a base metric (a throughput) and names no value"},
        {"sm__warps_activ.avg", "did you mean sm__warps_active"},
        {"GPUTme", "did you mean GPUTime?"},
    };
    for (const auto& [name, reason] : cases) {
        const CliRun run = Cli(std::string("--chip GH100 --counters GPUTime,") + name);
        EXPECT_EQ(run.status, 1) << name;
        EXPECT_NE(run.output.find(std::string("no counter is named '") + name + "' on GH100: "), std::string::npos) << run.output;
        EXPECT_NE(run.output.find(reason), std::string::npos) << run.output;
    }
}

TEST(GpaCountersCli, PlansEveryGpaCounterTogether) {
    REQUIRE_CUPTI();
    const CliRun run = Cli("--chip GH100 --all");
    EXPECT_EQ(run.status, 0);
    EXPECT_GE(Passes(run.output), 5);
}

TEST(GpaCountersCli, ListsTheChipsCuptiSupports) {
    REQUIRE_CUPTI();
    const CliRun run = Cli("--list-chips");
    EXPECT_EQ(run.status, 0);
    EXPECT_NE(run.output.find("GH100\n"), std::string::npos);
    EXPECT_NE(run.output.find("GA100\n"), std::string::npos);
}

TEST(GpaCountersCli, ErrorsSayWhatToDo) {
    REQUIRE_CUPTI();
    const CliRun unknownChip = Cli("--chip XY999");
    EXPECT_EQ(unknownChip.status, 1);
    EXPECT_NE(unknownChip.output.find("GH100"), std::string::npos) << unknownChip.output;
    const CliRun unknownCounter = Cli("--chip GH100 --counters GPUTime,NoSuchCounter");
    EXPECT_EQ(unknownCounter.status, 1);
    EXPECT_NE(unknownCounter.output.find("NoSuchCounter"), std::string::npos);
    const CliRun badOption = Cli("--frobnicate");
    EXPECT_EQ(badOption.status, 2);
    EXPECT_NE(badOption.output.find("--help"), std::string::npos);
    const CliRun missingValue = Cli("--chip");
    EXPECT_EQ(missingValue.status, 2);
}

TEST(GpaCountersCli, WithoutAChipAndWithoutADriverItSaysHowToPlanOffline) {
    REQUIRE_CUPTI();
    void* driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (driver != nullptr) {
        dlclose(driver);
        GTEST_SKIP() << "this machine has the NVIDIA driver, so the local device is used";
    }
    const CliRun run = Cli("");
    EXPECT_EQ(run.status, 1);
    EXPECT_NE(run.output.find("--chip"), std::string::npos) << run.output;
}

}  // namespace
