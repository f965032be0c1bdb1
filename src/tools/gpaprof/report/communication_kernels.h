// Which kernels are communication between ranks: NCCL's (and RCCL's, which keeps NCCL's names). Their device
// time is mostly waiting for the other ranks to arrive, so the cross-rank report keeps it apart from compute.
#pragma once

#include <string_view>

namespace gpaprof::report {

// A kernel whose name starts with "nccl" (ncclDevKernel_*, ncclKernel_*), written plain or mangled the way CUDA
// reports it (_Z39ncclDevKernel_AllReduce_Sum_f32_RING_LL24ncclDevKernelArgsStorageILm4096EE).
bool IsCommunicationKernel(std::string_view name);

}  // namespace gpaprof::report
