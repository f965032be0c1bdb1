// The fixture of the GpaprofCudaGraphs tests (cuda_graph_counters_test.cpp): the known answers of
// cuda_apps/graph_known_answers.cu, the rows its launches must give, and the checks shared by the tests (a run of the
// program under gpaprof, its .csv against the expectations, graph rows against eager rows).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "../cuda_apps/graph_known_answers.h"
#include "gpaprof_cuda_fixture.h"
#include "tools/gpaprof/files/atp_file.h"
#include "tools/gpaprof/files/csv_file.h"
#include "tools/gpaprof/files/occupancy_file.h"

namespace gpaprof {

namespace gka = graph_known_answers;

constexpr int kLaunches = gka::kDefaultLaunches;
constexpr int kUpdateAfter = gka::DefaultUpdateAfter(kLaunches);
constexpr double kBufferKiB = gka::kElements * 4.0 / 1024.0;  // one buffer of the program (256 MiB)
// The tolerance of the byte counters (FetchSize, WriteSize, KiB of DRAM traffic): 2% of what the kernels move, as
// the CUDA backend's known-answer tests (tests/gpu/cuda/known_answers_test.cu).
constexpr double kByteTolerance = 0.02 * kBufferKiB;
// What the L2 may still hold, dirty, when a kernel's range ends (written back, and counted, later): H100 and
// H200 have 50 MiB.
constexpr double kL2KiB = 64.0 * 1024.0;
const std::string kOnePass = "Wavefronts,FetchSize,WriteSize";

// One row the program's launches must give, in order.
struct ExpectedRow {
    std::string kernel;
    uint64_t warps = 0;
    int launch = 0;  // 0-based
};

// The rows of `launches` launches: fill (unless disabled; its grid changes after `updateAfter` launches), sum,
// combine.
inline std::vector<ExpectedRow> ExpectedRows(int launches, int updateAfter, bool fillDisabled = false) {
    std::vector<ExpectedRow> rows;
    for (int launch = 0; launch < launches; ++launch) {
        if (!fillDisabled) {
            rows.push_back({gka::kFill, launch < updateAfter ? gka::kFillWarps : gka::kFillWarpsUpdated, launch});
        }
        rows.push_back({gka::kSum, gka::kSumWarps, launch});
        rows.push_back({gka::kCombine, gka::kCombineWarps, launch});
    }
    return rows;
}

// The `graphNode=` (or `graph=`) value of a kernel line's {...} fields; nullopt when absent.
inline std::optional<uint64_t> PacketField(const KernelTimestamp& line, const std::string& key) {
    for (const std::string& lead : {std::string("{"), std::string(",")}) {
        const size_t at = line.packetFields.find(lead + key + "=");
        if (at == std::string::npos) continue;
        const char* digits = line.packetFields.c_str() + at + lead.size() + key.size() + 1;
        if (!std::isdigit(static_cast<unsigned char>(*digits))) return std::nullopt;
        return std::strtoull(digits, nullptr, 10);
    }
    return std::nullopt;
}

inline std::string Text(const std::optional<uint64_t>& value) { return value ? std::to_string(*value) : "NA"; }

inline std::string Lower(std::string text) {
    std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return text;
}

class GpaprofCudaGraphs : public GpaprofCuda {
protected:
    // gpaprof `options` -o `name` -- graph_known_answers `arguments`.
    Outcome RunProgram(const std::string& name, std::vector<std::string> options, const std::vector<std::string>& arguments,
                       const std::map<std::string, std::string>& environment = {}) {
        options.insert(options.end(), {"-o", name});
        std::vector<std::string> command = {App("graph_known_answers")};
        command.insert(command.end(), arguments.begin(), arguments.end());
        std::map<std::string, std::string> env = environment;
        env["GPAPROF_CRASH_BACKTRACE"] = "1";
        const Outcome run = Profile(options, command, env);
        std::printf("---- %s: exit %d, program: %s", name.c_str(), run.exitCode, run.out.c_str());
        return run;
    }

    // The program ran to its end and found its data as one execution per launch leaves them.
    static void ExpectResultsCorrect(const Outcome& run) {
        EXPECT_EQ(run.exitCode, 0) << "the program's data after gpaprof's replays are wrong, or it failed:\n"
                                   << run.out << run.err;
        EXPECT_NE(run.out.find("results correct"), std::string::npos) << run.out;
        EXPECT_EQ(run.err.find("gpaprof: backtrace"), std::string::npos) << run.err;
    }

