// Reading results: GPA_GetSampleCount, GPA_IsSessionReady, GPA_IsSampleReady and the four GPA_GetSample*
// functions with every documented status, type enforcement, and readiness while results are pending.
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <future>
#include <string>
#include <thread>

#include "gpa_test_fixture.h"

namespace gpa_test {
namespace {

using gpa::testing::Config;
using namespace std::chrono_literals;

class Results : public GpaTest {
protected:
    // Opens a context, enables every counter (two passes) and records samples 0 and 1.
    void RecordAll() {
        Open();
        ASSERT_GPA(GPA_STATUS_OK, GPA_EnableAllCounters());
        session_ = Record({0, 1});
    }
    gpa_uint32 session_ = 0;
};

// ---- GPA_GetSampleCount ------------------------------------------------------------------------------------

TEST_F(Results, GetSampleCountOk) {
    Open();
    Enable("Busy");
    const gpa_uint32 a = Record({4, 5, 6});
    const gpa_uint32 b = Record({});
    gpa_uint32 samples = 99;
    EXPECT_GPA(GPA_STATUS_OK, GPA_GetSampleCount(a, &samples));
    EXPECT_EQ(samples, 3u);
    EXPECT_GPA(GPA_STATUS_OK, GPA_GetSampleCount(b, &samples));
    EXPECT_EQ(samples, 0u);
}

TEST_F(Results, GetSampleCountWithoutContextIsNotOpen) {
    gpa_uint32 samples = 99;
    EXPECT_GPA(GPA_STATUS_ERROR_COUNTERS_NOT_OPEN, GPA_GetSampleCount(1, &samples));
    EXPECT_EQ(samples, 99u);
}

TEST_F(Results, GetSampleCountNullPointer) {
    RecordAll();
    EXPECT_GPA(GPA_STATUS_ERROR_NULL_POINTER, GPA_GetSampleCount(session_, nullptr));
}

TEST_F(Results, GetSampleCountOfAnUnknownSessionIsSessionNotFound) {
    RecordAll();
    gpa_uint32 samples = 99;
    EXPECT_GPA(GPA_STATUS_ERROR_SESSION_NOT_FOUND, GPA_GetSampleCount(0, &samples));
    EXPECT_GPA(GPA_STATUS_ERROR_SESSION_NOT_FOUND, GPA_GetSampleCount(session_ + 1, &samples));
    EXPECT_EQ(samples, 99u);
}

TEST_F(Results, GetSampleCountOfTheSessionBeingRecordedIsSamplingNotEnded) {
    Open();
    Enable("Waves");
    gpa_uint32 session = 0;
    ASSERT_GPA(GPA_STATUS_OK, GPA_BeginSession(&session));
    gpa_uint32 samples = 99;
    EXPECT_GPA(GPA_STATUS_ERROR_SAMPLING_NOT_ENDED, GPA_GetSampleCount(session, &samples));
}

// ---- GPA_IsSessionReady ------------------------------------------------------------------------------------

TEST_F(Results, IsSessionReadyOk) {
    RecordAll();
    bool ready = false;
    EXPECT_GPA(GPA_STATUS_OK, GPA_IsSessionReady(&ready, session_));
    EXPECT_TRUE(ready);
}

TEST_F(Results, IsSessionReadyWithoutContextIsNotOpen) {
    bool ready = true;
    EXPECT_GPA(GPA_STATUS_ERROR_COUNTERS_NOT_OPEN, GPA_IsSessionReady(&ready, 1));
    EXPECT_TRUE(ready);
}

TEST_F(Results, IsSessionReadyNullPointer) {
    RecordAll();
    EXPECT_GPA(GPA_STATUS_ERROR_NULL_POINTER, GPA_IsSessionReady(nullptr, session_));
}

TEST_F(Results, IsSessionReadyOfAnUnknownSessionIsSessionNotFound) {
    RecordAll();
    bool ready = true;
    EXPECT_GPA(GPA_STATUS_ERROR_SESSION_NOT_FOUND, GPA_IsSessionReady(&ready, 0));
    EXPECT_GPA(GPA_STATUS_ERROR_SESSION_NOT_FOUND, GPA_IsSessionReady(&ready, 77));
}

TEST_F(Results, IsSessionReadyOfTheSessionBeingRecordedIsFalse) {
    Open();
    Enable("Waves");
    gpa_uint32 session = 0;
    ASSERT_GPA(GPA_STATUS_OK, GPA_BeginSession(&session));
    bool ready = true;
    EXPECT_GPA(GPA_STATUS_OK, GPA_IsSessionReady(&ready, session));
    EXPECT_FALSE(ready);
}

// ---- GPA_IsSampleReady -------------------------------------------------------------------------------------

TEST_F(Results, IsSampleReadyOk) {
    RecordAll();
    for (gpa_uint32 sample : {0u, 1u}) {
        bool ready = false;
        EXPECT_GPA(GPA_STATUS_OK, GPA_IsSampleReady(&ready, session_, sample));
        EXPECT_TRUE(ready);
    }
}

TEST_F(Results, IsSampleReadyWithoutContextIsNotOpen) {
    bool ready = true;
    EXPECT_GPA(GPA_STATUS_ERROR_COUNTERS_NOT_OPEN, GPA_IsSampleReady(&ready, 1, 0));
}

TEST_F(Results, IsSampleReadyNullPointer) {
    RecordAll();
    EXPECT_GPA(GPA_STATUS_ERROR_NULL_POINTER, GPA_IsSampleReady(nullptr, session_, 0));
}

TEST_F(Results, IsSampleReadyOfAnUnknownSessionIsSessionNotFound) {
    RecordAll();
    bool ready = true;
    EXPECT_GPA(GPA_STATUS_ERROR_SESSION_NOT_FOUND, GPA_IsSampleReady(&ready, session_ + 1, 0));
}

TEST_F(Results, IsSampleReadyOfASampleMissingFromAPassIsNotFoundInAllPasses) {
    Open();
    Enable("Busy");  // two passes
    gpa_uint32 session = 0;
    ASSERT_GPA(GPA_STATUS_OK, GPA_BeginSession(&session));
    // Same number of samples in both passes, but different ids: 1 only in pass 0, 2 only in pass 1.
    const gpa_uint32 ids[2][2] = {{0, 1}, {0, 2}};
    for (const auto& pass : ids) {
        ASSERT_GPA(GPA_STATUS_OK, GPA_BeginPass());
        for (gpa_uint32 s : pass) {
            ASSERT_GPA(GPA_STATUS_OK, GPA_BeginSample(s));
            ASSERT_GPA(GPA_STATUS_OK, GPA_EndSample());
        }
        ASSERT_GPA(GPA_STATUS_OK, GPA_EndPass());
    }
    ASSERT_GPA(GPA_STATUS_OK, GPA_EndSession());
    bool ready = false;
    EXPECT_GPA(GPA_STATUS_OK, GPA_IsSampleReady(&ready, session, 0));
    EXPECT_GPA(GPA_STATUS_ERROR_SAMPLE_NOT_FOUND_IN_ALL_PASSES, GPA_IsSampleReady(&ready, session, 1));
    EXPECT_GPA(GPA_STATUS_ERROR_SAMPLE_NOT_FOUND_IN_ALL_PASSES, GPA_IsSampleReady(&ready, session, 2));
    double busy = 0;
    EXPECT_GPA(GPA_STATUS_ERROR_SAMPLE_NOT_FOUND_IN_ALL_PASSES, GPA_GetSampleFloat64(session, 1, Index("Busy"), &busy));
    EXPECT_GPA(GPA_STATUS_ERROR_SAMPLE_NOT_FOUND_IN_ALL_PASSES, GPA_GetSampleFloat64(session, 2, Index("Busy"), &busy));
    EXPECT_GPA(GPA_STATUS_OK, GPA_GetSampleFloat64(session, 0, Index("Busy"), &busy));
}

TEST_F(Results, IsSampleReadyOfANeverRecordedSampleIsSampleNotFound) {
    RecordAll();
    bool ready = true;
    EXPECT_GPA(GPA_STATUS_ERROR_SAMPLE_NOT_FOUND, GPA_IsSampleReady(&ready, session_, 2));
}

// ---- GPA_GetSample*: every variant, every documented status ------------------------------------------------

// One GPA_GetSample* variant: its C type, its function, and a counter of the default configuration that
// has exactly that type, with the value it must give for a sample.
struct UInt32Variant {
    using T = gpa_uint32;
    static constexpr GPA_Type kType = GPA_TYPE_UINT32;
    static constexpr const char* kCounter = "Waves32";
    static GPA_Status Get(gpa_uint32 s, gpa_uint32 sample, gpa_uint32 c, T* r) { return GPA_GetSampleUInt32(s, sample, c, r); }
    static double Expected(gpa_uint32 sample) { return gpa::testing::ScriptedValue(3, sample); }
};
struct UInt64Variant {
    using T = gpa_uint64;
    static constexpr GPA_Type kType = GPA_TYPE_UINT64;
    static constexpr const char* kCounter = "Waves";
    static GPA_Status Get(gpa_uint32 s, gpa_uint32 sample, gpa_uint32 c, T* r) { return GPA_GetSampleUInt64(s, sample, c, r); }
    static double Expected(gpa_uint32 sample) { return gpa::testing::ScriptedValue(3, sample); }
};
struct Float32Variant {
    using T = gpa_float32;
    static constexpr GPA_Type kType = GPA_TYPE_FLOAT32;
    static constexpr const char* kCounter = "FetchSize";
    static GPA_Status Get(gpa_uint32 s, gpa_uint32 sample, gpa_uint32 c, T* r) { return GPA_GetSampleFloat32(s, sample, c, r); }
    static double Expected(gpa_uint32 sample) { return gpa::testing::ScriptedValue(2, sample) / 1024.0; }
};
struct Float64Variant {
    using T = gpa_float64;
    static constexpr GPA_Type kType = GPA_TYPE_FLOAT64;
    static constexpr const char* kCounter = "GPUTime";
    static GPA_Status Get(gpa_uint32 s, gpa_uint32 sample, gpa_uint32 c, T* r) { return GPA_GetSampleFloat64(s, sample, c, r); }
    static double Expected(gpa_uint32 sample) { return gpa::testing::ScriptedValue(4, sample) / 1e6; }
};

template <typename Variant>
class GetSample : public Results {
protected:
    using T = typename Variant::T;
    static constexpr T kUntouched = static_cast<T>(123);
};
using Variants = ::testing::Types<UInt32Variant, UInt64Variant, Float32Variant, Float64Variant>;
TYPED_TEST_SUITE(GetSample, Variants);

// Calls the variant's function (a failure message names the variant through the type parameter).
#define GET(session, sample, counter, result) TypeParam::Get(session, sample, counter, result)

TYPED_TEST(GetSample, Ok) {
    this->RecordAll();
    for (gpa_uint32 sample : {0u, 1u}) {
        typename TypeParam::T value = this->kUntouched;
        EXPECT_GPA(GPA_STATUS_OK, GET(this->session_, sample, this->Index(TypeParam::kCounter), &value))
            << OGPA_GetLastErrorMessage();
        EXPECT_EQ(value, static_cast<typename TypeParam::T>(TypeParam::Expected(sample)));
    }
}

TYPED_TEST(GetSample, WithoutContextIsNotOpen) {
    typename TypeParam::T value = this->kUntouched;
    EXPECT_GPA(GPA_STATUS_ERROR_COUNTERS_NOT_OPEN, GET(1, 0, 0, &value));
    EXPECT_EQ(value, this->kUntouched);
}

TYPED_TEST(GetSample, UnknownSessionIsSessionNotFound) {
    this->RecordAll();
    typename TypeParam::T value = this->kUntouched;
    const gpa_uint32 counter = this->Index(TypeParam::kCounter);
    EXPECT_GPA(GPA_STATUS_ERROR_SESSION_NOT_FOUND, GET(this->session_ + 1, 0, counter, &value));
    EXPECT_GPA(GPA_STATUS_ERROR_SESSION_NOT_FOUND, GET(0, 0, counter, &value));
    EXPECT_EQ(value, this->kUntouched);
}

TYPED_TEST(GetSample, BadCounterIndexIsIndexOutOfRange) {
    this->RecordAll();
    typename TypeParam::T value = this->kUntouched;
    EXPECT_GPA(GPA_STATUS_ERROR_INDEX_OUT_OF_RANGE, GET(this->session_, 0, 5, &value));
    EXPECT_GPA(GPA_STATUS_ERROR_INDEX_OUT_OF_RANGE, GET(this->session_, 0, 0xFFFFFFFFu, &value));
    EXPECT_EQ(value, this->kUntouched);
}

TYPED_TEST(GetSample, CounterNotEnabledInThatSessionIsNotEnabled) {
    this->Open();
    this->Enable("Busy");
    const gpa_uint32 without = this->Record();
    this->Enable(TypeParam::kCounter);
    const gpa_uint32 with = this->Record();
    const gpa_uint32 counter = this->Index(TypeParam::kCounter);
    typename TypeParam::T value = this->kUntouched;
    EXPECT_GPA(GPA_STATUS_ERROR_NOT_ENABLED, GET(without, 0, counter, &value));
    EXPECT_EQ(value, this->kUntouched);
    // Changing the selection afterwards changes neither session.
    ASSERT_EQ(GPA_DisableCounter(counter), GPA_STATUS_OK);
    EXPECT_GPA(GPA_STATUS_OK, GET(with, 0, counter, &value));
    EXPECT_EQ(value, static_cast<typename TypeParam::T>(TypeParam::Expected(0)));
    ASSERT_EQ(GPA_EnableCounter(counter), GPA_STATUS_OK);
    EXPECT_GPA(GPA_STATUS_ERROR_NOT_ENABLED, GET(without, 0, counter, &value));
}

TYPED_TEST(GetSample, NullResultIsNullPointer) {
    this->RecordAll();
    EXPECT_GPA(GPA_STATUS_ERROR_NULL_POINTER, GET(this->session_, 0, this->Index(TypeParam::kCounter), nullptr));
}

TYPED_TEST(GetSample, CounterOfAnotherTypeIsNotOfSpecifiedType) {
    this->RecordAll();
    int checked = 0;
    for (const char* other : {"Waves32", "Waves", "FetchSize", "GPUTime", "Busy"}) {
        if (std::string(other) == TypeParam::kCounter) continue;
        if (std::string(other) == "Busy" && TypeParam::kType == GPA_TYPE_FLOAT64) continue;  // Busy is a float64
        typename TypeParam::T value = this->kUntouched;
        EXPECT_GPA(GPA_STATUS_ERROR_COUNTER_NOT_OF_SPECIFIED_TYPE, GET(this->session_, 0, this->Index(other), &value))
            << other;
        EXPECT_EQ(value, this->kUntouched) << other;
        EXPECT_NE(std::string(OGPA_GetLastErrorMessage()).find("GPA_STATUS_ERROR_COUNTER_NOT_OF_SPECIFIED_TYPE"),
                  std::string::npos);
        ++checked;
    }
    EXPECT_GE(checked, 3);
}

TYPED_TEST(GetSample, UnknownSampleIsSampleNotFound) {
    this->RecordAll();
    typename TypeParam::T value = this->kUntouched;
    EXPECT_GPA(GPA_STATUS_ERROR_SAMPLE_NOT_FOUND, GET(this->session_, 2, this->Index(TypeParam::kCounter), &value));
    EXPECT_EQ(value, this->kUntouched);
}

TYPED_TEST(GetSample, BackendReadFailureIsReadingCounterResult) {
    this->RecordAll();
    Config().failRead = true;
    typename TypeParam::T value = this->kUntouched;
    EXPECT_GPA(GPA_STATUS_ERROR_READING_COUNTER_RESULT, GET(this->session_, 0, this->Index(TypeParam::kCounter), &value));
    EXPECT_EQ(value, this->kUntouched);
}

// A hardware counter the backend could not measure for a sample (NaN: a refused PM window) fails only the counters
// computed from it, with the backend's reason; the sample's other counters read as usual.
TEST_F(Results, AnUnmeasuredHardwareCounterFailsOnlyTheCountersComputedFromIt) {
    Config().unmeasured = {1};  // hw.busy
    Config().unmeasuredReason = "the PM samples of its window were refused: samples missing";
    RecordAll();
    ASSERT_EQ(GPA_RegisterLoggingCallback(GPA_LOGGING_ERROR_AND_MESSAGE, &LogCapture::Callback), GPA_STATUS_OK);
    gpa_float64 busy = -1;
    EXPECT_GPA(GPA_STATUS_ERROR_READING_COUNTER_RESULT, GPA_GetSampleFloat64(session_, 0, Index("Busy"), &busy));
    EXPECT_EQ(busy, -1);
    EXPECT_EQ(LogCapture::Count(GPA_LOGGING_ERROR, "samples missing (the sample's other counters read as usual)"), 1u);
    gpa_float64 time = -1;
    EXPECT_GPA(GPA_STATUS_OK, GPA_GetSampleFloat64(session_, 0, Index("GPUTime"), &time));
    EXPECT_GT(time, 0);
    gpa_float32 fetch = -1;
    EXPECT_GPA(GPA_STATUS_OK, GPA_GetSampleFloat32(session_, 0, Index("FetchSize"), &fetch));
}

TYPED_TEST(GetSample, SessionBeingRecordedIsSamplingNotEnded) {
    this->Open();
    this->Enable(TypeParam::kCounter);
    gpa_uint32 session = 0;
    ASSERT_EQ(GPA_BeginSession(&session), GPA_STATUS_OK);
    typename TypeParam::T value = this->kUntouched;
    EXPECT_GPA(GPA_STATUS_ERROR_SAMPLING_NOT_ENDED, GET(session, 0, this->Index(TypeParam::kCounter), &value));
}

#undef GET

// ---- values -----------------------------------------------------------------------------------------------

TEST_F(Results, DerivedCounterWhoseInputsComeFromDifferentPassesIsComputedFromBoth) {
    Open();
    Enable("Busy");
    gpa_uint32 passes = 0;
    ASSERT_GPA(GPA_STATUS_OK, GPA_GetPassCount(&passes));
    ASSERT_EQ(passes, 2u);
    const gpa_uint32 session = Record({10, 20, 30});
    for (gpa_uint32 sample : {10u, 20u, 30u}) {
        double busy = 0;
        EXPECT_GPA(GPA_STATUS_OK, GPA_GetSampleFloat64(session, sample, Index("Busy"), &busy));
        EXPECT_DOUBLE_EQ(busy, 100.0 * Hw(kBusy, sample) / Hw(kCycles, sample));
    }
}

TEST_F(Results, IntegerCountersAreRoundedAndClampedToTheirType) {
    // Derived integer counters are rounded to nearest; they never go below zero or beyond the type.
    Config().derived = {
        {"Half", "General", "", GPA_TYPE_UINT64, GPA_USAGE_TYPE_ITEMS, "hw.waves / 8000"},     // ~0.5..0.51
        {"Negative", "General", "", GPA_TYPE_UINT32, GPA_USAGE_TYPE_ITEMS, "0 - hw.waves"},    // < 0
        {"Huge32", "General", "", GPA_TYPE_UINT32, GPA_USAGE_TYPE_ITEMS, "hw.waves * 1e12"},   // > 2^32
        {"Huge64", "General", "", GPA_TYPE_UINT64, GPA_USAGE_TYPE_ITEMS, "hw.waves * 1e30"},   // > 2^64
    };
    Open();
    ASSERT_GPA(GPA_STATUS_OK, GPA_EnableAllCounters());
    const gpa_uint32 session = Record({100});  // hw.waves = 4100
    gpa_uint64 u64 = 0;
    gpa_uint32 u32 = 7;
    EXPECT_GPA(GPA_STATUS_OK, GPA_GetSampleUInt64(session, 100, Index("Half"), &u64));
    EXPECT_EQ(u64, 1u);  // 0.5125 rounds to 1
    EXPECT_GPA(GPA_STATUS_OK, GPA_GetSampleUInt32(session, 100, Index("Negative"), &u32));
    EXPECT_EQ(u32, 0u);
    EXPECT_GPA(GPA_STATUS_OK, GPA_GetSampleUInt32(session, 100, Index("Huge32"), &u32));
    EXPECT_EQ(u32, 0xFFFFFFFFu);
    EXPECT_GPA(GPA_STATUS_OK, GPA_GetSampleUInt64(session, 100, Index("Huge64"), &u64));
    EXPECT_EQ(u64, 0xFFFFFFFFFFFFFFFFull);
}

// ---- pending results ---------------------------------------------------------------------------------------

// Runs `call` on another thread and says whether it finished within `limit`. If it did not, results are
// released so that the thread can finish and the test can end.
template <typename Call>
bool FinishesWithin(std::chrono::milliseconds limit, Call call) {
    std::future<void> done = std::async(std::launch::async, call);
    const bool finished = done.wait_for(limit) == std::future_status::ready;
    if (!finished) {
        Config().resultsReleased = true;
        if (done.wait_for(std::chrono::seconds(5)) != std::future_status::ready) {
            std::fprintf(stderr, "a GPA call is stuck even with results released (deadlock?)\n");
            std::_Exit(2);
        }
    }
    done.get();
    return finished;
}

TEST_F(Results, ReadinessQueriesNeverBlockWhileResultsArePending) {
    Config().resultsReleased = false;
    RecordAll();
    bool sessionReady = true;
    bool sampleReady = true;
    GPA_Status sessionStatus = GPA_STATUS_INTERNAL;
    GPA_Status sampleStatus = GPA_STATUS_INTERNAL;
    EXPECT_TRUE(FinishesWithin(5s, [&] {
        for (int i = 0; i < 100; ++i) {
            sessionStatus = GPA_IsSessionReady(&sessionReady, session_);
            sampleStatus = GPA_IsSampleReady(&sampleReady, session_, 1);
        }
    }));
    EXPECT_EQ(sessionStatus, GPA_STATUS_OK);
    EXPECT_EQ(sampleStatus, GPA_STATUS_OK);
    EXPECT_FALSE(sessionReady);
    EXPECT_FALSE(sampleReady);
    Config().resultsReleased = true;
    EXPECT_GPA(GPA_STATUS_OK, GPA_IsSessionReady(&sessionReady, session_));
    EXPECT_GPA(GPA_STATUS_OK, GPA_IsSampleReady(&sampleReady, session_, 1));
    EXPECT_TRUE(sessionReady);
    EXPECT_TRUE(sampleReady);
}

TEST_F(Results, GetSampleBlocksUntilResultsAreReleased) {
    Config().resultsReleased = false;
    RecordAll();
    const gpa_uint32 counter = Index("Waves");
    std::atomic<bool> returned{false};
    GPA_Status status = GPA_STATUS_INTERNAL;
    gpa_uint64 value = 0;
    std::thread reader([&] {
        status = GPA_GetSampleUInt64(session_, 1, counter, &value);
        returned = true;
    });
    std::this_thread::sleep_for(200ms);
    EXPECT_FALSE(returned.load()) << "GPA_GetSampleUInt64 returned before the results were available";
    // Polling from here still answers at once.
    bool ready = true;
    EXPECT_TRUE(FinishesWithin(5s, [&] { EXPECT_EQ(GPA_IsSessionReady(&ready, session_), GPA_STATUS_OK); }));
    EXPECT_FALSE(ready);
    Config().resultsReleased = true;
    reader.join();
    EXPECT_EQ(status, GPA_STATUS_OK);
    EXPECT_EQ(value, static_cast<gpa_uint64>(Hw(kWaves, 1)));
    EXPECT_GPA(GPA_STATUS_OK, GPA_IsSessionReady(&ready, session_));
    EXPECT_TRUE(ready);
}

}  // namespace
}  // namespace gpa_test
