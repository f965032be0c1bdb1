// GPA sessions of libGPUPerfAPICUDA.so on a GPU: ten and more passes, several configurations, sessions read after
// later ones ran, empty and abandoned samples, user ranges, two contexts, IsSessionReady. Run on the GPU machine
// by tools/device/gpu_cuda_tests.sh; every test skips where there is no CUDA device.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "cuda_gpa_fixture.h"
#include "gpu_test_support.h"
#include "kernels.cuh"

namespace gpu_test {
namespace {

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
