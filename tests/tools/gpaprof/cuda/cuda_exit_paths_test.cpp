// gpaprof on CUDA programs that end in every way real programs end (cuda_apps/exit_paths.cu), and on two
// threads whose dispatches go down every replay path (cuda_apps/two_thread_copies.cu): every dispatch is in
// the files and the application's exit code is gpaprof's. On a GPU; skips, saying why, without one.
#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "gpaprof_cuda_fixture.h"

namespace gpaprof {
namespace {

// Every GPA counter of GH100 (gpa-counters --chip GH100): 11 passes, gpaprof's own replay by default.
constexpr const char* kEveryGpaCounter =
    "GPUTime,GPUBusy,Wavefronts,VALUInsts,SALUInsts,VFetchInsts,SFetchInsts,VWriteInsts,FlatVMemInsts,"
    "VALUUtilization,VALUBusy,SALUBusy,FetchSize,WriteSize,CacheHit,L1CacheHit,L2CacheHit,MemUnitBusy,"
    "MemUnitStalled,LDSInsts,FlatLDSInsts,LDSBankConflict,CSThreadGroups,CSThreads";

// What a run must not print: a crash inside the process, whatever the exit code says.
void ExpectNoCrashMessage(const Outcome& run) {
    for (const char* message : {"pure virtual method called", "terminate called", "corrupted", "double free",
                                "Segmentation fault", "gpaprof: backtrace"}) {
        EXPECT_EQ(run.out.find(message), std::string::npos) << message << "\n" << run.out;
        EXPECT_EQ(run.err.find(message), std::string::npos) << message << "\n" << run.err;
    }
}

struct ExitWay {
    std::string way;
    int launches;
    size_t dispatches;  // the program's launches in all
    int exitCode;
};

const std::vector<ExitWay> kExitWays = {
    {"return", 30, 30, 5},   {"return", 300, 300, 5}, {"exit", 30, 30, 6},   {"_exit", 30, 30, 7},
    {"quick_exit", 30, 30, 8}, {"static", 30, 60, 9},  {"reset", 30, 30, 10},
};

// Counters of several passes: the dispatches of a batch are replayed when the batch ends, and the last batch
// ends when the process does.
TEST_F(GpaprofCuda, EveryExitPathKeepsEveryDispatchAndTheExitCode) {
    for (const ExitWay& way : kExitWays) {
        for (const std::string replay : {"own", "cupti"}) {
            const std::string name = "exit_" + way.way + "_" + std::to_string(way.launches) + "_" + replay;
            SCOPED_TRACE(name);
            const Outcome run =
                Profile({"-p", "--counters", kEveryGpaCounter, "-o", name},
                        {App("exit_paths"), "--way", way.way, "--launches", std::to_string(way.launches), "--exit-code",
                         std::to_string(way.exitCode)},
                        {{"GPAPROF_CUDA_REPLAY", replay}, {"GPAPROF_CRASH_BACKTRACE", "1"}});
            EXPECT_EQ(run.exitCode, way.exitCode) << run.err;
            ExpectNoCrashMessage(run);
            const CsvFile csv = ReadCsv(name + ".csv");
            EXPECT_EQ(csv.rows.size(), way.dispatches) << run.err;
            size_t measured = 0;
            for (const DispatchRow& row : csv.rows) {
                const CounterValue* wavefronts = Counter(row, "Wavefronts");
                measured += wavefronts && wavefronts->kind != CounterValue::Kind::NotAvailable && wavefronts->integer == 4;
            }
            EXPECT_EQ(measured, way.dispatches) << "every row has its counters";
            std::printf("FIGURE exit_path way=%s launches=%d replay=%s exit=%d rows=%zu measured=%zu\n", way.way.c_str(),
                        way.launches, replay.c_str(), run.exitCode, csv.rows.size(), measured);
        }
    }
}

// The same ends with the kernels in CUDA graph launches (issue 33): node mode keeps the launches of a multi-pass
// set for the end of a batch, and the last batch ends when the process does.
TEST_F(GpaprofCuda, EveryExitPathKeepsTheNodesOfGraphLaunches) {
    for (const ExitWay& way : kExitWays) {
        if (way.launches != 30 || way.way == "static" || way.way == "reset") continue;
        for (const std::vector<std::string>& mode : {std::vector<std::string>{"-p", "--counters", kEveryGpaCounter},
                                                     std::vector<std::string>{"-t", "-p", "-O"}}) {
            const std::string name = "graph_exit_" + way.way + "_" + std::to_string(mode.size());
            SCOPED_TRACE(name);
            std::vector<std::string> options = mode;
            options.insert(options.end(), {"-o", name});
            const Outcome run = Profile(options, {App("exit_paths"), "--way", way.way, "--launches", "30", "--graph",
                                                  "--exit-code", std::to_string(way.exitCode)},
                                        {{"GPAPROF_CRASH_BACKTRACE", "1"}});
            EXPECT_EQ(run.exitCode, way.exitCode) << run.err;
            ExpectNoCrashMessage(run);
            const CsvFile csv = ReadCsv(name + ".csv");
            EXPECT_EQ(csv.rows.size(), 30u) << run.err;
            size_t measured = 0;
            for (const DispatchRow& row : csv.rows) {
                const CounterValue* wavefronts = Counter(row, "Wavefronts");
                measured += wavefronts && wavefronts->kind != CounterValue::Kind::NotAvailable && wavefronts->integer == 4;
            }
            EXPECT_EQ(measured, 30u) << "every node row has its counters";
            std::printf("FIGURE exit_graph way=%s mode=%zu exit=%d rows=%zu measured=%zu\n", way.way.c_str(), mode.size(),
                        run.exitCode, csv.rows.size(), measured);
        }
    }
}

// The trace and occupancy of the same ends: every call's record and every kernel line.
TEST_F(GpaprofCuda, EveryExitPathKeepsTheTrace) {
    for (const ExitWay& way : kExitWays) {
        if (way.launches != 30) continue;
        for (const std::vector<std::string>& mode :
             {std::vector<std::string>{"-t"}, std::vector<std::string>{"-t", "-p", "-O"}}) {
            const std::string name = "trace_" + way.way + "_" + std::to_string(mode.size());
            SCOPED_TRACE(name);
            std::vector<std::string> options = mode;
            options.insert(options.end(), {"-o", name});
            const Outcome run = Profile(options, {App("exit_paths"), "--way", way.way, "--launches", "30", "--exit-code",
                                                  std::to_string(way.exitCode)},
                                        {{"GPAPROF_CRASH_BACKTRACE", "1"}});
            EXPECT_EQ(run.exitCode, way.exitCode) << run.err;
            ExpectNoCrashMessage(run);
            const AtpFile atp = ReadAtp(name + ".atp");
            const ApiTracePart* cuda = CudaPart(atp);
            ASSERT_NE(cuda, nullptr) << run.err;
            EXPECT_EQ(Calls(*cuda, "cudaLaunchKernel").size(), way.dispatches);
            EXPECT_EQ(cuda->kernelTimestamps.size(), way.dispatches) << run.err;
            if (mode.size() > 1) {
                EXPECT_EQ(ReadCsv(name + ".csv").rows.size(), way.dispatches);
                EXPECT_EQ(ReadOccupancy(name + ".occupancy").rows.size(), way.dispatches);
            }
            std::printf("FIGURE exit_trace way=%s mode=%zu exit=%d launches=%zu kernel_lines=%zu\n", way.way.c_str(),
                        mode.size(), run.exitCode, Calls(*cuda, "cudaLaunchKernel").size(), cuda->kernelTimestamps.size());
        }
    }
}

// A thread still launching when main returns: the rows are the launches that returned before the process
// ended (the thread counts them in a file), the exit code is main's.
TEST_F(GpaprofCuda, ThreadStillLaunchingWhenMainReturns) {
    for (const std::vector<std::string>& mode :
         {std::vector<std::string>{"-p", "--counters", kEveryGpaCounter}, std::vector<std::string>{"-t", "-p", "-O"}}) {
        const std::string name = "thread_" + std::to_string(mode.size());
        SCOPED_TRACE(name);
        std::vector<std::string> options = mode;
        options.insert(options.end(), {"-o", name});
        const Outcome run = Profile(options, {App("exit_paths"), "--way", "thread", "--launches", "50", "--exit-code", "11",
                                              "--count-file", Path("launched.count")},
                                    {{"GPAPROF_CRASH_BACKTRACE", "1"}});
        EXPECT_EQ(run.exitCode, 11) << run.err;
        ExpectNoCrashMessage(run);
        uint64_t launched = 0;
        std::ifstream count(Path("launched.count"), std::ios::binary);
        count.read(reinterpret_cast<char*>(&launched), sizeof launched);
        const CsvFile csv = ReadCsv(name + ".csv");
        EXPECT_GE(launched, 50u);
        // A launch may have returned without the thread counting it yet.
        EXPECT_GE(csv.rows.size(), launched) << run.err;
        EXPECT_LE(csv.rows.size(), launched + 1) << run.err;
        std::printf("FIGURE exit_thread mode=%s launched=%llu rows=%zu\n", name.c_str(),
                    static_cast<unsigned long long>(launched), csv.rows.size());
    }
}

// abort(): the rows up to the last completed dispatch (counters of a batch still waiting for its passes are NA).
TEST_F(GpaprofCuda, AbortKeepsTheDispatchesBeforeIt) {
    const Outcome run = Profile({"-t", "-p", "--counters", kEveryGpaCounter, "-o", "aborted"},
                                {App("exit_paths"), "--way", "abort", "--launches", "30"});
    EXPECT_EQ(run.exitCode, 134) << run.err;
    EXPECT_EQ(ReadCsv("aborted.csv").rows.size(), 30u) << run.err;
    const AtpFile atp = ReadAtp("aborted.atp");
    const ApiTracePart* cuda = CudaPart(atp);
    ASSERT_NE(cuda, nullptr);
    EXPECT_EQ(Calls(*cuda, "cudaLaunchKernel").size(), 30u);
}

// Two threads with a stream each, buffers freed while the other thread launches, under every replay path:
// gpaprof's own (batched), own one dispatch at a time (immediate, and where a batch's snapshots do not fit),
// CUPTI's kernel replay, and the fallback to it for memory gpaprof cannot restore (managed). Every kernel has
// its .csv row, .occupancy row and .atp kernel line.
TEST_F(GpaprofCuda, EveryReplayPathKeepsEveryKernelLine) {
    struct ReplayPath {
        std::string name;
        std::map<std::string, std::string> environment;
        std::vector<std::string> arguments;
    };
    const std::vector<ReplayPath> paths = {
        {"own", {}, {}},
        {"immediate", {{"GPAPROF_CUDA_OWN_REPLAY", "immediate"}}, {}},
        {"no_room", {{"GPAPROF_CUDA_REPLAY_MEMORY_MB", "1"}}, {}},
        {"cupti", {{"GPAPROF_CUDA_REPLAY", "cupti"}}, {}},
        {"managed", {}, {"--managed"}},
    };
    const int rounds = 3;
    for (const ReplayPath& path : paths) {
        SCOPED_TRACE(path.name);
        std::map<std::string, std::string> environment = path.environment;
        environment["GPAPROF_CUDA_STATS"] = "1";
        environment["GPAPROF_CRASH_BACKTRACE"] = "1";
        environment["GPAPROF_CUDA_DEBUG"] = "records";
        std::vector<std::string> command = {App("two_thread_copies"), "--rounds", std::to_string(rounds)};
        command.insert(command.end(), path.arguments.begin(), path.arguments.end());
        const std::string name = "paths_" + path.name;
        const Outcome run = Profile({"-t", "-p", "-O", "--counters", kMultiPassCounters, "-o", name}, command, environment);
        ASSERT_EQ(run.exitCode, 0) << run.err;
        ExpectNoCrashMessage(run);
        const size_t kernels = 8 * rounds;
        const CsvFile csv = ReadCsv(name + ".csv");
        EXPECT_EQ(csv.rows.size(), kernels) << run.err;
        EXPECT_EQ(ReadOccupancy(name + ".occupancy").rows.size(), kernels);
        const AtpFile atp = ReadAtp(name + ".atp");
        const ApiTracePart* cuda = CudaPart(atp);
        ASSERT_NE(cuda, nullptr);
        EXPECT_EQ(cuda->kernelTimestamps.size(), kernels) << run.err;
        EXPECT_EQ(run.err.find("keeping a dispatch's input failed"), std::string::npos) << run.err;
        if (path.name == "no_room") {
            EXPECT_NE(run.err.find("one at a time"), std::string::npos) << run.err;
        }
        if (path.name == "managed") {
            EXPECT_NE(run.err.find("kernel replay instead"), std::string::npos) << run.err;
        }
        std::printf("FIGURE replay_path %s rows=%zu kernel_lines=%zu\n", path.name.c_str(), csv.rows.size(),
                    cuda->kernelTimestamps.size());
    }
}

}  // namespace
}  // namespace gpaprof
