// The LocalMemSize column of an OpenCL dispatch (.csv) and the local memory its occupancy is computed with.
//
// The OpenCL specification's CL_KERNEL_LOCAL_MEM_SIZE includes the __local arguments whose sizes the application
// set with clSetKernelArg. PoCL 3 and NVIDIA's driver report it so; PoCL 5 reports only the kernel's own __local
// variables (its kernel metadata): 0 for a kernel whose local memory is all arguments. gpaprof sees every
// clSetKernelArg, so it knows the arguments' sizes: where the driver reports less than the arguments alone, the
// driver evidently left them out, and they are added to what it reported. (A driver that leaves them out while
// the kernel's own variables take at least as much cannot be told apart from one that includes them: its column
// under-reports, as its own query does.)
#pragma once

#include <cstdint>

namespace gpaprof::ocl {

uint64_t DispatchLocalMemory(uint64_t driverReported, uint64_t localArgumentBytes);

}  // namespace gpaprof::ocl
