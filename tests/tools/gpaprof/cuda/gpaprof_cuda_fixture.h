// What gpaprof's CUDA end-to-end tests share: the fixture that runs gpaprof on the programs of
// tests/tools/gpaprof/cuda_apps (skipping, saying why, without a CUDA device), and helpers to read what it wrote.
#pragma once

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <dlfcn.h>
#include <unistd.h>

#include "../profiled_run.h"
#include "tools/gpaprof/files/atp_file.h"
#include "tools/gpaprof/files/csv_file.h"
#include "tools/gpaprof/files/occupancy_file.h"

namespace gpaprof {

using testing::Execute;
using testing::Outcome;
using testing::ReadAll;

// The kernels of cuda_apps/runtime_kernels.cu, as CUPTI names them.
inline constexpr const char* kSaxpy = "_Z5saxpyPfPKffi";
inline constexpr const char* kBlockSum = "_Z9block_sumPfPKf";

inline std::string App(const std::string& name) { return std::string(GPAPROF_CUDA_APP_DIR) + "/" + name; }

// The driver may run a graph's copy between device buffers as a kernel of its own (memcpy32_post: one executable
// graph's, in 1 of 58 runs of cuda_graphs under -t -p -O on an H200, 2026-11-29): a CUDA_GRAPH_KERNEL line of real
// device work, but no kernel node of the application's and no dispatch. Tests that count the application's graph
// kernels count these apart.
inline bool IsDriverCopyKernel(const KernelTimestamp& line) {
    return line.packetType == "CUDA_GRAPH_KERNEL" && line.kernelName.rfind("memcpy", 0) == 0;
}

inline bool OnPath(const std::string& tool) {
    const char* path = std::getenv("PATH");
    std::stringstream directories(path ? path : "");
    std::string directory;
    while (std::getline(directories, directory, ':')) {
        if (!directory.empty() && access((directory + "/" + tool).c_str(), X_OK) == 0) return true;
    }
    return false;
}

inline const ApiTracePart* CudaPart(const AtpFile& file) {
    for (const ApiTracePart& part : file.parts) {
        if (part.api == "cuda") return &part;
    }
    return nullptr;
}

inline std::vector<const ApiCall*> Calls(const ApiTracePart& part, const std::string& name) {
    std::vector<const ApiCall*> calls;
    for (const auto& thread : part.threads) {
        for (const ApiCall& call : thread.entries) {
            if (call.name == name) calls.push_back(&call);
        }
    }
    return calls;
}

inline const CounterValue* Counter(const DispatchRow& row, const std::string& name) {
    for (const CounterValue& value : row.counters) {
        if (value.name == name) return &value;
    }
    return nullptr;
}

inline std::string KernelOf(const DispatchRow& row) {
    std::optional<MethodName> method = MethodName::Parse(row.method);
    return method ? method->kernel : row.method;
}

class GpaprofCuda : public testing::ProfiledRunTest {
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
                const Outcome run = Execute({App("streams_threads"), "--probe"}, scratch);
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
        MakeDirectory("gpaprof-cuda-e2e");
    }

    Outcome Profile(const std::vector<std::string>& options, const std::vector<std::string>& command,
                const std::map<std::string, std::string>& environment = {}) {
        // GPAPROF_TEST_GPAPROF: another gpaprof to run the same tests on (an earlier build, to see a test fail).
        const char* other = std::getenv("GPAPROF_TEST_GPAPROF");
        std::vector<std::string> full = {other && *other ? other : GPAPROF_EXECUTABLE, "--no-progress"};
        full.insert(full.end(), options.begin(), options.end());
        full.push_back("--");
        full.insert(full.end(), command.begin(), command.end());
        Outcome run = Execute(full, directory_, environment);
        std::printf("---- gpaprof stderr:\n%s", run.err.c_str());
        return run;
    }
};

struct CounterStats {
    long kernels = -1, own = -1, cupti = -1;
};
inline CounterStats ParseStats(const std::string& err) {
    CounterStats stats;
    const size_t at = err.find("CUDA counter statistics: ");
    if (at != std::string::npos) {
        std::sscanf(err.c_str() + at, "CUDA counter statistics: %ld kernels (%ld replayed by gpaprof, %ld", &stats.kernels,
                    &stats.own, &stats.cupti);
    }
    return stats;
}

// Five NVIDIA counts of deterministic kernels and two GPA counters that take the set to 6 passes on GH100.
inline constexpr const char* kMultiPassCounters =
    "smsp__warps_launched.sum,smsp__inst_executed.sum,smsp__thread_inst_executed.sum,"
    "lts__t_sectors_srcunit_tex_op_read.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,VALUInsts,FlatVMemInsts";
inline const std::vector<std::string> kDeterministic = {"smsp__warps_launched.sum", "smsp__inst_executed.sum",
                                                 "smsp__thread_inst_executed.sum", "lts__t_sectors_srcunit_tex_op_read.sum",
                                                 "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "VALUInsts",
                                                 "FlatVMemInsts"};

}  // namespace gpaprof
