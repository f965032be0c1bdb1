// generated_cuda_meta.h declares parameter structs of old driver functions with types cuda.h declares only
// for the driver's own build (as in memory_calls.cpp).
#define __CUDA_API_VERSION_INTERNAL 1

#include "tools/gpaprof/cuda/context_calls.h"

#include <cupti_driver_cbid.h>
#include <generated_cuda_meta.h>

namespace gpaprof::cuda {

bool SwitchesContext(uint32_t driverCbid, const void* params, CUcontext current) {
    switch (driverCbid) {
        case CUPTI_DRIVER_TRACE_CBID_cuCtxSetCurrent:
            return !params || static_cast<const cuCtxSetCurrent_params*>(params)->ctx != current;
        case CUPTI_DRIVER_TRACE_CBID_cuCtxPushCurrent:
        case CUPTI_DRIVER_TRACE_CBID_cuCtxPushCurrent_v2:
        case CUPTI_DRIVER_TRACE_CBID_cuCtxPopCurrent:
        case CUPTI_DRIVER_TRACE_CBID_cuCtxPopCurrent_v2:
        case CUPTI_DRIVER_TRACE_CBID_cuCtxCreate:
        case CUPTI_DRIVER_TRACE_CBID_cuCtxCreate_v2:
        case CUPTI_DRIVER_TRACE_CBID_cuCtxCreate_v3:
        case CUPTI_DRIVER_TRACE_CBID_cuCtxCreate_v4:
            return true;
        default:
            return false;
    }
}

}  // namespace gpaprof::cuda
