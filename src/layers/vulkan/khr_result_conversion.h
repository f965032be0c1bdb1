// The 64-bit value a cumulative sample reports for a VK_KHR_performance_query counter. The driver writes a
// VkPerformanceCounterResultKHR (a union of int32, int64, uint32, uint64, float32 and float64) in the
// counter's storage; the extension's results are one 64-bit word per counter. The word holds the value widened
// without loss: signed integers as a two's complement int64, unsigned ones as a uint64, floating-point ones as
// the bits of an IEEE 754 double (a float32 converted to double first).
#pragma once

#include <vulkan/vulkan.h>

#include <bit>
#include <cstdint>
#include <cstring>

namespace ogpa::vklayer {

static_assert(sizeof(VkPerformanceCounterResultKHR) == sizeof(uint64_t), "one 64-bit word per counter result");

inline uint64_t WidenKhrResult(const VkPerformanceCounterResultKHR& result, VkPerformanceCounterStorageKHR storage) {
    switch (storage) {
        case VK_PERFORMANCE_COUNTER_STORAGE_INT32_KHR: return static_cast<uint64_t>(static_cast<int64_t>(result.int32));
        case VK_PERFORMANCE_COUNTER_STORAGE_INT64_KHR: return static_cast<uint64_t>(result.int64);
        case VK_PERFORMANCE_COUNTER_STORAGE_UINT32_KHR: return result.uint32;
        case VK_PERFORMANCE_COUNTER_STORAGE_UINT64_KHR: return result.uint64;
        case VK_PERFORMANCE_COUNTER_STORAGE_FLOAT32_KHR: return std::bit_cast<uint64_t>(static_cast<double>(result.float32));
        case VK_PERFORMANCE_COUNTER_STORAGE_FLOAT64_KHR: return std::bit_cast<uint64_t>(result.float64);
        default: return result.uint64;  // a storage newer than this layer: passed on as the driver wrote it
    }
}

// The same from the raw word the driver wrote (as vkGetQueryPoolResults returns it into 64-bit words).
inline uint64_t WidenKhrResult(uint64_t rawWord, VkPerformanceCounterStorageKHR storage) {
    VkPerformanceCounterResultKHR result;
    std::memcpy(&result, &rawWord, sizeof(result));
    return WidenKhrResult(result, storage);
}

}  // namespace ogpa::vklayer
