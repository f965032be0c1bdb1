// GPA counters of libGPUPerfAPICUDA.so measured on kernels whose answers are known. Run on the GPU machine
// by tools/device/gpu_cuda_tests.sh; every test skips where there is no CUDA device.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <thread>

#include "gpu_test_support.h"
#include "kernels.cuh"

namespace gpu_test {
namespace {

::testing::Environment* const gGpa = ::testing::AddGlobalTestEnvironment(new GpaEnvironment);

constexpr double kKiB = 1024.0;

class CudaGpa : public ::testing::Test {
protected:
    void Open(GPA_OpenContextFlags flags = GPA_OPENCONTEXT_DEFAULT_BIT) {
        context_ = PrimaryContext();
        ASSERT_NE(context_, nullptr);
        GPA_CHECK(GPA_OpenContext(context_, flags));
        opened_ = true;
    }
    void TearDown() override {
        if (opened_) {
            GPA_SelectContext(context_);
            // A test that failed half-way through a session leaves it open: end it so that the next test
            // starts clean (the calls fail harmlessly when nothing is open).
            GPA_EndSample();
            GPA_EndPass();
            GPA_EndSession();
            EXPECT_EQ(GPA_CloseContext(), GPA_STATUS_OK) << OGPA_GetLastErrorMessage();
        }
        for (void* buffer : buffers_) cudaFree(buffer);
    }
    template <typename T>
    T* Allocate(size_t count, int fill = 0x3c) {
        void* buffer = nullptr;
        EXPECT_EQ(cudaMalloc(&buffer, count * sizeof(T)), cudaSuccess);
        EXPECT_EQ(cudaMemset(buffer, fill, count * sizeof(T)), cudaSuccess);
        buffers_.push_back(buffer);
        return static_cast<T*>(buffer);
    }
    static double SpinCycles(double milliseconds) {
        int kiloHertz = 0;
        cudaDeviceGetAttribute(&kiloHertz, cudaDevAttrClockRate, 0);
        return milliseconds * kiloHertz;
    }

