// Shared by the core's API tests: a fixture that leaves the process-global GPA state destroyed after
// every test, status assertions that also check the error was explained, and a log capture.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "GPUPerfAPI.h"
#include "scripted_backend.h"

namespace gpa_test {

// The reason an error status leaves for OGPA_GetLastErrorMessage names the function and the status:
// "<function> failed with <status>: <reason>".
inline ::testing::AssertionResult StatusIs(const char* expectedText, const char* callText, GPA_Status expected,
                                           GPA_Status actual) {
    const std::string lastError = OGPA_GetLastErrorMessage();
    if (actual != expected) {
        return ::testing::AssertionFailure() << callText << " returned " << GPA_GetStatusAsStr(actual) << ", expected "
                                             << expectedText << " (last error: \"" << lastError << "\")";
    }
    if (expected != GPA_STATUS_OK) {
        // When the call is written out (not through a helper), its function name leads the message.
        const std::string call(callText);
        const bool named = call.rfind("GPA_", 0) == 0 || call.rfind("OGPA_", 0) == 0;
        const std::string status = std::string(" failed with ") + GPA_GetStatusAsStr(expected) + ": ";
        const std::string prefix = named ? call.substr(0, call.find('(')) + status : status;
        const size_t at = named ? (lastError.rfind(prefix, 0) == 0 ? 0 : std::string::npos) : lastError.find(prefix);
        if (at == std::string::npos || lastError.size() <= at + prefix.size()) {
            return ::testing::AssertionFailure() << callText << " returned " << expectedText
                                                 << " but OGPA_GetLastErrorMessage() is \"" << lastError
                                                 << "\"; expected \"" << (named ? "" : "<function>") << prefix
                                                 << "<reason>\"";
        }
    }
    return ::testing::AssertionSuccess();
}

#define EXPECT_GPA(expected, call) EXPECT_PRED_FORMAT2(::gpa_test::StatusIs, expected, call)
#define ASSERT_GPA(expected, call) ASSERT_PRED_FORMAT2(::gpa_test::StatusIs, expected, call)

// Collects what the logging callback receives.
struct LogEntry {
    GPA_Logging_Type type;
    std::string text;
};

class LogCapture {
public:
    static void Callback(GPA_Logging_Type type, const char* message) {
        std::lock_guard<std::mutex> lock(Mutex());
        Entries().push_back({type, message == nullptr ? std::string("<null>") : std::string(message)});
    }
    static std::vector<LogEntry> Snapshot() {
        std::lock_guard<std::mutex> lock(Mutex());
        return Entries();
    }
    static void Clear() {
        std::lock_guard<std::mutex> lock(Mutex());
        Entries().clear();
    }
    // Number of entries of `type` whose text contains `part`.
    static size_t Count(GPA_Logging_Type type, const std::string& part) {
        size_t n = 0;
        for (const LogEntry& e : Snapshot()) n += (e.type == type && e.text.find(part) != std::string::npos) ? 1 : 0;
        return n;
    }

private:
    static std::mutex& Mutex() {
        static std::mutex mutex;
        return mutex;
    }
    static std::vector<LogEntry>& Entries() {
        static std::vector<LogEntry> entries;
        return entries;
    }
};

// Ends the process with a message if a test is still running after `limit`: a GPA call that blocks for
// ever (a deadlock, or a readiness query that waits for results) then fails the test instead of hanging.
class Watchdog {
public:
    explicit Watchdog(std::chrono::seconds limit)
        : thread_([this, limit] {
              std::unique_lock<std::mutex> lock(mutex_);
              if (!done_changed_.wait_for(lock, limit, [this] { return done_; })) {
                  std::fprintf(stderr, "test still running after %lld s: a GPA call never returned\n",
                               static_cast<long long>(limit.count()));
                  std::_Exit(4);
              }
          }) {}
    Watchdog(const Watchdog&) = delete;
    Watchdog& operator=(const Watchdog&) = delete;
    ~Watchdog() {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            done_ = true;
        }
        done_changed_.notify_all();
        thread_.join();
    }

private:
    std::mutex mutex_;
    std::condition_variable done_changed_;
    bool done_ = false;
    std::thread thread_;  // last: starts once the members above exist
};

// Every test starts from a fresh scripted backend and ends with GPA destroyed, logging off and the
// default result ring size, whatever it did (statuses ignored on the way out).
class GpaTest : public ::testing::Test {
protected:
    void SetUp() override {
        watchdog_ = std::make_unique<Watchdog>(std::chrono::seconds(60));
        gpa::testing::ResetConfig();
        GPA_RegisterLoggingCallback(GPA_LOGGING_NONE, nullptr);
        LogCapture::Clear();
    }
    void TearDown() override {
        gpa::testing::Config().resultsReleased = true;
        GPA_Destroy();
        GPA_RegisterLoggingCallback(GPA_LOGGING_NONE, nullptr);
        OGPA_SetSessionBufferSize(4);
        gpa::testing::ResetConfig();
        watchdog_.reset();
    }

    // GPA_Initialize (if needed) and GPA_OpenContext on `handle` (queueA_ by default).
    void Open(GPA_OpenContextFlags flags = GPA_OPENCONTEXT_DEFAULT_BIT, void* handle = nullptr) {
        if (!initialized_) {
            ASSERT_GPA(GPA_STATUS_OK, GPA_Initialize());
            initialized_ = true;
        }
        ASSERT_GPA(GPA_STATUS_OK, GPA_OpenContext(handle != nullptr ? handle : &queueA_, flags));
    }

    // Index of a counter of the current context (fails the test if absent).
    static gpa_uint32 Index(const char* name) {
        gpa_uint32 index = 0xFFFFFFFFu;
        EXPECT_GPA(GPA_STATUS_OK, GPA_GetCounterIndex(name, &index)) << name;
        return index;
    }

    static void Enable(const char* name) { EXPECT_GPA(GPA_STATUS_OK, GPA_EnableCounterStr(name)) << name; }

    // Records a complete session (every pass GPA_GetPassCount asks for) with `samples` in each pass.
    static gpa_uint32 Record(const std::vector<gpa_uint32>& samples = {0, 1}) {
        gpa_uint32 session = 0;
        EXPECT_GPA(GPA_STATUS_OK, GPA_BeginSession(&session));
        gpa_uint32 passes = 0;
        EXPECT_GPA(GPA_STATUS_OK, GPA_GetPassCount(&passes));
        for (gpa_uint32 p = 0; p < passes; ++p) {
            EXPECT_GPA(GPA_STATUS_OK, GPA_BeginPass());
            for (gpa_uint32 sample : samples) {
                EXPECT_GPA(GPA_STATUS_OK, GPA_BeginSample(sample));
                EXPECT_GPA(GPA_STATUS_OK, GPA_EndSample());
            }
            EXPECT_GPA(GPA_STATUS_OK, GPA_EndPass());
        }
        EXPECT_GPA(GPA_STATUS_OK, GPA_EndSession());
        return session;
    }

    static double Hw(uint32_t hw, uint32_t sample) { return gpa::testing::ScriptedValue(hw, sample); }

    // Hardware counter indices of the scripted backend's default configuration.
    static constexpr uint32_t kCycles = 0, kBusy = 1, kBytes = 2, kWaves = 3, kTimeNs = 4;

    std::unique_ptr<Watchdog> watchdog_;
    bool initialized_ = false;
    int queueA_ = 0;  // distinct addresses stand for API objects (command queues)
    int queueB_ = 0;
    int queueC_ = 0;
};

}  // namespace gpa_test
