// Which driver calls make another context current (context_calls.h): where gpaprof ends a batch of CUPTI's
// kernel replay.
#include <gtest/gtest.h>
#include <cuda.h>
#include <cupti_driver_cbid.h>

#include "tools/gpaprof/cuda/context_calls.h"

namespace gpaprof::cuda {
namespace {

CUcontext Context(uintptr_t value) { return reinterpret_cast<CUcontext>(value); }

TEST(ContextCalls, SetCurrentSwitchesOnlyToAnotherContext) {
    struct { CUcontext ctx; } params{Context(0x10)};  // cuCtxSetCurrent_params
    EXPECT_FALSE(SwitchesContext(CUPTI_DRIVER_TRACE_CBID_cuCtxSetCurrent, &params, Context(0x10)));
    EXPECT_TRUE(SwitchesContext(CUPTI_DRIVER_TRACE_CBID_cuCtxSetCurrent, &params, Context(0x20)));
    EXPECT_TRUE(SwitchesContext(CUPTI_DRIVER_TRACE_CBID_cuCtxSetCurrent, &params, nullptr));
    params.ctx = nullptr;  // no context current afterwards
    EXPECT_TRUE(SwitchesContext(CUPTI_DRIVER_TRACE_CBID_cuCtxSetCurrent, &params, Context(0x10)));
    EXPECT_TRUE(SwitchesContext(CUPTI_DRIVER_TRACE_CBID_cuCtxSetCurrent, nullptr, Context(0x10)));  // unknown: assume so
}

TEST(ContextCalls, PushPopAndCreateAlwaysSwitch) {
    for (uint32_t cbid : {CUPTI_DRIVER_TRACE_CBID_cuCtxPushCurrent, CUPTI_DRIVER_TRACE_CBID_cuCtxPushCurrent_v2,
                          CUPTI_DRIVER_TRACE_CBID_cuCtxPopCurrent, CUPTI_DRIVER_TRACE_CBID_cuCtxPopCurrent_v2,
                          CUPTI_DRIVER_TRACE_CBID_cuCtxCreate, CUPTI_DRIVER_TRACE_CBID_cuCtxCreate_v2,
                          CUPTI_DRIVER_TRACE_CBID_cuCtxCreate_v3, CUPTI_DRIVER_TRACE_CBID_cuCtxCreate_v4}) {
        EXPECT_TRUE(SwitchesContext(cbid, nullptr, Context(0x10))) << cbid;
    }
}

TEST(ContextCalls, OtherCallsDoNotSwitch) {
    for (uint32_t cbid : {CUPTI_DRIVER_TRACE_CBID_cuCtxGetCurrent, CUPTI_DRIVER_TRACE_CBID_cuCtxSynchronize,
                          CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, CUPTI_DRIVER_TRACE_CBID_cuDevicePrimaryCtxRetain}) {
        EXPECT_FALSE(SwitchesContext(cbid, nullptr, Context(0x10))) << cbid;
    }
}

}  // namespace
}  // namespace gpaprof::cuda
