// Several threads in the API at once, and readers blocked in GPA_GetSample* while other threads keep
// recording. Run under ASan+UBSan in CI; every thread checks the statuses and values it gets.
#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "gpa_test_fixture.h"

namespace gpa_test {
namespace {

using gpa::testing::Config;
using gpa::testing::LiveSessions;
using namespace std::chrono_literals;

class Concurrency : public GpaTest {};

TEST_F(Concurrency, ManyThreadsCallingTheApiAtOnce) {
    ASSERT_GPA(GPA_STATUS_OK, GPA_RegisterLoggingCallback(GPA_LOGGING_ALL, LogCapture::Callback));
    Open();
    Enable("Waves");
    Enable("Busy");
    const gpa_uint32 waves = Index("Waves");
    const gpa_uint32 busy = Index("Busy");
    Record({0, 1});

    std::atomic<int> failures{0};
    std::atomic<int> readsOk{0};
    auto check = [&](bool ok, const char* what) {
        if (!ok) {
            ++failures;
            ADD_FAILURE() << what << " (last error: " << OGPA_GetLastErrorMessage() << ")";
        }
    };

    // One thread records sessions for as long as the others run; they read the newest finished one, look
    // at the catalog, poll, and try (and fail, or not) to change the selection.
    constexpr int kReaders = 4;
    std::atomic<int> readersDone{0};
    std::atomic<gpa_uint32> newest{1};
    std::thread recorder([&] {
        for (int i = 0; i < 50 || readersDone.load() < kReaders; ++i) {
            gpa_uint32 session = 0;
            check(GPA_BeginSession(&session) == GPA_STATUS_OK, "BeginSession");
            for (int pass = 0; pass < 2; ++pass) {
                check(GPA_BeginPass() == GPA_STATUS_OK, "BeginPass");
                for (gpa_uint32 sample : {0u, 1u}) {
                    check(GPA_BeginSample(sample) == GPA_STATUS_OK, "BeginSample");
                    check(GPA_EndSample() == GPA_STATUS_OK, "EndSample");
                }
                check(GPA_EndPass() == GPA_STATUS_OK, "EndPass");
            }
            check(GPA_EndSession() == GPA_STATUS_OK, "EndSession");
            newest = session;
        }
    });
    std::vector<std::thread> readers;
    for (int t = 0; t < kReaders; ++t) {
        readers.emplace_back([&, t] {
            for (int i = 0; i < 200; ++i) {
                const gpa_uint32 session = newest.load();
                gpa_uint64 w = 0;
                const GPA_Status s1 = GPA_GetSampleUInt64(session, 1, waves, &w);
                check(s1 == GPA_STATUS_OK || s1 == GPA_STATUS_ERROR_SESSION_NOT_FOUND, GPA_GetStatusAsStr(s1));
                if (s1 == GPA_STATUS_OK) {
                    check(w == static_cast<gpa_uint64>(Hw(kWaves, 1)), "Waves value");
                    ++readsOk;
                }
                double b = 0;
                const GPA_Status s2 = GPA_GetSampleFloat64(session, 0, busy, &b);
                check(s2 == GPA_STATUS_OK || s2 == GPA_STATUS_ERROR_SESSION_NOT_FOUND, GPA_GetStatusAsStr(s2));
                if (s2 == GPA_STATUS_OK) check(b == 100.0 * Hw(kBusy, 0) / Hw(kCycles, 0), "Busy value");
                bool ready = false;
                const GPA_Status s3 = GPA_IsSampleReady(&ready, session, 0);
                check(s3 == GPA_STATUS_OK || s3 == GPA_STATUS_ERROR_SESSION_NOT_FOUND, GPA_GetStatusAsStr(s3));
                gpa_uint32 count = 0;
                check(GPA_GetNumCounters(&count) == GPA_STATUS_OK && count == 5, "GetNumCounters");
                const char* name = nullptr;
                check(GPA_GetCounterName(static_cast<gpa_uint32>(t), &name) == GPA_STATUS_OK && name != nullptr,
                      "GetCounterName");
                gpa_uint32 index = 0;
                check(GPA_GetCounterIndex("waves", &index) == GPA_STATUS_OK && index == waves, "GetCounterIndex");
                // Changing the selection races with the recorder; only these two answers are possible.
                const GPA_Status s4 = GPA_EnableCounterStr("GPUTime");
                check(s4 == GPA_STATUS_ERROR_CANNOT_CHANGE_COUNTERS_WHEN_SAMPLING || s4 == GPA_STATUS_OK ||
                          s4 == GPA_STATUS_ERROR_ALREADY_ENABLED,
                      GPA_GetStatusAsStr(s4));
                const GPA_Status s5 = GPA_DisableCounterStr("GPUTime");
                check(s5 == GPA_STATUS_ERROR_CANNOT_CHANGE_COUNTERS_WHEN_SAMPLING || s5 == GPA_STATUS_OK ||
                          s5 == GPA_STATUS_ERROR_NOT_ENABLED,
                      GPA_GetStatusAsStr(s5));
                check(std::string(GPA_GetStatusAsStr(GPA_STATUS_OK)) == "GPA_STATUS_OK", "GetStatusAsStr");
            }
            ++readersDone;
        });
    }
    for (std::thread& r : readers) r.join();
    recorder.join();
    EXPECT_EQ(failures.load(), 0);
    EXPECT_GT(readsOk.load(), 0);
    EXPECT_EQ(LiveSessions(), 4);
    for (const LogEntry& e : LogCapture::Snapshot()) ASSERT_FALSE(e.text.empty());
}

TEST_F(Concurrency, ReaderBlockedInGetSampleWhileOthersRecordNewSessions) {
    Config().resultsReleased = false;
    Open();
    Enable("Waves");
    Enable("Busy");
    const gpa_uint32 first = Record({0, 1});
    std::atomic<bool> returned{false};
    GPA_Status status = GPA_STATUS_INTERNAL;
    double busy = 0;
    std::thread reader([&] {
        status = GPA_GetSampleFloat64(first, 1, Index("Busy"), &busy);
        returned = true;
    });
    std::this_thread::sleep_for(100ms);
    ASSERT_FALSE(returned.load());

    // Meanwhile the application goes on: six more sessions push the first one out of the ring.
    for (int i = 0; i < 6; ++i) Record({0, 1});
    bool ready = true;
    EXPECT_GPA(GPA_STATUS_ERROR_SESSION_NOT_FOUND, GPA_IsSessionReady(&ready, first));
    EXPECT_GPA(GPA_STATUS_OK, GPA_IsSessionReady(&ready, first + 6));
    EXPECT_FALSE(ready);
    EXPECT_FALSE(returned.load());
    EXPECT_EQ(LiveSessions(), 5);  // four in the ring, plus the one the reader still holds

    Config().resultsReleased = true;
    reader.join();
    EXPECT_EQ(status, GPA_STATUS_OK);
    EXPECT_DOUBLE_EQ(busy, 100.0 * Hw(kBusy, 1) / Hw(kCycles, 1));
    EXPECT_EQ(LiveSessions(), 4);
}

TEST_F(Concurrency, SeveralReadersBlockedOnTheSameSessionAllGetTheirValues) {
    Config().resultsReleased = false;
    Open();
    ASSERT_GPA(GPA_STATUS_OK, GPA_EnableAllCounters());
    const gpa_uint32 session = Record({0, 1, 2});
    const gpa_uint32 waves = Index("Waves");
    constexpr int kReaders = 6;
    std::vector<GPA_Status> statuses(kReaders, GPA_STATUS_INTERNAL);
    std::vector<gpa_uint64> values(kReaders, 0);
    std::atomic<int> returned{0};
    std::vector<std::thread> readers;
    for (int r = 0; r < kReaders; ++r) {
        readers.emplace_back([&, r] {
            statuses[r] = GPA_GetSampleUInt64(session, static_cast<gpa_uint32>(r % 3), waves, &values[r]);
            ++returned;
        });
    }
    std::this_thread::sleep_for(100ms);
    EXPECT_EQ(returned.load(), 0);
    Config().resultsReleased = true;
    for (std::thread& t : readers) t.join();
    for (int r = 0; r < kReaders; ++r) {
        EXPECT_EQ(statuses[r], GPA_STATUS_OK) << r;
        EXPECT_EQ(values[r], static_cast<gpa_uint64>(Hw(kWaves, static_cast<uint32_t>(r % 3)))) << r;
    }
}

TEST_F(Concurrency, ContextClosedWhileAReaderIsBlockedStillAnswersTheReader) {
    Config().resultsReleased = false;
    Open();
    Enable("FetchSize");
    const gpa_uint32 session = Record({4});
    const gpa_uint32 fetch = Index("FetchSize");
    GPA_Status status = GPA_STATUS_INTERNAL;
    gpa_float32 value = 0;
    std::thread reader([&] { status = GPA_GetSampleFloat32(session, 4, fetch, &value); });
    std::this_thread::sleep_for(100ms);
    EXPECT_GPA(GPA_STATUS_OK, GPA_CloseContext());
    EXPECT_GPA(GPA_STATUS_OK, GPA_Destroy());
    EXPECT_EQ(LiveSessions(), 1);  // the reader holds it
    Config().resultsReleased = true;
    reader.join();
    EXPECT_EQ(status, GPA_STATUS_OK);
    EXPECT_EQ(value, static_cast<gpa_float32>(Hw(kBytes, 4) / 1024.0));
    EXPECT_EQ(LiveSessions(), 0);
}

}  // namespace
}  // namespace gpa_test
