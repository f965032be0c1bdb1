// The recording state machine: GPA_BeginSession, GPA_EndSession, GPA_BeginPass, GPA_EndPass,
// GPA_BeginSample, GPA_EndSample, with every status the seed documents for them.
#include <string>

#include "gpa_test_fixture.h"

namespace gpa_test {
namespace {

using gpa::testing::Config;

class SessionState : public GpaTest {
protected:
    // Opens a context with a single-pass (Waves) or two-pass (Busy) selection and begins a session.
    void BeginSession(const char* counter = "Waves") {
        Open();
        Enable(counter);
        ASSERT_GPA(GPA_STATUS_OK, GPA_BeginSession(&session_));
    }
    gpa_uint32 session_ = 0;
};

// ---- GPA_BeginSession --------------------------------------------------------------------------------------

TEST_F(SessionState, BeginSessionOkGivesIncreasingIdsFromOne) {
    Open();
    Enable("Waves");
    gpa_uint32 id = 0;
    EXPECT_GPA(GPA_STATUS_OK, GPA_BeginSession(&id));
    EXPECT_EQ(id, 1u);
    ASSERT_GPA(GPA_STATUS_OK, GPA_BeginPass());
    ASSERT_GPA(GPA_STATUS_OK, GPA_EndPass());
    ASSERT_GPA(GPA_STATUS_OK, GPA_EndSession());
    EXPECT_GPA(GPA_STATUS_OK, GPA_BeginSession(&id));
    EXPECT_EQ(id, 2u);
}

TEST_F(SessionState, BeginSessionWithoutContextIsNotOpen) {
    gpa_uint32 id = 99;
    EXPECT_GPA(GPA_STATUS_ERROR_COUNTERS_NOT_OPEN, GPA_BeginSession(&id));
    EXPECT_EQ(id, 99u);
}

TEST_F(SessionState, BeginSessionNullPointer) {
    Open();
    Enable("Waves");
    EXPECT_GPA(GPA_STATUS_ERROR_NULL_POINTER, GPA_BeginSession(nullptr));
    // No session was started and no id was used up.
    EXPECT_EQ(Record(), 1u);
}

TEST_F(SessionState, BeginSessionWithNoCountersEnabled) {
    Open();
    gpa_uint32 id = 99;
    EXPECT_GPA(GPA_STATUS_ERROR_NO_COUNTERS_ENABLED, GPA_BeginSession(&id));
    EXPECT_EQ(id, 99u);
}

TEST_F(SessionState, BeginSessionTwiceIsSamplingAlreadyStarted) {
    BeginSession();
    gpa_uint32 id = 99;
    EXPECT_GPA(GPA_STATUS_ERROR_SAMPLING_ALREADY_STARTED, GPA_BeginSession(&id));
    EXPECT_EQ(id, 99u);
}

TEST_F(SessionState, BeginSessionFailsWhenTheBackendCannotCreateIt) {
    Open();
    Enable("Waves");
    Config().failCreateSession = true;
    gpa_uint32 id = 99;
    EXPECT_GPA(GPA_STATUS_ERROR_FAILED, GPA_BeginSession(&id));
    EXPECT_EQ(id, 99u);
    EXPECT_NE(std::string(OGPA_GetLastErrorMessage()).find("scripted session creation failure"), std::string::npos);
    // Not sampling, and no id was used up.
    EXPECT_GPA(GPA_STATUS_OK, GPA_EnableCounterStr("Busy"));
    Config().failCreateSession = false;
    EXPECT_EQ(Record(), 1u);
}

// ---- GPA_EndSession ----------------------------------------------------------------------------------------

TEST_F(SessionState, EndSessionOk) {
    BeginSession();
    ASSERT_GPA(GPA_STATUS_OK, GPA_BeginPass());
    ASSERT_GPA(GPA_STATUS_OK, GPA_BeginSample(0));
    ASSERT_GPA(GPA_STATUS_OK, GPA_EndSample());
    ASSERT_GPA(GPA_STATUS_OK, GPA_EndPass());
    EXPECT_GPA(GPA_STATUS_OK, GPA_EndSession());
    bool ready = false;
    EXPECT_GPA(GPA_STATUS_OK, GPA_IsSessionReady(&ready, session_));
    EXPECT_TRUE(ready);
}

TEST_F(SessionState, EndSessionWithoutContextIsNotOpen) {
    EXPECT_GPA(GPA_STATUS_ERROR_COUNTERS_NOT_OPEN, GPA_EndSession());
}

TEST_F(SessionState, EndSessionWithoutSessionIsSamplingNotStarted) {
    // The seed lists SAMPLE_NOT_STARTED with the text of GPA_EndSample; without a session we answer
    // SAMPLING_NOT_STARTED, the status that names the missing GPA_BeginSession.
    Open();
    Enable("Waves");
    EXPECT_GPA(GPA_STATUS_ERROR_SAMPLING_NOT_STARTED, GPA_EndSession());
    Record();
    EXPECT_GPA(GPA_STATUS_ERROR_SAMPLING_NOT_STARTED, GPA_EndSession());
}

TEST_F(SessionState, EndSessionWithAnOpenPassIsPassNotEndedAndKeepsRecording) {
    BeginSession();
    ASSERT_GPA(GPA_STATUS_OK, GPA_BeginPass());
    ASSERT_GPA(GPA_STATUS_OK, GPA_BeginSample(4));
    EXPECT_GPA(GPA_STATUS_ERROR_PASS_NOT_ENDED, GPA_EndSession());
    EXPECT_GPA(GPA_STATUS_OK, GPA_EndSample());
    EXPECT_GPA(GPA_STATUS_ERROR_PASS_NOT_ENDED, GPA_EndSession());
    EXPECT_GPA(GPA_STATUS_OK, GPA_EndPass());
    EXPECT_GPA(GPA_STATUS_OK, GPA_EndSession());
    gpa_uint32 samples = 0;
    EXPECT_GPA(GPA_STATUS_OK, GPA_GetSampleCount(session_, &samples));
    EXPECT_EQ(samples, 1u);
}

TEST_F(SessionState, EndSessionBeforeEveryPassIsNotEnoughPassesAndDiscardsTheSession) {
    BeginSession("Busy");  // two passes
    ASSERT_GPA(GPA_STATUS_OK, GPA_BeginPass());
    ASSERT_GPA(GPA_STATUS_OK, GPA_BeginSample(0));
    ASSERT_GPA(GPA_STATUS_OK, GPA_EndSample());
    ASSERT_GPA(GPA_STATUS_OK, GPA_EndPass());
    EXPECT_GPA(GPA_STATUS_ERROR_NOT_ENOUGH_PASSES, GPA_EndSession());
    EXPECT_EQ(gpa::testing::LiveSessions(), 0);
    bool ready = true;
    EXPECT_GPA(GPA_STATUS_ERROR_SESSION_NOT_FOUND, GPA_IsSessionReady(&ready, session_));
    // The context is not sampling any more; the next session takes the next id.
    EXPECT_EQ(Record(), session_ + 1);
}

TEST_F(SessionState, EndSessionWithNoPassAtAllIsNotEnoughPasses) {
    BeginSession();
    EXPECT_GPA(GPA_STATUS_ERROR_NOT_ENOUGH_PASSES, GPA_EndSession());
}

TEST_F(SessionState, EndSessionFailsWhenTheBackendCannotEndIt) {
    BeginSession();
    ASSERT_GPA(GPA_STATUS_OK, GPA_BeginPass());
    ASSERT_GPA(GPA_STATUS_OK, GPA_EndPass());
    Config().failEndSession = true;
    EXPECT_GPA(GPA_STATUS_ERROR_FAILED, GPA_EndSession());
    Config().failEndSession = false;
    // The failed session is gone and the context can sample again.
    gpa_uint32 samples = 0;
    EXPECT_GPA(GPA_STATUS_ERROR_SESSION_NOT_FOUND, GPA_GetSampleCount(session_, &samples));
    EXPECT_GPA(GPA_STATUS_ERROR_SAMPLING_NOT_STARTED, GPA_EndSession());
    EXPECT_EQ(Record(), session_ + 1);
}

// ---- GPA_BeginPass -----------------------------------------------------------------------------------------

TEST_F(SessionState, BeginPassOk) {
    BeginSession();
    EXPECT_GPA(GPA_STATUS_OK, GPA_BeginPass());
}

TEST_F(SessionState, BeginPassWithoutContextIsNotOpen) {
    EXPECT_GPA(GPA_STATUS_ERROR_COUNTERS_NOT_OPEN, GPA_BeginPass());
}

TEST_F(SessionState, BeginPassWithoutSessionIsSamplingNotStarted) {
    Open();
    Enable("Waves");
    EXPECT_GPA(GPA_STATUS_ERROR_SAMPLING_NOT_STARTED, GPA_BeginPass());
}

TEST_F(SessionState, BeginPassTwiceIsPassAlreadyStarted) {
    BeginSession("Busy");
    ASSERT_GPA(GPA_STATUS_OK, GPA_BeginPass());
    EXPECT_GPA(GPA_STATUS_ERROR_PASS_ALREADY_STARTED, GPA_BeginPass());
    ASSERT_GPA(GPA_STATUS_OK, GPA_BeginSample(1));
    EXPECT_GPA(GPA_STATUS_ERROR_PASS_ALREADY_STARTED, GPA_BeginPass());
}

TEST_F(SessionState, BeginPassBeyondTheRequiredPassesFails) {
    BeginSession();  // one pass
    ASSERT_GPA(GPA_STATUS_OK, GPA_BeginPass());
    ASSERT_GPA(GPA_STATUS_OK, GPA_EndPass());
    EXPECT_GPA(GPA_STATUS_ERROR_FAILED, GPA_BeginPass());
    EXPECT_GPA(GPA_STATUS_OK, GPA_EndSession());
}

// ---- GPA_EndPass -------------------------------------------------------------------------------------------

TEST_F(SessionState, EndPassOk) {
    BeginSession();
    ASSERT_GPA(GPA_STATUS_OK, GPA_BeginPass());
    EXPECT_GPA(GPA_STATUS_OK, GPA_EndPass());
}

TEST_F(SessionState, EndPassWithoutContextIsNotOpen) {
    EXPECT_GPA(GPA_STATUS_ERROR_COUNTERS_NOT_OPEN, GPA_EndPass());
}

TEST_F(SessionState, EndPassWithoutPassIsPassNotStarted) {
    Open();
    Enable("Waves");
    EXPECT_GPA(GPA_STATUS_ERROR_PASS_NOT_STARTED, GPA_EndPass());  // not even a session
    gpa_uint32 id = 0;
    ASSERT_GPA(GPA_STATUS_OK, GPA_BeginSession(&id));
    EXPECT_GPA(GPA_STATUS_ERROR_PASS_NOT_STARTED, GPA_EndPass());
    ASSERT_GPA(GPA_STATUS_OK, GPA_BeginPass());
    ASSERT_GPA(GPA_STATUS_OK, GPA_EndPass());
    EXPECT_GPA(GPA_STATUS_ERROR_PASS_NOT_STARTED, GPA_EndPass());
}

TEST_F(SessionState, EndPassWithAnOpenSampleIsSampleNotEnded) {
    BeginSession();
    ASSERT_GPA(GPA_STATUS_OK, GPA_BeginPass());
    ASSERT_GPA(GPA_STATUS_OK, GPA_BeginSample(3));
    EXPECT_GPA(GPA_STATUS_ERROR_SAMPLE_NOT_ENDED, GPA_EndPass());
    ASSERT_GPA(GPA_STATUS_OK, GPA_EndSample());
    EXPECT_GPA(GPA_STATUS_OK, GPA_EndPass());
}

TEST_F(SessionState, EndPassWithFewerSamplesThanTheFirstPassIsVariableNumberOfSamples) {
    BeginSession("Busy");
    ASSERT_GPA(GPA_STATUS_OK, GPA_BeginPass());
    for (gpa_uint32 s : {0u, 1u}) {
        ASSERT_GPA(GPA_STATUS_OK, GPA_BeginSample(s));
        ASSERT_GPA(GPA_STATUS_OK, GPA_EndSample());
    }
    ASSERT_GPA(GPA_STATUS_OK, GPA_EndPass());
    ASSERT_GPA(GPA_STATUS_OK, GPA_BeginPass());
    ASSERT_GPA(GPA_STATUS_OK, GPA_BeginSample(0));
    ASSERT_GPA(GPA_STATUS_OK, GPA_EndSample());
    EXPECT_GPA(GPA_STATUS_ERROR_VARIABLE_NUMBER_OF_SAMPLES_IN_PASSES, GPA_EndPass());
    // The pass is over all the same, so the session can end; sample 1 is then incomplete.
    EXPECT_GPA(GPA_STATUS_OK, GPA_EndSession());
    bool ready = false;
    EXPECT_GPA(GPA_STATUS_OK, GPA_IsSampleReady(&ready, session_, 0));
    EXPECT_GPA(GPA_STATUS_ERROR_SAMPLE_NOT_FOUND_IN_ALL_PASSES, GPA_IsSampleReady(&ready, session_, 1));
}

TEST_F(SessionState, EndPassWithMoreSamplesThanTheFirstPassIsVariableNumberOfSamples) {
    BeginSession("Busy");
    ASSERT_GPA(GPA_STATUS_OK, GPA_BeginPass());
    ASSERT_GPA(GPA_STATUS_OK, GPA_EndPass());  // no samples at all
    ASSERT_GPA(GPA_STATUS_OK, GPA_BeginPass());
    ASSERT_GPA(GPA_STATUS_OK, GPA_BeginSample(0));
    ASSERT_GPA(GPA_STATUS_OK, GPA_EndSample());
    EXPECT_GPA(GPA_STATUS_ERROR_VARIABLE_NUMBER_OF_SAMPLES_IN_PASSES, GPA_EndPass());
}

// ---- GPA_BeginSample ---------------------------------------------------------------------------------------

TEST_F(SessionState, BeginSampleOk) {
    BeginSession();
    ASSERT_GPA(GPA_STATUS_OK, GPA_BeginPass());
    EXPECT_GPA(GPA_STATUS_OK, GPA_BeginSample(12345));
}

TEST_F(SessionState, BeginSampleWithoutContextIsNotOpen) {
    EXPECT_GPA(GPA_STATUS_ERROR_COUNTERS_NOT_OPEN, GPA_BeginSample(0));
}

TEST_F(SessionState, BeginSampleWithoutSessionIsSamplingNotStarted) {
    Open();
    Enable("Waves");
    EXPECT_GPA(GPA_STATUS_ERROR_SAMPLING_NOT_STARTED, GPA_BeginSample(0));
}

TEST_F(SessionState, BeginSampleWithoutPassIsPassNotStarted) {
    BeginSession();
    EXPECT_GPA(GPA_STATUS_ERROR_PASS_NOT_STARTED, GPA_BeginSample(0));
    ASSERT_GPA(GPA_STATUS_OK, GPA_BeginPass());
    ASSERT_GPA(GPA_STATUS_OK, GPA_EndPass());
    EXPECT_GPA(GPA_STATUS_ERROR_PASS_NOT_STARTED, GPA_BeginSample(0));
}

TEST_F(SessionState, BeginSampleTwiceIsSampleAlreadyStarted) {
    BeginSession();
    ASSERT_GPA(GPA_STATUS_OK, GPA_BeginPass());
    ASSERT_GPA(GPA_STATUS_OK, GPA_BeginSample(0));
    EXPECT_GPA(GPA_STATUS_ERROR_SAMPLE_ALREADY_STARTED, GPA_BeginSample(1));
    EXPECT_GPA(GPA_STATUS_ERROR_SAMPLE_ALREADY_STARTED, GPA_BeginSample(0));
}

TEST_F(SessionState, BeginSampleFailsWhenTheBackendCannotStartIt) {
    BeginSession();
    ASSERT_GPA(GPA_STATUS_OK, GPA_BeginPass());
    Config().failBeginSample = true;
    EXPECT_GPA(GPA_STATUS_ERROR_FAILED, GPA_BeginSample(0));
    Config().failBeginSample = false;
    // Nothing was started: no sample to end, and the id is still free.
    EXPECT_GPA(GPA_STATUS_ERROR_SAMPLE_NOT_STARTED, GPA_EndSample());
    EXPECT_GPA(GPA_STATUS_OK, GPA_BeginSample(0));
}

TEST_F(SessionState, BeginSampleReusingAnIdWithinThePassFails) {
    BeginSession();
    ASSERT_GPA(GPA_STATUS_OK, GPA_BeginPass());
    ASSERT_GPA(GPA_STATUS_OK, GPA_BeginSample(8));
    ASSERT_GPA(GPA_STATUS_OK, GPA_EndSample());
    EXPECT_GPA(GPA_STATUS_ERROR_FAILED, GPA_BeginSample(8));
    EXPECT_GPA(GPA_STATUS_OK, GPA_BeginSample(9));
}

TEST_F(SessionState, BeginSampleNeverReportsPassAlreadyStarted) {
    // The seed lists PASS_ALREADY_STARTED for GPA_BeginSample with GPA_BeginPass's text; a sample needs an
    // open pass, so the state that status describes is the normal one here. We never return it.
    BeginSession("Busy");
    ASSERT_GPA(GPA_STATUS_OK, GPA_BeginPass());
    EXPECT_GPA(GPA_STATUS_OK, GPA_BeginSample(0));
    EXPECT_GPA(GPA_STATUS_OK, GPA_EndSample());
    EXPECT_GPA(GPA_STATUS_OK, GPA_EndPass());
    EXPECT_GPA(GPA_STATUS_OK, GPA_BeginPass());
    EXPECT_GPA(GPA_STATUS_OK, GPA_BeginSample(0));
}

TEST_F(SessionState, SampleIdsAreUniqueWithinAPassAndRepeatAcrossPasses) {
    BeginSession("Busy");
    for (int pass = 0; pass < 2; ++pass) {
        ASSERT_GPA(GPA_STATUS_OK, GPA_BeginPass());
        for (gpa_uint32 s : {1000u, 7u, 0xFFFFFFFFu}) {
            EXPECT_GPA(GPA_STATUS_OK, GPA_BeginSample(s));
            EXPECT_GPA(GPA_STATUS_OK, GPA_EndSample());
        }
        EXPECT_GPA(GPA_STATUS_ERROR_FAILED, GPA_BeginSample(7));            // small ids: kept in a vector
        EXPECT_GPA(GPA_STATUS_ERROR_FAILED, GPA_BeginSample(0xFFFFFFFFu));  // large ones: in a map
        ASSERT_GPA(GPA_STATUS_OK, GPA_EndPass());
    }
    ASSERT_GPA(GPA_STATUS_OK, GPA_EndSession());
    gpa_uint32 samples = 0;
    EXPECT_GPA(GPA_STATUS_OK, GPA_GetSampleCount(session_, &samples));
    EXPECT_EQ(samples, 3u);
    double busy = 0;
    EXPECT_GPA(GPA_STATUS_OK, GPA_GetSampleFloat64(session_, 0xFFFFFFFFu, Index("Busy"), &busy));
    EXPECT_DOUBLE_EQ(busy, 100.0 * Hw(kBusy, 0xFFFFFFFFu) / Hw(kCycles, 0xFFFFFFFFu));
    // Ids between and beyond the recorded ones were never samples.
    for (gpa_uint32 never : {8u, 999u, 70000u}) {
        EXPECT_GPA(GPA_STATUS_ERROR_SAMPLE_NOT_FOUND, GPA_GetSampleFloat64(session_, never, Index("Busy"), &busy));
    }
}

// ---- GPA_EndSample -----------------------------------------------------------------------------------------

TEST_F(SessionState, EndSampleOk) {
    BeginSession();
    ASSERT_GPA(GPA_STATUS_OK, GPA_BeginPass());
    ASSERT_GPA(GPA_STATUS_OK, GPA_BeginSample(0));
    EXPECT_GPA(GPA_STATUS_OK, GPA_EndSample());
}

TEST_F(SessionState, EndSampleWithoutContextIsNotOpen) {
    EXPECT_GPA(GPA_STATUS_ERROR_COUNTERS_NOT_OPEN, GPA_EndSample());
}

TEST_F(SessionState, EndSampleWithoutSampleIsSampleNotStarted) {
    Open();
    Enable("Waves");
    EXPECT_GPA(GPA_STATUS_ERROR_SAMPLE_NOT_STARTED, GPA_EndSample());  // no session
    gpa_uint32 id = 0;
    ASSERT_GPA(GPA_STATUS_OK, GPA_BeginSession(&id));
    EXPECT_GPA(GPA_STATUS_ERROR_SAMPLE_NOT_STARTED, GPA_EndSample());  // no pass
    ASSERT_GPA(GPA_STATUS_OK, GPA_BeginPass());
    EXPECT_GPA(GPA_STATUS_ERROR_SAMPLE_NOT_STARTED, GPA_EndSample());  // no sample
    ASSERT_GPA(GPA_STATUS_OK, GPA_BeginSample(0));
    ASSERT_GPA(GPA_STATUS_OK, GPA_EndSample());
    EXPECT_GPA(GPA_STATUS_ERROR_SAMPLE_NOT_STARTED, GPA_EndSample());  // already ended
}

TEST_F(SessionState, EndSampleFailsWhenTheBackendCannotEndIt) {
    BeginSession();
    ASSERT_GPA(GPA_STATUS_OK, GPA_BeginPass());
    ASSERT_GPA(GPA_STATUS_OK, GPA_BeginSample(0));
    Config().failEndSample = true;
    EXPECT_GPA(GPA_STATUS_ERROR_FAILED, GPA_EndSample());
    Config().failEndSample = false;
    // The sample is closed either way, so the pass and session can still end.
    EXPECT_GPA(GPA_STATUS_OK, GPA_EndPass());
    EXPECT_GPA(GPA_STATUS_OK, GPA_EndSession());
}

}  // namespace
}  // namespace gpa_test
