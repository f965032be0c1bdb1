#include "tools/gpaprof/cuda/l2_flush.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace gpaprof::cuda {
namespace {

// Reads `vectors` 16-byte words from `data` (grid-stride) and folds them, so that the loads stay; writes the
// fold to `sink` only in the unlikely case that it is 1. PTX for every architecture from sm_50 (the driver
// compiles it for the device at load).
constexpr const char kFlushPtx[] = R"(
.version 7.0
.target sm_50
.address_size 64
.visible .entry gpaprof_l2_flush(.param .u64 data, .param .u64 vectors, .param .u64 sink)
{
    .reg .pred %p<3>;
    .reg .b32 %r<12>;
    .reg .b64 %rd<10>;
    ld.param.u64 %rd1, [data];
    ld.param.u64 %rd2, [vectors];
    ld.param.u64 %rd3, [sink];
    mov.u32 %r1, %ctaid.x;
    mov.u32 %r2, %ntid.x;
    mov.u32 %r3, %tid.x;
    mov.u32 %r4, %nctaid.x;
    mul.wide.u32 %rd4, %r1, %r2;
    cvt.u64.u32 %rd5, %r3;
    add.u64 %rd4, %rd4, %rd5;
    mul.wide.u32 %rd6, %r4, %r2;
    mov.u32 %r5, 0;
    setp.ge.u64 %p1, %rd4, %rd2;
    @%p1 bra DONE;
LOOP:
    shl.b64 %rd7, %rd4, 4;
    add.u64 %rd8, %rd1, %rd7;
    ld.global.cg.v4.u32 {%r6, %r7, %r8, %r9}, [%rd8];
    xor.b32 %r5, %r5, %r6;
    xor.b32 %r5, %r5, %r7;
    xor.b32 %r5, %r5, %r8;
    xor.b32 %r5, %r5, %r9;
    add.u64 %rd4, %rd4, %rd6;
    setp.lt.u64 %p2, %rd4, %rd2;
    @%p2 bra LOOP;
DONE:
    setp.ne.u32 %p1, %r5, 1;
    @%p1 bra END;
    st.global.u32 [%rd3], %r5;
END:
    ret;
}
)";

constexpr unsigned kThreads = 256;

}  // namespace

L2Flush::L2Flush(const TracingApi* api) : api_(api) {
    if (const char* control = std::getenv("GPAPROF_CUDA_CACHE_CONTROL"); control && std::strcmp(control, "none") == 0) {
        enabled_ = false;
    }
    if (!api_->cuModuleLoadData || !api_->cuModuleGetFunction) enabled_ = false;
}

std::string L2Flush::Describe(const char* call, CUresult result) const {
    const char* name = nullptr;
    if (api_->cuGetErrorName(result, &name) != CUDA_SUCCESS || !name) name = "CUDA error";
    return std::string(call) + " failed: " + name + " (" + std::to_string(static_cast<int>(result)) + ")";
}

bool L2Flush::Prepare(PerContext* state) {
    auto fail = [&](const char* call, CUresult result) {
        state->failure = Describe(call, result);
        return false;
    };
    CUdevice device = 0;
    if (CUresult r = api_->cuCtxGetDevice(&device); r != CUDA_SUCCESS) return fail("cuCtxGetDevice", r);
    int l2Bytes = 0, sms = 0;
    api_->cuDeviceGetAttribute(&l2Bytes, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, device);
    api_->cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, device);
    if (l2Bytes <= 0) {
        state->failure = "the device does not say the size of its L2 cache";
        return false;
    }
    // The module and the buffer belong to the application's context; the application never sees them, and
    // gpaprof's memory map leaves them out (the calls are gpaprof's own).
    CUmodule module = nullptr;
    if (CUresult r = api_->cuModuleLoadData(&module, kFlushPtx); r != CUDA_SUCCESS) return fail("cuModuleLoadData", r);
    if (CUresult r = api_->cuModuleGetFunction(&state->kernel, module, kKernelName); r != CUDA_SUCCESS) {
        return fail("cuModuleGetFunction", r);
    }
    const size_t bytes = 2 * static_cast<size_t>(l2Bytes);
    if (CUresult r = api_->cuMemAlloc_v2(&state->buffer, bytes); r != CUDA_SUCCESS) return fail("cuMemAlloc", r);
    state->vectors = bytes / 16;
    state->blocks = static_cast<unsigned>(std::max(1, sms) * 8);
    return true;
}

bool L2Flush::Run(CUcontext context, CUstream stream, std::string* why) {
    if (!enabled_) {
        *why = "off";
        return false;
    }
    auto [it, made] = contexts_.try_emplace(context);
    PerContext& state = it->second;
    if (made) Prepare(&state);
    if (!state.failure.empty()) {
        *why = state.failure;
        return false;
    }
    CUdeviceptr sink = state.buffer;
    void* parameters[] = {&state.buffer, &state.vectors, &sink};
    const CUresult r = api_->cuLaunchKernel(state.kernel, state.blocks, 1, 1, kThreads, 1, 1, 0, stream, parameters, nullptr);
    if (r != CUDA_SUCCESS) {
        *why = Describe("flushing the L2 cache", r);
        return false;
    }
    return true;
}

}  // namespace gpaprof::cuda
