// GPA counters of libGPUPerfAPICUDA.so measured on kernels whose answers are known. Run on the GPU machine
// by tools/device/gpu_cuda_tests.sh; every test skips where there is no CUDA device. Sessions, passes and
// contexts: gpa_sessions_test.cu.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <string>
#include <thread>
#include <vector>

#include "cuda_gpa_fixture.h"
#include "gpu_test_support.h"
#include "kernels.cuh"

namespace gpu_test {
namespace {

// GPA initialised once for every test of the binary (gpa_sessions_test.cu's too).
::testing::Environment* const gGpa = ::testing::AddGlobalTestEnvironment(new GpaEnvironment);

constexpr double kKiB = 1024.0;

TEST_F(CudaGpa, DeviceAndCountersAreDescribed) {
    REQUIRE_CUDA_DEVICE();
    Open();
    const char* description = nullptr;
    GPA_CHECK(GPA_GetDeviceDesc(&description));
    EXPECT_NE(std::string(description).find("NVIDIA"), std::string::npos) << description;
    std::printf("device: %s\n", description);
    gpa_uint32 id = 0;
    if (GPA_GetDeviceID(&id) == GPA_STATUS_OK) Figure("pci_device_id", id);
    gpa_uint32 count = 0;
    GPA_CHECK(GPA_GetNumCounters(&count));
    Figure("gpa_counter_count", count);
    EXPECT_EQ(count, 24u);
    gpa_uint32 index = 0;
    EXPECT_EQ(GPA_GetCounterIndex("GDSInsts", &index), GPA_STATUS_ERROR_NOT_FOUND);
    EXPECT_EQ(GPA_GetCounterIndex("WriteUnitStalled", &index), GPA_STATUS_ERROR_NOT_FOUND);
}

TEST_F(CudaGpa, StreamCopyFetchesAndWritesTheBytesItMoves) {
    REQUIRE_CUDA_DEVICE();
    Open();
    const size_t bytes = size_t{4} << 30;
    const size_t count = bytes / sizeof(float4);
    float4* source = Allocate<float4>(count);
    float4* destination = Allocate<float4>(count, 0);
    CopyKernel<<<1024, 256>>>(source, destination, count);  // same cache state in every pass
    CUDA_CHECK(cudaDeviceSynchronize());
    Results r;
    Measure({"GPUTime", "GPUBusy", "FetchSize", "WriteSize", "Wavefronts", "CSThreadGroups", "CSThreads", "L2CacheHit",
             "L1CacheHit", "MemUnitBusy", "MemUnitStalled", "VALUBusy"},
            1, [&](size_t) { CopyKernel<<<1024, 256>>>(source, destination, count); }, &r, "stream_copy");
    ASSERT_FALSE(HasFatalFailure());
    const double expected = bytes / kKiB;
    EXPECT_NEAR(r.At("FetchSize"), expected, 0.02 * expected);
    EXPECT_NEAR(r.At("WriteSize"), expected, 0.02 * expected);
    EXPECT_EQ(r.At("Wavefronts"), 1024.0 * 256 / 32);
    EXPECT_EQ(r.At("CSThreadGroups"), 1024.0);
    EXPECT_EQ(r.At("CSThreads"), 1024.0 * 256);
    EXPECT_GT(r.At("GPUTime"), 0.5);
    Figure("stream_copy.passes", r.passes);
    Figure("stream_copy.FetchSize_rel_error_pct", 100.0 * (r.At("FetchSize") - expected) / expected);
    Figure("stream_copy.WriteSize_rel_error_pct", 100.0 * (r.At("WriteSize") - expected) / expected);
    Figure("stream_copy.GPUTime_ms", r.At("GPUTime"));
    Figure("stream_copy.bandwidth_GBps", 2.0 * bytes / (r.At("GPUTime") * 1e6));
    for (const char* name : {"GPUBusy", "L2CacheHit", "L1CacheHit", "MemUnitBusy", "MemUnitStalled", "VALUBusy"}) {
        Figure(std::string("stream_copy.") + name, r.At(name));
    }
    WriteExpectations(FixtureDirectory("stream_copy"), r,
                      {{"FetchSize", 0, expected, 0.02}, {"WriteSize", 0, expected, 0.02}, {"Wavefronts", 0, 8192, 0},
                       {"CSThreadGroups", 0, 1024, 0}, {"CSThreads", 0, 262144, 0}});
}

TEST_F(CudaGpa, GpuTimeMatchesCudaEventsForKernelsOverOneMillisecond) {
    REQUIRE_CUDA_DEVICE();
    Open();
    const size_t count = (size_t{4} << 30) / sizeof(float4);
    float4* source = Allocate<float4>(count);
    float4* destination = Allocate<float4>(count, 0);
    cudaEvent_t start[3], stop[3];
    for (int i = 0; i < 3; ++i) {
        cudaEventCreate(&start[i]);
        cudaEventCreate(&stop[i]);
    }
    const long long cycles2 = static_cast<long long>(SpinCycles(2.0));
    const long long cycles10 = static_cast<long long>(SpinCycles(10.0));
    CopyKernel<<<1024, 256>>>(source, destination, count);  // warm-up: module loads, clocks up
    Spin<<<132, 32>>>(cycles2 / 100, nullptr);
    CUDA_CHECK(cudaDeviceSynchronize());
    Results r;
    Measure({"GPUTime"}, 3,
            [&](size_t s) {
                cudaEventRecord(start[s]);
                if (s == 0) CopyKernel<<<1024, 256>>>(source, destination, count);
                if (s == 1) Spin<<<132, 32>>>(cycles2, nullptr);
                if (s == 2) Spin<<<132, 32>>>(cycles10, nullptr);
                cudaEventRecord(stop[s]);
            },
            &r);
    ASSERT_FALSE(HasFatalFailure());
    ASSERT_EQ(r.passes, 1u);
    const char* names[] = {"copy_4GiB", "spin_2ms", "spin_10ms"};
    for (int s = 0; s < 3; ++s) {
        float eventMs = 0;
        CUDA_CHECK(cudaEventElapsedTime(&eventMs, start[s], stop[s]));
        const double gpuTime = r.At("GPUTime", s);
        Figure(std::string("gputime.") + names[s] + ".event_ms", eventMs);
        Figure(std::string("gputime.") + names[s] + ".GPUTime_ms", gpuTime);
        Figure(std::string("gputime.") + names[s] + ".diff_pct", 100.0 * (gpuTime - eventMs) / eventMs);
        EXPECT_GT(eventMs, 1.0);
        EXPECT_NEAR(gpuTime, eventMs, 0.05 * eventMs) << names[s];
    }
}

TEST_F(CudaGpa, GpuBusyFallsWhenTheGpuIdlesInsideASample) {
    REQUIRE_CUDA_DEVICE();
    Open();
    const long long cycles = static_cast<long long>(SpinCycles(2.0));
    // Warm-up: the first launch of a kernel loads its module while the GPU waits (GPUBusy ~89% then).
    Spin<<<132, 32>>>(cycles / 100, nullptr);
    CUDA_CHECK(cudaDeviceSynchronize());
    Results r;
    Measure({"GPUBusy", "GPUTime"}, 2,
            [&](size_t s) {
                Spin<<<132, 32>>>(cycles, nullptr);
                if (s == 1) {
                    cudaDeviceSynchronize();
                    std::this_thread::sleep_for(std::chrono::milliseconds(4));
                    Spin<<<132, 32>>>(cycles, nullptr);
                }
            },
            &r);
    ASSERT_FALSE(HasFatalFailure());
    Figure("gpubusy.one_kernel_pct", r.At("GPUBusy", 0));
    Figure("gpubusy.two_kernels_4ms_idle_pct", r.At("GPUBusy", 1));
    Figure("gpubusy.two_kernels_4ms_idle_GPUTime_ms", r.At("GPUTime", 1));
    EXPECT_GT(r.At("GPUBusy", 0), 90.0);
    EXPECT_LT(r.At("GPUBusy", 1), r.At("GPUBusy", 0) - 10.0);
}

TEST_F(CudaGpa, WavefrontsCountEveryLaunchedWarpExactly) {
    REQUIRE_CUDA_DEVICE();
    Open();
    int* out = Allocate<int>(4096);
    Results r;
    Measure({"Wavefronts", "CSThreadGroups", "CSThreads"}, 3,
            [&](size_t s) {
                if (s == 0) Touch<<<1000, 96>>>(out);   // 3 warps per block
                if (s == 1) Touch<<<1000, 100>>>(out);  // 100 threads: 4 warps per block, the last one partial
                if (s == 2) {
                    Touch<<<7, 1024>>>(out);
                    Touch<<<1, 1>>>(out);
                }
            },
            &r, "wavefronts");
    ASSERT_FALSE(HasFatalFailure());
    EXPECT_EQ(r.At("Wavefronts", 0), 3000.0);
    EXPECT_EQ(r.At("Wavefronts", 1), 4000.0);
    EXPECT_EQ(r.At("Wavefronts", 2), 7 * 32 + 1.0);
    EXPECT_EQ(r.At("CSThreadGroups", 0), 1000.0);
    EXPECT_EQ(r.At("CSThreadGroups", 2), 8.0);
    EXPECT_EQ(r.At("CSThreads", 0), 96000.0);
    EXPECT_EQ(r.At("CSThreads", 1), 100000.0);
    EXPECT_EQ(r.At("CSThreads", 2), 7 * 1024 + 1.0);
    Figure("wavefronts.sample0", r.At("Wavefronts", 0));
    Figure("wavefronts.sample1", r.At("Wavefronts", 1));
    Figure("wavefronts.sample2", r.At("Wavefronts", 2));
    WriteExpectations(FixtureDirectory("wavefronts"), r,
                      {{"Wavefronts", 0, 3000, 0}, {"Wavefronts", 1, 4000, 0}, {"Wavefronts", 2, 225, 0},
                       {"CSThreadGroups", 0, 1000, 0}, {"CSThreads", 1, 100000, 0}, {"CSThreads", 2, 7169, 0}});
}

TEST_F(CudaGpa, InstructionCountsPerWarpMatchTheKernels) {
    REQUIRE_CUDA_DEVICE();
    Open();
    const int blocks = 4;
    float* global = Allocate<float>(static_cast<size_t>(blocks) * kMixBlock * kMixGlobalFloatsPerThread, 0);
    float* out = Allocate<float>(static_cast<size_t>(blocks) * kMixBlock, 0);
    float constants[256];
    for (int i = 0; i < 256; ++i) constants[i] = 0.5f + i;
    CUDA_CHECK(cudaMemcpyToSymbol(kMixConstants, constants, sizeof constants));
    const std::vector<std::string> counters = {"VALUInsts",     "SALUInsts",    "VFetchInsts", "SFetchInsts", "VWriteInsts",
                                               "FlatVMemInsts", "FlatLDSInsts", "LDSInsts",    "Wavefronts",  "VALUUtilization"};
    Results r;
    Measure(counters, 5,
            [&](size_t s) {
                switch (s) {
                    case 0: Mix<kMixBaseline><<<blocks, kMixBlock>>>(global, 0, 1.0f, 0.5f, out); break;
                    case 1: Mix<kMixMemory><<<blocks, kMixBlock>>>(global, 0, 1.0f, 0.5f, out); break;
                    case 2: Mix<kMixMemory><<<blocks, kMixBlock>>>(global, 1, 1.0f, 0.5f, out); break;
                    case 3: Mix<kMixAlu><<<blocks, kMixBlock>>>(global, 0, 1.0f, 0.5f, out); break;
                    case 4: Mix<kMixConstant><<<blocks, kMixBlock>>>(global, 0, 1.0f, 0.5f, out); break;
                }
            },
            &r, "instruction_mix");
    ASSERT_FALSE(HasFatalFailure());
    CUDA_CHECK(cudaDeviceSynchronize());
    const char* samples[] = {"baseline", "memory_generic_global", "memory_generic_shared", "alu", "constant"};
    for (const std::string& counter : counters) {
        for (size_t s = 0; s < 5; ++s) Figure("mix." + std::string(samples[s]) + "." + counter, r.At(counter, s));
    }
    auto diff = [&](const char* counter, size_t s) { return r.At(counter, s) - r.At(counter, 0); };
    for (size_t s = 0; s < 5; ++s) EXPECT_EQ(r.At("Wavefronts", s), blocks * kMixBlock / 32.0);
    // 64 of each memory instruction per thread, so per warp.
    for (size_t s : {1u, 2u}) {
        EXPECT_NEAR(diff("VFetchInsts", s), 64, 0.01) << samples[s];
        EXPECT_NEAR(diff("VWriteInsts", s), 64, 0.01) << samples[s];
        EXPECT_NEAR(diff("LDSInsts", s), 128, 0.01) << samples[s];
    }
    EXPECT_NEAR(diff("FlatVMemInsts", 1), 64, 0.01);
    EXPECT_NEAR(diff("FlatLDSInsts", 1), 0, 0.01);
    EXPECT_NEAR(diff("FlatVMemInsts", 2), 0, 0.01);
    EXPECT_NEAR(diff("FlatLDSInsts", 2), 64, 0.01);
    // 64 FP32 FMAs + 16 FP64 FMAs + 16 EX2 (xu pipe), plus the few conversions and selects the compiler adds
    // around them (5 with nvcc 13.0: F2F.F64.F32, DSETP, FSEL, 2 MOV; tools/device/gpu_cuda_tests.sh dumps them).
    EXPECT_GE(diff("VALUInsts", 3), 96);
    EXPECT_LE(diff("VALUInsts", 3), 104);
    // 16 indexed constant loads.
    EXPECT_NEAR(diff("SFetchInsts", 4), 16, 0.5);
    WriteExpectations(FixtureDirectory("instruction_mix"), r,
                      {{"Wavefronts", 0, 16, 0}, {"Wavefronts", 3, 16, 0}, {"VFetchInsts", 1, 64, 1e-4},
                       {"LDSInsts", 2, 128, 1e-4}, {"FlatVMemInsts", 1, 64, 1e-4}, {"FlatLDSInsts", 2, 64, 1e-4},
                       {"FlatLDSInsts", 1, 0, 0.01}, {"FlatVMemInsts", 2, 0, 0.01}});
}

TEST_F(CudaGpa, DivergentLanesLowerVALUUtilization) {
    REQUIRE_CUDA_DEVICE();
    Open();
    const int blocks = 132 * 4;
    float* out = Allocate<float>(static_cast<size_t>(blocks) * 256, 0);
    const int active[] = {32, 8, 1};
    Diverge<<<blocks, 256>>>(32, 1.0001f, 0.5f, out);  // warm-up: clocks up, code loaded
    CUDA_CHECK(cudaDeviceSynchronize());
    Results r;
    Measure({"VALUUtilization", "VALUInsts", "VALUBusy", "GPUTime", "MemUnitBusy", "MemUnitStalled", "SALUBusy"}, 3,
            [&](size_t s) { Diverge<<<blocks, 256>>>(active[s], 1.0001f, 0.5f, out); }, &r, "divergence");
    ASSERT_FALSE(HasFatalFailure());
    for (size_t s = 0; s < 3; ++s) {
        const std::string name = "divergence.active" + std::to_string(active[s]);
        Figure(name + ".VALUUtilization", r.At("VALUUtilization", s));
        Figure(name + ".VALUInsts", r.At("VALUInsts", s));
        Figure(name + ".VALUBusy", r.At("VALUBusy", s));
        Figure(name + ".MemUnitBusy", r.At("MemUnitBusy", s));
        Figure(name + ".MemUnitStalled", r.At("MemUnitStalled", s));
        Figure(name + ".SALUBusy", r.At("SALUBusy", s));
        EXPECT_NEAR(r.At("VALUUtilization", s), 100.0 * active[s] / 32, 0.06 * 100.0 * active[s] / 32 + 0.3);
    }
    // VALUBusy is an issue-slot share: an FMA chain per warp keeps the FMA pipe well occupied (a copy ~3%).
    EXPECT_GT(r.At("VALUBusy", 0), 30.0);
    // An FMA-only kernel barely uses the memory unit.
    EXPECT_LT(r.At("MemUnitBusy", 0), 1.0);
    WriteExpectations(FixtureDirectory("divergence"), r,
                      {{"VALUUtilization", 0, 100, 0.06}, {"VALUUtilization", 1, 25, 0.06}});
}

TEST_F(CudaGpa, BankConflictsShowInLDSBankConflict) {
    REQUIRE_CUDA_DEVICE();
    Open();
    const int blocks = 132 * 4;
    float* out = Allocate<float>(static_cast<size_t>(blocks) * 256, 0);
    Results r;
    Measure({"LDSBankConflict", "LDSInsts", "GPUTime"}, 2,
            [&](size_t s) {
                if (s == 0) SharedColumns<0><<<blocks, 256>>>(4096, out);
                if (s == 1) SharedColumns<1><<<blocks, 256>>>(4096, out);
            },
            &r, "bank_conflicts");
    ASSERT_FALSE(HasFatalFailure());
    Figure("bank_conflicts.conflicting.LDSBankConflict", r.At("LDSBankConflict", 0));
    Figure("bank_conflicts.padded.LDSBankConflict", r.At("LDSBankConflict", 1));
    Figure("bank_conflicts.conflicting.GPUTime_ms", r.At("GPUTime", 0));
    Figure("bank_conflicts.padded.GPUTime_ms", r.At("GPUTime", 1));
    Figure("bank_conflicts.LDSInsts", r.At("LDSInsts", 0));
    EXPECT_GT(r.At("LDSBankConflict", 0), 10.0);
    EXPECT_LT(r.At("LDSBankConflict", 1), 1.0);
    EXPECT_NEAR(r.At("LDSInsts", 0), r.At("LDSInsts", 1), 1.0);
    WriteExpectations(FixtureDirectory("bank_conflicts"), r, {{"LDSBankConflict", 1, 0, 1.0}});
}

TEST_F(CudaGpa, CacheHitsSeparateResidentFromStreamingData) {
    REQUIRE_CUDA_DEVICE();
    Open();
    const size_t residentFloats = (size_t{8} << 20) / sizeof(float);
    const size_t streamingFloats = (size_t{4} << 30) / sizeof(float);
    float* resident = Allocate<float>(residentFloats);
    float* streaming = Allocate<float>(streamingFloats);
    float* sink = Allocate<float>(1);
    Results r;
    Measure({"L2CacheHit", "CacheHit", "L1CacheHit", "FetchSize"}, 3,
            [&](size_t s) {
                if (s == 0) ReadThroughL2<<<132 * 8, 256>>>(resident, residentFloats, 64, sink);
                if (s == 1) ReadThroughL2<<<132 * 8, 256>>>(streaming, streamingFloats, 1, sink);
                if (s == 2) ReadThroughL1<<<132 * 4, 256>>>(resident, 4096, 256, sink);
            },
            &r, "cache_hits");
    ASSERT_FALSE(HasFatalFailure());
    const char* names[] = {"l2_resident", "dram_streaming", "l1_resident"};
    for (size_t s = 0; s < 3; ++s) {
        for (const char* counter : {"L2CacheHit", "L1CacheHit", "FetchSize"}) {
            Figure(std::string("cache.") + names[s] + "." + counter, r.At(counter, s));
        }
        EXPECT_DOUBLE_EQ(r.At("CacheHit", s), r.At("L2CacheHit", s));
    }
    EXPECT_GT(r.At("L2CacheHit", 0), 80.0);
    EXPECT_LT(r.At("L2CacheHit", 1), 40.0);
    EXPECT_GT(r.At("L1CacheHit", 2), 80.0);
    EXPECT_LT(r.At("L1CacheHit", 1), 40.0);
    const double streamed = (size_t{4} << 30) / kKiB;
    EXPECT_NEAR(r.At("FetchSize", 1), streamed, 0.02 * streamed);
    WriteExpectations(FixtureDirectory("cache_hits"), r, {{"FetchSize", 1, streamed, 0.02}});
}

TEST_F(CudaGpa, EveryGpaCounterTogetherGivesSaneValues) {
    REQUIRE_CUDA_DEVICE();
    Open();
    const size_t count = (size_t{256} << 20) / sizeof(float4);
    float4* source = Allocate<float4>(count);
    float4* destination = Allocate<float4>(count, 0);
    float* global = Allocate<float>(static_cast<size_t>(4) * kMixBlock * kMixGlobalFloatsPerThread, 0);
    float* out = Allocate<float>(static_cast<size_t>(4) * kMixBlock, 0);
    gpa_uint32 total = 0;
    GPA_CHECK(GPA_GetNumCounters(&total));
    std::vector<std::string> names;
    for (gpa_uint32 i = 0; i < total; ++i) {
        const char* name = nullptr;
        GPA_CHECK(GPA_GetCounterName(i, &name));
        names.emplace_back(name);
    }
    Results r;
    Measure(names, 1,
            [&](size_t) {
                CopyKernel<<<1024, 256>>>(source, destination, count);
                Mix<kMixMemory><<<4, kMixBlock>>>(global, 0, 1.0f, 0.5f, out);
            },
            &r);
    ASSERT_FALSE(HasFatalFailure());
    Figure("all_gpa_counters.passes", r.passes);
    for (gpa_uint32 i = 0; i < total; ++i) {
        GPA_Usage_Type usage = GPA_USAGE_TYPE_ITEMS;
        GPA_CHECK(GPA_GetCounterUsageType(i, &usage));
        const double value = r.At(names[i]);
        Figure("all_gpa_counters." + names[i], value);
        EXPECT_TRUE(std::isfinite(value)) << names[i];
        EXPECT_GE(value, 0.0) << names[i];
        if (usage == GPA_USAGE_TYPE_PERCENTAGE) EXPECT_LE(value, 100.5) << names[i];
    }
    EXPECT_EQ(r.At("Wavefronts"), 8192.0 + 16.0);
}

// Candidates for MemUnitBusy measured on kernels that use the memory unit differently; docs/cuda_backend.md
// explains the choice from these figures.
TEST_F(CudaGpa, MemoryUnitActivityOnKernelsThatUseItDifferently) {
    REQUIRE_CUDA_DEVICE();
    Open(GPA_OPENCONTEXT_ENABLE_HARDWARE_COUNTERS_BIT);
    const std::vector<std::string> metrics = {
        "MemUnitBusy", "MemUnitStalled", "GPUTime",
        "l1tex__throughput.avg.pct_of_peak_sustained_elapsed", "sm__memory_throughput.avg.pct_of_peak_sustained_elapsed",
        "l1tex__lsuin_requests.sum", "l1tex__data_pipe_lsu_wavefronts.sum", "l1tex__lsu_writeback_active.sum",
        "l1tex__t_requests.sum", "l1tex__m_xbar2l1tex_read_sectors.sum", "l1tex__cycles_active.sum",
        "l1tex__cycles_elapsed.sum", "smsp__inst_executed_pipe_lsu.sum", "smsp__cycles_elapsed.sum",
        "l1tex__m_l1tex2xbar_req_cycles_stalled.sum"};
    const size_t count = (size_t{1} << 30) / sizeof(float4);
    float4* source = Allocate<float4>(count);
    float4* destination = Allocate<float4>(count, 0);
    float* resident = Allocate<float>((size_t{8} << 20) / sizeof(float));
    float* sink = Allocate<float>(1);
    float* out = Allocate<float>(static_cast<size_t>(132 * 4) * 256, 0);
    const char* kernels[] = {"fma_only", "dram_copy", "l1_resident", "l2_resident", "bank_conflicts"};
    Results r;
    Measure(metrics, 5,
            [&](size_t s) {
                if (s == 0) Diverge<<<132 * 4, 256>>>(32, 1.0001f, 0.5f, out);
                if (s == 1) CopyKernel<<<1024, 256>>>(source, destination, count);
                if (s == 2) ReadThroughL1<<<132 * 4, 256>>>(resident, 4096, 256, sink);
                if (s == 3) ReadThroughL2<<<132 * 8, 256>>>(resident, (size_t{8} << 20) / sizeof(float), 64, sink);
                if (s == 4) SharedColumns<0><<<132 * 4, 256>>>(4096, out);
            },
            &r);
    ASSERT_FALSE(HasFatalFailure());
    Figure("memunit.passes", r.passes);
    for (size_t s = 0; s < 5; ++s) {
        for (const std::string& metric : metrics) Figure(std::string("memunit.") + kernels[s] + "." + metric, r.At(metric, s));
        EXPECT_DOUBLE_EQ(r.At("MemUnitBusy", s), r.At("l1tex__throughput.avg.pct_of_peak_sustained_elapsed", s));
    }
    EXPECT_LT(r.At("MemUnitBusy", 0), 1.0);   // FMA only
    EXPECT_GT(r.At("MemUnitBusy", 4), 90.0);  // shared-memory bank conflicts saturate the L1 data stage
    EXPECT_GT(r.At("MemUnitStalled", 1), 20.0);  // streaming from DRAM: requests to L2 back up
    EXPECT_LT(r.At("MemUnitStalled", 2), 1.0);   // L1-resident: nothing goes to L2
}

}  // namespace
}  // namespace gpu_test
