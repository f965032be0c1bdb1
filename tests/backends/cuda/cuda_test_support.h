// Shared helpers of the CUDA backend's host tests: CUPTI loads on machines without a GPU.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "backends/cuda/cupti_loader.h"

namespace gpa::cuda::testing {

// CUPTI for the test, or null and why not (not installed; a sanitizer build).
inline const CuptiApi* CuptiOrSkip(std::string* why) {
    const CuptiApi* api = nullptr;
    const Outcome outcome = LoadCupti(&api);
    if (!outcome.ok()) *why = outcome.reason();
    return outcome.ok() ? api : nullptr;
}

#define OPENGPA_REQUIRE_CUPTI(api)                                                                   \
    std::string api##WhyNot;                                                                         \
    const ::gpa::cuda::CuptiApi* api = ::gpa::cuda::testing::CuptiOrSkip(&api##WhyNot);             \
    if (api == nullptr) GTEST_SKIP() << "CUPTI is not usable here: " << api##WhyNot;

}  // namespace gpa::cuda::testing
