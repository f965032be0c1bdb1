// libGPUPerfAPICUDA.so where there is nothing to profile: it loads, GPA_Initialize works, and
// GPA_OpenContext answers GPA_STATUS_ERROR_HARDWARE_NOT_SUPPORTED with the reason logged.
#include <gtest/gtest.h>

#include <dlfcn.h>

#include <string>
#include <vector>

#include "GPUPerfAPI.h"

namespace {

std::vector<std::string> gErrors;
void Collect(GPA_Logging_Type type, const char* message) {
    if ((type & GPA_LOGGING_ERROR) != 0) gErrors.emplace_back(message);
}

bool DriverPresent() {
    void* driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (driver != nullptr) dlclose(driver);
    return driver != nullptr;
}

TEST(CudaFailureModes, InitializeWorksAndOpenContextExplainsWhyNothingCanBeProfiled) {
    if (DriverPresent()) GTEST_SKIP() << "this machine has the NVIDIA driver; the no-driver path is not reachable here";
    gErrors.clear();
    ASSERT_EQ(GPA_RegisterLoggingCallback(GPA_LOGGING_ERROR, Collect), GPA_STATUS_OK);
    ASSERT_EQ(GPA_Initialize(), GPA_STATUS_OK);
    int notAContext = 0;
    EXPECT_EQ(GPA_OpenContext(&notAContext, GPA_OPENCONTEXT_DEFAULT_BIT), GPA_STATUS_ERROR_HARDWARE_NOT_SUPPORTED);
    const std::string reason = OGPA_GetLastErrorMessage();
    EXPECT_NE(reason.find("libcuda.so.1"), std::string::npos) << reason;
    ASSERT_FALSE(gErrors.empty());
    EXPECT_NE(gErrors.back().find("NVIDIA driver"), std::string::npos) << gErrors.back();
    // Nothing else is affected: the library still answers, and closes down cleanly.
    gpa_uint32 count = 0;
    EXPECT_EQ(GPA_GetNumCounters(&count), GPA_STATUS_ERROR_COUNTERS_NOT_OPEN);
    EXPECT_STREQ(GPA_GetStatusAsStr(GPA_STATUS_ERROR_HARDWARE_NOT_SUPPORTED), "GPA_STATUS_ERROR_HARDWARE_NOT_SUPPORTED");
    EXPECT_EQ(GPA_OpenContext(nullptr, GPA_OPENCONTEXT_DEFAULT_BIT), GPA_STATUS_ERROR_NULL_POINTER);
    EXPECT_EQ(GPA_Destroy(), GPA_STATUS_OK);
    GPA_RegisterLoggingCallback(GPA_LOGGING_NONE, nullptr);
}

}  // namespace
