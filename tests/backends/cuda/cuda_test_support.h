// Shared helpers of the CUDA backend's host tests: CUPTI loads on machines without a GPU.
#pragma once

#include <gtest/gtest.h>

#include "backends/cuda/cupti_loader.h"

namespace gpa::cuda::testing {

// CUPTI for the test, or a skip with the reason when this machine has none.
inline const CuptiApi* CuptiOrSkip() {
    const CuptiApi* api = nullptr;
    const Outcome outcome = LoadCupti(&api);
    return outcome.ok() ? api : nullptr;
}

#define OPENGPA_REQUIRE_CUPTI(api)                                                                   \
    const ::gpa::cuda::CuptiApi* api = ::gpa::cuda::testing::CuptiOrSkip();                          \
    if (api == nullptr) GTEST_SKIP() << "CUPTI is not installed on this machine (libcupti.so)";

}  // namespace gpa::cuda::testing
