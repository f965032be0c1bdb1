// The theoretical occupancy model: limits from work-group slots, local memory and registers, the limiter,
// and NA where the device or the launch leaves a value unknown.
#include <gtest/gtest.h>

#include "tools/gpaprof/occupancy/occupancy_calculator.h"

namespace gpaprof {
namespace {

TEST(Occupancy, CpuDeviceOneWorkGroupPerComputeUnit) {
    DeviceLimits cpu;
    cpu.deviceName = "cpu";
    cpu.computeUnits = 2;
    cpu.waveSize = 8;
    cpu.maxWorkGroupSize = 4096;
    cpu.maxWavesPerComputeUnit = 512;
    cpu.maxWorkGroupsPerComputeUnit = 1;
    cpu.ldsPerComputeUnit = 524288;
    KernelUsage usage;
    usage.maxWorkGroupSize = 4096;
    OccupancyRow row = ComputeOccupancy(7, "k", cpu, usage, LaunchShape{64, 1024});
    EXPECT_EQ(row.threadId, 7u);
    EXPECT_EQ(row.wavesPerWorkGroup, 8u);
    EXPECT_EQ(row.maxWavesPerWorkGroup, 512u);
    EXPECT_EQ(row.workGroupLimitedWaves, 8u);
    EXPECT_EQ(row.ldsLimitedWaves, 512u);  // no local memory: no limit
    EXPECT_FALSE(row.vgprLimitedWaves.has_value());
    EXPECT_FALSE(row.sgprLimitedWaves.has_value());
    EXPECT_DOUBLE_EQ(*row.occupancyPercent, 100.0 * 8 / 512);
    EXPECT_EQ(LimitingResource(row), OccupancyLimiter::WorkGroup);
    EXPECT_EQ(row.globalWorkSize, 1024u);

    // The runtime chose the work-group size: what depends on it is unknown.
    OccupancyRow chosen = ComputeOccupancy(7, "k", cpu, usage, LaunchShape{std::nullopt, 1024});
    EXPECT_FALSE(chosen.workGroupSize.has_value());
    EXPECT_FALSE(chosen.occupancyPercent.has_value());
    EXPECT_EQ(chosen.maxWavesPerWorkGroup, 512u);
}

TEST(Occupancy, GpuLimitedByRegistersThenLocalMemory) {
    const NvidiaSmLimits sm = *NvidiaLimitsForComputeCapability(9, 0);
    DeviceLimits gpu;
    gpu.waveSize = 32;
    gpu.maxWavesPerComputeUnit = sm.maxWarpsPerSm;
    gpu.maxWorkGroupsPerComputeUnit = sm.maxBlocksPerSm;
    gpu.vgprsPerComputeUnit = sm.registersPerSm;
    gpu.ldsPerComputeUnit = sm.sharedMemoryPerSm;
    KernelUsage usage;
    usage.vgprsPerWorkItem = 128;  // 128 x 256 threads = 32768 registers per block: 2 blocks
    usage.ldsPerWorkGroup = 16384;  // 14 blocks
    OccupancyRow row = ComputeOccupancy(1, "k", gpu, usage, LaunchShape{256, 1 << 20});
    EXPECT_EQ(row.wavesPerWorkGroup, 8u);
    EXPECT_EQ(row.vgprLimitedWaves, 16u);
    EXPECT_EQ(row.ldsLimitedWaves, 64u);  // 14 blocks, capped by 64 warps
    EXPECT_EQ(row.workGroupLimitedWaves, 64u);
    EXPECT_EQ(LimitingResource(row), OccupancyLimiter::Vgpr);
    EXPECT_DOUBLE_EQ(*row.occupancyPercent, 25.0);

    usage.vgprsPerWorkItem = 32;
    usage.ldsPerWorkGroup = 100000;  // 2 blocks
    row = ComputeOccupancy(1, "k", gpu, usage, LaunchShape{256, 1 << 20});
    EXPECT_EQ(LimitingResource(row), OccupancyLimiter::Lds);
    EXPECT_EQ(row.ldsLimitedWaves, 16u);
}

TEST(Occupancy, UnknownDeviceLeavesEverythingNa) {
    DeviceLimits unknown;
    unknown.computeUnits = 4;
    OccupancyRow row = ComputeOccupancy(1, "k", unknown, KernelUsage{}, LaunchShape{64, 64});
    EXPECT_EQ(row.computeUnits, 4u);
    EXPECT_FALSE(row.wavesPerWorkGroup.has_value());
    EXPECT_FALSE(row.occupancyPercent.has_value());
    EXPECT_EQ(LimitingResource(row), OccupancyLimiter::None);
    EXPECT_FALSE(NvidiaLimitsForComputeCapability(1, 0).has_value());
    EXPECT_EQ(NvidiaLimitsForComputeCapability(8, 6)->maxWarpsPerSm, 48u);
}

}  // namespace
}  // namespace gpaprof
