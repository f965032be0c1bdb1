// gpaprof on CUDA programs (tests/tools/gpaprof/cuda_apps), end to end on a GPU: runs
// `gpaprof <options> -- <program>`, reads the files back with gpaprof's readers in strict mode and checks
// them against what the programs did; compares per-kernel counter values with Nsight Compute (ncu) on the
// same program. Skips, saying why, without a CUDA device (or without ncu for the comparison).
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <dlfcn.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tools/gpaprof/files/atp_file.h"
#include "tools/gpaprof/files/csv_file.h"
#include "tools/gpaprof/files/occupancy_file.h"
#include "tools/gpaprof/files/text_fields.h"

namespace gpaprof {
namespace {

struct RunResult {
    int exitCode = -1;
    std::string out;
    std::string err;
};

std::string ReadAll(const std::string& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

std::string App(const std::string& name) { return std::string(GPAPROF_CUDA_APP_DIR) + "/" + name; }

RunResult Execute(const std::vector<std::string>& command, const std::string& directory,
            const std::map<std::string, std::string>& environment = {}) {
    const std::string outPath = directory + "/stdout.txt";
    const std::string errPath = directory + "/stderr.txt";
    const pid_t child = fork();
    if (child == 0) {
        const int out = open(outPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        const int err = open(errPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        dup2(out, 1);
        dup2(err, 2);
        if (chdir(directory.c_str()) != 0) _exit(126);
        for (const auto& [name, value] : environment) setenv(name.c_str(), value.c_str(), 1);
        std::vector<char*> argv;
        for (const std::string& part : command) argv.push_back(const_cast<char*>(part.c_str()));
        argv.push_back(nullptr);
        execvp(argv[0], argv.data());
        _exit(127);
    }
    int status = 0;
    waitpid(child, &status, 0);
    RunResult run;
    run.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    run.out = ReadAll(outPath);
    run.err = ReadAll(errPath);
    return run;
}

bool OnPath(const std::string& tool) {
    const char* path = std::getenv("PATH");
    std::stringstream directories(path ? path : "");
    std::string directory;
    while (std::getline(directories, directory, ':')) {
        if (!directory.empty() && access((directory + "/" + tool).c_str(), X_OK) == 0) return true;
    }
    return false;
}

const ApiTracePart* CudaPart(const AtpFile& file) {
    for (const ApiTracePart& part : file.parts) {
        if (part.api == "cuda") return &part;
    }
    return nullptr;
}

std::vector<const ApiCall*> Calls(const ApiTracePart& part, const std::string& name) {
    std::vector<const ApiCall*> calls;
    for (const auto& thread : part.threads) {
        for (const ApiCall& call : thread.entries) {
            if (call.name == name) calls.push_back(&call);
        }
    }
    return calls;
}

const CounterValue* Counter(const DispatchRow& row, const std::string& name) {
    for (const CounterValue& value : row.counters) {
        if (value.name == name) return &value;
    }
    return nullptr;
}

std::string KernelOf(const DispatchRow& row) {
    std::optional<MethodName> method = MethodName::Parse(row.method);
    return method ? method->kernel : row.method;
}

class GpaprofCuda : public ::testing::Test {
protected:
    void SetUp() override {
        static int probed = -1;
        static std::string why;
        if (probed < 0) {
            if (void* driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL)) {
                dlclose(driver);
                char scratch[] = "/tmp/gpaprof-cuda-probe-XXXXXX";
                ASSERT_NE(mkdtemp(scratch), nullptr);
                // streams_threads uses the runtime only, so it starts without a driver and says so.
                const RunResult run = Execute({App("streams_threads"), "--probe"}, scratch);
                probed = run.exitCode;
                why = run.out;
                std::filesystem::remove_all(scratch);
            } else {
                probed = 77;
                why = "the NVIDIA driver library libcuda.so.1 is not installed";
            }
        }
        if (probed == 77) GTEST_SKIP() << "no CUDA device: " << why;
        ASSERT_EQ(probed, 0) << "the probe program failed";
        char directory[] = "/tmp/gpaprof-cuda-e2e-XXXXXX";
        ASSERT_NE(mkdtemp(directory), nullptr);
        directory_ = directory;
    }
    void TearDown() override {
        if (directory_.empty()) return;
        if (HasFailure()) {
            std::fprintf(stderr, "files kept in %s\n", directory_.c_str());
        } else {
            std::filesystem::remove_all(directory_);
        }
    }

    RunResult Profile(const std::vector<std::string>& options, const std::vector<std::string>& command,
                const std::map<std::string, std::string>& environment = {}) {
        std::vector<std::string> full = {GPAPROF_EXECUTABLE, "--no-progress"};
        full.insert(full.end(), options.begin(), options.end());
        full.push_back("--");
        full.insert(full.end(), command.begin(), command.end());
        RunResult run = Execute(full, directory_, environment);
        std::printf("---- gpaprof stderr:\n%s", run.err.c_str());
        return run;
    }
    std::string Path(const std::string& name) const { return directory_ + "/" + name; }

    AtpFile ReadAtp(const std::string& name) {
        Parsed<AtpFile> parsed = ReadAtpFile(Path(name), {true});
        EXPECT_TRUE(parsed.ok()) << name << ":\n" << parsed.Describe();
        return parsed.file;
    }
    CsvFile ReadCsv(const std::string& name) {
        Parsed<CsvFile> parsed = ReadCsvFile(Path(name), {true});
        EXPECT_TRUE(parsed.ok()) << name << ":\n" << parsed.Describe();
        return parsed.file;
    }
    OccupancyFile ReadOccupancy(const std::string& name) {
        Parsed<OccupancyFile> parsed = ReadOccupancyFile(Path(name), {true});
        EXPECT_TRUE(parsed.ok()) << name << ":\n" << parsed.Describe();
        return parsed.file;
    }

    std::string directory_;
};

constexpr const char* kSaxpy = "_Z5saxpyPfPKffi";
constexpr const char* kBlockSum = "_Z9block_sumPfPKf";

TEST_F(GpaprofCuda, TracesRuntimeAndDriverCallsKernelsCopiesMarkersAndCallers) {
    const RunResult run = Profile({"-t", "--sym", "-o", "trace"}, {App("runtime_kernels"), "--iterations", "2", "--exit-code", "7"});
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

TEST_F(GpaprofCuda, CountersOccupancyAndDispatchColumnsPerKernel) {
    const RunResult run = Profile({"-p", "-O", "-o", "counters"}, {App("runtime_kernels"), "--iterations", "2", "--exit-code", "7"});
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
    const RunResult run = Profile({"-p", "--counters", "Wavefronts,smsp__inst_executed.sum", "-o", "batched"},
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
    const RunResult run = Profile({"-p", "--kernel-regex", "block_sum", "-o", "filtered"}, {App("runtime_kernels"), "--iterations", "2"});
    ASSERT_EQ(run.exitCode, 0);
    const CsvFile csv = ReadCsv("filtered.csv");
    ASSERT_EQ(csv.rows.size(), 2u);
    EXPECT_EQ(KernelOf(csv.rows[0]), kBlockSum);
    EXPECT_EQ(csv.rows[0].executionOrder, 2u) << "the execution order counts every dispatch";
    EXPECT_EQ(csv.rows[1].executionOrder, 5u);
}

TEST_F(GpaprofCuda, EveryDispatchOfEveryThreadAndStream) {
    const RunResult run = Profile({"-t", "-p", "-o", "streams"}, {App("streams_threads"), "--threads", "3", "--launches", "10"});
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
    const RunResult run = Profile({"-t", "-p", "-o", "cublas"}, {App("cublas_gemm"), "--size", "256", "--repeats", "2"});
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
        const RunResult run = Profile({"-t", "-p", "-o", name}, command);
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

// ncu on the same program, with the same NVIDIA metrics: counts of deterministic kernels are exact.
TEST_F(GpaprofCuda, PerKernelValuesMatchNsightCompute) {
    if (!OnPath("ncu")) GTEST_SKIP() << "ncu (Nsight Compute) is not on PATH";
    const std::vector<std::string> metrics = {"smsp__warps_launched.sum", "smsp__inst_executed.sum",
                                              "smsp__thread_inst_executed.sum", "lts__t_sectors_srcunit_tex_op_read.sum",
                                              "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"};
    std::string list;
    for (const std::string& metric : metrics) list += (list.empty() ? "" : ",") + metric;
    const RunResult ours = Profile({"-p", "--counters", list, "-o", "versus"}, {App("runtime_kernels"), "--iterations", "1"});
    ASSERT_EQ(ours.exitCode, 0);
    const CsvFile csv = ReadCsv("versus.csv");
    ASSERT_EQ(csv.rows.size(), 3u);

    const RunResult ncu = Execute({"ncu", "--metrics", list, "--clock-control", "none", "--csv", "--page", "raw",
                             "--print-units", "base", App("runtime_kernels"), "--iterations", "1"},
                            directory_);
    ASSERT_EQ(ncu.exitCode, 0) << ncu.err << ncu.out;
    // The raw page: a header row with the metric names, a row of units, then one row per kernel.
    std::vector<std::vector<std::string>> rows;
    std::stringstream lines(ncu.out);
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
    ASSERT_GE(rows.size(), 5u) << ncu.out;
    const std::vector<std::string>& header = rows[0];
    auto column = [&](const std::string& name) {
        return static_cast<size_t>(std::find(header.begin(), header.end(), name) - header.begin());
    };
    const size_t kernelColumn = column("Kernel Name");
    ASSERT_LT(kernelColumn, header.size());
    std::vector<std::vector<std::string>> kernels(rows.begin() + 2, rows.end());
    ASSERT_EQ(kernels.size(), csv.rows.size());
    for (size_t k = 0; k < kernels.size(); ++k) {
        SCOPED_TRACE(csv.rows[k].method);
        // ncu's raw page names kernels demangled: "saxpy(float *, const float *, float, int)".
        const std::string mangled = KernelOf(csv.rows[k]);
        size_t digits = 2;
        while (digits < mangled.size() && std::isdigit(static_cast<unsigned char>(mangled[digits]))) ++digits;
        const size_t length = std::strtoul(mangled.substr(2, digits - 2).c_str(), nullptr, 10);
        EXPECT_EQ(kernels[k][kernelColumn].rfind(mangled.substr(digits, length) + "(", 0), 0u) << kernels[k][kernelColumn];
        for (const std::string& metric : metrics) {
            const size_t at = column(metric);
            ASSERT_LT(at, header.size()) << metric;
            std::string text = kernels[k][at];
            text.erase(std::remove(text.begin(), text.end(), ','), text.end());
            const double theirs = std::strtod(text.c_str(), nullptr);
            const CounterValue* mine = Counter(csv.rows[k], metric);
            ASSERT_NE(mine, nullptr) << metric;
            ASSERT_NE(mine->kind, CounterValue::Kind::NotAvailable) << metric;
            std::printf("FIGURE versus_ncu %s %s gpaprof=%.0f ncu=%.0f\n", KernelOf(csv.rows[k]).c_str(), metric.c_str(),
                        mine->AsDouble(), theirs);
            EXPECT_EQ(mine->AsDouble(), theirs) << metric;
        }
    }
}

}  // namespace
}  // namespace gpaprof
