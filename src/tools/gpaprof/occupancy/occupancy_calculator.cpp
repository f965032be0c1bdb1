#include "tools/gpaprof/occupancy/occupancy_calculator.h"

#include <algorithm>

namespace gpaprof {
namespace {

uint64_t CeilDiv(uint64_t a, uint64_t b) { return b == 0 ? 0 : (a + b - 1) / b; }

// Waves in flight when a resource allows `workGroups` work-groups per CU.
std::optional<uint64_t> WavesFor(std::optional<uint64_t> workGroups, uint64_t wavesPerWorkGroup,
                                 std::optional<uint64_t> maxWaves) {
    if (!workGroups || wavesPerWorkGroup == 0) return std::nullopt;
    uint64_t waves = *workGroups * wavesPerWorkGroup;
    if (maxWaves) waves = std::min(waves, *maxWaves / wavesPerWorkGroup * wavesPerWorkGroup);
    return waves;
}

}  // namespace

OccupancyRow ComputeOccupancy(uint64_t threadId, const std::string& kernelName, const DeviceLimits& device,
                              const KernelUsage& kernel, const LaunchShape& launch) {
    OccupancyRow row;
    row.threadId = threadId;
    row.kernelName = kernelName;
    row.deviceName = device.deviceName;
    row.computeUnits = device.computeUnits;
    row.maxWavesPerComputeUnit = device.maxWavesPerComputeUnit;
    row.maxWorkGroupsPerComputeUnit = device.maxWorkGroupsPerComputeUnit;
    row.maxVgprs = device.vgprsPerComputeUnit;
    row.maxSgprs = device.sgprsPerComputeUnit;
    row.maxLds = device.ldsPerComputeUnit;
    row.usedVgprs = kernel.vgprsPerWorkItem;
    row.usedSgprs = kernel.sgprsPerWave;
    row.usedLds = kernel.ldsPerWorkGroup;
    row.waveSize = device.waveSize;
    row.workGroupSize = launch.workGroupSize;
    row.maxWorkGroupSize = kernel.maxWorkGroupSize ? kernel.maxWorkGroupSize : device.maxWorkGroupSize;
    row.globalWorkSize = launch.globalWorkSize;
    row.maxGlobalWorkSize = device.maxGlobalWorkSize;
    row.graphicsIpVersion = device.graphicsIpVersion;
    row.simdsPerComputeUnit = device.simdsPerComputeUnit;

    const uint64_t waveSize = device.waveSize.value_or(0);
    if (waveSize == 0) return row;
    if (row.maxWorkGroupSize) row.maxWavesPerWorkGroup = CeilDiv(*row.maxWorkGroupSize, waveSize);
    if (!launch.workGroupSize || *launch.workGroupSize == 0) return row;  // the runtime chose: unknown

    const uint64_t wavesPerWorkGroup = CeilDiv(*launch.workGroupSize, waveSize);
    row.wavesPerWorkGroup = wavesPerWorkGroup;
    const std::optional<uint64_t> maxWaves = device.maxWavesPerComputeUnit;

    // Work-group slots.
    std::optional<uint64_t> groupsBySlots = device.maxWorkGroupsPerComputeUnit;
    if (!groupsBySlots && maxWaves) groupsBySlots = *maxWaves / wavesPerWorkGroup;
    row.workGroupLimitedWaves = WavesFor(groupsBySlots, wavesPerWorkGroup, maxWaves);

    // Local memory: a kernel without local memory is not limited by it.
    if (device.ldsPerComputeUnit) {
        if (kernel.ldsPerWorkGroup == 0) {
            if (maxWaves) row.ldsLimitedWaves = *maxWaves / wavesPerWorkGroup * wavesPerWorkGroup;
        } else {
            row.ldsLimitedWaves = WavesFor(*device.ldsPerComputeUnit / kernel.ldsPerWorkGroup, wavesPerWorkGroup, maxWaves);
        }
    }
    // Registers per lane: a wave takes waveSize lanes' worth.
    if (device.vgprsPerComputeUnit && kernel.vgprsPerWorkItem) {
        if (*kernel.vgprsPerWorkItem == 0) {
            if (maxWaves) row.vgprLimitedWaves = *maxWaves / wavesPerWorkGroup * wavesPerWorkGroup;
        } else {
            const uint64_t perWorkGroup = *kernel.vgprsPerWorkItem * waveSize * wavesPerWorkGroup;
            row.vgprLimitedWaves = WavesFor(*device.vgprsPerComputeUnit / perWorkGroup, wavesPerWorkGroup, maxWaves);
        }
    }
    if (device.sgprsPerComputeUnit && kernel.sgprsPerWave) {
        if (*kernel.sgprsPerWave == 0) {
            if (maxWaves) row.sgprLimitedWaves = *maxWaves / wavesPerWorkGroup * wavesPerWorkGroup;
        } else {
            const uint64_t perWorkGroup = *kernel.sgprsPerWave * wavesPerWorkGroup;
            row.sgprLimitedWaves = WavesFor(*device.sgprsPerComputeUnit / perWorkGroup, wavesPerWorkGroup, maxWaves);
        }
    }

    std::optional<uint64_t> active;
    for (const std::optional<uint64_t>& limit :
         {row.vgprLimitedWaves, row.sgprLimitedWaves, row.ldsLimitedWaves, row.workGroupLimitedWaves}) {
        if (limit && (!active || *limit < *active)) active = limit;
    }
    if (active && maxWaves && *maxWaves > 0) {
        row.occupancyPercent = std::min(100.0, 100.0 * static_cast<double>(*active) / static_cast<double>(*maxWaves));
    }
    return row;
}

std::optional<NvidiaSmLimits> NvidiaLimitsForComputeCapability(uint32_t major, uint32_t minor) {
    struct Entry {
        uint32_t major, minor;
        NvidiaSmLimits limits;
    };
    static constexpr Entry kTable[] = {
        {5, 0, {64, 32, 65536, 65536, 4}},  {5, 2, {64, 32, 65536, 98304, 4}},  {5, 3, {64, 32, 65536, 65536, 4}},
        {6, 0, {64, 32, 65536, 65536, 2}},  {6, 1, {64, 32, 65536, 98304, 4}},  {6, 2, {64, 32, 65536, 65536, 4}},
        {7, 0, {64, 32, 65536, 98304, 4}},  {7, 2, {64, 32, 65536, 98304, 4}},  {7, 5, {32, 16, 65536, 65536, 4}},
        {8, 0, {64, 32, 65536, 167936, 4}}, {8, 6, {48, 16, 65536, 102400, 4}}, {8, 7, {48, 16, 65536, 167936, 4}},
        {8, 9, {48, 24, 65536, 102400, 4}}, {9, 0, {64, 32, 65536, 233472, 4}},
    };
    for (const Entry& entry : kTable) {
        if (entry.major == major && entry.minor == minor) return entry.limits;
    }
    return std::nullopt;
}

}  // namespace gpaprof
