// The driver calls that change what a kernel can write, applied to a DeviceMemoryMap from CUPTI's exit
// callback of each successful call: allocations and frees of every kind, module loads and unloads, variable
// lookups, arrays, peer access, graph capture. The runtime's calls (cudaMalloc, cudaMallocAsync,
// cudaMallocHost, cudaMallocManaged, ...) reach the driver as these calls.
#pragma once

#include <cuda.h>

#include <cstdint>

#include "tools/gpaprof/cuda/device_memory_map.h"

namespace gpaprof::cuda {

// Whether the driver call (CUPTI driver callback id) is one TrackMemoryCall handles.
bool IsMemoryCall(uint32_t driverCbid);

// Applies a finished call; `params` is CUPTI's parameter struct of the call, `context` the context it ran on,
// `owner` who made it (allocations only). Only successful calls change the map, except the end of a graph
// capture (which ends it either way).
void TrackMemoryCall(DeviceMemoryMap* map, uint32_t driverCbid, const void* params, CUcontext context, bool succeeded,
                     MemoryOwner owner = MemoryOwner::Application);
// Whether the call makes memory (an allocation, a mapping, an import): the calls whose owner matters.
bool IsAllocationCall(uint32_t driverCbid);

// How a finished driver call changes the number of stream captures in progress: +1 for a capture begun, -1 for
// one ended (successfully or not: an invalidated capture ends too), 0 for any other call.
int GraphCaptureChange(uint32_t driverCbid, bool succeeded);

}  // namespace gpaprof::cuda
