// gpaprof on programs of shapes the other tests do not have: CUDA graphs (cuda_apps/cuda_graphs.cu: a graph
// captured from a stream and one built node by node, launched between ordinary launches, from two threads) and
// programs that change contexts or mix other work with launches (cuda_apps/context_shapes.cu). A launch into a
// stream being captured runs nothing: under -p it must not be profiled (profiling it broke the application's
// capture, 2026-11-27) and under -t it must not wait for an activity record. Every kernel a graph runs is in the
// trace, and has its .csv and .occupancy row (issue 33): measured with gpaprof's own replay, NA with a note under
// CUPTI's kernel replay, which cannot run a graph.
// On a GPU; skips, saying why, without one.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "gpaprof_cuda_fixture.h"

namespace gpaprof {
namespace {

constexpr int kThreads = 2, kReplays = 10;
constexpr size_t kGraphKernels = 6 * kThreads * kReplays;
constexpr size_t kOrdinaryLaunches = kThreads * kReplays;
constexpr uint64_t kN = 1 << 14;  // context_shapes.cu's threads per launch

struct GraphMode {
    std::string name;
    std::vector<std::string> options;
    std::map<std::string, std::string> environment;
};

TEST_F(GpaprofCuda, GraphKernelsAreTracedAndCapturedLaunchesAreNoDispatches) {
    const std::vector<GraphMode> modes = {
        {"trace", {"-t"}, {}},
        {"counters", {"-p"}, {}},
        {"counters_passes", {"-p", "--counters", kMultiPassCounters}, {}},
        {"counters_cupti", {"-p", "--counters", kMultiPassCounters}, {{"GPAPROF_CUDA_REPLAY", "cupti"}}},
        {"all", {"-t", "-p", "-O"}, {}},
        {"all_passes", {"-t", "-p", "-O", "--counters", kMultiPassCounters}, {}},
    };
    for (const GraphMode& mode : modes) {
        SCOPED_TRACE(mode.name);
        std::vector<std::string> options = mode.options;
        options.insert(options.end(), {"-o", mode.name});
        std::map<std::string, std::string> environment = mode.environment;
        environment["GPAPROF_CRASH_BACKTRACE"] = "1";
        const Outcome run = Profile(options,
                                    {App("cuda_graphs"), "--threads", std::to_string(kThreads), "--replays",
                                     std::to_string(kReplays)},
                                    environment);
        EXPECT_EQ(run.exitCode, 0) << run.out << run.err;
        EXPECT_NE(run.out.find("results correct"), std::string::npos) << "the application's results: " << run.out;
        EXPECT_EQ(run.err.find("had no activity record"), std::string::npos) << run.err;
        const bool trace = mode.options[0] == "-t";
        const bool counters = mode.name != "trace";
        size_t graphLines = 0, ordinaryLines = 0, timed = 0, copyKernelLines = 0;
        if (trace) {
            const AtpFile atp = ReadAtp(mode.name + ".atp");
            const ApiTracePart* cuda = CudaPart(atp);
            ASSERT_NE(cuda, nullptr) << run.err;
            for (const KernelTimestamp& kernel : cuda->kernelTimestamps) {
                if (IsDriverCopyKernel(kernel)) {  // the captured graph's copy, run as a kernel by the driver
                    ++copyKernelLines;
                    continue;
                }
                (kernel.packetType == "CUDA_GRAPH_KERNEL" ? graphLines : ordinaryLines) += 1;
                timed += kernel.end > kernel.start;
            }
            EXPECT_EQ(graphLines, kGraphKernels) << run.err;
            EXPECT_EQ(ordinaryLines, kOrdinaryLaunches) << run.err;
            EXPECT_EQ(Calls(*cuda, "cudaGraphLaunch").size(), 2 * kOrdinaryLaunches);
            // The application's calls, the launches it made into the capture too (3 per thread).
            EXPECT_EQ(Calls(*cuda, "cudaLaunchKernel").size(), kOrdinaryLaunches + 3 * kThreads);
            if (!counters) {
                EXPECT_EQ(timed, kGraphKernels + kOrdinaryLaunches) << "every kernel line has its times";
            }
        }
        if (counters) {
            const CsvFile csv = ReadCsv(mode.name + ".csv");
            EXPECT_EQ(csv.rows.size(), kOrdinaryLaunches + kGraphKernels) << run.err;
            const bool cupti = mode.environment.count("GPAPROF_CUDA_REPLAY") != 0;
            size_t measured = 0, graphRows = 0, graphMeasured = 0;
            for (const DispatchRow& row : csv.rows) {
                const bool graph = row.graphLaunch.has_value();
                graphRows += graph;
                if (!graph) {
                    EXPECT_EQ(KernelOf(row), "_Z3addPjji");
                }
                size_t values = 0;
                for (const CounterValue& value : row.counters) {
                    values += value.name != "GPUTime" && value.kind != CounterValue::Kind::NotAvailable;
                }
                measured += values;
                graphMeasured += graph && values > 0;
            }
            EXPECT_GT(measured, 0u) << "the rows have counter values";
            EXPECT_EQ(graphRows, kGraphKernels) << run.err;
            EXPECT_EQ(run.err.find("does not profile the kernels of a graph"), std::string::npos) << run.err;
            if (cupti) {
                EXPECT_EQ(graphMeasured, 0u) << "CUPTI's kernel replay cannot run a graph: NA, never invented";
                EXPECT_NE(run.err.find("GPAPROF_CUDA_REPLAY=cupti"), std::string::npos) << run.err;
            } else {
                EXPECT_EQ(graphMeasured, kGraphKernels) << run.err;
            }
            if (trace) {
                EXPECT_EQ(ReadOccupancy(mode.name + ".occupancy").rows.size(), kOrdinaryLaunches + kGraphKernels);
            }
        }
        std::printf("FIGURE cuda_graphs mode=%s exit=%d graph_kernel_lines=%zu ordinary_kernel_lines=%zu timed=%zu "
                    "driver_copy_kernel_lines=%zu\n",
                    mode.name.c_str(), run.exitCode, graphLines, ordinaryLines, timed, copyKernelLines);
    }
}

// Two contexts of one device in turn (on one thread, and one context per thread), a device reset in the middle of
// the run, host functions and events between launches, cooperative launches: every launch has its row and its kernel line, the results are the program's.
TEST_F(GpaprofCuda, EveryDispatchOfProgramsThatChangeContextsOrMixOtherWork) {
    const std::vector<GraphMode> modes = {
        {"trace", {"-t"}, {}},
        {"passes", {"-p", "--counters", kMultiPassCounters}, {}},
        {"passes_cupti", {"-p", "--counters", kMultiPassCounters}, {{"GPAPROF_CUDA_REPLAY", "cupti"}}},
        {"traced_passes_cupti", {"-t", "-p", "--counters", kMultiPassCounters}, {{"GPAPROF_CUDA_REPLAY", "cupti"}}},
        {"all", {"-t", "-p", "-O"}, {}},
    };
    for (const std::string way : {"contexts", "reset", "host-func", "cooperative", "thread-contexts"}) {
        for (const GraphMode& mode : modes) {
            const std::string name = way + "_" + mode.name;
            SCOPED_TRACE(name);
            std::vector<std::string> options = mode.options;
            options.insert(options.end(), {"-o", name});
            std::map<std::string, std::string> environment = mode.environment;
            environment["GPAPROF_CRASH_BACKTRACE"] = "1";
            const Outcome run = Profile(options, {App("context_shapes"), "--way", way, "--launches", "10"}, environment);
            if (run.exitCode == 77) {
                std::printf("SKIPPED %s: %s", name.c_str(), run.out.c_str());
                continue;
            }
            EXPECT_EQ(run.exitCode, 0) << run.out << run.err;
            EXPECT_NE(run.out.find("results correct"), std::string::npos) << run.out;
            const size_t launches = way == "contexts" || way == "reset" || way == "thread-contexts" ? 20 : 10;
            size_t kernelLines = 0, rows = 0, measured = 0;
            if (mode.options[0] == "-t") {
                const AtpFile atp = ReadAtp(name + ".atp");
                const ApiTracePart* cuda = CudaPart(atp);
                ASSERT_NE(cuda, nullptr) << run.err;
                kernelLines = cuda->kernelTimestamps.size();
                EXPECT_EQ(kernelLines, launches) << run.err;
                // Every launch call is in the trace too (CUPTI's kernel replay once stopped calling back on a thread
                // that went to another context: 2 of 20 launches traced).
                size_t launchCalls = 0;
                for (const auto& thread : cuda->threads) {
                    for (const ApiCall& call : thread.entries) {
                        launchCalls += call.name == "cudaLaunchKernel" || call.name == "cudaLaunchCooperativeKernel";
                    }
                }
                EXPECT_EQ(launchCalls, launches) << run.err;
                EXPECT_EQ(run.err.find("had no activity record"), std::string::npos) << run.err;
            }
            if (mode.name != "trace") {
                const CsvFile csv = ReadCsv(name + ".csv");
                rows = csv.rows.size();
                EXPECT_EQ(rows, launches) << run.err;
                for (const DispatchRow& row : csv.rows) {
                    const CounterValue* warps = Counter(row, "smsp__warps_launched.sum");
                    measured += warps && warps->kind != CounterValue::Kind::NotAvailable && warps->integer == kN / 32;
                }
                if (mode.name != "all") {  // the default set has no smsp__warps_launched.sum
                    EXPECT_EQ(measured, launches) << "every row has its counters\n" << run.err;
                }
            }
            std::printf("FIGURE context_shapes way=%s mode=%s exit=%d kernel_lines=%zu rows=%zu measured=%zu\n",
                        way.c_str(), mode.name.c_str(), run.exitCode, kernelLines, rows, measured);
        }
    }
}

}  // namespace
}  // namespace gpaprof
