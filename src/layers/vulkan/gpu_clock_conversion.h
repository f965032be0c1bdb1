// A GPU timestamp (vkCmdWriteTimestamp's ticks) on the CPU's CLOCK_MONOTONIC, the clock of the PM samples
// (pm_sampling/device_sampling.h). One calibration pairs a device tick with a CLOCK_MONOTONIC reading
// (vkGetCalibratedTimestampsKHR/EXT with VK_TIME_DOMAIN_DEVICE and VK_TIME_DOMAIN_CLOCK_MONOTONIC); a timestamp
// is placed by its distance in ticks from the calibration's, times timestampPeriod. Timestamps have
// timestampValidBits bits: the distance is taken modulo 2^bits as a signed number, so a counter that wrapped
// between the two is still placed right (within half its range). Pure arithmetic; tested on the CPU.
#pragma once

#include <cmath>
#include <cstdint>

namespace ogpa::vklayer {

struct GpuClockCalibration {
    uint64_t gpuTicks = 0;        // the device's timestamp at the calibration
    uint64_t monotonicNs = 0;     // CLOCK_MONOTONIC at the same moment
    double periodNs = 1.0;        // VkPhysicalDeviceLimits::timestampPeriod
    uint32_t validBits = 64;      // VkQueueFamilyProperties::timestampValidBits of the queue that wrote the timestamps
    uint64_t maxDeviationNs = 0;  // what the driver says the pairing may be off by
};

// The signed distance from `from` to `to` in ticks of a counter of `validBits` bits.
inline int64_t TickDistance(uint64_t from, uint64_t to, uint32_t validBits) {
    if (validBits == 0 || validBits >= 64) return static_cast<int64_t>(to - from);
    const uint64_t mask = (uint64_t(1) << validBits) - 1;
    const uint64_t forward = (to - from) & mask;
    const uint64_t half = uint64_t(1) << (validBits - 1);
    return forward >= half ? -static_cast<int64_t>((mask - forward) + 1) : static_cast<int64_t>(forward);
}

// `ticks` on CLOCK_MONOTONIC, in ns (0 where it would fall before the clock's start).
inline uint64_t GpuTicksToMonotonicNs(uint64_t ticks, const GpuClockCalibration& calibration) {
    const double offsetNs = double(TickDistance(calibration.gpuTicks, ticks, calibration.validBits)) * calibration.periodNs;
    const double ns = double(calibration.monotonicNs) + std::round(offsetNs);
    return ns <= 0 ? 0 : static_cast<uint64_t>(ns);
}

}  // namespace ogpa::vklayer
