// The drivers' own counters on the real GL device, through libGPUPerfAPIGL.so: llvmpipe (CI) lists neither
// GL_AMD_performance_monitor nor GL_INTEL_performance_query, so a context opened with the hardware-counters bit offers
// no AMD_perfmon./INTEL_perfquery. counters, logs why, and records a session without calling the extensions (which
// crash on llvmpipe where called unlisted).
#include <string>
#include <vector>

#include "gl_backend_fixture.h"

namespace ogpa::gltest {
namespace {

std::vector<std::string> logged;
void Keep(GPA_Logging_Type, const char* message) { logged.emplace_back(message); }

using DriverCountersOnDevice = GlBackendTest;

TEST_F(DriverCountersOnDevice, NoneWhereTheDriverListsNeitherExtension) {
    const std::string renderer = env().Renderer();
    ASSERT_GPA_OK(GPA_CloseContext());
    logged.clear();
    ASSERT_GPA_OK(GPA_RegisterLoggingCallback(GPA_LOGGING_MESSAGE, Keep));
    ASSERT_GPA_OK(GPA_OpenContext(env().context(), GPA_OPENCONTEXT_ENABLE_HARDWARE_COUNTERS_BIT));
    gpa_uint32 count = 0, driverCounters = 0;
    ASSERT_GPA_OK(GPA_GetNumCounters(&count));
    for (gpa_uint32 i = 0; i < count; ++i) {
        const char* name = nullptr;
        ASSERT_GPA_OK(GPA_GetCounterName(i, &name));
        const std::string text = name;
        driverCounters += text.rfind("AMD_perfmon.", 0) == 0 || text.rfind("INTEL_perfquery.", 0) == 0;
    }
    std::string reason;
    for (const std::string& message : logged) {
        if (message.find("AMD_perfmon., INTEL_perfquery.") != std::string::npos) reason = message;
    }
    GPA_RegisterLoggingCallback(GPA_LOGGING_NONE, Keep);
    if (env().IsLlvmpipe() || renderer.find("NVIDIA") != std::string::npos) {
        EXPECT_EQ(driverCounters, 0u) << renderer;
        EXPECT_NE(reason.find("the context does not list GL_AMD_performance_monitor"), std::string::npos) << reason;
        EXPECT_NE(reason.find("does not list GL_INTEL_performance_query"), std::string::npos) << reason;
    }
    std::printf("[ driver counters ] %u on %s: %s\n", driverCounters, renderer.c_str(), reason.c_str());
    // A session with the hardware counters of the context records and reads as usual.
    ASSERT_GPA_OK(GPA_EnableCounterStr("GPUTime"));
    const gpa_uint32 session = RecordSession({0}, [&](gpa_uint32) { env().DrawFullScreen(); });
    EXPECT_GT(Float64(session, 0, "GPUTime"), 0.0);
}

}  // namespace
}  // namespace ogpa::gltest
