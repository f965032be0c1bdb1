// A TEST HOOK, off unless OPENGPA_VK_PM_SAMPLING_FAKE=1 (or =holes: every fourth sample missing, the next one marked
// dropped-before, for the refused windows' path): PM samples made up from CLOCK_MONOTONIC, so that the
// PM-sampling block's whole path in the layer (timestamps, calibration, windows, results, traces) runs in CI on
// lavapipe, which has no PM sampling. Never used otherwise; the block's events then say "(test source)" in their
// category, so nobody can take its values for measurements.
//
// The samples: every 100 us on multiples of the interval from the hook's start; a count metric (.sum) counts
// (its index in GraphicsMetrics() + 1) per ns, a rate (..._elapsed) reads 25 + its index. So a window of T ns
// integrates to (index + 1) x T for counts and exactly 25 + index for rates.
#pragma once

#include <memory>

namespace gpa::pm_sampling {
class DeviceSampling;
}

namespace ogpa::vklayer {

inline constexpr const char* kPmFakeVariable = "OPENGPA_VK_PM_SAMPLING_FAKE";

// The made-up sampling (one per process), or null when the variable is not set to 1 or holes.
std::shared_ptr<gpa::pm_sampling::DeviceSampling> PmTestSource();

}  // namespace ogpa::vklayer
