// The widening of a VK_KHR_performance_query result (a VkPerformanceCounterResultKHR in the counter's
// storage) to the 64-bit word of a cumulative sample: exact for every storage, signs and fractions kept.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

#include "layers/vulkan/khr_result_conversion.h"

namespace ogpa::vklayer {
namespace {

template <typename Set>
uint64_t Widen(VkPerformanceCounterStorageKHR storage, Set&& set) {
    VkPerformanceCounterResultKHR result;
    result.uint64 = 0xAAAAAAAAAAAAAAAAull;  // the bytes a 32-bit value leaves alone must not leak in
    set(result);
    return WidenKhrResult(result, storage);
}

TEST(KhrResultConversion, SignedIntegersAreSignExtended) {
    EXPECT_EQ(static_cast<int64_t>(Widen(VK_PERFORMANCE_COUNTER_STORAGE_INT32_KHR, [](auto& r) { r.int32 = -5; })), -5);
    EXPECT_EQ(static_cast<int64_t>(Widen(VK_PERFORMANCE_COUNTER_STORAGE_INT32_KHR, [](auto& r) { r.int32 = INT32_MIN; })), INT32_MIN);
    EXPECT_EQ(static_cast<int64_t>(Widen(VK_PERFORMANCE_COUNTER_STORAGE_INT32_KHR, [](auto& r) { r.int32 = 7; })), 7);
    EXPECT_EQ(static_cast<int64_t>(Widen(VK_PERFORMANCE_COUNTER_STORAGE_INT64_KHR, [](auto& r) { r.int64 = INT64_MIN; })), INT64_MIN);
}

TEST(KhrResultConversion, UnsignedIntegersAreZeroExtended) {
    EXPECT_EQ(Widen(VK_PERFORMANCE_COUNTER_STORAGE_UINT32_KHR, [](auto& r) { r.uint32 = UINT32_MAX; }), uint64_t{UINT32_MAX});
    EXPECT_EQ(Widen(VK_PERFORMANCE_COUNTER_STORAGE_UINT64_KHR, [](auto& r) { r.uint64 = UINT64_MAX; }), UINT64_MAX);
}

TEST(KhrResultConversion, FloatsBecomeTheBitsOfADouble) {
    EXPECT_EQ(std::bit_cast<double>(Widen(VK_PERFORMANCE_COUNTER_STORAGE_FLOAT32_KHR, [](auto& r) { r.float32 = 0.1f; })),
              static_cast<double>(0.1f));
    EXPECT_EQ(std::bit_cast<double>(Widen(VK_PERFORMANCE_COUNTER_STORAGE_FLOAT32_KHR, [](auto& r) { r.float32 = -2.5f; })), -2.5);
    EXPECT_EQ(std::bit_cast<double>(Widen(VK_PERFORMANCE_COUNTER_STORAGE_FLOAT64_KHR, [](auto& r) { r.float64 = 1e300; })), 1e300);
    EXPECT_TRUE(std::isnan(std::bit_cast<double>(
        Widen(VK_PERFORMANCE_COUNTER_STORAGE_FLOAT32_KHR, [](auto& r) { r.float32 = std::numeric_limits<float>::quiet_NaN(); }))));
}

TEST(KhrResultConversion, FromTheRawWordTheDriverWrote) {
    VkPerformanceCounterResultKHR result{};
    result.float32 = 4.5f;
    uint64_t word = 0;
    std::memcpy(&word, &result, sizeof(word));
    EXPECT_EQ(std::bit_cast<double>(WidenKhrResult(word, VK_PERFORMANCE_COUNTER_STORAGE_FLOAT32_KHR)), 4.5);
}

}  // namespace
}  // namespace ogpa::vklayer
