// GPA_RegisterLoggingCallback (statuses, type masks, the registration message, no trailing newline),
// errors logged with their reason, trace messages, and OGPA_GetLastErrorMessage.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <future>
#include <iterator>
#include <string>
#include <thread>

#include "gpa_test_fixture.h"

namespace gpa_test {
namespace {

class Logging : public GpaTest {};

constexpr const char* kRegistered = "Logging callback registered successfully.";

// ---- GPA_RegisterLoggingCallback ---------------------------------------------------------------------------

TEST_F(Logging, RegisterOkAnnouncesItselfAsAMessage) {
    EXPECT_GPA(GPA_STATUS_OK, GPA_RegisterLoggingCallback(GPA_LOGGING_MESSAGE, LogCapture::Callback));
    const auto log = LogCapture::Snapshot();
    ASSERT_EQ(log.size(), 1u);
    EXPECT_EQ(log[0].type, GPA_LOGGING_MESSAGE);
    EXPECT_EQ(log[0].text, kRegistered);
}

TEST_F(Logging, RegisterNullCallbackIsNullPointerAndKeepsThePreviousOne) {
    ASSERT_GPA(GPA_STATUS_OK, GPA_RegisterLoggingCallback(GPA_LOGGING_ERROR, LogCapture::Callback));
    EXPECT_GPA(GPA_STATUS_ERROR_NULL_POINTER, GPA_RegisterLoggingCallback(GPA_LOGGING_ERROR, nullptr));
    EXPECT_GPA(GPA_STATUS_ERROR_NULL_POINTER, GPA_RegisterLoggingCallback(GPA_LOGGING_ALL, nullptr));
    // The error itself reached the callback that is still registered.
    EXPECT_EQ(LogCapture::Count(GPA_LOGGING_ERROR, "GPA_RegisterLoggingCallback failed with GPA_STATUS_ERROR_NULL_POINTER"),
              2u);
}

TEST_F(Logging, RegisterNoneWithNullCallbackIsOkAndStopsLogging) {
    ASSERT_GPA(GPA_STATUS_OK, GPA_RegisterLoggingCallback(GPA_LOGGING_ALL, LogCapture::Callback));
    EXPECT_GPA(GPA_STATUS_OK, GPA_RegisterLoggingCallback(GPA_LOGGING_NONE, nullptr));
    LogCapture::Clear();
    EXPECT_GPA(GPA_STATUS_ERROR_FAILED, GPA_Destroy());
    EXPECT_GPA(GPA_STATUS_OK, GPA_Initialize());
    EXPECT_TRUE(LogCapture::Snapshot().empty());
}

TEST_F(Logging, RegisterNoneWithACallbackReceivesNothing) {
    EXPECT_GPA(GPA_STATUS_OK, GPA_RegisterLoggingCallback(GPA_LOGGING_NONE, LogCapture::Callback));
    EXPECT_GPA(GPA_STATUS_ERROR_FAILED, GPA_Destroy());
    EXPECT_TRUE(LogCapture::Snapshot().empty());
}

// ---- one mask per message type -----------------------------------------------------------------------------

// Causes one error, one message (an omitted counter when the context opens) and traces.
void MakeSomeNoise(int* queue) {
    GPA_Destroy();  // error: not initialized
    GPA_Initialize();
    GPA_OpenContext(queue, GPA_OPENCONTEXT_DEFAULT_BIT);  // message: counter Missing is not exposed
}

TEST_F(Logging, ErrorMaskReceivesOnlyErrors) {
    ASSERT_GPA(GPA_STATUS_OK, GPA_RegisterLoggingCallback(GPA_LOGGING_ERROR, LogCapture::Callback));
    MakeSomeNoise(&queueA_);
    const auto log = LogCapture::Snapshot();
    ASSERT_EQ(log.size(), 1u);
    EXPECT_EQ(log[0].type, GPA_LOGGING_ERROR);
    EXPECT_EQ(log[0].text, "GPA_Destroy failed with GPA_STATUS_ERROR_FAILED: GPA is not initialized; call GPA_Initialize first");
}

TEST_F(Logging, MessageMaskReceivesOnlyMessages) {
    ASSERT_GPA(GPA_STATUS_OK, GPA_RegisterLoggingCallback(GPA_LOGGING_MESSAGE, LogCapture::Callback));
    MakeSomeNoise(&queueA_);
    const auto log = LogCapture::Snapshot();
    ASSERT_EQ(log.size(), 2u);
    EXPECT_EQ(log[0].text, kRegistered);
    EXPECT_EQ(log[1].type, GPA_LOGGING_MESSAGE);
    EXPECT_EQ(log[1].text.rfind("counter Missing is not exposed: ", 0), 0u) << log[1].text;
}

TEST_F(Logging, TraceMaskReceivesEveryCallWithItsArgumentsAndStatus) {
    ASSERT_GPA(GPA_STATUS_OK, GPA_RegisterLoggingCallback(GPA_LOGGING_TRACE, LogCapture::Callback));
    MakeSomeNoise(&queueA_);
    GPA_EnableCounter(3);
    GPA_EnableCounterStr("Busy");
    GPA_EnableCounterStr(nullptr);
    const auto log = LogCapture::Snapshot();
    ASSERT_EQ(log.size(), 7u);
    for (const LogEntry& e : log) EXPECT_EQ(e.type, GPA_LOGGING_TRACE) << e.text;
    EXPECT_EQ(log[0].text.rfind("GPA_RegisterLoggingCallback(4, ", 0), 0u) << log[0].text;
    EXPECT_EQ(log[1].text, "GPA_Destroy() = GPA_STATUS_ERROR_FAILED");
    EXPECT_EQ(log[2].text, "GPA_Initialize() = GPA_STATUS_OK");
    EXPECT_EQ(log[3].text.rfind("GPA_OpenContext(0x", 0), 0u) << log[3].text;
    EXPECT_NE(log[3].text.find(", 0) = GPA_STATUS_OK"), std::string::npos) << log[3].text;
    EXPECT_EQ(log[4].text, "GPA_EnableCounter(3) = GPA_STATUS_OK");
    EXPECT_EQ(log[5].text, "GPA_EnableCounterStr(\"Busy\") = GPA_STATUS_OK");
    EXPECT_EQ(log[6].text, "GPA_EnableCounterStr(NULL) = GPA_STATUS_ERROR_NULL_POINTER");
}

TEST_F(Logging, CombinedMasksReceiveEachOfTheirTypes) {
    ASSERT_GPA(GPA_STATUS_OK, GPA_RegisterLoggingCallback(GPA_LOGGING_ERROR_AND_MESSAGE, LogCapture::Callback));
    MakeSomeNoise(&queueA_);
    EXPECT_EQ(LogCapture::Snapshot().size(), 3u);
    EXPECT_EQ(LogCapture::Count(GPA_LOGGING_ERROR, "GPA_Destroy"), 1u);
    EXPECT_EQ(LogCapture::Count(GPA_LOGGING_MESSAGE, "Missing"), 1u);
    GPA_Destroy();

    LogCapture::Clear();
    ASSERT_GPA(GPA_STATUS_OK, GPA_RegisterLoggingCallback(GPA_LOGGING_ERROR_AND_TRACE, LogCapture::Callback));
    MakeSomeNoise(&queueA_);
    EXPECT_EQ(LogCapture::Count(GPA_LOGGING_ERROR, ""), 1u);
    EXPECT_EQ(LogCapture::Count(GPA_LOGGING_MESSAGE, ""), 0u);
    EXPECT_EQ(LogCapture::Count(GPA_LOGGING_TRACE, ""), 4u);
    GPA_Destroy();

    LogCapture::Clear();
    ASSERT_GPA(GPA_STATUS_OK, GPA_RegisterLoggingCallback(GPA_LOGGING_ALL, LogCapture::Callback));
    MakeSomeNoise(&queueA_);
    EXPECT_EQ(LogCapture::Count(GPA_LOGGING_ERROR, ""), 1u);
    EXPECT_EQ(LogCapture::Count(GPA_LOGGING_MESSAGE, ""), 2u);  // registration + Missing
    EXPECT_EQ(LogCapture::Count(GPA_LOGGING_TRACE, ""), 4u);
}

TEST_F(Logging, MessagesNeverEndWithANewline) {
    ASSERT_GPA(GPA_STATUS_OK, GPA_RegisterLoggingCallback(GPA_LOGGING_ALL, LogCapture::Callback));
    MakeSomeNoise(&queueA_);
    GPA_EnableAllCounters();
    gpa_uint32 session = 0;
    GPA_BeginSession(&session);
    GPA_EndSession();
    GPA_GetSampleCount(99, nullptr);
    const auto log = LogCapture::Snapshot();
    ASSERT_GT(log.size(), 8u);
    for (const LogEntry& e : log) {
        ASSERT_FALSE(e.text.empty());
        EXPECT_NE(e.text.back(), '\n') << e.text;
        EXPECT_NE(e.text.back(), '\r') << e.text;
    }
}

// ---- every error status is logged with its reason ----------------------------------------------------------

TEST_F(Logging, EveryErrorIsLoggedWithItsReasonAndMatchesTheLastErrorMessage) {
    ASSERT_GPA(GPA_STATUS_OK, GPA_RegisterLoggingCallback(GPA_LOGGING_ERROR, LogCapture::Callback));
    Open();
    gpa_uint32 value = 0;
    const char* text = nullptr;
    struct Case {
        GPA_Status status;
        GPA_Status expected;
        const char* function;
    };
    const Case cases[] = {
        {GPA_GetNumCounters(nullptr), GPA_STATUS_ERROR_NULL_POINTER, "GPA_GetNumCounters"},
        {GPA_GetCounterName(99, &text), GPA_STATUS_ERROR_NOT_FOUND, "GPA_GetCounterName"},
        {GPA_GetCounterCategory(99, &text), GPA_STATUS_ERROR_INDEX_OUT_OF_RANGE, "GPA_GetCounterCategory"},
        {GPA_OpenContext(&queueA_, 0), GPA_STATUS_ERROR_COUNTERS_ALREADY_OPEN, "GPA_OpenContext"},
        {GPA_DisableCounter(0), GPA_STATUS_ERROR_NOT_ENABLED, "GPA_DisableCounter"},
        {GPA_BeginSession(&value), GPA_STATUS_ERROR_NO_COUNTERS_ENABLED, "GPA_BeginSession"},
        {GPA_EndPass(), GPA_STATUS_ERROR_PASS_NOT_STARTED, "GPA_EndPass"},
        {GPA_GetSampleCount(5, &value), GPA_STATUS_ERROR_SESSION_NOT_FOUND, "GPA_GetSampleCount"},
        {GPA_GetDataTypeAsStr(GPA_TYPE__LAST, &text), GPA_STATUS_ERROR_NOT_FOUND, "GPA_GetDataTypeAsStr"},
        {OGPA_SetSessionBufferSize(1), GPA_STATUS_ERROR_INDEX_OUT_OF_RANGE, "OGPA_SetSessionBufferSize"},
    };
    const auto log = LogCapture::Snapshot();
    ASSERT_EQ(log.size(), std::size(cases));
    for (size_t i = 0; i < std::size(cases); ++i) {
        EXPECT_EQ(cases[i].status, cases[i].expected) << cases[i].function;
        EXPECT_EQ(log[i].type, GPA_LOGGING_ERROR);
        const std::string prefix =
            std::string(cases[i].function) + " failed with " + GPA_GetStatusAsStr(cases[i].expected) + ": ";
        EXPECT_EQ(log[i].text.rfind(prefix, 0), 0u) << log[i].text;
        EXPECT_GT(log[i].text.size(), prefix.size() + 10) << "no reason given: " << log[i].text;
    }
    EXPECT_EQ(log.back().text, OGPA_GetLastErrorMessage());
}

TEST_F(Logging, SuccessIsNotLoggedAsAnError) {
    ASSERT_GPA(GPA_STATUS_OK, GPA_RegisterLoggingCallback(GPA_LOGGING_ERROR, LogCapture::Callback));
    Open();
    Enable("Busy");
    Record();
    EXPECT_TRUE(LogCapture::Snapshot().empty());
}

// ---- a callback may call GPA -------------------------------------------------------------------------------

void CallsBackIntoGpa(GPA_Logging_Type type, const char* message) {
    LogCapture::Callback(type, message);
    thread_local bool inside = false;  // the call below is traced too: do not recurse forever
    if (inside) return;
    inside = true;
    gpa_uint32 count = 0;
    GPA_GetNumCounters(&count);  // takes the runtime's lock
    inside = false;
}

TEST_F(Logging, CallbackMayCallGpaForEveryKindOfMessage) {
    ASSERT_GPA(GPA_STATUS_OK, GPA_RegisterLoggingCallback(GPA_LOGGING_ALL, CallsBackIntoGpa));
    std::future<void> done = std::async(std::launch::async, [this] {
        GPA_Destroy();                                            // error
        GPA_Initialize();                                          // trace
        GPA_OpenContext(&queueA_, GPA_OPENCONTEXT_DEFAULT_BIT | 0x100);  // messages while opening
        GPA_OpenContext(&queueB_, GPA_OPENCONTEXT_DEFAULT_BIT);
        GPA_Destroy();                                            // message: closed 2 contexts
    });
    if (done.wait_for(std::chrono::seconds(10)) != std::future_status::ready) {
        std::fprintf(stderr, "deadlock: a logging callback that calls GPA never returned\n");
        std::_Exit(3);
    }
    done.get();
    EXPECT_EQ(LogCapture::Count(GPA_LOGGING_MESSAGE, "counter Missing is not exposed"), 2u);
    EXPECT_EQ(LogCapture::Count(GPA_LOGGING_MESSAGE, "have no effect"), 1u);
    EXPECT_EQ(LogCapture::Count(GPA_LOGGING_MESSAGE, "GPA_Destroy closed 2 context(s)"), 1u);
}

// ---- OGPA_GetLastErrorMessage ------------------------------------------------------------------------------

TEST_F(Logging, LastErrorMessageIsEmptyBeforeAnyError) {
    std::string seen = "not run";
    std::thread([&] { seen = OGPA_GetLastErrorMessage(); }).join();
    EXPECT_EQ(seen, "");
}

TEST_F(Logging, LastErrorMessageExplainsTheLastErrorOfTheCallingThread) {
    EXPECT_GPA(GPA_STATUS_ERROR_COUNTERS_NOT_OPEN, GPA_EnableCounter(0));
    const std::string mine = OGPA_GetLastErrorMessage();
    EXPECT_EQ(mine.rfind("GPA_EnableCounter failed with GPA_STATUS_ERROR_COUNTERS_NOT_OPEN: ", 0), 0u) << mine;
    EXPECT_NE(mine.find("GPA_OpenContext"), std::string::npos) << "the reason says what to do: " << mine;
    // Another thread's errors are its own.
    std::string theirs;
    std::thread([&] {
        GPA_GetDeviceID(nullptr);
        theirs = OGPA_GetLastErrorMessage();
    }).join();
    EXPECT_EQ(theirs.rfind("GPA_GetDeviceID failed with GPA_STATUS_ERROR_COUNTERS_NOT_OPEN", 0), 0u) << theirs;
    EXPECT_EQ(std::string(OGPA_GetLastErrorMessage()), mine);
}

TEST_F(Logging, LastErrorMessageOutlivesLaterSuccessfulCalls) {
    // OGPA_GetLastErrorMessage: "the reason for the last status other than GPA_STATUS_OK returned to the
    // calling thread"; a later success does not erase it.
    Open();
    EXPECT_GPA(GPA_STATUS_ERROR_INDEX_OUT_OF_RANGE, GPA_EnableCounter(99));
    const std::string error = OGPA_GetLastErrorMessage();
    EXPECT_GPA(GPA_STATUS_OK, GPA_EnableCounter(0));
    gpa_uint32 count = 0;
    EXPECT_GPA(GPA_STATUS_OK, GPA_GetNumCounters(&count));
    EXPECT_EQ(std::string(OGPA_GetLastErrorMessage()), error);
    EXPECT_GPA(GPA_STATUS_ERROR_ALREADY_ENABLED, GPA_EnableCounter(0));
    EXPECT_NE(std::string(OGPA_GetLastErrorMessage()), error);
}

}  // namespace
}  // namespace gpa_test