    // Kernel names and warps (Wavefronts or smsp__warps_launched.sum, whichever the file has) of every row, and the
    // graph columns: GraphLaunch = the launch's number, GraphNode set, for graph rows; both NA for eager ones. The
    // rows of one graph launch share its call (CallIndex) and thread; each launch's nodes have distinct GraphNode
    // values, the same in every launch (one executable graph).
    static void ExpectRows(const CsvFile& csv, const std::vector<ExpectedRow>& expected, bool graph) {
        ASSERT_EQ(csv.rows.size(), expected.size()) << (graph ? "one row per kernel node of every graph launch"
                                                              : "one row per launch");
        std::map<std::string, std::set<uint64_t>> nodesOfKernel;
        std::map<int, std::set<uint64_t>> nodesOfLaunch;
        std::map<int, std::set<uint64_t>> callsOfLaunch;
        for (size_t i = 0; i < csv.rows.size(); ++i) {
            const DispatchRow& row = csv.rows[i];
            const ExpectedRow& want = expected[i];
            SCOPED_TRACE("row " + std::to_string(i + 1) + " " + row.method);
            EXPECT_EQ(KernelOf(row), want.kernel) << "rows in the graph's (topological) order";
            const CounterValue* warps = Counter(row, "Wavefronts");
            if (!warps) warps = Counter(row, "smsp__warps_launched.sum");
            if (warps) {
                EXPECT_NE(warps->kind, CounterValue::Kind::NotAvailable);
                EXPECT_EQ(warps->AsDouble(), static_cast<double>(want.warps)) << "launch " << want.launch + 1;
            }
            if (i > 0) {
                EXPECT_GT(row.executionOrder, csv.rows[i - 1].executionOrder);
            }
            if (graph) {
                EXPECT_EQ(row.graphLaunch, std::optional<uint64_t>(want.launch + 1)) << "GraphLaunch";
                EXPECT_TRUE(row.graphNode.has_value()) << "GraphNode";
                if (row.graphNode) {
                    nodesOfKernel[want.kernel].insert(*row.graphNode);
                    nodesOfLaunch[want.launch].insert(*row.graphNode);
                }
                EXPECT_TRUE(row.callIndex.has_value()) << "CallIndex: the graph launch call's";
                if (row.callIndex) callsOfLaunch[want.launch].insert(*row.callIndex);
                if (i > 0 && expected[i - 1].launch == want.launch) {
                    EXPECT_EQ(row.threadId, csv.rows[i - 1].threadId);
                }
            } else {
                EXPECT_FALSE(row.graphLaunch.has_value()) << "an eager row has GraphLaunch NA";
                EXPECT_FALSE(row.graphNode.has_value()) << "an eager row has GraphNode NA";
            }
        }
        if (!graph) return;
        for (const auto& [kernel, nodes] : nodesOfKernel) {
            EXPECT_EQ(nodes.size(), 1u) << kernel << ": one node of one executable graph, the same id in every launch";
        }
        for (const auto& [launch, nodes] : nodesOfLaunch) {
            size_t kernels = 0;
            for (const ExpectedRow& want : expected) kernels += want.launch == launch;
            EXPECT_EQ(nodes.size(), kernels) << "launch " << launch + 1 << ": each kernel node has its own GraphNode";
        }
        uint64_t lastCall = 0;
        for (const auto& [launch, calls] : callsOfLaunch) {
            EXPECT_EQ(calls.size(), 1u) << "launch " << launch + 1 << ": every row has the graph launch's CallIndex";
            if (launch > 0 && !calls.empty()) {
                EXPECT_GT(*calls.begin(), lastCall) << "one call per launch";
            }
            if (!calls.empty()) lastCall = *calls.rbegin();
        }
    }

