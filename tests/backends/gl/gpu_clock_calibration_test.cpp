// GL's GPU timestamps on CLOCK_MONOTONIC (backends/gl/gpu_clock_calibration.h): the tightest reading, the offset,
// the drift between two calibrations.
#include <gtest/gtest.h>

#include "backends/gl/gpu_clock_calibration.h"

namespace gpa::gl {
namespace {

TEST(GpuClockCalibration, TheNarrowestBracketWins) {
    // GPU clock = CPU clock + 5,000,000 ns; brackets of 400, 100 and 2,000 ns.
    const std::vector<ClockReading> readings = {
        {1000, 5000000 + 1200, 1400}, {2000, 5000000 + 2050, 2100}, {3000, 5000000 + 4000, 5000}};
    const auto best = BestCalibration(readings);
    ASSERT_TRUE(best);
    EXPECT_EQ(best->cpuNs, 2050u);
    EXPECT_EQ(best->gpuNs, 5002050u);
    EXPECT_EQ(best->uncertaintyNs, 50u);
    EXPECT_EQ(GpuToCpuNs(5002050u + 777, *best), 2050u + 777);
    EXPECT_EQ(GpuToCpuNs(5000000u, *best), 0u);   // before the CPU clock's 0: clamped
    EXPECT_EQ(GpuToCpuNs(4000000u, *best), 0u);
}

TEST(GpuClockCalibration, NoReadingOrInvertedBracketsGiveNone) {
    EXPECT_FALSE(BestCalibration({}));
    EXPECT_FALSE(BestCalibration({{2000, 10, 1000}}));
}

TEST(GpuClockCalibration, AGpuClockBehindTheCpuClock) {
    // The GPU's epoch may be later than boot or earlier: offsets of either sign.
    const ClockCalibration c{10000000000ull, 3000000000ull, 100};
    EXPECT_EQ(GpuToCpuNs(3000000500ull, c), 10000000500ull);
    EXPECT_EQ(GpuToCpuNs(2999999500ull, c), 9999999500ull);
}

TEST(GpuClockCalibration, TwoCalibrationsCorrectTheDrift) {
    // Over 10 s of CPU time the GPU clock ran 10 s + 100 us (10 ppm fast).
    const ClockCalibration first{1000000000ull, 50000000000ull, 50};
    const ClockCalibration second{11000000000ull, 60000100000ull, 50};
    // Halfway on the GPU clock is halfway on the CPU clock.
    EXPECT_EQ(GpuToCpuNs(55000050000ull, first, second), 6000000000ull);
    EXPECT_EQ(GpuToCpuNs(60000100000ull, first, second), 11000000000ull);
    // By the offset alone, the end would be 100 us late.
    EXPECT_EQ(GpuToCpuNs(60000100000ull, first), 11000100000ull);
    // Calibrations closer than the minimum span: the offset alone.
    const ClockCalibration near{1000000500ull, 50000000600ull, 50};
    EXPECT_EQ(GpuToCpuNs(50000001000ull, first, near), 1000001000ull);
}

}  // namespace
}  // namespace gpa::gl
