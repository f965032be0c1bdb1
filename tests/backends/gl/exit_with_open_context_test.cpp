// Programs that call exit() with GPA's context still open, as programs that abort or forget their clean-up do: every
// counter enabled (on NVIDIA the sampled ones, so PM sampling is running), then exit(0) after the session, in the
// middle of a sample, and after reading results. The process must exit with 0, not crash in the library's or the
// driver's exit handlers. Each case runs in a fresh process (a "threadsafe" death test re-runs this program).
#include <cstdlib>

#include "../exit_test_support.h"

#include "gl_backend_fixture.h"

namespace ogpa::gltest {
namespace {

class ExitWithOpenContext : public GlBackendTest {
protected:
    void SetUp() override {
        GTEST_FLAG_SET(death_test_style, "threadsafe");
        backend_tests::TurnOffLeakCheckInChildren();
        Open(false);
    }

    // GPA_OpenContext with the hardware counters and every counter enabled; the number of counters.
    gpa_uint32 OpenWithEveryCounter() {
        EXPECT_GPA_OK(GPA_OpenContext(env().context(), GPA_OPENCONTEXT_ENABLE_HARDWARE_COUNTERS_BIT));
        EXPECT_GPA_OK(GPA_EnableAllCounters());
        gpa_uint32 count = 0;
        EXPECT_GPA_OK(GPA_GetNumCounters(&count));
        return count;
    }
};

TEST_F(ExitWithOpenContext, AfterASessionWhoseResultsWereNotRead) {
    EXPECT_EXIT(
        {
            OpenWithEveryCounter();
            RecordSession({0, 1}, [&](gpa_uint32) { env().DrawFullScreen(); });
            std::exit(0);
        },
        ::testing::ExitedWithCode(0), "");
}

TEST_F(ExitWithOpenContext, InsideASample) {
    EXPECT_EXIT(
        {
            OpenWithEveryCounter();
            gpa_uint32 session = 0;
            if (GPA_BeginSession(&session) != GPA_STATUS_OK || GPA_BeginPass() != GPA_STATUS_OK ||
                GPA_BeginSample(0) != GPA_STATUS_OK) {
                std::exit(2);
            }
            env().DrawFullScreen();
            std::exit(0);
        },
        ::testing::ExitedWithCode(0), "");
}

TEST_F(ExitWithOpenContext, AfterReadingResults) {
    EXPECT_EXIT(
        {
            const gpa_uint32 counters = OpenWithEveryCounter();
            const gpa_uint32 session = RecordSession({0}, [&](gpa_uint32) { env().DrawFullScreen(); });
            bool ready = false;
            if (GPA_IsSessionReady(&ready, session) != GPA_STATUS_OK) std::exit(2);
            backend_tests::ReadEveryCounter(session, 0, counters);
            std::exit(0);
        },
        ::testing::ExitedWithCode(0), "");
}

}  // namespace
}  // namespace ogpa::gltest
