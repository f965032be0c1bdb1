// The result ring (seed 2.12): each context keeps the last N finished sessions (4 by default,
// OGPA_SetSessionBufferSize), overwrites the oldest first and then answers SESSION_NOT_FOUND for it,
// and releases the backend's session. Also the seed's render loop (3.2) and WriteSession utility (7).
#include <sstream>
#include <string>
#include <vector>

#include "gpa_test_fixture.h"

namespace gpa_test {
namespace {

using gpa::testing::Config;
using gpa::testing::LiveSessions;

class ResultRing : public GpaTest {
protected:
    static bool Available(gpa_uint32 session) {
        bool ready = false;
        const GPA_Status status = GPA_IsSessionReady(&ready, session);
        EXPECT_TRUE(status == GPA_STATUS_OK || status == GPA_STATUS_ERROR_SESSION_NOT_FOUND) << GPA_GetStatusAsStr(status);
        return status == GPA_STATUS_OK;
    }
};

TEST_F(ResultRing, KeepsFourSessionsByDefaultAndOverwritesTheOldestFirst) {
    Open();
    Enable("Waves");
    for (gpa_uint32 expected = 1; expected <= 4; ++expected) EXPECT_EQ(Record(), expected);
    for (gpa_uint32 s = 1; s <= 4; ++s) EXPECT_TRUE(Available(s)) << s;
    EXPECT_EQ(Record(), 5u);
    EXPECT_FALSE(Available(1));
    for (gpa_uint32 s = 2; s <= 5; ++s) EXPECT_TRUE(Available(s)) << s;
    EXPECT_EQ(Record(), 6u);
    EXPECT_FALSE(Available(2));
    // Every result call answers SESSION_NOT_FOUND for an overwritten session.
    gpa_uint32 samples = 0;
    bool ready = false;
    gpa_uint64 waves = 0;
    EXPECT_GPA(GPA_STATUS_ERROR_SESSION_NOT_FOUND, GPA_IsSessionReady(&ready, 1));
    EXPECT_GPA(GPA_STATUS_ERROR_SESSION_NOT_FOUND, GPA_IsSampleReady(&ready, 1, 0));
    EXPECT_GPA(GPA_STATUS_ERROR_SESSION_NOT_FOUND, GPA_GetSampleCount(1, &samples));
    EXPECT_GPA(GPA_STATUS_ERROR_SESSION_NOT_FOUND, GPA_GetSampleUInt64(1, 0, Index("Waves"), &waves));
    EXPECT_GPA(GPA_STATUS_OK, GPA_GetSampleUInt64(3, 0, Index("Waves"), &waves));
    EXPECT_EQ(waves, static_cast<gpa_uint64>(Hw(kWaves, 0)));
}

TEST_F(ResultRing, ReleasesTheBackendSessionsItOverwrites) {
    Open();
    Enable("Busy");
    for (int i = 0; i < 10; ++i) {
        Record();
        EXPECT_EQ(LiveSessions(), i < 4 ? i + 1 : 4);
    }
    gpa_uint32 session = 0;
    ASSERT_GPA(GPA_STATUS_OK, GPA_BeginSession(&session));
    EXPECT_EQ(LiveSessions(), 5);  // four kept plus the one being recorded
    ASSERT_GPA(GPA_STATUS_OK, GPA_BeginPass());
    ASSERT_GPA(GPA_STATUS_OK, GPA_EndPass());
    ASSERT_GPA(GPA_STATUS_OK, GPA_BeginPass());
    ASSERT_GPA(GPA_STATUS_OK, GPA_EndPass());
    ASSERT_GPA(GPA_STATUS_OK, GPA_EndSession());
    EXPECT_EQ(LiveSessions(), 4);
    ASSERT_GPA(GPA_STATUS_OK, GPA_CloseContext());
    EXPECT_EQ(LiveSessions(), 0);
}

TEST_F(ResultRing, EachContextHasItsOwnRing) {
    Open();
    Enable("Waves");
    Record();  // A:1
    Open(GPA_OPENCONTEXT_DEFAULT_BIT, &queueB_);
    Enable("Waves");
    for (int i = 0; i < 6; ++i) Record();  // B:1..6
    EXPECT_FALSE(Available(1));
    EXPECT_FALSE(Available(2));
    ASSERT_GPA(GPA_STATUS_OK, GPA_SelectContext(&queueA_));
    EXPECT_TRUE(Available(1));
}

TEST_F(ResultRing, SetSessionBufferSizeBelowFourIsIndexOutOfRange) {
    EXPECT_GPA(GPA_STATUS_ERROR_INDEX_OUT_OF_RANGE, OGPA_SetSessionBufferSize(3));
    EXPECT_GPA(GPA_STATUS_ERROR_INDEX_OUT_OF_RANGE, OGPA_SetSessionBufferSize(0));
    // Still four.
    Open();
    Enable("Waves");
    for (int i = 0; i < 5; ++i) Record();
    EXPECT_FALSE(Available(1));
    EXPECT_TRUE(Available(2));
}

TEST_F(ResultRing, SetSessionBufferSizeAppliesToContextsOpenedAfterwards) {
    Open();  // A keeps 4
    Enable("Waves");
    EXPECT_GPA(GPA_STATUS_OK, OGPA_SetSessionBufferSize(6));
    Open(GPA_OPENCONTEXT_DEFAULT_BIT, &queueB_);  // B keeps 6
    Enable("Waves");
    for (int i = 0; i < 7; ++i) Record();
    EXPECT_FALSE(Available(1));
    for (gpa_uint32 s = 2; s <= 7; ++s) EXPECT_TRUE(Available(s)) << s;
    EXPECT_EQ(LiveSessions(), 6);
    ASSERT_GPA(GPA_STATUS_OK, GPA_SelectContext(&queueA_));
    for (int i = 0; i < 7; ++i) Record();
    EXPECT_FALSE(Available(3));
    for (gpa_uint32 s = 4; s <= 7; ++s) EXPECT_TRUE(Available(s)) << s;
    EXPECT_EQ(LiveSessions(), 10);
}

TEST_F(ResultRing, SetSessionBufferSizeWorksBeforeInitialize) {
    EXPECT_GPA(GPA_STATUS_OK, OGPA_SetSessionBufferSize(5));
    Open();
    Enable("Waves");
    for (int i = 0; i < 6; ++i) Record();
    EXPECT_FALSE(Available(1));
    EXPECT_TRUE(Available(2));
}

TEST_F(ResultRing, ADiscardedSessionTakesNoPlaceInTheRing) {
    Open();
    Enable("Busy");  // two passes
    for (int i = 0; i < 3; ++i) Record();  // 1..3
    gpa_uint32 session = 0;
    ASSERT_GPA(GPA_STATUS_OK, GPA_BeginSession(&session));  // 4, abandoned after one pass
    ASSERT_GPA(GPA_STATUS_OK, GPA_BeginPass());
    ASSERT_GPA(GPA_STATUS_OK, GPA_EndPass());
    ASSERT_GPA(GPA_STATUS_ERROR_NOT_ENOUGH_PASSES, GPA_EndSession());
    Record();  // 5
    for (gpa_uint32 s : {1u, 2u, 3u, 5u}) EXPECT_TRUE(Available(s)) << s;
    EXPECT_FALSE(Available(4));
}

// ---- the seed's example (3.1-3.3) and its WriteSession utility (7) -----------------------------------------

// Section 7: reads every enabled counter of every sample of a session by its data type, as text.
std::string WriteSession(gpa_uint32 sessionId) {
    std::ostringstream out;
    gpa_uint32 count = 0;
    EXPECT_GPA(GPA_STATUS_OK, GPA_GetEnabledCount(&count));
    gpa_uint32 sampleCount = 0;
    EXPECT_GPA(GPA_STATUS_OK, GPA_GetSampleCount(sessionId, &sampleCount));
    for (gpa_uint32 sample = 0; sample < sampleCount; ++sample) {
        out << "session: " << sessionId << "; sample: " << sample;
        for (gpa_uint32 counter = 0; counter < count; ++counter) {
            gpa_uint32 index = 0;
            EXPECT_GPA(GPA_STATUS_OK, GPA_GetEnabledIndex(counter, &index));
            GPA_Type type = GPA_TYPE__LAST;
            EXPECT_GPA(GPA_STATUS_OK, GPA_GetCounterDataType(index, &type));
            out << ", ";
            if (type == GPA_TYPE_UINT32) {
                gpa_uint32 value = 0;
                EXPECT_GPA(GPA_STATUS_OK, GPA_GetSampleUInt32(sessionId, sample, index, &value));
                out << value;
            } else if (type == GPA_TYPE_UINT64) {
                gpa_uint64 value = 0;
                EXPECT_GPA(GPA_STATUS_OK, GPA_GetSampleUInt64(sessionId, sample, index, &value));
                out << value;
            } else if (type == GPA_TYPE_FLOAT32) {
                gpa_float32 value = 0;
                EXPECT_GPA(GPA_STATUS_OK, GPA_GetSampleFloat32(sessionId, sample, index, &value));
                out << value;
            } else if (type == GPA_TYPE_FLOAT64) {
                gpa_float64 value = 0;
                EXPECT_GPA(GPA_STATUS_OK, GPA_GetSampleFloat64(sessionId, sample, index, &value));
                out << value;
            } else {
                ADD_FAILURE() << "unexpected type " << type;
            }
        }
        out << "\n";
    }
    return out.str();
}

TEST_F(ResultRing, SeedRenderLoopSkipsOverwrittenSessions) {
    Open();                                           // 3.1
    ASSERT_GPA(GPA_STATUS_OK, GPA_EnableAllCounters());

    gpa_uint32 currentWaitSessionID = 1;              // 3.2
    std::vector<gpa_uint32> written;
    std::vector<gpa_uint32> skipped;
    std::string firstWrite;
    for (int frame = 1; frame <= 12; ++frame) {
        // Frames 1..6 finish on the device only when frame 7 starts: sessions 1..3 are overwritten
        // by then (4 are kept) and the loop must skip them.
        Config().resultsReleased = frame >= 7;
        gpa_uint32 sessionID = 0;
        ASSERT_GPA(GPA_STATUS_OK, GPA_BeginSession(&sessionID));
        gpa_uint32 numRequiredPasses = 0;
        ASSERT_GPA(GPA_STATUS_OK, GPA_GetPassCount(&numRequiredPasses));
        for (gpa_uint32 i = 0; i < numRequiredPasses; i++) {
            ASSERT_GPA(GPA_STATUS_OK, GPA_BeginPass());
            ASSERT_GPA(GPA_STATUS_OK, GPA_BeginSample(0));
            ASSERT_GPA(GPA_STATUS_OK, GPA_EndSample());
            ASSERT_GPA(GPA_STATUS_OK, GPA_BeginSample(1));
            ASSERT_GPA(GPA_STATUS_OK, GPA_EndSample());
            ASSERT_GPA(GPA_STATUS_OK, GPA_EndPass());
        }
        ASSERT_GPA(GPA_STATUS_OK, GPA_EndSession());
        ASSERT_EQ(sessionID, static_cast<gpa_uint32>(frame));

        bool readyResult = false;
        if (sessionID != currentWaitSessionID) {
            GPA_Status sessionStatus = GPA_IsSessionReady(&readyResult, currentWaitSessionID);
            while (sessionStatus == GPA_STATUS_ERROR_SESSION_NOT_FOUND) {
                skipped.push_back(currentWaitSessionID);  // skipping a session which got overwritten
                currentWaitSessionID++;
                sessionStatus = GPA_IsSessionReady(&readyResult, currentWaitSessionID);
            }
            ASSERT_EQ(sessionStatus, GPA_STATUS_OK);
        }
        if (readyResult) {
            const std::string text = WriteSession(currentWaitSessionID);
            if (written.empty()) firstWrite = text;
            written.push_back(currentWaitSessionID);
            currentWaitSessionID++;
        }
    }
    ASSERT_GPA(GPA_STATUS_OK, GPA_CloseContext());    // 3.3
    ASSERT_GPA(GPA_STATUS_OK, GPA_Destroy());

    EXPECT_EQ(skipped, (std::vector<gpa_uint32>{1, 2, 3}));
    EXPECT_EQ(written, (std::vector<gpa_uint32>{4, 5, 6, 7, 8, 9}));
    // Enabled order is the catalog order: GPUTime, Busy, FetchSize, Waves, Waves32.
    std::ostringstream expected;
    for (gpa_uint32 s : {0u, 1u}) {
        expected << "session: 4; sample: " << s << ", " << Hw(kTimeNs, s) / 1e6 << ", "
                 << 100.0 * Hw(kBusy, s) / Hw(kCycles, s) << ", " << static_cast<gpa_float32>(Hw(kBytes, s) / 1024.0)
                 << ", " << static_cast<gpa_uint64>(Hw(kWaves, s)) << ", " << static_cast<gpa_uint32>(Hw(kWaves, s))
                 << "\n";
    }
    EXPECT_EQ(firstWrite, expected.str());
}

}  // namespace
}  // namespace gpa_test
