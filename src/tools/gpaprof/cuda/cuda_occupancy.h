// Theoretical occupancy of a CUDA kernel launch: NVIDIA's occupancy calculation (the CUDA Occupancy
// Calculator and cuda_occupancy.h), written in the terms of the .occupancy file.
//
//   warps per block      = ceil(block size / warp size)
//   registers            : a warp takes ceil(registers per thread * warp size / 256) * 256 registers in one of
//                          the SM's sub-partitions (4 from Volta on); a block whose warps, rounded up to the
//                          sub-partition count, need more than the per-block register limit cannot launch
//   shared memory        : a block takes static + dynamic shared memory + the per-block reservation (1 KiB
//                          from Ampere on), rounded up to the allocation granularity (128 bytes from Volta on)
//                          out of the SM's shared memory (the largest carveout, which the driver picks by default)
//   block slots, warp slots: the SM's limits
//   occupancy            = warps of the blocks that fit / max warps per SM * 100
//
// The file's AMD terms map as: compute unit -> SM, wavefront -> warp, work-group -> thread block,
// VGPR -> registers per thread, LDS -> shared memory; SGPR has no NVIDIA counterpart and stays NA.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "tools/gpaprof/files/profile_model.h"

namespace gpaprof::cuda {

// What the device allows (cuDeviceGetAttribute).
struct SmLimits {
    std::string deviceName;
    uint32_t computeMajor = 0, computeMinor = 0;
    uint64_t smCount = 0;
    uint64_t warpSize = 32;
    uint64_t maxThreadsPerSm = 0;
    uint64_t maxBlocksPerSm = 0;
    uint64_t registersPerSm = 0;
    uint64_t registersPerBlock = 0;
    uint64_t sharedMemoryPerSm = 0;            // bytes, the largest carveout
    uint64_t reservedSharedMemoryPerBlock = 0;  // bytes
    uint64_t maxThreadsPerBlock = 0;
};

// What the kernel uses (cuFuncGetAttribute) and how it was launched.
struct KernelResources {
    uint64_t registersPerThread = 0;
    uint64_t staticSharedBytes = 0;
    uint64_t dynamicSharedBytes = 0;
    uint64_t localBytesPerThread = 0;
    uint64_t maxThreadsPerBlock = 0;  // the kernel's own limit on this device
};

struct LaunchDims {
    uint64_t blockSize = 0;           // threads per block
    uint64_t gridSize = 0;            // blocks
};

// Register allocation unit, shared memory granularity and sub-partitions of a compute capability.
struct ArchitectureGranularity {
    uint64_t registerAllocationUnit = 256;
    uint64_t sharedMemoryGranularity = 128;
    uint64_t subPartitions = 4;
};
ArchitectureGranularity GranularityFor(uint32_t major, uint32_t minor);

struct OccupancyResult {
    OccupancyRow row;
    uint64_t blocksPerSm = 0;
    OccupancyLimiter limiter = OccupancyLimiter::None;
};

OccupancyResult ComputeCudaOccupancy(uint64_t threadId, const std::string& kernelName, const SmLimits& device,
                                     const KernelResources& kernel, const LaunchDims& launch);

}  // namespace gpaprof::cuda
