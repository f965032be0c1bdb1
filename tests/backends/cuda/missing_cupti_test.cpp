// With CUPTI missing, libGPUPerfAPICUDA.so still loads and initializes; GPA_OpenContext says CUPTI is
// missing and how to point OpenGPA at it. Its own executable: CUPTI is looked for once per process.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "GPUPerfAPI.h"

namespace {

TEST(CudaMissingCupti, OpenContextNamesCuptiAndTheFix) {
    setenv("OPENGPA_CUPTI_LIBRARY", "/nonexistent/libcupti.so.13", 1);
    ASSERT_EQ(GPA_Initialize(), GPA_STATUS_OK);
    int notAContext = 0;  // never reached: the libraries are checked before the context
    EXPECT_EQ(GPA_OpenContext(&notAContext, GPA_OPENCONTEXT_DEFAULT_BIT), GPA_STATUS_ERROR_HARDWARE_NOT_SUPPORTED);
    const std::string reason = OGPA_GetLastErrorMessage();
    if (reason.find("AddressSanitizer") != std::string::npos) {
        GPA_Destroy();
        GTEST_SKIP() << "a sanitizer build never looks for CUPTI: " << reason;
    }
    EXPECT_NE(reason.find("CUPTI"), std::string::npos) << reason;
    EXPECT_NE(reason.find("OPENGPA_CUPTI_LIBRARY"), std::string::npos) << reason;
    EXPECT_NE(reason.find("/nonexistent/libcupti.so.13"), std::string::npos) << reason;
    EXPECT_EQ(GPA_Destroy(), GPA_STATUS_OK);
}

}  // namespace
