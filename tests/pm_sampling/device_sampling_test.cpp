// DeviceSampling::ForDevice where it cannot sample (no GPU, or a UUID no CUDA device has): a failure that says
// why, remembered for the next call. The sampling itself runs in the GPU tests (tests/layers/vulkan/gpu).
#include "pm_sampling/device_sampling.h"

#include <gtest/gtest.h>

namespace gpa::pm_sampling {
namespace {

TEST(DeviceSampling, AGpuCudaDoesNotHaveIsRefusedSayingWhyAndRemembered) {
    const std::array<uint8_t, 16> nobody = {0xde, 0xad, 0xbe, 0xef};  // no board has this UUID
    std::shared_ptr<DeviceSampling> sampling;
    const Outcome first = DeviceSampling::ForDevice(nobody, {}, &sampling);
    ASSERT_FALSE(first.ok());
    EXPECT_EQ(sampling, nullptr);
    const std::string& why = first.reason();
    const bool named = why.find("no CUDA driver") != std::string::npos || why.find("CUPTI not found") != std::string::npos ||
                       why.find("no CUDA device with this UUID (GPU-deadbeef-") != std::string::npos ||
                       why.find("has no PM sampling") != std::string::npos;
    EXPECT_TRUE(named) << why;
    const Outcome again = DeviceSampling::ForDevice(nobody, {}, &sampling);
    EXPECT_FALSE(again.ok());
    EXPECT_EQ(again.reason(), why);
}

}  // namespace
}  // namespace gpa::pm_sampling
