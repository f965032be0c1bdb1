#include "tools/gpaprof/cuda/l2_flush.h"

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
    if (!api_->cuCtxCreate_v4 || !api_->cuModuleLoadData || !api_->cuModuleGetFunction) enabled_ = false;
}

std::string L2Flush::Describe(const char* call, CUresult result) const {
    const char* name = nullptr;
    if (api_->cuGetErrorName(result, &name) != CUDA_SUCCESS || !name) name = "CUDA error";
    return std::string(call) + " failed: " + name + " (" + std::to_string(static_cast<int>(result)) + ")";
}

bool L2Flush::Prepare(CUdevice device, Device* state) {
    auto fail = [&](const char* call, CUresult result) {
        state->failure = Describe(call, result);
        if (state->own) {
            CUcontext popped = nullptr;
            api_->cuCtxPopCurrent_v2(&popped);
        }
        return false;
    };
    int l2Bytes = 0, sms = 0;
    api_->cuDeviceGetAttribute(&l2Bytes, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, device);
    api_->cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, device);
    if (l2Bytes <= 0) {
        state->failure = "the device does not say the size of its L2 cache";
        return false;
    }
    // Made current by its creation, popped when ready (or failed).
    if (CUresult r = api_->cuCtxCreate_v4(&state->own, nullptr, 0, device); r != CUDA_SUCCESS) {
        state->own = nullptr;
        return fail("cuCtxCreate", r);
    }
    CUmodule module = nullptr;
    if (CUresult r = api_->cuModuleLoadData(&module, kFlushPtx); r != CUDA_SUCCESS) return fail("cuModuleLoadData", r);
    if (CUresult r = api_->cuModuleGetFunction(&state->kernel, module, "gpaprof_l2_flush"); r != CUDA_SUCCESS) {
        return fail("cuModuleGetFunction", r);
    }
    const size_t bytes = 2 * static_cast<size_t>(l2Bytes);
    if (CUresult r = api_->cuMemAlloc_v2(&state->buffer, bytes); r != CUDA_SUCCESS) return fail("cuMemAlloc", r);
    state->vectors = bytes / 16;
    state->blocks = static_cast<unsigned>(std::max(1, sms) * 8);
    if (CUresult r = api_->cuStreamCreate(&state->stream, CU_STREAM_NON_BLOCKING); r != CUDA_SUCCESS) {
        return fail("cuStreamCreate", r);
    }
    uint32_t id = 0;
    if (api_->cuptiGetContextId && api_->cuptiGetContextId(state->own, &id) == CUPTI_SUCCESS) {
        std::lock_guard<std::mutex> lock(mutex_);
        cuptiContextIds_.insert(id);
    }
    CUcontext popped = nullptr;
    api_->cuCtxPopCurrent_v2(&popped);
    return true;
}

L2Flush::Device* L2Flush::CurrentDevice(std::string* why) {
    CUdevice device = 0;
    if (CUresult r = api_->cuCtxGetDevice(&device); r != CUDA_SUCCESS) {
        *why = Describe("cuCtxGetDevice", r);
        return nullptr;
    }
    auto [it, made] = devices_.try_emplace(device);
    if (made) Prepare(device, &it->second);
    if (!it->second.failure.empty()) {
        *why = it->second.failure;
        return nullptr;
    }
    return &it->second;
}

bool L2Flush::Run(CUstream stream, std::string* why) {
    if (!enabled_) {
        *why = "off";
        return false;
    }
    Device* device = CurrentDevice(why);
    if (!device) return false;
    if (CUresult r = api_->cuStreamSynchronize(stream); r != CUDA_SUCCESS) {
        *why = Describe("cuStreamSynchronize", r);
        return false;
    }
    if (CUresult r = api_->cuCtxPushCurrent_v2(device->own); r != CUDA_SUCCESS) {
        *why = Describe("cuCtxPushCurrent", r);
        return false;
    }
    CUdeviceptr sink = device->buffer;
    void* parameters[] = {&device->buffer, &device->vectors, &sink};
    CUresult r = api_->cuLaunchKernel(device->kernel, device->blocks, 1, 1, kThreads, 1, 1, 0, device->stream, parameters, nullptr);
    if (r == CUDA_SUCCESS) r = api_->cuStreamSynchronize(device->stream);
    CUcontext popped = nullptr;
    api_->cuCtxPopCurrent_v2(&popped);
    if (r != CUDA_SUCCESS) {
        *why = Describe("flushing the L2 cache", r);
        return false;
    }
    return true;
}

bool L2Flush::OwnsContext(uint32_t cuptiContextId) const {
    std::lock_guard<std::mutex> lock(mutex_);
    return cuptiContextIds_.count(cuptiContextId) != 0;
}

}  // namespace gpaprof::cuda
