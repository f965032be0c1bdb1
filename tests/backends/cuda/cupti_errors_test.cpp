// CUPTI errors users can act on are explained with the fix (the GPU machine runs as root, so the privilege
// path cannot be reached there; the message is checked here).
#include <gtest/gtest.h>

#include "cuda_test_support.h"

namespace gpa::cuda {
namespace {

TEST(CuptiErrors, InsufficientPrivilegesNameTheFixAndMeanHardwareNotSupported) {
    OPENGPA_REQUIRE_CUPTI(api);
    for (CUptiResult result : {CUPTI_ERROR_INSUFFICIENT_PRIVILEGES, CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES}) {
        const Outcome outcome = api->Failure("cuptiRangeProfilerEnable", result);
        EXPECT_EQ(outcome.status(), GPA_STATUS_ERROR_HARDWARE_NOT_SUPPORTED);
        for (const char* text : {"ERR_NVGPUCTRPERM", "NVreg_RestrictProfilingToAdminUsers=0", "root",
                                 "https://developer.nvidia.com/ERR_NVGPUCTRPERM", "cuptiRangeProfilerEnable"}) {
            EXPECT_NE(outcome.reason().find(text), std::string::npos) << text << " missing from: " << outcome.reason();
        }
    }
}

TEST(CuptiErrors, OtherErrorsKeepTheStatusAskedForAndSayWhatCuptiSaid) {
    OPENGPA_REQUIRE_CUPTI(api);
    const Outcome outcome = api->Failure("cuptiRangeProfilerStart", CUPTI_ERROR_HARDWARE_BUSY);
    EXPECT_EQ(outcome.status(), GPA_STATUS_ERROR_FAILED);
    EXPECT_NE(outcome.reason().find("CUPTI_ERROR_HARDWARE_BUSY"), std::string::npos) << outcome.reason();
    EXPECT_NE(api->Describe(CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED).find("one tool at a time"), std::string::npos);
}

}  // namespace
}  // namespace gpa::cuda
