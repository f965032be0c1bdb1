// gpaprof's CUDA part end to end without a GPU: fake_cuda_app plays the CUDA driver and a program of several threads
// (fake_cuda/fake_cuda.h), gpaprof's injection library takes CUPTI's tracing functions and the driver's from the
// stand-in library (GPAPROF_CUDA_TRACING_LIBRARY), and everything else is real: the callbacks, the launches staged
// per thread, the call rings, the joins of kernel records to their launches, the exit hooks and the assembly. What
// the GPU tests check on real programs (cuda_end_to_end_test.cpp), checked here on every CI run.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "../profiled_run.h"
#include "tools/gpaprof/files/atp_file.h"

namespace gpaprof {
namespace {

using testing::Execute;
using testing::Outcome;

constexpr long kThreads = 3, kLaunches = 2000, kDriverEvery = 10, kStreams = 2;

struct Counts {
    size_t runtimeLaunches = 0, driverLaunches = 0, errorChecks = 0, withKernel = 0, kernelLines = 0;
    std::set<uint64_t> threads;
    std::set<std::string> queues;
};

class FakeCudaEndToEnd : public testing::ProfiledRunTest {
protected:
    void SetUp() override { MakeDirectory("gpaprof-fake-cuda"); }

    Outcome Profile(std::vector<std::string> options, std::map<std::string, std::string> environment = {},
                    const std::string& end = "return") {
        std::vector<std::string> command = {GPAPROF_EXECUTABLE, "--no-progress"};
        command.insert(command.end(), options.begin(), options.end());
        command.insert(command.end(), {"-o", "fake", "--", GPAPROF_FAKE_CUDA_APP, "--launches", std::to_string(kLaunches),
                                       "--threads", std::to_string(kThreads), "--driver-every", std::to_string(kDriverEvery),
                                       "--streams", std::to_string(kStreams), "--end", end});
        environment["GPAPROF_CUDA_TRACING_LIBRARY"] = GPAPROF_FAKE_CUDA_LIBRARY;
        environment["GPAPROF_CUDA_STATS"] = "1";
        environment["FAKE_CUDA_FLUSH_MS"] = "1";  // records handed over by the stand-in's own thread while threads launch
        const Outcome run = Execute(command, directory_, environment);
        std::printf("---- gpaprof stdout:\n%s---- gpaprof stderr:\n%s", run.out.c_str(), run.err.c_str());
        return run;
    }

