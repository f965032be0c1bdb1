// CudaPart's description of a profiled kernel dispatch (cuda_part.h): its .occupancy row, written at once, and its
// .csv row, which the counter collector completes with the counters.
#include <algorithm>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>

#include "tools/gpaprof/agent/agent.h"
#include "tools/gpaprof/cuda/cuda_part.h"

namespace gpaprof::cuda::injection {

std::optional<DispatchRow> CudaPart::DescribeDispatch(const FunctionInfo& kernel, CUfunction function, const uint64_t* grid,
                                                      const uint64_t* block, uint64_t dynamicShared, CUcontext context,
                                                      uint64_t executionOrder) {
    DeviceInfo* device = DeviceOf(context);
    const uint64_t threadId = Agent::ThreadId();
    const uint64_t blockSize = block[0] * block[1] * block[2];
    const uint64_t gridSize = grid[0] * grid[1] * grid[2];
    std::optional<OccupancyResult> occupancy;
    if (device && kernel.resourcesKnown) {
        KernelResources resources = kernel.resources;
        resources.dynamicSharedBytes = dynamicShared;
        occupancy = ComputeCudaOccupancy(threadId, kernel.name, device->limits, resources, {blockSize, gridSize});
        // The driver's own calculator has the last word; a disagreement is reported once per kernel.
        int blocks = -1;
        const auto key = std::make_tuple(function, blockSize, dynamicShared);
        {
            std::lock_guard<std::mutex> lock(mutex_);
            auto known = driverBlocks_.find(key);
            if (known != driverBlocks_.end()) blocks = known->second;
        }
        if (blocks < 0 && api_->cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel.function, static_cast<int>(blockSize),
                                                                             dynamicShared) == CUDA_SUCCESS) {
            std::lock_guard<std::mutex> lock(mutex_);
            driverBlocks_[key] = blocks;
        }
        if (blocks >= 0 && static_cast<uint64_t>(blocks) != occupancy->blocksPerSm && occupancy->row.maxWavesPerComputeUnit &&
            occupancy->row.wavesPerWorkGroup) {
            const std::string note = "occupancy of " + kernel.name + " (block " + std::to_string(blockSize) + "): the model gives " +
                                     std::to_string(occupancy->blocksPerSm) + " blocks per SM, the driver " +
                                     std::to_string(blocks) + "; the .occupancy file uses the driver's";
            bool known = false;
            {
                std::lock_guard<std::mutex> lock(mutex_);
                for (const std::string& seen : occupancyNotes_) known = known || seen == note;
                if (!known) occupancyNotes_.push_back(note);
            }
            if (!known) agent_->Note(note);
            const uint64_t warps = std::min<uint64_t>(static_cast<uint64_t>(blocks) * *occupancy->row.wavesPerWorkGroup,
                                                      *occupancy->row.maxWavesPerComputeUnit);
            occupancy->row.occupancyPercent = 100.0 * static_cast<double>(warps) /
                                              static_cast<double>(*occupancy->row.maxWavesPerComputeUnit);
            occupancy->blocksPerSm = static_cast<uint64_t>(blocks);
        }
        if (occupancy_) agent_->Write(spool::OccupancyRecord{executionOrder, occupancy->row});
    }
    if (!collector_) return std::nullopt;

    DispatchRow row;
    row.method = device ? MethodFor(kernel.name, kernel.id, device->name, device->ordinal)
                        : MethodFor(kernel.name, kernel.id, "CUDA", 0);
    row.executionOrder = executionOrder;
    row.threadId = threadId;
    if (OpenCall* owner = InnermostTraced()) row.callIndex = owner->index;
    row.globalWorkSize = WorkSize::Of({grid[0] * block[0], grid[1] * block[1], grid[2] * block[2]});
    row.workGroupSize = WorkSize::Of({block[0], block[1], block[2]});
    if (kernel.resourcesKnown) {
        row.localMemSize = kernel.resources.staticSharedBytes + dynamicShared;
        row.vgprs = kernel.resources.registersPerThread;
        row.scratchRegs = kernel.resources.localBytesPerThread / 4;
    } else {
        row.localMemSize = dynamicShared;
    }
    if (occupancy) row.kernelOccupancy = occupancy->row.occupancyPercent;
    return row;
}

}  // namespace gpaprof::cuda::injection
