// Programs that call exit() with GPA's context still open, as programs that abort or forget their clean-up do: every
// counter enabled (on NVIDIA the sampled ones, so PM sampling is running), then exit(0) after the session's command
// buffers were submitted, in the middle of a sample, and after reading results. The process must exit with 0, not
// crash in the library's, the layer's or the driver's exit handlers. Each case runs in a fresh process (a
// "threadsafe" death test re-runs this program).
#include <cstdlib>

#include "../exit_test_support.h"

#include "vulkan_backend_fixture.h"

namespace ogpa::vktest {
namespace {

class ExitWithOpenContext : public VulkanBackendTest {
protected:
    void SetUp() override {
        GTEST_FLAG_SET(death_test_style, "threadsafe");
        backend_tests::TurnOffLeakCheckInChildren();
        Open(EnvOptions{}, false);
    }

    // GPA_OpenContext with the hardware counters and every counter enabled; the number of counters.
    gpa_uint32 OpenWithEveryCounter() {
        EXPECT_GPA_OK(GPA_OpenContext(&info_, GPA_OPENCONTEXT_ENABLE_HARDWARE_COUNTERS_BIT));
        EXPECT_GPA_OK(GPA_EnableAllCounters());
        gpa_uint32 count = 0;
        EXPECT_GPA_OK(GPA_GetNumCounters(&count));
        return count;
    }
    void Draw(VkCommandBuffer cb) { work().DrawFullscreen(cb); }
};

TEST_F(ExitWithOpenContext, AfterASessionWhoseResultsWereNotRead) {
    EXPECT_EXIT(
        {
            OpenWithEveryCounter();
            RecordSession({0, 1}, true, [&](VkCommandBuffer cb, gpa_uint32) { Draw(cb); });
            std::exit(0);
        },
        ::testing::ExitedWithCode(0), "");
}

TEST_F(ExitWithOpenContext, InsideASample) {
    EXPECT_EXIT(
        {
            OpenWithEveryCounter();
            gpa_uint32 session = 0;
            if (GPA_BeginSession(&session) != GPA_STATUS_OK || GPA_BeginPass() != GPA_STATUS_OK) std::exit(2);
            VkCommandBuffer cb = env().Begin();
            if (OGPA_SetCommandList(cb) != GPA_STATUS_OK) std::exit(2);
            work().BeginRenderPass(cb);
            if (GPA_BeginSample(0) != GPA_STATUS_OK) std::exit(2);
            Draw(cb);
            std::exit(0);
        },
        ::testing::ExitedWithCode(0), "");
}

TEST_F(ExitWithOpenContext, AfterReadingResults) {
    EXPECT_EXIT(
        {
            const gpa_uint32 counters = OpenWithEveryCounter();
            const gpa_uint32 session = RecordSession({0}, true, [&](VkCommandBuffer cb, gpa_uint32) { Draw(cb); });
            bool ready = false;
            if (GPA_IsSessionReady(&ready, session) != GPA_STATUS_OK) std::exit(2);
            backend_tests::ReadEveryCounter(session, 0, counters);
            std::exit(0);
        },
        ::testing::ExitedWithCode(0), "");
}

}  // namespace
}  // namespace ogpa::vktest
