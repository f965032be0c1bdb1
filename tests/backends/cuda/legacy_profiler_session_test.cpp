// The older Profiler API's sessions (src/backends/cuda/legacy_profiler_session.h) where no GPU is needed: the
// loader finds them all or none, and a library without them is named, not crashed into. Their behaviour on a
// device is tested by tests/gpu/cuda/range_profiler_test.cu.
#include <gtest/gtest.h>

#include "backends/cuda/legacy_profiler_session.h"
#include "cuda_test_support.h"

namespace gpa::cuda {
namespace {

TEST(LegacyProfilerSession, TheLoaderMarksTheSessionsUsableOnlyWhenEveryFunctionIsThere) {
    OPENGPA_REQUIRE_CUPTI(api);
    bool every = true;
#define OPENGPA_CHECK_PRESENT(name) every = every && api->name != nullptr;
    OPENGPA_CUPTI_LEGACY_PROFILER_FUNCTIONS(OPENGPA_CHECK_PRESENT)
#undef OPENGPA_CHECK_PRESENT
    EXPECT_EQ(api->legacyProfiler, every);
    std::printf("CUPTI %u at %s: Profiler API sessions %s\n", api->version, api->path.c_str(),
                api->legacyProfiler ? "present" : "absent");
}

TEST(LegacyProfilerSession, BeginOnACuptiWithoutSessionsSaysSoAndWhichLibrary) {
    OPENGPA_REQUIRE_CUPTI(api);
    CuptiApi without = *api;
    without.legacyProfiler = false;
    without.cuptiProfilerBeginSession = nullptr;
    std::vector<uint8_t> image(64, 0);
    std::unique_ptr<LegacyProfilerSession> session;
    const Outcome begun = LegacyProfilerSession::Begin(without, nullptr, {}, &image, CUPTI_AutoRange, CUPTI_UserReplay,
                                                       1, &session);
    ASSERT_FALSE(begun.ok());
    EXPECT_EQ(begun.status(), GPA_STATUS_ERROR_HARDWARE_NOT_SUPPORTED);
    EXPECT_NE(begun.reason().find("no Profiler API sessions"), std::string::npos) << begun.reason();
    EXPECT_NE(begun.reason().find(api->path), std::string::npos) << begun.reason();
    EXPECT_EQ(session, nullptr);
}

}  // namespace
}  // namespace gpa::cuda