    CUcontext context_ = nullptr;
    bool opened_ = false;
    std::vector<void*> buffers_;
};

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

TEST_F(CudaGpa, SessionsOfTenAndMorePassesWithRawCounters) {
    REQUIRE_CUDA_DEVICE();
    Open(GPA_OPENCONTEXT_ENABLE_HARDWARE_COUNTERS_BIT);
    gpa_uint32 total = 0;
    GPA_CHECK(GPA_GetNumCounters(&total));
    std::vector<std::string> names = {"Wavefronts", "VFetchInsts", "GPUTime"};
    for (gpa_uint32 i = 0; i < total && names.size() < 63; ++i) {
        const char* name = nullptr;
        GPA_CHECK(GPA_GetCounterName(i, &name));
        const std::string text = name;
        if (text.rfind("smsp__inst_executed_op", 0) == 0 && text.size() > 4 && text.substr(text.size() - 4) == ".sum") {
            names.push_back(text);
        }
    }
    float* global = Allocate<float>(static_cast<size_t>(8) * kMixBlock * kMixGlobalFloatsPerThread, 0);
    float* out = Allocate<float>(static_cast<size_t>(8) * kMixBlock, 0);
    Results r;
    Measure(names, 2, [&](size_t s) { Mix<kMixMemory><<<4 * (s + 1), kMixBlock>>>(global, 0, 1.0f, 0.5f, out); }, &r);
    ASSERT_FALSE(HasFatalFailure());
    Figure("ten_plus.metrics", names.size());
    Figure("ten_plus.passes", r.passes);
    EXPECT_GE(r.passes, 10u);
    for (size_t s = 0; s < 2; ++s) {
        EXPECT_EQ(r.At("Wavefronts", s), 16.0 * (s + 1));
        // LDG per warp, from the derived counter and from the raw one.
        EXPECT_NEAR(r.At("smsp__inst_executed_op_global_ld.sum", s), 64.0 * 16 * (s + 1), 0.5);
        EXPECT_NEAR(r.At("VFetchInsts", s), 64.0, 0.01);
        EXPECT_NEAR(r.At("smsp__inst_executed_op_generic_ld.sum", s), 64.0 * 16 * (s + 1), 0.5);
    }
}

TEST_F(CudaGpa, EarlierSessionsAreReadAfterLaterOnesRan) {
    REQUIRE_CUDA_DEVICE();
    Open();
    int* out = Allocate<int>(4096);
    // Two passes (VALUUtilization needs them), so each session configures CUPTI; session 1's data is
    // decoded when session 2 reconfigures the profiler, session 2's when it is read.
    GPA_CHECK(GPA_EnableCounterStr("Wavefronts"));
    GPA_CHECK(GPA_EnableCounterStr("VALUUtilization"));
    gpa_uint32 sessions[2] = {};
    const int blocks[2] = {100, 200};
    for (int k = 0; k < 2; ++k) {
        GPA_CHECK(GPA_BeginSession(&sessions[k]));
        gpa_uint32 passes = 0;
        GPA_CHECK(GPA_GetPassCount(&passes));
        for (gpa_uint32 p = 0; p < passes; ++p) {
            GPA_CHECK(GPA_BeginPass());
            GPA_CHECK(GPA_BeginSample(1));
            Touch<<<blocks[k], 64>>>(out);
            GPA_CHECK(GPA_EndSample());
            GPA_CHECK(GPA_EndPass());
        }
        GPA_CHECK(GPA_EndSession());
    }
    gpa_uint32 index = 0;
    GPA_CHECK(GPA_GetCounterIndex("Wavefronts", &index));
    for (int k = 1; k >= 0; --k) {
        gpa_uint64 warps = 0;
        GPA_CHECK(GPA_GetSampleUInt64(sessions[k], 1, index, &warps));
        EXPECT_EQ(warps, static_cast<gpa_uint64>(blocks[k]) * 2) << "session " << sessions[k];
    }
}


TEST_F(CudaGpa, SessionsSpanSeveralConfigurations) {
    REQUIRE_CUDA_DEVICE();
    // At most 8 metrics per CUPTI configuration: the GPA counters need several, so GPA passes walk through
    // several configurations, each set on the profiler at its first pass and decoded after its last.
    setenv("OPENGPA_CUDA_MAX_METRICS_PER_CONFIG", "8", 1);
    Open();
    unsetenv("OPENGPA_CUDA_MAX_METRICS_PER_CONFIG");
    float* global = Allocate<float>(static_cast<size_t>(4) * kMixBlock * kMixGlobalFloatsPerThread, 0);
    float* out = Allocate<float>(static_cast<size_t>(4) * kMixBlock, 0);
    const std::vector<std::string> counters = {"Wavefronts",    "VFetchInsts",  "VWriteInsts", "LDSInsts",
                                               "FlatVMemInsts", "FlatLDSInsts", "CSThreadGroups", "VALUUtilization",
                                               "GPUTime",       "L2CacheHit",   "FetchSize"};
    Results r;
    Measure(counters, 2,
            [&](size_t s) { Mix<kMixMemory><<<4, kMixBlock>>>(global, static_cast<int>(s), 1.0f, 0.5f, out); }, &r,
            "several_configurations");
    ASSERT_FALSE(HasFatalFailure());
    Figure("several_configurations.passes", r.passes);
    for (size_t s = 0; s < 2; ++s) {
        EXPECT_EQ(r.At("Wavefronts", s), 16.0);
        EXPECT_EQ(r.At("CSThreadGroups", s), 4.0);
        EXPECT_NEAR(r.At("VFetchInsts", s), 64, 0.01);
        EXPECT_NEAR(r.At("VWriteInsts", s), 65, 0.01);
        EXPECT_NEAR(r.At("LDSInsts", s), 128, 0.01);
        EXPECT_NEAR(r.At("VALUUtilization", s), 100, 0.1);
    }
    EXPECT_NEAR(r.At("FlatVMemInsts", 0), 64, 0.01);
    EXPECT_NEAR(r.At("FlatLDSInsts", 1), 64, 0.01);
    WriteExpectations(FixtureDirectory("several_configurations"), r,
                      {{"Wavefronts", 0, 16, 0}, {"Wavefronts", 1, 16, 0}, {"VFetchInsts", 0, 64, 1e-4},
                       {"VWriteInsts", 1, 65, 1e-4}, {"LDSInsts", 0, 128, 1e-4}, {"FlatVMemInsts", 0, 64, 1e-4},
                       {"FlatLDSInsts", 1, 64, 1e-4}, {"CSThreadGroups", 1, 4, 0}});
}

TEST_F(CudaGpa, InterconnectMetricsInUserRanges) {
    REQUIRE_CUDA_DEVICE();
    Open(GPA_OPENCONTEXT_ENABLE_HARDWARE_COUNTERS_BIT);
    const size_t bytes = size_t{256} << 20;
    std::vector<char> host(bytes, 1);
    char* device = Allocate<char>(bytes);
    int* out = Allocate<int>(4096);
    GPA_CHECK(GPA_EnableCounterStr("pcie__read_bytes.sum"));
    GPA_CHECK(GPA_EnableCounterStr("pcie__write_bytes.sum"));
    GPA_CHECK(GPA_EnableCounterStr("GPUTime"));
    gpa_uint32 session = 0, passes = 0;
    GPA_CHECK(GPA_BeginSession(&session));
    GPA_CHECK(GPA_GetPassCount(&passes));
    Figure("interconnect.passes", passes);
    GPA_Status ended = GPA_STATUS_OK;
    for (gpa_uint32 p = 0; p < passes && ended == GPA_STATUS_OK; ++p) {
        GPA_CHECK(GPA_BeginPass());
        GPA_CHECK(GPA_BeginSample(0));
        cudaMemcpy(device, host.data(), bytes, cudaMemcpyHostToDevice);
        Touch<<<1, 32>>>(out);
        GPA_CHECK(GPA_EndSample());
        GPA_CHECK(GPA_BeginSample(1));
        cudaMemcpy(host.data(), device, bytes, cudaMemcpyDeviceToHost);
        Touch<<<1, 32>>>(out);
        GPA_CHECK(GPA_EndSample());
        ended = GPA_EndPass();
        if (ended != GPA_STATUS_OK) std::printf("interconnect EndPass: %s\n", OGPA_GetLastErrorMessage());
    }
    Figure("interconnect.end_pass_status", ended);
    const GPA_Status sessionEnded = GPA_EndSession();
    Figure("interconnect.end_session_status", sessionEnded);
    if (ended != GPA_STATUS_OK || sessionEnded != GPA_STATUS_OK) return;  // recorded: not collectable per range
    for (const char* name : {"pcie__read_bytes.sum", "pcie__write_bytes.sum"}) {
        gpa_uint32 index = 0;
        GPA_CHECK(GPA_GetCounterIndex(name, &index));
        for (gpa_uint32 s = 0; s < 2; ++s) {
            gpa_uint64 value = 0;
            const GPA_Status status = GPA_GetSampleUInt64(session, s, index, &value);
            Figure(std::string("interconnect.") + name + ".sample" + std::to_string(s), status == GPA_STATUS_OK ? value : -1.0);
        }
    }
}

TEST_F(CudaGpa, ASampleWithoutGpuWorkIsReportedAndTheNextSessionWorks) {
    REQUIRE_CUDA_DEVICE();
    Open();
    int* out = Allocate<int>(4096);
    GPA_CHECK(GPA_EnableCounterStr("Wavefronts"));
    gpa_uint32 session = 0;
    GPA_CHECK(GPA_BeginSession(&session));
    GPA_CHECK(GPA_BeginPass());
    GPA_CHECK(GPA_BeginSample(0));
    GPA_CHECK(GPA_EndSample());  // nothing launched
    GPA_CHECK(GPA_BeginSample(1));
    Touch<<<3, 32>>>(out);
    GPA_CHECK(GPA_EndSample());
    const GPA_Status passEnded = GPA_EndPass();
    const std::string reason = passEnded == GPA_STATUS_OK ? "" : OGPA_GetLastErrorMessage();
    std::printf("empty sample: EndPass %s %s\n", GPA_GetStatusAsStr(passEnded), reason.c_str());
    Figure("empty_sample.end_pass_status", passEnded);
    GPA_EndSession();
    if (passEnded != GPA_STATUS_OK) EXPECT_NE(reason.find("no GPU work"), std::string::npos) << reason;
    // Whatever happened, the context keeps working.
    Results r;
    Measure({"Wavefronts"}, 1, [&](size_t) { Touch<<<5, 64>>>(out); }, &r);
    ASSERT_FALSE(HasFatalFailure());
    EXPECT_EQ(r.At("Wavefronts"), 10.0);
}

TEST_F(CudaGpa, AnAbandonedSessionDoesNotDisturbTheNextOne) {
    REQUIRE_CUDA_DEVICE();
    Open();
    int* out = Allocate<int>(4096);
    GPA_CHECK(GPA_EnableCounterStr("Wavefronts"));
    GPA_CHECK(GPA_EnableCounterStr("VALUUtilization"));
    gpa_uint32 session = 0, passes = 0;
    GPA_CHECK(GPA_BeginSession(&session));
    GPA_CHECK(GPA_GetPassCount(&passes));
    ASSERT_GE(passes, 2u);
    GPA_CHECK(GPA_BeginPass());
    GPA_CHECK(GPA_BeginSample(0));
    Touch<<<3, 32>>>(out);
    GPA_CHECK(GPA_EndSample());
    GPA_CHECK(GPA_EndPass());
    EXPECT_EQ(GPA_EndSession(), GPA_STATUS_ERROR_NOT_ENOUGH_PASSES);
    Results r;
    Measure({"Wavefronts", "VALUUtilization"}, 1, [&](size_t) { Touch<<<7, 64>>>(out); }, &r);
    ASSERT_FALSE(HasFatalFailure());
    EXPECT_EQ(r.At("Wavefronts"), 14.0);
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

TEST_F(CudaGpa, TwoContextsProfileIndependently) {
    REQUIRE_CUDA_DEVICE();
    const Driver& driver = Driver::Get();
    ASSERT_NE(driver.ctxCreate, nullptr);
    CUdevice device = 0;
    ASSERT_EQ(driver.deviceGet(&device, 0), CUDA_SUCCESS);
    CUcontext contexts[2] = {};
    int* outs[2] = {};
    for (int c = 0; c < 2; ++c) {
        ASSERT_EQ(driver.ctxCreate(&contexts[c], nullptr, 0, device), CUDA_SUCCESS);
        driver.ctxSetCurrent(contexts[c]);
        CUDA_CHECK(cudaMalloc(&outs[c], 4096 * sizeof(int)));
    }
    for (int c = 0; c < 2; ++c) {
        GPA_CHECK(GPA_OpenContext(contexts[c], GPA_OPENCONTEXT_DEFAULT_BIT));
        GPA_CHECK(GPA_EnableCounterStr("Wavefronts"));
    }
    const int blocks[2] = {100, 300};
    gpa_uint32 sessions[2] = {};
    for (int c = 0; c < 2; ++c) {
        GPA_CHECK(GPA_SelectContext(contexts[c]));
        driver.ctxSetCurrent(contexts[c]);
        GPA_CHECK(GPA_BeginSession(&sessions[c]));
        GPA_CHECK(GPA_BeginPass());
        GPA_CHECK(GPA_BeginSample(7));
        Touch<<<blocks[c], 64>>>(outs[c]);
        GPA_CHECK(GPA_EndSample());
        GPA_CHECK(GPA_EndPass());
        GPA_CHECK(GPA_EndSession());
    }
    for (int c = 0; c < 2; ++c) {
        GPA_CHECK(GPA_SelectContext(contexts[c]));
        gpa_uint32 index = 0;
        GPA_CHECK(GPA_GetCounterIndex("Wavefronts", &index));
        gpa_uint64 warps = 0;
        GPA_CHECK(GPA_GetSampleUInt64(sessions[c], 7, index, &warps));
        EXPECT_EQ(warps, static_cast<gpa_uint64>(blocks[c]) * 2) << "context " << c;
        Figure("two_contexts.context" + std::to_string(c) + ".Wavefronts", static_cast<double>(warps));
        EXPECT_EQ(GPA_CloseContext(), GPA_STATUS_OK) << OGPA_GetLastErrorMessage();
    }
    for (int c = 0; c < 2; ++c) {
        driver.ctxSetCurrent(contexts[c]);
        cudaFree(outs[c]);
        driver.ctxDestroy(contexts[c]);
    }
    cudaSetDevice(0);
}

TEST_F(CudaGpa, IsSessionReadyNeverBlocks) {
    REQUIRE_CUDA_DEVICE();
    Open();
    GPA_CHECK(GPA_EnableCounterStr("GPUTime"));
    const long long cycles = static_cast<long long>(SpinCycles(200.0));
    gpa_uint32 session = 0;
    GPA_CHECK(GPA_BeginSession(&session));
    gpa_uint32 passes = 0;
    GPA_CHECK(GPA_GetPassCount(&passes));
    ASSERT_EQ(passes, 1u);
    GPA_CHECK(GPA_BeginPass());
    GPA_CHECK(GPA_BeginSample(0));
    Spin<<<1, 32>>>(cycles, nullptr);
    const auto launched = std::chrono::steady_clock::now();
    GPA_CHECK(GPA_EndSample());
    GPA_CHECK(GPA_EndPass());
    const auto ended = std::chrono::steady_clock::now();
    // Whether ending the sample and the pass waited for the 200 ms kernel (CUPTI's range profiler may).
    Figure("readiness.end_sample_and_pass_ms", std::chrono::duration<double, std::milli>(ended - launched).count());
    GPA_CHECK(GPA_EndSession());
    bool ready = true;
    const auto before = std::chrono::steady_clock::now();
    GPA_CHECK(GPA_IsSessionReady(&ready, session));
    const double callMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - before).count();
    const double endMs = std::chrono::duration<double, std::milli>(before - ended).count();
    Figure("readiness.end_session_ms", endMs);
    Figure("readiness.is_session_ready_call_ms", callMs);
    Figure("readiness.ready_right_after_end", ready ? 1 : 0);
    EXPECT_LT(callMs, 20.0);
    int polls = 0;
    while (!ready && polls < 20000) {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
        GPA_CHECK(GPA_IsSessionReady(&ready, session));
        ++polls;
    }
    Figure("readiness.polls", polls);
    EXPECT_TRUE(ready);
    gpa_uint32 index = 0;
    GPA_CHECK(GPA_GetCounterIndex("GPUTime", &index));
    double milliseconds = 0;
    GPA_CHECK(GPA_GetSampleFloat64(session, 0, index, &milliseconds));
    Figure("readiness.spin_200ms.GPUTime_ms", milliseconds);
    EXPECT_GT(milliseconds, 100.0);
}

}  // namespace
}  // namespace gpu_test
