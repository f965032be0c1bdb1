// The GL library's sampled counters (PM.<metric>, GPUBusy, FetchSize, WriteSize) through the C API, with a stand-in
// for NVIDIA's PM sampler on the test's GL device (llvmpipe in CI, whose context names a device UUID): the window each
// sample asks for (its GPU timestamps on CLOCK_MONOTONIC), values as the window gives them, approximate windows
// logged, refused ones unreadable with the reason.
#include <time.h>

#include <mutex>
#include <string>
#include <vector>

#include "backends/gl/gl_pm_sampling.h"
#include "gl_backend_fixture.h"

namespace ogpa::gltest {
namespace {

namespace pm = gpa::pm_sampling;

uint64_t MonotonicNs() {
    timespec now{};
    clock_gettime(CLOCK_MONOTONIC, &now);
    return static_cast<uint64_t>(now.tv_sec) * 1000000000ull + static_cast<uint64_t>(now.tv_nsec);
}

class StandInSampling : public pm::DeviceSampling {
public:
    const std::vector<std::string>& metrics() const override { return metrics_; }
    uint64_t intervalNs() const override { return 100000; }
    std::string chip() const override { return "GH100"; }
    int cudaOrdinal() const override { return 0; }
    pm::WindowResult Window(uint64_t beginNs, uint64_t endNs, std::chrono::milliseconds, const pm::WindowRules&) override {
        windows.emplace_back(beginNs, endNs);
        return answer;
    }
    std::vector<pm::WindowSample> Samples(uint64_t, uint64_t, std::chrono::milliseconds, bool* complete) override {
        *complete = false;
        return {};
    }

    std::vector<std::string> metrics_ = {"gr__cycles_active.avg.pct_of_peak_sustained_elapsed", "dram__bytes_read.sum",
                                         "dram__bytes_write.sum", "lts__t_bytes.sum"};
    pm::WindowResult answer;
    std::vector<std::pair<uint64_t, uint64_t>> windows;
};

std::mutex logMutex;
std::vector<std::string> logged;
void Log(GPA_Logging_Type, const char* message) {
    std::lock_guard<std::mutex> lock(logMutex);
    logged.emplace_back(message);
}
size_t LoggedWith(const std::string& text) {
    std::lock_guard<std::mutex> lock(logMutex);
    size_t n = 0;
    for (const std::string& line : logged) n += line.find(text) != std::string::npos;
    return n;
}

class SampledCounters : public GlBackendTest {
protected:
    void SetUp() override {
        sampling_ = std::make_shared<StandInSampling>();
        sampling_->answer.quality = pm::WindowQuality::Measured;
        sampling_->answer.values = {90.0, 2048.0, 1048576.0, 4096.0};
        sampling_->answer.valueWhy.assign(4, "");
        gpa::gl::SetDeviceSamplingOpenerForTesting(
            [this](const gpa::gl::DeviceUuid&, std::shared_ptr<pm::DeviceSampling>* out) {
                *out = sampling_;
                return gpa::Outcome::Ok();
            });
        {
            std::lock_guard<std::mutex> lock(logMutex);
            logged.clear();
        }
        Open(false);
        if (HasFatalFailure() || IsSkipped()) return;
        ASSERT_GPA_OK(GPA_RegisterLoggingCallback(GPA_LOGGING_ERROR_AND_MESSAGE, Log));
        ASSERT_GPA_OK(GPA_OpenContext(env().context(), GPA_OPENCONTEXT_ENABLE_HARDWARE_COUNTERS_BIT));
        if (!Offers("GPUBusy")) GTEST_SKIP() << "this GL context names no device UUID (GL_EXT_memory_object)";
    }
    void TearDown() override {
        GlBackendTest::TearDown();
        gpa::gl::SetDeviceSamplingOpenerForTesting(nullptr);
    }

    // One sample (id 0) around a full-screen draw, with `counters` enabled.
    gpa_uint32 Measure(const std::vector<const char*>& counters) {
        for (const char* counter : counters) EXPECT_GPA_OK(GPA_EnableCounterStr(counter)) << counter;
        return RecordSession({0}, [&](gpa_uint32) { env().DrawFullScreen(); });
    }

