// Theoretical occupancy of one dispatch, in the terms of the .occupancy layout (AMD's words: compute unit,
// wavefront, VGPR, SGPR, LDS). Other devices map onto them: CU -> SM (NVIDIA) or hardware thread (CPU),
// wavefront -> warp or SIMD batch, VGPR -> registers per work-item, LDS -> local/shared memory; a limit
// the device has no notion of stays unknown (NA) and never limits. docs/gpaprof.md explains the model.
//
// waves per work-group   = ceil(work-group size / wave size)
// X-limited waves        = (work-groups per CU that resource X allows) * waves per work-group,
//                          at most the CU's maximum number of waves
// occupancy              = min(known limited waves) / max waves per CU * 100
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "tools/gpaprof/files/profile_model.h"

namespace gpaprof {

// What the device allows per compute unit; unknown limits stay empty.
struct DeviceLimits {
    std::string deviceName;
    std::optional<uint64_t> computeUnits;
    std::optional<uint64_t> waveSize;
    std::optional<uint64_t> maxWavesPerComputeUnit;
    std::optional<uint64_t> maxWorkGroupsPerComputeUnit;
    std::optional<uint64_t> vgprsPerComputeUnit;   // register file, in registers of one work-item lane
    std::optional<uint64_t> sgprsPerComputeUnit;
    std::optional<uint64_t> ldsPerComputeUnit;     // bytes
    std::optional<uint64_t> maxWorkGroupSize;      // the device's; the kernel's own limit is in KernelUsage
    std::optional<uint64_t> maxGlobalWorkSize;
    std::optional<std::string> graphicsIpVersion;
    std::optional<uint64_t> simdsPerComputeUnit;
};

// What the kernel uses.
struct KernelUsage {
    std::optional<uint64_t> vgprsPerWorkItem;
    std::optional<uint64_t> sgprsPerWave;
    uint64_t ldsPerWorkGroup = 0;                   // bytes
    std::optional<uint64_t> maxWorkGroupSize;       // the kernel's limit on this device
};

struct LaunchShape {
    std::optional<uint64_t> workGroupSize;          // empty when the runtime chose it
    uint64_t globalWorkSize = 0;
};

OccupancyRow ComputeOccupancy(uint64_t threadId, const std::string& kernelName, const DeviceLimits& device,
                              const KernelUsage& kernel, const LaunchShape& launch);

// Published per-SM limits of NVIDIA GPUs by compute capability (CUDA C++ Programming Guide, "Technical
// Specifications per Compute Capability"); nullopt for a capability the table does not know.
struct NvidiaSmLimits {
    uint32_t maxWarpsPerSm;
    uint32_t maxBlocksPerSm;
    uint32_t registersPerSm;
    uint32_t sharedMemoryPerSm;                     // bytes
    uint32_t warpSchedulersPerSm;                   // "SIMDs per CU"
};
std::optional<NvidiaSmLimits> NvidiaLimitsForComputeCapability(uint32_t major, uint32_t minor);

}  // namespace gpaprof
