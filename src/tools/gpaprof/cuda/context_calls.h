// The driver calls that make another context current on the calling thread.
#pragma once

#include <cuda.h>

#include <cstdint>

namespace gpaprof::cuda {

// Whether the driver call (CUPTI driver callback id, CUPTI's parameter struct of the call, the context current
// at its entry) makes another context current: a push, a pop, a context made (and pushed), or cuCtxSetCurrent of
// a context that is not current already (the runtime makes many such calls that change nothing).
bool SwitchesContext(uint32_t driverCbid, const void* params, CUcontext current);

}  // namespace gpaprof::cuda
