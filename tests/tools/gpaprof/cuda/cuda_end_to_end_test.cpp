// gpaprof on CUDA programs (tests/tools/gpaprof/cuda_apps), end to end on a GPU: runs
// `gpaprof <options> -- <program>`, reads the files back with gpaprof's readers in strict mode and checks
// them against what the programs did: the trace, the counter and occupancy columns, threads and streams, crashes.
// The counter values against Nsight Compute and replay: cuda_counter_values_test.cpp. Skips, saying why, without
// a CUDA device.
#include <gtest/gtest.h>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "gpaprof_cuda_fixture.h"
#include "tools/gpaprof/files/atp_file.h"
#include "tools/gpaprof/files/csv_file.h"
#include "tools/gpaprof/files/occupancy_file.h"
#include "tools/gpaprof/files/text_fields.h"

namespace gpaprof {
namespace {

TEST_F(GpaprofCuda, TracesRuntimeAndDriverCallsKernelsCopiesMarkersAndCallers) {
    const Outcome run = Profile({"-t", "--sym", "-o", "trace"}, {App("runtime_kernels"), "--iterations", "2", "--exit-code", "7"});
    ASSERT_EQ(run.exitCode, 7) << "gpaprof returns the application's exit code";
    const AtpFile atp = ReadAtp("trace.atp");
    const ApiTracePart* cuda = CudaPart(atp);
    ASSERT_NE(cuda, nullptr) << "no cuda part in trace.atp";
    ASSERT_FALSE(atp.session.devices.empty());
    EXPECT_EQ(atp.session.devices[0].platformVendor, "NVIDIA Corporation");

    // The application's calls, each once per call it made; the driver calls the runtime made are inside them.
    EXPECT_EQ(Calls(*cuda, "cudaMalloc").size(), 3u);
    EXPECT_EQ(Calls(*cuda, "cudaMemcpy").size(), 4u);
    EXPECT_EQ(Calls(*cuda, "cudaMemset").size(), 1u);
    EXPECT_EQ(Calls(*cuda, "cudaLaunchKernel").size(), 4u);
    EXPECT_EQ(Calls(*cuda, "cuLaunchKernel").size(), 2u) << "the application's own driver-API launches";
    EXPECT_EQ(Calls(*cuda, "cuMemcpyHtoD_v2").size(), 0u) << "driver calls made by the runtime are not the application's";
    EXPECT_EQ(Calls(*cuda, "cuDeviceGetAttribute").size(), 0u) << "nor those the static runtime makes while it starts";
    EXPECT_EQ(Calls(*cuda, "cuKernelGetName").size(), 0u);
    for (const ApiCall* call : Calls(*cuda, "cudaMalloc")) {
        ASSERT_TRUE(call->returnValue);
        EXPECT_EQ(*call->returnValue, "cudaSuccess");
        ASSERT_EQ(call->args.size(), 2u);
        EXPECT_EQ(call->args[0].substr(0, 3), "[0x") << "the allocation, read after the call";
    }
    for (const ApiCall* call : Calls(*cuda, "cudaMemcpy")) {
        ASSERT_TRUE(call->command) << "a copy carries its command";
        ASSERT_TRUE(call->transferSize);
        EXPECT_TRUE(*call->transferSize == 4u << 20 || *call->transferSize == 2048u) << *call->transferSize;
        EXPECT_NE(call->command->commandName.find("CUDA_MEMCPY_"), std::string::npos);
        EXPECT_GE(call->command->start, call->start) << "the copy starts after its call did";
        // A copy to the host is complete when cudaMemcpy returns; one from pageable host memory to the device
        // may still be in flight (CUDA returns once the data is staged).
        if (call->command->commandName == "CUDA_MEMCPY_DTOH") {
            EXPECT_LE(call->command->end, call->end);
        }
    }
    std::map<std::string, int> launched;
    for (const char* name : {"cudaLaunchKernel", "cuLaunchKernel"}) {
        for (const ApiCall* call : Calls(*cuda, name)) {
            ASSERT_TRUE(call->command) << name << " has no command fields";
            ASSERT_TRUE(call->kernel);
            ++launched[call->kernel->kernelName];
            EXPECT_EQ(call->command->commandName, "CUDA_KERNEL");
            EXPECT_GE(call->command->start, call->start) << "device start mapped onto the CPU clock";
            EXPECT_GT(call->command->end, call->command->start);
            EXPECT_EQ(call->kernel->localSize, (std::vector<uint64_t>{256, 1, 1}));
        }
    }
    EXPECT_EQ(launched[kSaxpy], 4);
    EXPECT_EQ(launched[kBlockSum], 2);
    // Every call's times are ordered within its thread.
    for (const auto& thread : cuda->threads) {
        for (size_t i = 1; i < thread.entries.size(); ++i) EXPECT_GE(thread.entries[i].start, thread.entries[i - 1].end);
    }

    ASSERT_EQ(cuda->kernelTimestamps.size(), 6u);
    for (const KernelTimestamp& kernel : cuda->kernelTimestamps) {
        EXPECT_TRUE(kernel.kernelName == kSaxpy || kernel.kernelName == kBlockSum) << kernel.kernelName;
        EXPECT_EQ(kernel.packetType, "CUDA_KERNEL");
        EXPECT_GT(kernel.end, kernel.start);
    }

    // NVTX ranges and gpaprof's own markers, on the main thread.
    size_t begins = 0, ends = 0, iterations = 0, all = 0;
    for (const auto& thread : atp.markerThreads) {
        for (const PerfMarker& marker : thread.entries) {
            if (marker.kind == PerfMarker::Kind::Begin) {
                ++begins;
                iterations += marker.name == "iteration";
                all += marker.name == "all iterations" && marker.group == "runtime_kernels";
            } else {
                ++ends;
            }
        }
    }
    EXPECT_EQ(iterations, 2u) << "NVTX ranges";
    EXPECT_EQ(all, 1u) << "gpaprof markers";
    EXPECT_EQ(begins, ends);

    // --sym: the callers are the application's own code, not the CUDA runtime linked into it.
    size_t inMain = 0, total = 0;
    for (const auto& thread : cuda->sourceThreads) {
        for (const SourceLocation& location : thread.entries) {
            ++total;
            EXPECT_EQ(location.symbol.rfind("cuda", 0), std::string::npos) << location.apiName << " in " << location.symbol;
            if (location.symbol == "main") ++inMain;
        }
    }
    EXPECT_GT(total, 10u);
    EXPECT_GT(inMain, total / 2) << "most calls come from main()";
}

// The runtime calls cuKernelGetName before every launch, outside any runtime call: a long loop keeps every call of
// the application, none of the runtime's, and every kernel with its launch. (gpaprof once stopped listening to that
// function mid-run: when that landed between a call's entry and its exit, every later call of the thread was taken
// for a nested one, and, on an H100, every later kernel of the thread carried that call's correlation id.)
// By default gpaprof does not listen to cuKernelGetName at all (run 0); --cuda-trace-all-apis listens, and the runtime's
// calls must then be told apart from the application's over the whole loop (runs 1 and 2).
TEST_F(GpaprofCuda, EveryCallIsTracedOverALongLoopOfRuntimeLaunches) {
    constexpr size_t kIterations = 100;  // 2 runtime launches and 1 driver launch each
    for (int run = 0; run < 3; ++run) {
        SCOPED_TRACE("run " + std::to_string(run));
        std::vector<std::string> options = {"-t", "-o", "long_loop"};
        if (run > 0) options.push_back("--cuda-trace-all-apis");
        const Outcome outcome = Profile(options, {App("runtime_kernels"), "--iterations", std::to_string(kIterations)},
                                        {{"GPAPROF_CUDA_STATS", "1"}});
        ASSERT_EQ(outcome.exitCode, 0) << outcome.err;
        EXPECT_NE(outcome.err.find("kernel records without their launch: 0 "), std::string::npos) << outcome.err;
        const AtpFile atp = ReadAtp("long_loop.atp");
        const ApiTracePart* cuda = CudaPart(atp);
        ASSERT_NE(cuda, nullptr);
        EXPECT_EQ(Calls(*cuda, "cudaLaunchKernel").size(), 2 * kIterations);
        EXPECT_EQ(Calls(*cuda, "cuLaunchKernel").size(), kIterations);
        EXPECT_EQ(Calls(*cuda, "cuKernelGetName").size(), 0u);
        EXPECT_EQ(cuda->kernelTimestamps.size(), 3 * kIterations);
    }
}

// cuKernelGetName, which the runtime calls before every launch, is left out by default, the application's own call
// too; --cuda-trace-all-apis traces the application's call and still none of the runtime's.
TEST_F(GpaprofCuda, ApplicationsKernelNameQueryIsTracedOnlyWithAllApis) {
    for (const bool all : {false, true}) {
        SCOPED_TRACE(all ? "--cuda-trace-all-apis" : "default");
        std::vector<std::string> options = {"-t", "-o", "name_query"};
        if (all) options.push_back("--cuda-trace-all-apis");
        const Outcome outcome = Profile(options, {App("runtime_kernels"), "--iterations", "3", "--name-query"});
        ASSERT_EQ(outcome.exitCode, 0) << outcome.err;
        const AtpFile atp = ReadAtp("name_query.atp");
        const ApiTracePart* cuda = CudaPart(atp);
        ASSERT_NE(cuda, nullptr);
        EXPECT_EQ(Calls(*cuda, "cudaGetKernel").size(), 1u);
        EXPECT_EQ(Calls(*cuda, "cuKernelGetName").size(), all ? 1u : 0u) << "the application's one call, none of the runtime's";
        EXPECT_EQ(Calls(*cuda, "cudaLaunchKernel").size(), 6u);
        EXPECT_EQ(cuda->kernelTimestamps.size(), 9u);
    }
}

// A runtime function left out with -F that enqueues nothing is not listened to at all (its callbacks cost as much as
// its record): fewer application entries than without -F by exactly its calls, and the other calls and every
// kernel as before. runtime_kernels checks each runtime launch with cudaGetLastError.
TEST_F(GpaprofCuda, ARuntimeCallLeftOutWithFIsNotHeardAndTheKernelsStayJoined) {
    constexpr size_t kIterations = 50;
    {
        std::ofstream filter(Path("left_out.txt"));
        filter << "cudaGetLastError\n";
    }
    auto applicationEntries = [](const std::string& err) {
        long entries = -1;
        const size_t at = err.find("enter(app) ");
        if (at != std::string::npos) std::sscanf(err.c_str() + at, "enter(app) %ld x", &entries);
        return entries;
    };
    std::map<bool, long> entries;
    std::map<bool, size_t> errorChecks, calls;
    for (const bool leftOut : {false, true}) {
        SCOPED_TRACE(leftOut ? "-F cudaGetLastError" : "everything");
        std::vector<std::string> options = {"-t", "-o", "left_out"};
        if (leftOut) options.insert(options.end(), {"-F", Path("left_out.txt")});
        const Outcome outcome = Profile(options, {App("runtime_kernels"), "--iterations", std::to_string(kIterations)},
                                        {{"GPAPROF_CUDA_STATS", "1"}});
        ASSERT_EQ(outcome.exitCode, 0) << outcome.err;
        EXPECT_NE(outcome.err.find("kernel records without their launch: 0 "), std::string::npos) << outcome.err;
        entries[leftOut] = applicationEntries(outcome.err);
        const AtpFile atp = ReadAtp("left_out.atp");
        const ApiTracePart* cuda = CudaPart(atp);
        ASSERT_NE(cuda, nullptr);
        errorChecks[leftOut] = Calls(*cuda, "cudaGetLastError").size();
        for (const auto& thread : cuda->threads) calls[leftOut] += thread.entries.size();
        EXPECT_EQ(Calls(*cuda, "cudaLaunchKernel").size(), 2 * kIterations);
        EXPECT_EQ(Calls(*cuda, "cuLaunchKernel").size(), kIterations);
        EXPECT_EQ(cuda->kernelTimestamps.size(), 3 * kIterations);
    }
    EXPECT_EQ(errorChecks[false], 2 * kIterations);
    EXPECT_EQ(errorChecks[true], 0u);
    EXPECT_EQ(calls[true], calls[false] - 2 * kIterations);
    ASSERT_GT(entries[false], 0);
    EXPECT_EQ(entries[true], entries[false] - static_cast<long>(2 * kIterations)) << "a left-out call still reached gpaprof";
}

// A trace without counters stages each launch on its thread and joins it to its kernel's record when CUPTI hands
// the record over (staged_launches.h): several threads, two streams each, and activity buffers of 1 MiB, so that
// records come in many buffers while the threads still launch. Every launch call carries its kernel, on the
// stream it named; the same with every launch registered under the lock (GPAPROF_CUDA_STAGED_LAUNCHES=0).
TEST_F(GpaprofCuda, EveryLaunchOfEveryThreadCarriesItsKernelInATraceWithoutCounters) {
    constexpr size_t kThreads = 4, kLaunches = 1500;  // per stream: 4 x 2 x 1500 = 12,000 launches
    for (const char* staged : {"1", "0"}) {
        SCOPED_TRACE(std::string("GPAPROF_CUDA_STAGED_LAUNCHES=") + staged);
        const Outcome run = Profile({"-t", "-o", "staged"},
                                    {App("streams_threads"), "--threads", std::to_string(kThreads), "--launches", std::to_string(kLaunches)},
                                    {{"GPAPROF_CUDA_ACTIVITY_BUFFER_MB", "1"}, {"GPAPROF_CUDA_STAGED_LAUNCHES", staged},
                                     {"GPAPROF_CUDA_STATS", "1"}});
        ASSERT_EQ(run.exitCode, 0) << run.err;
        const AtpFile atp = ReadAtp("staged.atp");
        const ApiTracePart* cuda = CudaPart(atp);
        ASSERT_NE(cuda, nullptr);
        EXPECT_EQ(cuda->kernelTimestamps.size(), kThreads * 2 * kLaunches);
        size_t launches = 0, withKernel = 0;
        std::set<uint64_t> threads;
        std::map<std::string, size_t> perQueue;
        std::map<uint64_t, size_t> unjoined;  // per thread
        for (const auto& thread : cuda->threads) {
            for (const ApiCall& call : thread.entries) {
                if (call.name != "cudaLaunchKernel") continue;
                ++launches;
                threads.insert(thread.threadId);
                if (!call.command || !call.kernel) {
                    ++unjoined[thread.threadId];
                    continue;
                }
                ++withKernel;
                ++perQueue[std::string(call.command->queueHandle)];
                EXPECT_EQ(call.command->commandName, "CUDA_KERNEL");
                EXPECT_GE(call.command->start, call.start) << "its kernel started after the call did";
            }
        }
        EXPECT_EQ(launches, kThreads * 2 * kLaunches);
        EXPECT_EQ(withKernel, launches) << "every launch joined to its kernel's record";
        EXPECT_EQ(threads.size(), kThreads);
        EXPECT_EQ(perQueue.size(), kThreads * 2) << "each launch on the stream it named";
        for (const auto& [queue, count] : perQueue) EXPECT_EQ(count, kLaunches) << queue;
        const std::regex buffers("activity-buffer ([0-9]+) x");
        std::smatch match;
        ASSERT_TRUE(std::regex_search(run.err, match, buffers)) << run.err;
        EXPECT_GE(std::stoul(match[1]), 3u) << "records in several buffers";
        std::printf("FIGURE staged_launches staged=%s launches=%zu with_kernel=%zu activity_buffers=%s\n", staged, launches,
                    withKernel, match[1].str().c_str());
        std::string perThread;
        for (const auto& [thread, count] : unjoined) perThread += " " + std::to_string(thread) + ":" + std::to_string(count);
        if (!perThread.empty()) std::printf("FIGURE launches without their kernel, per thread:%s\n", perThread.c_str());
        // What found no partner (GPAPROF_CUDA_STATS), for a run that lost joins.
        const std::regex joins("gpaprof: CUDA joins: [^\n]*");
        if (std::regex_search(run.err, match, joins)) std::printf("FIGURE %s\n", match[0].str().c_str());
    }
}

// --force-passes splits OpenCL dispatches; on CUDA it once did nothing without a word.
TEST_F(GpaprofCuda, ForcePassesSaysItAppliesToOpenclOnly) {
    const Outcome run = Profile({"-p", "--force-passes", "3", "-o", "forced"}, {App("runtime_kernels"), "--iterations", "1"});
    ASSERT_EQ(run.exitCode, 0) << run.err;
    EXPECT_NE(run.err.find("--force-passes 3 applies to OpenCL dispatches only: CUDA kernels are replayed in the passes "
                           "their counters need (1 here)"),
              std::string::npos)
        << run.err;
    EXPECT_EQ(ReadCsv("forced.csv").rows.size(), 3u) << "the run is as without the option";
}

// --singlepass (ForceSinglePass): a set of 6 passes is collected in one pass; the counters that fit it are measured
// and the others NA, named in a note. (It did nothing on CUDA before 2026-11-30: every pass was replayed.)
TEST_F(GpaprofCuda, SinglePassMeasuresWhatFitsOnePassAndLeavesTheRestNA) {
    const Outcome run = Profile({"-p", "--singlepass", "--counters", kMultiPassCounters, "-o", "single"},
                                {App("runtime_kernels"), "--iterations", "1"});
    ASSERT_EQ(run.exitCode, 0) << run.err;
    EXPECT_NE(run.err.find(" 1 replay pass(es) per kernel"), std::string::npos) << run.err;
    EXPECT_NE(run.err.find("--singlepass: these counters would need another replay pass"), std::string::npos) << run.err;
    const CsvFile csv = ReadCsv("single.csv");
    ASSERT_EQ(csv.rows.size(), 3u);
    for (const DispatchRow& row : csv.rows) {
        size_t measured = 0, na = 0;
        for (const CounterValue& value : row.counters) (value.kind == CounterValue::Kind::NotAvailable ? na : measured)++;
        EXPECT_GT(measured, 0u) << row.method;
        EXPECT_GT(na, 0u) << row.method;
        const CounterValue* warps = Counter(row, "smsp__warps_launched.sum");
        ASSERT_NE(warps, nullptr);
        EXPECT_NE(warps->kind, CounterValue::Kind::NotAvailable) << "the first column always fits";
    }
}

TEST_F(GpaprofCuda, CountersOccupancyAndDispatchColumnsPerKernel) {
    const Outcome run = Profile({"-p", "-O", "-o", "counters"}, {App("runtime_kernels"), "--iterations", "2", "--exit-code", "7"});
    ASSERT_EQ(run.exitCode, 7) << "the application ran once and its results were right (wrong results exit 1)";
    const CsvFile csv = ReadCsv("counters.csv");
    EXPECT_EQ(csv.api, "CUDA");
    ASSERT_EQ(csv.rows.size(), 6u);
    EXPECT_NE(std::find(csv.counterNames.begin(), csv.counterNames.end(), "GPUTime"), csv.counterNames.end());
    EXPECT_NE(std::find(csv.counterNames.begin(), csv.counterNames.end(), "Wavefronts"), csv.counterNames.end());
    uint64_t order = 0;
    for (const DispatchRow& row : csv.rows) {
        EXPECT_GT(row.executionOrder, order);
        order = row.executionOrder;
        const std::string kernel = KernelOf(row);
        ASSERT_TRUE(kernel == kSaxpy || kernel == kBlockSum) << row.method;
        const bool sum = kernel == kBlockSum;
        EXPECT_EQ(row.workGroupSize.size[0], 256u);
        EXPECT_EQ(row.globalWorkSize.size[0], sum ? 512u * 256u : 4096u * 256u);
        EXPECT_EQ(row.localMemSize, sum ? 2048u : 0u) << "static + dynamic shared memory";
        EXPECT_TRUE(row.vgprs);
        EXPECT_FALSE(row.sgprs);
        EXPECT_EQ(row.scratchRegs, 0u);
        ASSERT_TRUE(row.kernelOccupancy);
        EXPECT_GT(*row.kernelOccupancy, 0.0);
        ASSERT_TRUE(row.timeMs);
        EXPECT_GT(*row.timeMs, 0.0);
        const CounterValue* wavefronts = Counter(row, "Wavefronts");
        ASSERT_NE(wavefronts, nullptr);
        ASSERT_EQ(wavefronts->kind, CounterValue::Kind::Integer) << row.method;
        EXPECT_EQ(wavefronts->integer, sum ? 512u * 8u : 4096u * 8u) << "warps launched";
        const CounterValue* gpuTime = Counter(row, "GPUTime");
        ASSERT_NE(gpuTime, nullptr);
        ASSERT_NE(gpuTime->kind, CounterValue::Kind::NotAvailable);
        // The same measurement; the .csv writes floating counters with 2 decimals and Time with 5.
        EXPECT_NEAR(gpuTime->AsDouble(), *row.timeMs, 0.0051) << "Time and GPUTime are the same measurement";
        if (const CounterValue* achieved = Counter(row, "AchievedOccupancy")) {
            ASSERT_NE(achieved->kind, CounterValue::Kind::NotAvailable);
            EXPECT_GT(achieved->AsDouble(), 0.0);
            EXPECT_LE(achieved->AsDouble(), 100.0);
        }
    }
    const OccupancyFile occupancy = ReadOccupancy("counters.occupancy");
    ASSERT_EQ(occupancy.rows.size(), 6u);
    for (const OccupancyRow& row : occupancy.rows) {
        EXPECT_EQ(row.waveSize, 32u);
        EXPECT_EQ(row.workGroupSize, 256u);
        EXPECT_FALSE(row.usedSgprs);
        ASSERT_TRUE(row.occupancyPercent);
        EXPECT_GT(*row.occupancyPercent, 0.0);
        EXPECT_EQ(row.graphicsIpVersion->substr(0, 3), "sm_");
    }
}

TEST_F(GpaprofCuda, BatchedDecodingGivesTheSameRows) {
    const Outcome run = Profile({"-p", "--counters", "Wavefronts,smsp__inst_executed.sum", "-o", "batched"},
                            {App("runtime_kernels"), "--iterations", "3"}, {{"GPAPROF_CUDA_COUNTER_BATCH", "4"}});
    ASSERT_EQ(run.exitCode, 0);
    const CsvFile csv = ReadCsv("batched.csv");
    ASSERT_EQ(csv.rows.size(), 9u);
    for (const DispatchRow& row : csv.rows) {
        const CounterValue* wavefronts = Counter(row, "Wavefronts");
        ASSERT_NE(wavefronts, nullptr);
        ASSERT_EQ(wavefronts->kind, CounterValue::Kind::Integer);
        EXPECT_EQ(wavefronts->integer, KernelOf(row) == kBlockSum ? 4096u : 32768u);
        const CounterValue* instructions = Counter(row, "smsp__inst_executed.sum");
        ASSERT_NE(instructions, nullptr) << "a raw NVIDIA metric as a column";
        EXPECT_NE(instructions->kind, CounterValue::Kind::NotAvailable);
    }
}

TEST_F(GpaprofCuda, KernelFilterProfilesOnlyTheChosenKernels) {
    const Outcome run = Profile({"-p", "--kernel-regex", "block_sum", "-o", "filtered"}, {App("runtime_kernels"), "--iterations", "2"});
    ASSERT_EQ(run.exitCode, 0);
    const CsvFile csv = ReadCsv("filtered.csv");
    ASSERT_EQ(csv.rows.size(), 2u);
    EXPECT_EQ(KernelOf(csv.rows[0]), kBlockSum);
    EXPECT_EQ(csv.rows[0].executionOrder, 2u) << "the execution order counts every dispatch";
    EXPECT_EQ(csv.rows[1].executionOrder, 5u);
}

TEST_F(GpaprofCuda, EveryDispatchOfEveryThreadAndStream) {
    const Outcome run = Profile({"-t", "-p", "-o", "streams"}, {App("streams_threads"), "--threads", "3", "--launches", "10"});
    ASSERT_EQ(run.exitCode, 0);
    const AtpFile atp = ReadAtp("streams.atp");
    const ApiTracePart* cuda = CudaPart(atp);
    ASSERT_NE(cuda, nullptr);
    EXPECT_EQ(cuda->kernelTimestamps.size(), 60u);
    std::set<uint64_t> streams;
    for (const KernelTimestamp& kernel : cuda->kernelTimestamps) streams.insert(kernel.queueIndex);
    EXPECT_EQ(streams.size(), 6u);
    EXPECT_EQ(Calls(*cuda, "cudaLaunchKernel").size(), 60u);
    std::set<uint64_t> launchThreads;
    for (const auto& thread : cuda->threads) {
        for (const ApiCall& call : thread.entries) {
            if (call.name == "cudaLaunchKernel") launchThreads.insert(thread.threadId);
        }
    }
    EXPECT_EQ(launchThreads.size(), 3u);
    const CsvFile csv = ReadCsv("streams.csv");
    ASSERT_EQ(csv.rows.size(), 60u);
    std::set<uint64_t> rowThreads;
    for (const DispatchRow& row : csv.rows) {
        rowThreads.insert(row.threadId);
        const CounterValue* wavefronts = Counter(row, "Wavefronts");
        ASSERT_NE(wavefronts, nullptr);
        EXPECT_EQ(wavefronts->integer, 512u * 4u);
    }
    EXPECT_EQ(rowThreads, launchThreads);
}

TEST_F(GpaprofCuda, CublasKernelsAreTracedAndProfiled) {
    if (access(App("cublas_gemm").c_str(), X_OK) != 0) GTEST_SKIP() << "built without cuBLAS (the toolkit has none)";
    const Outcome run = Profile({"-t", "-p", "-o", "cublas"}, {App("cublas_gemm"), "--size", "256", "--repeats", "2"});
    ASSERT_EQ(run.exitCode, 0) << "cuBLAS results stay right under kernel replay";
    const AtpFile atp = ReadAtp("cublas.atp");
    const ApiTracePart* cuda = CudaPart(atp);
    ASSERT_NE(cuda, nullptr);
    const CsvFile csv = ReadCsv("cublas.csv");
    ASSERT_GE(csv.rows.size(), 3u);
    EXPECT_EQ(cuda->kernelTimestamps.size(), csv.rows.size()) << "one row per kernel cuBLAS launched";
    size_t gemm = 0;
    for (const DispatchRow& row : csv.rows) {
        gemm += row.method.find("gemm") != std::string::npos;
        const CounterValue* time = Counter(row, "GPUTime");
        ASSERT_NE(time, nullptr);
        EXPECT_NE(time->kind, CounterValue::Kind::NotAvailable) << row.method;
    }
    EXPECT_GE(gemm, 2u);
}

TEST_F(GpaprofCuda, CrashLeavesCompleteFiles) {
    for (const bool segv : {false, true}) {
        SCOPED_TRACE(segv ? "SIGSEGV" : "abort");
        const std::string name = segv ? "segv" : "abort";
        std::vector<std::string> command = {App("crash_after_kernels"), "--launches", "5"};
        if (segv) command.push_back("--segv");
        const Outcome run = Profile({"-t", "-p", "-o", name}, command);
        EXPECT_EQ(run.exitCode, segv ? 128 + SIGSEGV : 128 + SIGABRT);
        const AtpFile atp = ReadAtp(name + ".atp");
        const ApiTracePart* cuda = CudaPart(atp);
        ASSERT_NE(cuda, nullptr);
        EXPECT_EQ(cuda->kernelTimestamps.size(), 5u) << "CUPTI's buffered kernels reached the files";
        ASSERT_EQ(Calls(*cuda, "cudaMemcpy").size(), 1u);
        EXPECT_TRUE(Calls(*cuda, "cudaMemcpy")[0]->command);
        const CsvFile csv = ReadCsv(name + ".csv");
        EXPECT_EQ(csv.rows.size(), 5u);
    }
}

}  // namespace
}  // namespace gpaprof
