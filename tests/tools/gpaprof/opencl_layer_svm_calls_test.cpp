// The layer hands the driver one clSVMAlloc or clSVMFree at a time (layer_state.h, SvmCalls: NVIDIA's driver returned
// NULL for SVM allocations that threads made at once). Loads the built layer as the ICD loader would, over a table
// whose SVM functions notice any overlap; this process becomes a profiled one (its spool goes to a scratch directory).
// Its own executable: a process's first initialisation of the layer is the one that traces.
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "tools/gpaprof/opencl/cl_headers.h"

#include "opencl_layer_loading.h"

namespace {

std::atomic<int> g_inside{0};
std::atomic<int> g_most{0};

// Stays in the "driver" long enough that callers the layer let through together would meet there.
void InDriver() {
    const int now = ++g_inside;
    int most = g_most.load();
    while (now > most && !g_most.compare_exchange_weak(most, now)) {
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    --g_inside;
}

void* CL_API_CALL FakeSvmAlloc(cl_context, cl_svm_mem_flags, size_t size, cl_uint) {
    InDriver();
    return std::malloc(size);
}

void CL_API_CALL FakeSvmFree(cl_context, void* pointer) {
    InDriver();
    std::free(pointer);
}

TEST(OpenclLayerSvmCalls, ThreadsAllocatingAtOnceReachTheDriverOneAtATime) {
    std::string scratch, problem;
    const gpaprof::test::InitLayer init = gpaprof::test::LoadTracingLayer("/tmp/gpaprof-layer-svm-", &scratch, &problem);
    ASSERT_NE(init, nullptr) << problem;
    cl_icd_dispatch below{};
    below.clSVMAlloc = FakeSvmAlloc;
    below.clSVMFree = FakeSvmFree;
    const cl_icd_dispatch* layerTable = nullptr;
    cl_uint entries = 0;
    ASSERT_EQ(init(sizeof below / sizeof(void*), &below, &entries, &layerTable), CL_SUCCESS);
    ASSERT_NE(layerTable, nullptr);
    ASSERT_NE(layerTable->clSVMAlloc, nullptr);
    ASSERT_NE(layerTable->clSVMAlloc, below.clSVMAlloc) << "the layer traces clSVMAlloc";

    constexpr int kThreads = 8;
    constexpr int kRounds = 4;
    std::atomic<bool> go{false};
    std::atomic<int> allocated{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([&] {
            while (!go.load()) std::this_thread::yield();
            for (int round = 0; round < kRounds; ++round) {
                void* pointer = layerTable->clSVMAlloc(nullptr, CL_MEM_READ_WRITE, 4096, 0);
                if (pointer) ++allocated;
                layerTable->clSVMFree(nullptr, pointer);
            }
        });
    }
    go = true;
    for (std::thread& thread : threads) thread.join();
    EXPECT_EQ(allocated.load(), kThreads * kRounds);
    EXPECT_EQ(g_most.load(), 1) << "SVM allocations and frees met in the driver";
    std::filesystem::remove_all(scratch);
}

}  // namespace
