#include "tools/gpaprof/cuda/cuda_occupancy.h"

#include <algorithm>
#include <limits>

namespace gpaprof::cuda {
namespace {

uint64_t CeilDiv(uint64_t a, uint64_t b) { return b == 0 ? 0 : (a + b - 1) / b; }
uint64_t RoundUp(uint64_t a, uint64_t b) { return CeilDiv(a, b) * b; }
constexpr uint64_t kUnlimited = std::numeric_limits<uint64_t>::max();

}  // namespace

ArchitectureGranularity GranularityFor(uint32_t major, uint32_t minor) {
    ArchitectureGranularity granularity;
    granularity.registerAllocationUnit = 256;
    granularity.sharedMemoryGranularity = major >= 7 ? 128 : 256;
    granularity.subPartitions = (major == 6 && minor == 0) ? 2 : 4;
    return granularity;
}

OccupancyResult ComputeCudaOccupancy(uint64_t threadId, const std::string& kernelName, const SmLimits& device,
                                     const KernelResources& kernel, const LaunchDims& launch) {
    OccupancyResult result;
    OccupancyRow& row = result.row;
    row.threadId = threadId;
    row.kernelName = kernelName;
    row.deviceName = device.deviceName;
    const uint64_t warpSize = device.warpSize ? device.warpSize : 32;
    const uint64_t maxWarps = device.maxThreadsPerSm / warpSize;
    row.computeUnits = device.smCount;
    row.maxWavesPerComputeUnit = maxWarps;
    row.maxWorkGroupsPerComputeUnit = device.maxBlocksPerSm;
    row.maxVgprs = device.registersPerSm;
    row.maxLds = device.sharedMemoryPerSm;
    row.usedVgprs = kernel.registersPerThread;
    row.usedLds = kernel.staticSharedBytes + kernel.dynamicSharedBytes;
    row.waveSize = warpSize;
    row.workGroupSize = launch.blockSize;
    const uint64_t kernelLimit = kernel.maxThreadsPerBlock ? kernel.maxThreadsPerBlock : device.maxThreadsPerBlock;
    row.maxWorkGroupSize = kernelLimit;
    row.maxWavesPerWorkGroup = CeilDiv(kernelLimit, warpSize);
    row.globalWorkSize = launch.blockSize * launch.gridSize;
    // maxGlobalWorkSize stays NA: the grid limit (2^31-1 x 65535 x 65535 blocks) times the block size does not
    // fit in 64 bits, and no smaller product is the device's limit.
    row.graphicsIpVersion = "sm_" + std::to_string(device.computeMajor) + std::to_string(device.computeMinor);
    const ArchitectureGranularity granularity = GranularityFor(device.computeMajor, device.computeMinor);
    row.simdsPerComputeUnit = granularity.subPartitions;

    if (launch.blockSize == 0 || maxWarps == 0) return result;
    const uint64_t warpsPerBlock = CeilDiv(launch.blockSize, warpSize);
    row.wavesPerWorkGroup = warpsPerBlock;
    const uint64_t blocksByWarpSlots = maxWarps / warpsPerBlock;
    // Warps in flight when a resource allows `blocks` blocks; no resource beats the SM's warp slots.
    auto waves = [&](uint64_t blocks) { return std::min(blocks, blocksByWarpSlots) * warpsPerBlock; };

    // Block slots.
    const uint64_t blocksBySlots = device.maxBlocksPerSm ? device.maxBlocksPerSm : kUnlimited;
    // Registers.
    uint64_t blocksByRegisters = kUnlimited;
    if (kernel.registersPerThread > 0) {
        const uint64_t perWarp = RoundUp(kernel.registersPerThread * warpSize, granularity.registerAllocationUnit);
        const uint64_t assumedPerBlock = perWarp * RoundUp(warpsPerBlock, granularity.subPartitions);
        if ((device.registersPerBlock && assumedPerBlock > device.registersPerBlock) ||
            (device.registersPerBlock && perWarp * warpsPerBlock > device.registersPerBlock)) {
            blocksByRegisters = 0;
        } else {
            const uint64_t warpsPerSubPartition = (device.registersPerSm / granularity.subPartitions) / perWarp;
            blocksByRegisters = warpsPerSubPartition * granularity.subPartitions / warpsPerBlock;
        }
    }
    // Shared memory.
    uint64_t blocksBySharedMemory = kUnlimited;
    const uint64_t sharedPerBlock = RoundUp(kernel.staticSharedBytes + kernel.dynamicSharedBytes +
                                                device.reservedSharedMemoryPerBlock,
                                            granularity.sharedMemoryGranularity);
    if (sharedPerBlock > 0 && device.sharedMemoryPerSm > 0) blocksBySharedMemory = device.sharedMemoryPerSm / sharedPerBlock;
    // A block larger than the kernel allows does not launch at all.
    const bool launchable = kernelLimit == 0 || launch.blockSize <= kernelLimit;

    row.workGroupLimitedWaves = launchable ? waves(blocksBySlots) : 0;
    row.vgprLimitedWaves = launchable ? waves(blocksByRegisters) : 0;
    row.ldsLimitedWaves = launchable ? waves(blocksBySharedMemory) : 0;
    // sgprLimitedWaves stays NA: NVIDIA GPUs have no scalar registers (uniform registers are not reported).

    const uint64_t activeWarps =
        std::min({*row.workGroupLimitedWaves, *row.vgprLimitedWaves, *row.ldsLimitedWaves});
    result.blocksPerSm = activeWarps / warpsPerBlock;
    row.occupancyPercent = 100.0 * static_cast<double>(activeWarps) / static_cast<double>(maxWarps);
    result.limiter = LimitingResource(row);
    return result;
}

}  // namespace gpaprof::cuda