    // The byte counters of the known kernels, from a clean L2 (gpaprof flushes it before every measured kernel):
    // fill writes the buffer and reads nothing, sum reads the buffer and writes 4 KiB, combine moves 4 KiB.
    static void ExpectKnownBytes(const CsvFile& csv, const std::string& what) {
        for (const DispatchRow& row : csv.rows) {
            SCOPED_TRACE(what + " " + row.method);
            const CounterValue* fetch = Counter(row, "FetchSize");
            const CounterValue* write = Counter(row, "WriteSize");
            if (!fetch || !write) continue;
            if (fetch->kind == CounterValue::Kind::NotAvailable || write->kind == CounterValue::Kind::NotAvailable) {
                ADD_FAILURE() << "FetchSize or WriteSize NA";
                continue;
            }
            const std::string kernel = KernelOf(row);
            if (kernel == gka::kFill) {
                EXPECT_LT(fetch->AsDouble(), 0.01 * kBufferKiB) << "fill reads nothing";
                EXPECT_GE(write->AsDouble(), kBufferKiB - kL2KiB) << "fill writes the buffer (less what the L2 keeps)";
                EXPECT_LE(write->AsDouble(), kBufferKiB + kByteTolerance);
            } else if (kernel == gka::kSum) {
                EXPECT_NEAR(fetch->AsDouble(), kBufferKiB, kByteTolerance) << "sum reads the whole copy from DRAM";
                EXPECT_LT(write->AsDouble(), 0.01 * kBufferKiB);
            } else {
                EXPECT_LT(fetch->AsDouble(), 0.01 * kBufferKiB);
                EXPECT_LT(write->AsDouble(), 0.01 * kBufferKiB);
            }
        }
    }

    // Each graph row against the eager row of the same kernel and launch: the same Method, sizes and resources,
    // `exact` counters equal, byte counters (FetchSize, WriteSize, dram__bytes_*) within kByteTolerance.
    static void ExpectSameAsEager(const CsvFile& graph, const CsvFile& eager, const std::vector<std::string>& exact,
                                  const std::string& what) {
        ASSERT_EQ(graph.rows.size(), eager.rows.size());
        for (size_t i = 0; i < graph.rows.size(); ++i) {
            const DispatchRow& g = graph.rows[i];
            const DispatchRow& e = eager.rows[i];
            SCOPED_TRACE(what + " row " + std::to_string(i + 1) + " " + g.method);
            EXPECT_EQ(g.method, e.method) << "graph rows name the kernel as eager rows do";
            EXPECT_EQ(g.globalWorkSize, e.globalWorkSize);
            EXPECT_EQ(g.workGroupSize, e.workGroupSize);
            EXPECT_EQ(g.localMemSize, e.localMemSize);
            EXPECT_EQ(g.vgprs, e.vgprs);
            EXPECT_EQ(g.kernelOccupancy, e.kernelOccupancy);
            for (const CounterValue& value : e.counters) {
                const CounterValue* mine = Counter(g, value.name);
                ASSERT_NE(mine, nullptr) << value.name << ": the same columns";
                if (value.kind == CounterValue::Kind::NotAvailable) continue;
                EXPECT_NE(mine->kind, CounterValue::Kind::NotAvailable) << value.name << " NA in the graph row only";
                if (mine->kind == CounterValue::Kind::NotAvailable) continue;
                const bool bytes = value.name == "FetchSize" || value.name == "WriteSize" ||
                                   value.name.rfind("dram__bytes", 0) == 0;
                if (std::find(exact.begin(), exact.end(), value.name) != exact.end()) {
                    EXPECT_EQ(mine->AsDouble(), value.AsDouble()) << value.name;
                } else if (bytes) {
                    const double scale = value.name.rfind("dram__bytes", 0) == 0 ? 1024.0 : 1.0;
                    EXPECT_NEAR(mine->AsDouble(), value.AsDouble(), kByteTolerance * scale) << value.name;
                }
            }
        }
    }

    // FIGURE lines: each kernel's counters in the first and last launch, graph and eager side by side.
    static void PrintFigures(const std::string& what, const CsvFile& graph, const CsvFile& eager) {
        for (size_t i = 0; i < graph.rows.size() && i < eager.rows.size(); ++i) {
            const bool firstOrLast = graph.rows[i].graphLaunch == std::optional<uint64_t>(1) ||
                                     graph.rows[i].graphLaunch == std::optional<uint64_t>(kLaunches);
            if (!firstOrLast) continue;
            for (const CounterValue& value : graph.rows[i].counters) {
                const CounterValue* theirs = Counter(eager.rows[i], value.name);
                std::printf("FIGURE graph_counters %s launch=%s node=%s kernel=%s %s graph=%s eager=%s\n", what.c_str(),
                            Text(graph.rows[i].graphLaunch).c_str(), Text(graph.rows[i].graphNode).c_str(),
                            KernelOf(graph.rows[i]).c_str(), value.name.c_str(),
                            value.kind == CounterValue::Kind::NotAvailable ? "NA" : std::to_string(value.AsDouble()).c_str(),
                            !theirs || theirs->kind == CounterValue::Kind::NotAvailable
                                ? "NA"
                                : std::to_string(theirs->AsDouble()).c_str());
            }
        }
    }
};

}  // namespace gpaprof
