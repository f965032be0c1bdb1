// gpaprof's per-kernel counter values on a GPU: equal to Nsight Compute's (ncu) on the same program and metrics,
// the same with gpaprof's own replay as with CUPTI's kernel replay, one execution's results after replay, a clean
// L2 for every measured kernel, the default set without replay. Skips, saying why, without a CUDA device (or
// without ncu for the comparisons).
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <sstream>
#include <set>
#include <string>
#include <vector>

#include "gpaprof_cuda_fixture.h"
#include "tools/gpaprof/files/atp_file.h"
#include "tools/gpaprof/files/csv_file.h"

namespace gpaprof {
namespace {

// ncu's raw page (--csv --page raw): a header row with the metric names, a row of units, then one row per kernel.
struct NcuTable {
    std::vector<std::string> header;
    std::vector<std::vector<std::string>> kernels;
    size_t Column(const std::string& name) const {
        return static_cast<size_t>(std::find(header.begin(), header.end(), name) - header.begin());
    }
    double Value(size_t kernel, const std::string& metric) const {
        std::string text = kernels[kernel][Column(metric)];
        text.erase(std::remove(text.begin(), text.end(), ','), text.end());
        return std::strtod(text.c_str(), nullptr);
    }
};

NcuTable ParseNcuRawPage(const std::string& out) {
    std::vector<std::vector<std::string>> rows;
    std::stringstream lines(out);
    std::string line;
    while (std::getline(lines, line)) {
        if (line.empty() || line[0] != '"') continue;
        std::vector<std::string> fields;
        std::string field;
        bool quoted = false;
        for (char c : line) {
            if (c == '"') {
                quoted = !quoted;
            } else if (c == ',' && !quoted) {
                fields.push_back(field);
                field.clear();
            } else {
                field += c;
            }
        }
        fields.push_back(field);
        rows.push_back(fields);
    }
    NcuTable table;
    if (rows.size() < 2) return table;
    table.header = rows[0];
    table.kernels.assign(rows.begin() + 2, rows.end());
    return table;
}

// "saxpy" from "_Z5saxpyPfPKffi" (ncu's raw page names kernels demangled: "saxpy(float *, const float *, float, int)").
std::string PlainName(const std::string& mangled) {
    size_t digits = 2;
    while (digits < mangled.size() && std::isdigit(static_cast<unsigned char>(mangled[digits]))) ++digits;
    const size_t length = std::strtoul(mangled.substr(2, digits - 2).c_str(), nullptr, 10);
    return mangled.substr(digits, length);
}

// ncu on the same program, with the same NVIDIA metrics: counts of deterministic kernels are exact.
TEST_F(GpaprofCuda, PerKernelValuesMatchNsightCompute) {
    if (!OnPath("ncu")) GTEST_SKIP() << "ncu (Nsight Compute) is not on PATH";
    const std::vector<std::string> metrics = {"smsp__warps_launched.sum", "smsp__inst_executed.sum",
                                              "smsp__thread_inst_executed.sum", "lts__t_sectors_srcunit_tex_op_read.sum",
                                              "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"};
    std::string list;
    for (const std::string& metric : metrics) list += (list.empty() ? "" : ",") + metric;
    const Outcome ours = Profile({"-p", "--counters", list, "-o", "versus"}, {App("runtime_kernels"), "--iterations", "1"});
    ASSERT_EQ(ours.exitCode, 0);
    const CsvFile csv = ReadCsv("versus.csv");
    ASSERT_EQ(csv.rows.size(), 3u);

    const Outcome ncu = Execute({"ncu", "--metrics", list, "--clock-control", "none", "--csv", "--page", "raw",
                             "--print-units", "base", App("runtime_kernels"), "--iterations", "1"},
                            directory_);
    ASSERT_EQ(ncu.exitCode, 0) << ncu.err << ncu.out;
    const NcuTable table = ParseNcuRawPage(ncu.out);
    const size_t kernelColumn = table.Column("Kernel Name");
    ASSERT_LT(kernelColumn, table.header.size()) << ncu.out;
    ASSERT_EQ(table.kernels.size(), csv.rows.size());
    for (size_t k = 0; k < table.kernels.size(); ++k) {
        SCOPED_TRACE(csv.rows[k].method);
        EXPECT_EQ(table.kernels[k][kernelColumn].rfind(PlainName(KernelOf(csv.rows[k])) + "(", 0), 0u)
            << table.kernels[k][kernelColumn];
        for (const std::string& metric : metrics) {
            ASSERT_LT(table.Column(metric), table.header.size()) << metric;
            const double theirs = table.Value(k, metric);
            const CounterValue* mine = Counter(csv.rows[k], metric);
            ASSERT_NE(mine, nullptr) << metric;
            ASSERT_NE(mine->kind, CounterValue::Kind::NotAvailable) << metric;
            std::printf("FIGURE versus_ncu %s %s gpaprof=%.0f ncu=%.0f\n", KernelOf(csv.rows[k]).c_str(), metric.c_str(),
                        mine->AsDouble(), theirs);
            EXPECT_EQ(mine->AsDouble(), theirs) << metric;
        }
    }
}

// ---- gpaprof's own replay (counter sets of several passes) ----------------------------------------------------

// The counter line GPAPROF_CUDA_STATS=1 prints: kernels, replayed by gpaprof, replayed by CUPTI.
// Warps each kernel of replay_kernels launches (256 threads per block, 256 blocks; globals 8 blocks; prefix 1 warp).
uint64_t ReplayKernelWarps(const std::string& kernel) {
    if (kernel.find("globals") != std::string::npos) return 64;
    if (kernel.find("prefix") != std::string::npos) return 1;
    if (kernel.find("increment") != std::string::npos) return 1;
    return 2048;  // scale, count
}

// Non-idempotent kernels (in place, atomics, __device__ variables, a kernel reading its own output, a
// cuLaunchKernelEx launch) under a set of several passes: the program checks that its results are those of
// one execution per launch; every dispatch was replayed by gpaprof (none fell back) and has its counters.
TEST_F(GpaprofCuda, OwnReplayGivesTheResultsOfOneExecution) {
    struct Variant {
        std::string name;
        std::vector<std::string> command;
        std::map<std::string, std::string> environment;
    };
    const std::vector<Variant> variants = {
        {"plain", {App("replay_kernels"), "--iterations", "3"}, {}},
        {"async", {App("replay_kernels"), "--iterations", "3", "--async"}, {}},
        {"ptds", {App("replay_kernels_ptds"), "--iterations", "3", "--default-stream"}, {}},
        {"writer", {App("replay_kernels"), "--iterations", "3", "--writer-thread"}, {}},
        // Batches of 4: the passes of a batch run while the next iterations' kernels wait.
        {"batch4", {App("replay_kernels"), "--iterations", "3"}, {{"GPAPROF_CUDA_COUNTER_BATCH", "4"}}},
        {"immediate", {App("replay_kernels"), "--iterations", "3"}, {{"GPAPROF_CUDA_OWN_REPLAY", "immediate"}}},
        {"immediate-writer", {App("replay_kernels"), "--iterations", "3", "--writer-thread"},
         {{"GPAPROF_CUDA_OWN_REPLAY", "immediate"}}},
    };
    for (const Variant& variant : variants) {
        SCOPED_TRACE(variant.name);
        std::map<std::string, std::string> environment = variant.environment;
        environment["GPAPROF_CUDA_STATS"] = "1";
        const Outcome run = Profile({"-p", "--counters", kMultiPassCounters, "-o", "own_" + variant.name},
                                      variant.command, environment);
        ASSERT_EQ(run.exitCode, 0) << "the program found results other than those of one execution:\n" << run.err;
        EXPECT_EQ(run.err.find("kernel replay instead"), std::string::npos) << "no dispatch fell back";
        const CsvFile csv = ReadCsv("own_" + variant.name + ".csv");
        ASSERT_EQ(csv.rows.size(), 15u);
        const CounterStats stats = ParseStats(run.err);
        EXPECT_EQ(stats.kernels, 15) << run.err;
        EXPECT_EQ(stats.own, 15) << "every dispatch replayed by gpaprof";
        EXPECT_EQ(stats.cupti, 0);
        for (const DispatchRow& row : csv.rows) {
            SCOPED_TRACE(row.method);
            for (const std::string& name : kDeterministic) {
                const CounterValue* value = Counter(row, name);
                ASSERT_NE(value, nullptr) << name;
                EXPECT_NE(value->kind, CounterValue::Kind::NotAvailable) << name;
            }
            EXPECT_EQ(Counter(row, "smsp__warps_launched.sum")->AsDouble(), static_cast<double>(ReplayKernelWarps(KernelOf(row))));
        }
    }
}

// A run of replay_kernels --iterations 3 plus an option that adds two launches of `kernel` an iteration, under a set of
// several passes, whose program found the results of one execution (exit status 0): every one of the 21 dispatches
// was replayed by gpaprof and measured, and 6 were `kernel`'s.
void ExpectEachLaunchReplayedAndMeasured(const Outcome& run, const CsvFile& csv, const std::string& kernel) {
    EXPECT_EQ(run.err.find("are NA"), std::string::npos) << run.err;
    EXPECT_EQ(run.err.find("kernel replay instead"), std::string::npos) << "no dispatch fell back";
    ASSERT_EQ(csv.rows.size(), 21u);
    EXPECT_EQ(ParseStats(run.err).own, 21) << "every dispatch replayed by gpaprof";
    size_t ofKernel = 0;
    for (const DispatchRow& row : csv.rows) {
        SCOPED_TRACE(KernelOf(row));
        ofKernel += KernelOf(row).find(kernel) != std::string::npos;
        for (const std::string& name : kDeterministic) {
            const CounterValue* value = Counter(row, name);
            ASSERT_NE(value, nullptr) << name;
            EXPECT_NE(value->kind, CounterValue::Kind::NotAvailable) << name;
        }
        EXPECT_EQ(Counter(row, "smsp__warps_launched.sum")->AsDouble(), static_cast<double>(ReplayKernelWarps(KernelOf(row))));
    }
    EXPECT_EQ(ofKernel, 6u);
}

// A deferred launch is issued again when its batch ends: a kernel whose dynamic shared memory limit the program
// lowers between two launches (as cuDNN does) must still be measured in both, and run once each. Before the batch
// ended at the lower limit, the 96 KiB launch failed again with CUDA_ERROR_INVALID_VALUE and its batch was NA (DDP
// ResNet-18: cuDNN's bn_fw_tr_1C11_singleread, one batch a step).
TEST_F(GpaprofCuda, OwnReplayKeepsTheSharedMemoryLimitOfEachLaunch) {
    const Outcome run = Profile({"-p", "--counters", kMultiPassCounters, "-o", "own_shared_limits"},
                                  {App("replay_kernels"), "--iterations", "3", "--shared-limits"}, {{"GPAPROF_CUDA_STATS", "1"}});
    ASSERT_EQ(run.exitCode, 0) << "the program found results other than those of one execution:\n" << run.err;
    ExpectEachLaunchReplayedAndMeasured(run, ReadCsv("own_shared_limits.csv"), "shared_add");
}

// The same for a function attribute a launch depends on: clusters of 16 blocks are allowed for one launch, then no
// longer (NON_PORTABLE_CLUSTER_SIZE_ALLOWED back to 0) before a launch in clusters of 8. A batch that kept the first
// launch to its end issued it again under the new setting, where clusters of 16 are refused
// (CUDA_ERROR_INVALID_CLUSTER_SIZE before 2026-11-30).
TEST_F(GpaprofCuda, OwnReplayKeepsTheClusterSettingOfEachLaunch) {
    const Outcome run = Profile({"-p", "--counters", kMultiPassCounters, "-o", "own_cluster_limits"},
                                  {App("replay_kernels"), "--iterations", "3", "--cluster-limits"}, {{"GPAPROF_CUDA_STATS", "1"}});
    if (run.exitCode == 77) GTEST_SKIP() << "this device cannot run clusters of 16 blocks: " << run.out;
    ASSERT_EQ(run.exitCode, 0) << "the program found results other than those of one execution:\n" << run.err;
    ExpectEachLaunchReplayedAndMeasured(run, ReadCsv("own_cluster_limits.csv"), "cluster_add");
}

// What replaying a batch cost a dispatch is said once, where it is large (GPAPROF_CUDA_REPLAY_COST_NOTE_MS, 20 by
// default; 0 here, so that this small program's batches are said to be costly).
TEST_F(GpaprofCuda, OwnReplaySaysOnceWhatABatchCostsADispatch) {
    const Outcome run = Profile({"-p", "--counters", kMultiPassCounters, "-o", "own_cost"},
                                  {App("replay_kernels"), "--iterations", "3"}, {{"GPAPROF_CUDA_REPLAY_COST_NOTE_MS", "0"}});
    ASSERT_EQ(run.exitCode, 0) << run.err;
    const std::string said = "replaying a batch of ";
    const size_t at = run.err.find(said);
    ASSERT_NE(at, std::string::npos) << run.err;
    std::printf("FIGURE own_replay_cost %s\n", run.err.substr(at, run.err.find('\n', at) - at).c_str());
    EXPECT_NE(run.err.find(" ms a dispatch ("), std::string::npos) << run.err;
    EXPECT_NE(run.err.find("MiB of device memory"), std::string::npos) << run.err;
    std::set<std::string> lines;  // (the end of the run may list a note again: one distinct line, not one a batch)
    for (size_t from = 0; (from = run.err.find("gpaprof: " + said, from)) != std::string::npos; ++from) {
        lines.insert(run.err.substr(from, run.err.find('\n', from) - from));
    }
    EXPECT_EQ(lines.size(), 1u) << "said once, not for every batch\n" << run.err;
    // At the default threshold: whether this program's batches are said to be costly (a figure, not a check).
    const Outcome quiet = Profile({"-p", "--counters", kMultiPassCounters, "-o", "own_cost_default"},
                                  {App("replay_kernels"), "--iterations", "3"});
    ASSERT_EQ(quiet.exitCode, 0) << quiet.err;
    std::printf("FIGURE own_replay_cost_default noted=%d\n", quiet.err.find(said) != std::string::npos ? 1 : 0);
}

// With the trace as well: one kernel line per launch of the application (none of gpaprof's replay launches);
// their device times are there, or gpaprof says why not.
TEST_F(GpaprofCuda, OwnReplayKeepsOneKernelLinePerLaunchInTheTrace) {
    for (const std::string& counters : {std::string(kMultiPassCounters), std::string("Wavefronts")}) {
        SCOPED_TRACE(counters);
        const Outcome run = Profile({"-t", "-p", "--counters", counters, "-o", "own_trace"},
                                      {App("replay_kernels"), "--iterations", "2"}, {{"GPAPROF_CUDA_STATS", "1"}});
        ASSERT_EQ(run.exitCode, 0) << run.err;
        EXPECT_EQ(run.err.find("kernel replay instead"), std::string::npos) << "no dispatch fell back";
        const AtpFile atp = ReadAtp("own_trace.atp");
        const ApiTracePart* cuda = CudaPart(atp);
        ASSERT_NE(cuda, nullptr);
        EXPECT_EQ(cuda->kernelTimestamps.size(), 10u) << "the application's launches only";
        size_t timed = 0;
        for (const KernelTimestamp& kernel : cuda->kernelTimestamps) timed += kernel.end > kernel.start;
        std::printf("FIGURE own_replay_trace counters=%s kernels=%zu with_times=%zu\n", counters.c_str(),
                    cuda->kernelTimestamps.size(), timed);
        if (timed != cuda->kernelTimestamps.size()) {
            EXPECT_NE(run.err.find("kernel start and end are 0"), std::string::npos) << "gpaprof says why";
        }
        EXPECT_EQ(ReadCsv("own_trace.csv").rows.size(), 10u);
    }
}

// Managed memory and mapped pinned host memory cannot be restored reliably: those dispatches fall back to
// CUPTI's kernel replay, gpaprof says so, the counters are there and the results are those of one execution.
TEST_F(GpaprofCuda, MemoryGpaprofCannotRestoreFallsBackToKernelReplay) {
    for (const std::string& option : {std::string("--managed"), std::string("--pinned")}) {
        SCOPED_TRACE(option);
        const std::string name = "fallback" + option.substr(1);
        const Outcome run = Profile({"-p", "--counters", kMultiPassCounters, "-o", name},
                                      {App("replay_kernels"), "--iterations", "2", option}, {{"GPAPROF_CUDA_STATS", "1"}});
        EXPECT_EQ(run.exitCode, 0) << run.err;
        EXPECT_NE(run.err.find("kernel replay instead of gpaprof's own replay"), std::string::npos) << run.err;
        EXPECT_NE(run.err.find(option == "--managed" ? "managed memory" : "pinned host memory"), std::string::npos);
        const CounterStats stats = ParseStats(run.err);
        EXPECT_GT(stats.cupti, 0) << run.err;
        const CsvFile csv = ReadCsv(name + ".csv");
        ASSERT_EQ(csv.rows.size(), 12u);
        for (const DispatchRow& row : csv.rows) {
            const CounterValue* warps = Counter(row, "smsp__warps_launched.sum");
            ASSERT_NE(warps, nullptr);
            ASSERT_NE(warps->kind, CounterValue::Kind::NotAvailable) << row.method;
            EXPECT_EQ(warps->AsDouble(), static_cast<double>(ReplayKernelWarps(KernelOf(row)))) << row.method;
        }
    }
}

// The same counts from gpaprof's own replay, from CUPTI's kernel replay (GPAPROF_CUDA_REPLAY=cupti) and from
// ncu, for a set of several passes.
TEST_F(GpaprofCuda, OwnReplayValuesEqualKernelReplayAndNsightCompute) {
    const std::vector<std::string> program = {App("runtime_kernels"), "--iterations", "1"};
    const Outcome own = Profile({"-p", "--counters", kMultiPassCounters, "-o", "by_own"}, program,
                                  {{"GPAPROF_CUDA_STATS", "1"}, {"GPAPROF_CUDA_REPLAY", "own"}});
    ASSERT_EQ(own.exitCode, 0) << own.err;
    EXPECT_EQ(ParseStats(own.err).own, 3) << own.err;
    const Outcome cupti = Profile({"-p", "--counters", kMultiPassCounters, "-o", "by_cupti"}, program,
                                    {{"GPAPROF_CUDA_STATS", "1"}, {"GPAPROF_CUDA_REPLAY", "cupti"}});
    ASSERT_EQ(cupti.exitCode, 0) << cupti.err;
    EXPECT_EQ(ParseStats(cupti.err).cupti, 3) << cupti.err;
    const CsvFile mine = ReadCsv("by_own.csv");
    const CsvFile theirs = ReadCsv("by_cupti.csv");
    ASSERT_EQ(mine.rows.size(), 3u);
    ASSERT_EQ(theirs.rows.size(), 3u);
    for (size_t k = 0; k < mine.rows.size(); ++k) {
        SCOPED_TRACE(mine.rows[k].method);
        EXPECT_EQ(KernelOf(mine.rows[k]), KernelOf(theirs.rows[k]));
        for (const std::string& name : kDeterministic) {
            const CounterValue* a = Counter(mine.rows[k], name);
            const CounterValue* b = Counter(theirs.rows[k], name);
            ASSERT_TRUE(a && b) << name;
            ASSERT_NE(a->kind, CounterValue::Kind::NotAvailable) << name;
            ASSERT_NE(b->kind, CounterValue::Kind::NotAvailable) << name;
            std::printf("FIGURE own_vs_kernel_replay %s %s own=%.2f cupti=%.2f\n", KernelOf(mine.rows[k]).c_str(),
                        name.c_str(), a->AsDouble(), b->AsDouble());
            EXPECT_EQ(a->AsDouble(), b->AsDouble()) << name;
        }
    }
    if (!OnPath("ncu")) GTEST_SKIP() << "ncu (Nsight Compute) is not on PATH: compared with kernel replay only";
    std::string metrics;
    for (size_t m = 0; m < 5; ++m) metrics += (metrics.empty() ? "" : ",") + kDeterministic[m];
    std::vector<std::string> command = {"ncu", "--metrics", metrics, "--clock-control", "none", "--csv", "--page", "raw",
                                        "--print-units", "base"};
    command.insert(command.end(), program.begin(), program.end());
    const Outcome ncu = Execute(command, directory_);
    ASSERT_EQ(ncu.exitCode, 0) << ncu.err << ncu.out;
    const NcuTable table = ParseNcuRawPage(ncu.out);
    ASSERT_EQ(table.kernels.size(), mine.rows.size()) << ncu.out;
    for (size_t k = 0; k < mine.rows.size(); ++k) {
        for (size_t m = 0; m < 5; ++m) {
            ASSERT_LT(table.Column(kDeterministic[m]), table.header.size());
            EXPECT_EQ(Counter(mine.rows[k], kDeterministic[m])->AsDouble(), table.Value(k, kDeterministic[m]))
                << KernelOf(mine.rows[k]) << " " << kDeterministic[m];
        }
    }
}

// The default set is one pass: nothing is replayed or saved, the profiler brackets batches of launches.
// Every measured kernel starts from a clean L2, as under ncu's default cache control: saxpy reads x and y (4 MiB
// each, far less than the L2), so from a clean L2 it reads all 8 MiB from DRAM, and after the previous kernel or
// gpaprof's restore of y it reads almost nothing. Every way gpaprof measures a launch is checked: one pass,
// the deferred batch and immediate replay; and without the flush
// (GPAPROF_CUDA_CACHE_CONTROL=none) the same rows must show the warm cache, or the check could not fail.
TEST_F(GpaprofCuda, EveryMeasuredKernelStartsFromACleanL2) {
    constexpr double kSaxpyBytes = 2.0 * 4.0 * (1 << 20);  // x and y of runtime_kernels
    struct Variant {
        std::string name, counters;
        std::map<std::string, std::string> environment;
        bool flushed = true;
    };
    const std::string onePass = "dram__bytes_read.sum,smsp__warps_launched.sum";
    const std::string twoPasses = "dram__bytes_read.sum,lts__t_sector_op_read_hit_rate.pct";
    const std::vector<Variant> variants = {
        {"one_pass", onePass, {}},
        {"batch", twoPasses, {}},
        {"immediate", twoPasses, {{"GPAPROF_CUDA_OWN_REPLAY", "immediate"}}},
        {"no_flush", twoPasses, {{"GPAPROF_CUDA_CACHE_CONTROL", "none"}}, false},
        {"no_flush_one_pass", onePass, {{"GPAPROF_CUDA_CACHE_CONTROL", "none"}}, false},
    };
    for (const Variant& variant : variants) {
        SCOPED_TRACE(variant.name);
        std::map<std::string, std::string> environment = variant.environment;
        environment["GPAPROF_CUDA_STATS"] = "1";
        const Outcome run = Profile({"-p", "--counters", variant.counters, "-o", "l2_" + variant.name},
                                    {App("runtime_kernels"), "--iterations", "3"}, environment);
        ASSERT_EQ(run.exitCode, 0) << run.err;
        EXPECT_EQ(run.err.find("kernel replay instead"), std::string::npos) << "no dispatch fell back";
        EXPECT_EQ(run.err.find("not flushed"), std::string::npos) << "the flush worked";
        const CsvFile csv = ReadCsv("l2_" + variant.name + ".csv");
        ASSERT_EQ(csv.rows.size(), 9u);
        size_t warm = 0, saxpys = 0;
        for (const DispatchRow& row : csv.rows) {
            if (KernelOf(row) != kSaxpy) continue;
            ++saxpys;
            const CounterValue* bytes = Counter(row, "dram__bytes_read.sum");
            ASSERT_NE(bytes, nullptr);
            ASSERT_NE(bytes->kind, CounterValue::Kind::NotAvailable) << row.method;
            std::printf("FIGURE l2_state variant=%s row=%llu dram_bytes_read=%.0f\n", variant.name.c_str(),
                        static_cast<unsigned long long>(row.executionOrder), bytes->AsDouble());
            if (variant.flushed) {
                EXPECT_GE(bytes->AsDouble(), 0.9 * kSaxpyBytes) << row.method << ": read from a clean L2";
            }
            warm += bytes->AsDouble() < 0.5 * kSaxpyBytes;
        }
        EXPECT_EQ(saxpys, 6u);
        if (!variant.flushed) {
            EXPECT_GT(warm, 0u) << "without the flush some saxpy finds its data in the L2";
        }
    }
}

TEST_F(GpaprofCuda, DefaultSetIsCollectedWithoutReplay) {
    const Outcome run = Profile({"-p", "-o", "default_set"}, {App("replay_kernels"), "--iterations", "2"},
                                  {{"GPAPROF_CUDA_STATS", "1"}});
    ASSERT_EQ(run.exitCode, 0) << run.err;
    const CounterStats stats = ParseStats(run.err);
    EXPECT_EQ(stats.kernels, 10) << run.err;
    EXPECT_EQ(stats.own, 0);
    EXPECT_EQ(stats.cupti, 0);
    const CsvFile csv = ReadCsv("default_set.csv");
    ASSERT_EQ(csv.rows.size(), 10u);
    for (const DispatchRow& row : csv.rows) {
        const CounterValue* wavefronts = Counter(row, "Wavefronts");
        ASSERT_NE(wavefronts, nullptr);
        ASSERT_NE(wavefronts->kind, CounterValue::Kind::NotAvailable);
        EXPECT_EQ(wavefronts->integer, ReplayKernelWarps(KernelOf(row))) << row.method;
        ASSERT_TRUE(row.timeMs);
        EXPECT_GT(*row.timeMs, 0.0);
        EXPECT_LT(*row.timeMs, 50.0) << "a kernel's own duration, not a range's";
    }
}

}  // namespace
}  // namespace gpaprof
