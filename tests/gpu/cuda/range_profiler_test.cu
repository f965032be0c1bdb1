// The range profiler gpaprof drives (src/backends/cuda/range_profiler.h): with the Pausable API, kernels launched
// while profiling pauses are no ranges, with hardware counters in the configuration and over every pass of user
// replay; with the Range Profiler API every kernel is one. This is what keeps gpaprof's L2 flush before each
// measured kernel from costing a range (about 1 ms each with SM counters on an H100). A configuration like the
// previous one goes on in its session (gpaprof's next batch), with the same values.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "backends/cuda/cupti_host.h"
#include "backends/cuda/cupti_pass_planner.h"
#include "backends/cuda/range_profiler.h"
#include "gpu_test_support.h"
#include "kernels.cuh"

namespace gpu_test {
namespace {

struct RangesRun {
    size_t ranges = 0;
    std::vector<double> warps;  // smsp__warps_launched.sum of each range
    bool pausable = false;      // the library has the Profiler API's sessions
    bool paused = false;        // the configuration could pause
    std::string lost;           // why a pausable profiler could not (pauseLost)
};

// `launches` times: Touch (10 blocks of 64 threads: 20 warps), paused where `pause` and the profiler can,
// then CopyKernel (64 blocks of 256 threads: 512 warps); every pass of a two-pass set. `rounds` configurations
// of the same set one after the other into the same image (as gpaprof's batches), one RangesRun each;
// *reused: how many went on in the session of the one before.
void ProfileWithTouchesBetween(gpa::cuda::ProfilerApi api, bool pause, int launches, int rounds,
                               std::vector<RangesRun>* runs, size_t* reused = nullptr) {
    const CUcontext context = PrimaryContext();
    ASSERT_NE(context, nullptr);
    const gpa::cuda::CuptiApi* cupti = nullptr;
    const gpa::cuda::DriverApi* driver = nullptr;
    ASSERT_TRUE(gpa::cuda::LoadCupti(&cupti).ok());
    ASSERT_TRUE(gpa::cuda::LoadDriver(&driver).ok());
    CUdevice device = 0;
    ASSERT_EQ(driver->cuCtxGetDevice(&device), CUDA_SUCCESS);
    std::string chip;
    ASSERT_TRUE(gpa::cuda::QueryChipName(*cupti, device, &chip).ok());
    const std::vector<uint8_t> availability = gpa::cuda::QueryCounterAvailability(*cupti, *driver, context);
    // Hardware counters of two kinds (SM and DRAM) and the duration: a Range Profiler graph launch breaks on these.
    const std::vector<std::string> metrics = {"gpu__time_duration.sum", "smsp__warps_launched.sum",
                                              "dram__bytes_read.sum", "smsp__inst_executed.sum"};
    gpa::cuda::MetricPlan plan;
    const gpa::Outcome planned = gpa::cuda::PlanMetrics(*cupti, chip, availability, metrics, &plan);
    ASSERT_TRUE(planned.ok()) << planned.reason();
    ASSERT_EQ(plan.groups.size(), 1u);
    Figure("range_profiler.passes", plan.groups[0].passes);
    std::unique_ptr<gpa::cuda::HostObject> host;
    ASSERT_TRUE(gpa::cuda::HostObject::Create(*cupti, chip, availability, &host).ok());
    ASSERT_EQ(host->AddMetrics(plan.groups[0].metrics), CUPTI_SUCCESS);
    std::unique_ptr<gpa::cuda::RangeProfiler> profiler;
    const gpa::Outcome created = gpa::cuda::RangeProfiler::Create(*cupti, *driver, context, &profiler, api);
    ASSERT_TRUE(created.ok()) << created.reason();

    const size_t count = 64 * 256;
    float4 *source = nullptr, *destination = nullptr;
    int* out = nullptr;
    CUDA_CHECK(cudaMalloc(&source, count * sizeof(float4)));
    CUDA_CHECK(cudaMalloc(&destination, count * sizeof(float4)));
    CUDA_CHECK(cudaMalloc(&out, 64 * sizeof(int)));
    CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<uint8_t> counterData;
    for (int round = 0; round < rounds; ++round) {
        runs->emplace_back();
        RangesRun* run = &runs->back();
        {
            auto lock = gpa::cuda::RangeProfiler::Lock();
            const gpa::Outcome configured = profiler->Configure(plan.groups[0].configImage, plan.groups[0].metrics,
                                                                2 * static_cast<size_t>(launches), &counterData,
                                                                CUPTI_AutoRange, CUPTI_UserReplay, {}, /*pausable=*/true);
            ASSERT_TRUE(configured.ok()) << configured.reason();
        }
        run->pausable = profiler->Pausable();
        run->paused = pause && profiler->CanPause();
        run->lost = profiler->pauseLost();
        bool all = false;
        for (int pass = 0; !all && pass < 16; ++pass) {
            auto lock = gpa::cuda::RangeProfiler::Lock();
            const gpa::Outcome started = profiler->Start();
            ASSERT_TRUE(started.ok()) << started.reason();
            for (int l = 0; l < launches; ++l) {
                if (run->paused) ASSERT_TRUE(profiler->Pause().ok());
                Touch<<<10, 64>>>(out);
                if (run->paused) ASSERT_TRUE(profiler->Resume().ok());
                CopyKernel<<<64, 256>>>(source, destination, count);
            }
            CUDA_CHECK(cudaDeviceSynchronize());
            const gpa::Outcome stopped = profiler->Stop(&all);
            ASSERT_TRUE(stopped.ok()) << stopped.reason();
        }
        ASSERT_TRUE(all);
        {
            auto lock = gpa::cuda::RangeProfiler::Lock();
            profiler->FinishPending();
        }
        std::vector<std::string> names;
        const gpa::Outcome named = gpa::cuda::CounterDataRangeNames(*cupti, counterData, &names);
        ASSERT_TRUE(named.ok()) << named.reason();
        run->ranges = names.size();
        for (size_t r = 0; r < names.size(); ++r) {
            std::vector<double> values;
            const gpa::Outcome evaluated = host->Evaluate(counterData, r, {"smsp__warps_launched.sum"}, &values);
            ASSERT_TRUE(evaluated.ok()) << evaluated.reason();
            run->warps.push_back(values[0]);
        }
    }
    if (reused) *reused = profiler->sessionsReused();
    CUDA_CHECK(cudaFree(source));
    CUDA_CHECK(cudaFree(destination));
    CUDA_CHECK(cudaFree(out));
}

TEST(RangeProfiler, KernelsLaunchedWhileProfilingPausesAreNoRanges) {
    REQUIRE_CUDA_DEVICE();
    std::vector<RangesRun> runs;
    ProfileWithTouchesBetween(gpa::cuda::ProfilerApi::Pausable, true, 8, 1, &runs);
    if (HasFatalFailure()) return;
    const RangesRun& run = runs[0];
    if (!run.pausable) GTEST_SKIP() << "this CUPTI has no Profiler API sessions: the profiler cannot pause";
    ASSERT_TRUE(run.paused) << "a Profiler API session could not begin: " << run.lost;
    Figure("range_profiler.paused.ranges", run.ranges);
    ASSERT_EQ(run.ranges, 8u);  // the copies only
    for (double warps : run.warps) EXPECT_EQ(warps, 512.0);
}

TEST(RangeProfiler, WithoutPausingEveryKernelIsARange) {
    REQUIRE_CUDA_DEVICE();
    for (gpa::cuda::ProfilerApi api : {gpa::cuda::ProfilerApi::Pausable, gpa::cuda::ProfilerApi::Range}) {
        std::vector<RangesRun> runs;
        ProfileWithTouchesBetween(api, false, 8, 1, &runs);
        if (HasFatalFailure()) return;
        const RangesRun& run = runs[0];
        Figure(api == gpa::cuda::ProfilerApi::Range ? "range_profiler.range_api.ranges" : "range_profiler.unpaused.ranges",
               run.ranges);
        ASSERT_EQ(run.ranges, 16u);
        for (size_t r = 0; r < run.warps.size(); ++r) EXPECT_EQ(run.warps[r], r % 2 == 0 ? 20.0 : 512.0) << "range " << r;
    }
}

// gpaprof's batches: the same configuration with the same room again, after the last one was decoded, goes on
// in the same session (no new session: about 0.3 s each on an H100) and counts the same; with
// OPENGPA_CUDA_SESSION_REUSE=0 each gets a session of its own.
TEST(RangeProfiler, TheSameConfigurationAgainGoesOnInItsSessionWithTheSameValues) {
    REQUIRE_CUDA_DEVICE();
    std::vector<RangesRun> runs;
    size_t reused = 0;
    ProfileWithTouchesBetween(gpa::cuda::ProfilerApi::Pausable, true, 8, 3, &runs, &reused);
    if (HasFatalFailure()) return;
    if (!runs[0].pausable) GTEST_SKIP() << "this CUPTI has no Profiler API sessions";
    ASSERT_TRUE(runs[0].paused) << runs[0].lost;
    Figure("range_profiler.sessions_reused", reused);
    EXPECT_EQ(reused, gpa::cuda::RangeProfiler::ReuseSessions() ? 2u : 0u);
    for (size_t round = 0; round < runs.size(); ++round) {
        ASSERT_EQ(runs[round].ranges, 8u) << "round " << round;
        for (double warps : runs[round].warps) EXPECT_EQ(warps, 512.0) << "round " << round;
    }
}

}  // namespace
}  // namespace gpu_test