    Counts Count() {
        const AtpFile atp = ReadAtp("fake.atp");
        Counts counts;
        for (const ApiTracePart& part : atp.parts) {
            if (part.api != "cuda") continue;
            counts.kernelLines = part.kernelTimestamps.size();
            for (const ThreadBlock<ApiCall>& thread : part.threads) {
                for (const ApiCall& call : thread.entries) {
                    const bool launch = call.name == "cudaLaunchKernel" || call.name == "cuLaunchKernel";
                    counts.runtimeLaunches += call.name == "cudaLaunchKernel";
                    counts.driverLaunches += call.name == "cuLaunchKernel";
                    counts.errorChecks += call.name == "cudaGetLastError";
                    if (!launch) continue;
                    counts.threads.insert(thread.threadId);
                    if (call.command && call.kernel && call.command->commandName == "CUDA_KERNEL") {
                        ++counts.withKernel;
                        counts.queues.insert(std::string(call.command->queueHandle));
                        EXPECT_GE(call.command->start, call.start) << call.name << ": its kernel starts after the call";
                    }
                    EXPECT_LE(call.start, call.end) << call.name;
                }
            }
        }
        return counts;
    }
};

// Every call of every thread is in the trace, and every launch (the runtime's, and the application's own driver
// launches) carries its kernel on the stream it named: with the launches staged per thread (the default, where the
// runtime's nested driver launch is only staged), and with every launch registered under the lock.
TEST_F(FakeCudaEndToEnd, EveryCallAndEveryLaunchWithItsKernel) {
    constexpr size_t kRuntime = kThreads * kLaunches, kDriver = kThreads * (kLaunches / kDriverEvery);
    for (const char* staged : {"1", "0"}) {
        SCOPED_TRACE(std::string("GPAPROF_CUDA_STAGED_LAUNCHES=") + staged);
        const Outcome run = Profile({"-t"}, {{"GPAPROF_CUDA_STAGED_LAUNCHES", staged}});
        if (run.err.find("cannot profile") != std::string::npos) GTEST_SKIP() << "gpaprof cannot profile here: " << run.err;
        ASSERT_EQ(run.exitCode, 0) << run.err;
        EXPECT_EQ(run.err.find("CUDA is not profiled"), std::string::npos) << run.err;
        EXPECT_NE(run.err.find("kernel records without their launch: 0 "), std::string::npos) << run.err;
        const Counts counts = Count();
        EXPECT_EQ(counts.runtimeLaunches, kRuntime);
        EXPECT_EQ(counts.driverLaunches, kDriver) << "the application's own driver launches, none of the runtime's";
        EXPECT_EQ(counts.errorChecks, kRuntime);
        EXPECT_EQ(counts.kernelLines, kRuntime + kDriver);
        EXPECT_EQ(counts.withKernel, kRuntime + kDriver) << "every launch joined to its kernel's record";
        EXPECT_EQ(counts.threads.size(), static_cast<size_t>(kThreads));
        EXPECT_EQ(counts.queues.size(), static_cast<size_t>(kThreads * kStreams)) << "each launch on the stream it named";
        // How many buffers the records came in (the stand-in's own thread hands them over every millisecond while the
        // threads launch; on a loaded machine that thread may not run before the end, so the number is printed, not
        // checked).
        std::smatch buffers;
        ASSERT_TRUE(std::regex_search(run.err, buffers, std::regex("activity-buffer ([0-9]+) x"))) << run.err;
        std::printf("FIGURE fake_cuda staged=%s activity_buffers=%s\n", staged, buffers[1].str().c_str());
    }
}

// However the program ends — returning from main, exit, _exit, abort — every call it made is in the trace and every
// launch has its kernel: the calls kept in the rings and the launches staged are written by the exit hooks and the
// crash handler. And where main returns while its threads still launch, every launch in the trace has its kernel
// (a thread that launches while the process ends waits at its next launch; it is not cut between its call and
// its kernel).
TEST_F(FakeCudaEndToEnd, EveryWayOfEndingKeepsEveryCallAndItsKernel) {
    constexpr size_t kRuntime = kThreads * kLaunches, kDriver = kThreads * (kLaunches / kDriverEvery);
    for (const std::string end : {"exit", "_exit", "abort"}) {
        SCOPED_TRACE(end);
        const Outcome run = Profile({"-t"}, {}, end);
        if (run.err.find("cannot profile") != std::string::npos) GTEST_SKIP() << "gpaprof cannot profile here: " << run.err;
        EXPECT_EQ(run.exitCode, end == "abort" ? 134 : 0) << run.err;
        const Counts counts = Count();
        EXPECT_EQ(counts.runtimeLaunches, kRuntime);
        EXPECT_EQ(counts.driverLaunches, kDriver);
        EXPECT_EQ(counts.errorChecks, kRuntime);
        EXPECT_EQ(counts.withKernel, kRuntime + kDriver) << "every launch joined to its kernel's record";
    }
    const Outcome run = Profile({"-t"}, {}, "still-launching");
    EXPECT_EQ(run.exitCode, 0) << run.err;
    const std::regex before("launches_before_exit=([0-9]+)");
    std::smatch match;
    ASSERT_TRUE(std::regex_search(run.out, match, before)) << run.out;
    const Counts counts = Count();
    EXPECT_GE(counts.runtimeLaunches, std::stoul(match[1])) << "the launches made before main returned";
    EXPECT_EQ(counts.withKernel, counts.runtimeLaunches + counts.driverLaunches) << "a launch in the trace without its kernel";
    std::printf("FIGURE still_launching before_exit=%s runtime_launches=%zu with_kernel=%zu\n", match[1].str().c_str(),
                counts.runtimeLaunches, counts.withKernel);
}

// A runtime function left out with -F that enqueues nothing is not subscribed to: CUPTI (here its stand-in) delivers
// none of its callbacks, and the rest of the trace is as without -F.
TEST_F(FakeCudaEndToEnd, ARuntimeCallLeftOutWithFIsNeverDelivered) {
    {
        std::ofstream filter(Path("left_out.txt"));
        filter << "cudaGetLastError\n";
    }
    const std::regex delivered("([0-9]+) callbacks delivered, ([0-9]+) of them cudaGetLastError's");
    std::map<bool, unsigned long> callbacks, errorCallbacks;
    for (const bool leftOut : {false, true}) {
        SCOPED_TRACE(leftOut ? "-F" : "everything");
        std::vector<std::string> options = {"-t"};
        if (leftOut) options.insert(options.end(), {"-F", Path("left_out.txt")});
        const Outcome run = Profile(options);
        if (run.err.find("cannot profile") != std::string::npos) GTEST_SKIP() << "gpaprof cannot profile here: " << run.err;
        ASSERT_EQ(run.exitCode, 0) << run.err;
        std::smatch match;
        ASSERT_TRUE(std::regex_search(run.out, match, delivered)) << run.out;
        callbacks[leftOut] = std::stoul(match[1]);
        errorCallbacks[leftOut] = std::stoul(match[2]);
        const Counts counts = Count();
        EXPECT_EQ(counts.errorChecks, leftOut ? 0u : static_cast<size_t>(kThreads * kLaunches));
        EXPECT_EQ(counts.withKernel, counts.runtimeLaunches + counts.driverLaunches);
        EXPECT_EQ(counts.runtimeLaunches, static_cast<size_t>(kThreads * kLaunches));
    }
    EXPECT_EQ(errorCallbacks[false], static_cast<unsigned long>(2 * kThreads * kLaunches)) << "an entry and an exit each";
    EXPECT_EQ(errorCallbacks[true], 0u) << "a left-out call still reached gpaprof";
    EXPECT_EQ(callbacks[true], callbacks[false] - errorCallbacks[false]);
}

// A process where the injection is initialised twice (the fake driver, then the real one gpaprof initialises to read
// the devices, wherever libcuda.so.1 is installed) is profiled as with one: the second call starts nothing. Before,
// its failed subscription took the first part's place and the trace had 0 calls (the GPU machine, 2026-11-29).
TEST_F(FakeCudaEndToEnd, ASecondInitialisationKeepsTheProfile) {
    const Outcome run = Profile({"-t"}, {{"FAKE_CUDA_INITIALIZATIONS", "2"}});
    if (run.err.find("cannot profile") != std::string::npos) GTEST_SKIP() << "gpaprof cannot profile here: " << run.err;
    ASSERT_EQ(run.exitCode, 0) << run.err;
    EXPECT_EQ(run.err.find("CUDA is not profiled"), std::string::npos) << run.err;
    const Counts counts = Count();
    EXPECT_EQ(counts.runtimeLaunches, static_cast<size_t>(kThreads * kLaunches));
    EXPECT_EQ(counts.withKernel, counts.runtimeLaunches + counts.driverLaunches);
}

// --ranks on the CUDA part: a process whose rank is not listed runs unsubscribed (the stand-in delivers no callback)
// and writes nothing; a listed one is traced as ever.
TEST_F(FakeCudaEndToEnd, ARankNotListedRunsUnsubscribed) {
    const Outcome left = Profile({"-t", "--ranks", "0"}, {{"RANK", "1"}});
    ASSERT_EQ(left.exitCode, 0) << left.err;
    EXPECT_NE(left.out.find(" 0 callbacks delivered"), std::string::npos) << left.out;
    EXPECT_NE(left.err.find("--ranks 0: 1 process ran unprofiled (rank 1)"), std::string::npos) << left.err;
    EXPECT_FALSE(std::filesystem::exists(directory_ + "/fake.atp"));

    const Outcome listed = Profile({"-t", "--ranks", "0-1"}, {{"RANK", "1"}});
    if (listed.err.find("cannot profile") != std::string::npos) GTEST_SKIP() << "gpaprof cannot profile here: " << listed.err;
    ASSERT_EQ(listed.exitCode, 0) << listed.err;
    EXPECT_EQ(Count().runtimeLaunches, static_cast<size_t>(kThreads * kLaunches));
}

// Without gpaprof the stand-in delivers nothing (no subscriber): the program's own loop is the floor the benchmark
// (bench/trace_hot_path_fake.sh) measures gpaprof's callbacks against.
TEST_F(FakeCudaEndToEnd, WithoutGpaprofNoCallbackIsDelivered) {
    const Outcome run = Execute({GPAPROF_FAKE_CUDA_APP, "--launches", "10"}, directory_);
    ASSERT_EQ(run.exitCode, 0) << run.err;
    EXPECT_NE(run.out.find(" 0 callbacks delivered"), std::string::npos) << run.out;
}

}  // namespace
}  // namespace gpaprof
