// OPENGPA_SESSION_BUFFER_SIZE sets how many finished sessions a context keeps. The runtime reads it once
// per process, so CTest runs each test here in its own process with the variable set (see CMakeLists.txt);
// run by hand without it, they skip.
#include <cstdlib>
#include <string>

#include "gpa_test_fixture.h"

namespace gpa_test {
namespace {

class EnvSessionBuffer : public GpaTest {
protected:
    void SetUp() override {
        GpaTest::SetUp();
        const char* value = std::getenv("OPENGPA_SESSION_BUFFER_SIZE");
        if (value == nullptr) GTEST_SKIP() << "OPENGPA_SESSION_BUFFER_SIZE is not set; CTest sets it for this test";
        value_ = value;
    }
    void TearDown() override {
        // No OGPA_SetSessionBufferSize here: it would override the environment for the next test.
        gpa::testing::Config().resultsReleased = true;
        GPA_Destroy();
        GPA_RegisterLoggingCallback(GPA_LOGGING_NONE, nullptr);
        gpa::testing::ResetConfig();
        watchdog_.reset();
    }
    // Records `sessions` sessions and returns how many of them are still available.
    gpa_uint32 KeptOf(gpa_uint32 sessions) {
        Open();
        Enable("Waves");
        for (gpa_uint32 i = 0; i < sessions; ++i) Record();
        gpa_uint32 kept = 0;
        for (gpa_uint32 s = 1; s <= sessions; ++s) {
            bool ready = false;
            kept += GPA_IsSessionReady(&ready, s) == GPA_STATUS_OK ? 1 : 0;
        }
        return kept;
    }
    std::string value_;
};

TEST_F(EnvSessionBuffer, ValidValueSetsTheRingSize) {
    if (value_ != "6") GTEST_SKIP() << "runs with OPENGPA_SESSION_BUFFER_SIZE=6";
    EXPECT_EQ(KeptOf(9), 6u);
    bool ready = false;
    EXPECT_GPA(GPA_STATUS_ERROR_SESSION_NOT_FOUND, GPA_IsSessionReady(&ready, 3));
    EXPECT_GPA(GPA_STATUS_OK, GPA_IsSessionReady(&ready, 4));
}

TEST_F(EnvSessionBuffer, SetSessionBufferSizeOverridesTheEnvironment) {
    if (value_ != "6") GTEST_SKIP() << "runs with OPENGPA_SESSION_BUFFER_SIZE=6";
    EXPECT_GPA(GPA_STATUS_OK, OGPA_SetSessionBufferSize(5));
    EXPECT_EQ(KeptOf(9), 5u);
}

// Records the message, then calls GPA from inside the callback, as an application may.
void LogAndCallGpa(GPA_Logging_Type type, const char* message) {
    LogCapture::Callback(type, message);
    thread_local bool inside = false;  // the call below fails (no context) and is logged too
    if (inside) return;
    inside = true;
    gpa_uint32 count = 0;
    GPA_GetNumCounters(&count);
    inside = false;
}

TEST_F(EnvSessionBuffer, InvalidValueKeepsFourAndIsReported) {
    if (value_ == "6") GTEST_SKIP() << "runs with an invalid OPENGPA_SESSION_BUFFER_SIZE";
    // Registered before the runtime exists: the report must not come while the runtime is being built.
    ASSERT_GPA(GPA_STATUS_OK, GPA_RegisterLoggingCallback(GPA_LOGGING_ERROR, LogAndCallGpa));
    EXPECT_EQ(KeptOf(9), 4u);
    EXPECT_EQ(LogCapture::Count(GPA_LOGGING_ERROR, "OPENGPA_SESSION_BUFFER_SIZE='" + value_ + "'"), 1u);
}

}  // namespace
}  // namespace gpa_test
