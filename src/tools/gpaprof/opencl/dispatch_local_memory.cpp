#include "tools/gpaprof/opencl/dispatch_local_memory.h"

namespace gpaprof::ocl {

uint64_t DispatchLocalMemory(uint64_t driverReported, uint64_t localArgumentBytes) {
    if (driverReported >= localArgumentBytes) return driverReported;  // the arguments included, as specified
    return driverReported + localArgumentBytes;
}

}  // namespace gpaprof::ocl
