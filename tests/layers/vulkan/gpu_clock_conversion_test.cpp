// GPU timestamps placed on CLOCK_MONOTONIC (src/layers/vulkan/gpu_clock_conversion.h): by the distance from a
// calibration, in timestampPeriod units, across a wrap of a counter of fewer than 64 bits. No device needed.
#include "layers/vulkan/gpu_clock_conversion.h"

#include <gtest/gtest.h>

namespace ogpa::vklayer {
namespace {

TEST(GpuClockConversion, DistanceFromTheCalibrationTimesThePeriod) {
    GpuClockCalibration c;
    c.gpuTicks = 1000000;
    c.monotonicNs = 5000000000ull;
    c.periodNs = 1.0;  // NVIDIA: 1 ns ticks
    EXPECT_EQ(GpuTicksToMonotonicNs(1000000, c), 5000000000ull);
    EXPECT_EQ(GpuTicksToMonotonicNs(1000250, c), 5000000250ull);
    EXPECT_EQ(GpuTicksToMonotonicNs(999000, c), 4999999000ull);  // before the calibration
    c.periodNs = 52.08;  // a 19.2 MHz clock
    EXPECT_EQ(GpuTicksToMonotonicNs(1000100, c), 5000000000ull + 5208);
    EXPECT_EQ(GpuTicksToMonotonicNs(999900, c), 5000000000ull - 5208);
}

TEST(GpuClockConversion, ACounterThatWrappedIsPlacedRight) {
    GpuClockCalibration c;
    c.validBits = 36;
    c.gpuTicks = (uint64_t(1) << 36) - 100;  // calibrated just before the wrap
    c.monotonicNs = 1000000;
    EXPECT_EQ(GpuTicksToMonotonicNs(50, c), 1000150u);       // written after the wrap
    EXPECT_EQ(GpuTicksToMonotonicNs(c.gpuTicks - 10, c), 999990u);
    c.gpuTicks = 20;  // calibrated after the wrap, timestamp written before it
    EXPECT_EQ(GpuTicksToMonotonicNs((uint64_t(1) << 36) - 30, c), 1000000u - 50);
    // Bits above validBits are not looked at.
    EXPECT_EQ(GpuTicksToMonotonicNs((uint64_t(1) << 40) + 30, c), 1000010u);
}

TEST(GpuClockConversion, SignedDistances) {
    EXPECT_EQ(TickDistance(10, 5, 64), -5);
    EXPECT_EQ(TickDistance(5, 10, 64), 5);
    EXPECT_EQ(TickDistance(250, 4, 8), 10);   // 8-bit counter wrapped
    EXPECT_EQ(TickDistance(4, 250, 8), -10);
    EXPECT_EQ(TickDistance(0, 127, 8), 127);
    EXPECT_EQ(TickDistance(0, 128, 8), -128);  // half the range: taken as behind
}

TEST(GpuClockConversion, NothingBeforeTheClocksStart) {
    GpuClockCalibration c;
    c.gpuTicks = 1000000;
    c.monotonicNs = 100;
    EXPECT_EQ(GpuTicksToMonotonicNs(0, c), 0u);
}

}  // namespace
}  // namespace ogpa::vklayer