    std::shared_ptr<StandInSampling> sampling_;
};

TEST_F(SampledCounters, OfferedRawAndDerivedFromTheDevicesMetrics) {
    for (const char* name : {"GPUBusy", "FetchSize", "WriteSize", "PM.gr__cycles_active.avg.pct_of_peak_sustained_elapsed",
                             "PM.dram__bytes_read.sum", "PM.dram__bytes_write.sum", "PM.lts__t_bytes.sum"}) {
        EXPECT_TRUE(Offers(name)) << name;
    }
    EXPECT_FALSE(Offers("PM.pcie__read_bytes.sum"));  // not among the stand-in's metrics
    GPA_Usage_Type usage{};
    ASSERT_GPA_OK(GPA_GetCounterUsageType(Index("WriteSize"), &usage));
    EXPECT_EQ(usage, GPA_USAGE_TYPE_KILOBYTES);
    const char* description = nullptr;
    ASSERT_GPA_OK(GPA_GetCounterDescription(Index("GPUBusy"), &description));
    EXPECT_NE(std::string(description).find("device-wide"), std::string::npos);
    EXPECT_EQ(LoggedWith("sampled every 100000 ns by NVIDIA's PM sampler"), 1u);
}

TEST_F(SampledCounters, TheWindowIsTheSamplesGpuTimeOnTheCpuClock) {
    const uint64_t before = MonotonicNs();
    const gpa_uint32 session = Measure({"GPUTime", "GPUBusy", "FetchSize", "WriteSize", "PM.lts__t_bytes.sum"});
    env().Finish();
    const uint64_t after = MonotonicNs();
    EXPECT_DOUBLE_EQ(Float64(session, 0, "GPUBusy"), 90.0);
    EXPECT_DOUBLE_EQ(Float64(session, 0, "FetchSize"), 2.0);
    EXPECT_DOUBLE_EQ(Float64(session, 0, "WriteSize"), 1024.0);
    EXPECT_DOUBLE_EQ(Float64(session, 0, "PM.lts__t_bytes.sum"), 4096.0);
    const double gpuTimeMs = Float64(session, 0, "GPUTime");
    // GPUTime and the sampled counters share one pass: one window, asked once.
    ASSERT_EQ(sampling_->windows.size(), 1u);
    const auto [begin, end] = sampling_->windows[0];
    EXPECT_LT(begin, end);
    // llvmpipe's GPU clock is the CPU's: the window lies within the CPU time around the work (50 us of calibration slack).
    if (env().IsLlvmpipe()) {
        EXPECT_GE(begin + 50000, before);
        EXPECT_LE(end, after + 50000);
    }
    // The window holds GPUTime's timestamps (made inside it).
    EXPECT_GE(static_cast<double>(end - begin) + 1000.0, gpuTimeMs * 1e6);
    std::printf("[ window ] %.3f us (GPUTime %.3f us), %.3f us after the session's begin\n", (end - begin) / 1e3,
                gpuTimeMs * 1e3, (begin - before) / 1e3);
}

TEST_F(SampledCounters, ApproximateWindowsGiveValuesAndAreLoggedOncePerSample) {
    sampling_->answer.quality = pm::WindowQuality::Approximate;
    sampling_->answer.why = "the window is 1.2 intervals long; 80% of it is in edge samples";
    const gpa_uint32 session = Measure({"WriteSize", "GPUBusy"});
    EXPECT_DOUBLE_EQ(Float64(session, 0, "WriteSize"), 1024.0);
    EXPECT_DOUBLE_EQ(Float64(session, 0, "GPUBusy"), 90.0);
    EXPECT_EQ(LoggedWith("its PM counters are approximate: the window is 1.2 intervals long"), 1u);
}

// A refused window: the sampled counters of the sample fail to read, with the reason; its query counters (GPUTime,
// Occlusion) read as usual (an error for the whole sample stopped the seed's example loop on an H200).
TEST_F(SampledCounters, RefusedWindowsFailOnlyTheSampledCountersWithTheReason) {
    sampling_->answer = pm::WindowResult{};
    sampling_->answer.quality = pm::WindowQuality::Refused;
    sampling_->answer.why = "samples are missing inside the window (a gap of 3 intervals)";
    sampling_->answer.values.assign(4, std::nullopt);
    const gpa_uint32 session = Measure({"WriteSize", "GPUTime", "Occlusion"});
    double value = 0;
    EXPECT_EQ(GPA_GetSampleFloat64(session, 0, Index("WriteSize"), &value), GPA_STATUS_ERROR_READING_COUNTER_RESULT);
    EXPECT_NE(std::string(OGPA_GetLastErrorMessage()).find("a gap of 3 intervals"), std::string::npos)
        << OGPA_GetLastErrorMessage();
    EXPECT_GT(Float64(session, 0, "GPUTime"), 0.0);
}

// A metric without a value fails the counters computed from it, with its reason; the others of the pass read.
TEST_F(SampledCounters, AMetricWithoutValueFailsOnlyTheCountersComputedFromIt) {
    sampling_->answer.values[2] = std::nullopt;
    sampling_->answer.valueWhy[2] = "not sampled in this window";
    const gpa_uint32 session = Measure({"WriteSize", "FetchSize"});
    double value = 0;
    EXPECT_EQ(GPA_GetSampleFloat64(session, 0, Index("WriteSize"), &value), GPA_STATUS_ERROR_READING_COUNTER_RESULT);
    EXPECT_NE(std::string(OGPA_GetLastErrorMessage()).find("dram__bytes_write.sum for sample 0 (pass 0): not sampled"),
              std::string::npos)
        << OGPA_GetLastErrorMessage();
    EXPECT_DOUBLE_EQ(Float64(session, 0, "FetchSize"), 2048.0 / 1024.0);
}

TEST_F(SampledCounters, SamplesWithoutSampledCountersAskForNoWindow) {
    const gpa_uint32 session = Measure({"GPUTime", "Occlusion"});
    EXPECT_GT(Float64(session, 0, "GPUTime"), 0.0);
    EXPECT_TRUE(sampling_->windows.empty());
}

}  // namespace
}  // namespace ogpa::gltest
