// The GPA C++ API (include/gpa/gpa.hpp) on CUDA: measure a kernel at several problem sizes, one GPA sample
// per size, with the counters that say whether it is bound by memory: GPUTime, FetchSize, WriteSize and
// L2CacheHit. The bandwidth it prints is computed from GPA's own counters.
//
// Links to libGPUPerfAPICUDA.so directly; the CUcontext is the device's primary context, which the CUDA
// runtime uses too. Errors arrive as gpa::Error (status and reason).
// Run: gpa_cpp_example_cuda [--sessions N]
#include <cuda.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpa/gpa.hpp"

namespace {

// y = a * x + y as PTX, compiled by the driver at load time (no nvcc needed to build the sample).
const char* const kPtx = R"PTX(
.version 7.0
.target sm_70
.address_size 64
.visible .entry saxpy(.param .u64 y, .param .u64 x, .param .f32 a, .param .u32 n)
{
  .reg .pred %p; .reg .b32 %r<6>; .reg .f32 %f<4>; .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [y]; ld.param.u64 %rd2, [x]; ld.param.f32 %f1, [a]; ld.param.u32 %r1, [n];
  mov.u32 %r2, %ctaid.x; mov.u32 %r3, %ntid.x; mov.u32 %r4, %tid.x; mad.lo.s32 %r5, %r2, %r3, %r4;
  setp.ge.u32 %p, %r5, %r1; @%p bra DONE;
  mul.wide.u32 %rd3, %r5, 4;
  cvta.to.global.u64 %rd4, %rd1; add.s64 %rd4, %rd4, %rd3;
  cvta.to.global.u64 %rd5, %rd2; add.s64 %rd5, %rd5, %rd3;
  ld.global.f32 %f2, [%rd5]; ld.global.f32 %f3, [%rd4];
  fma.rn.f32 %f3, %f1, %f2, %f3; st.global.f32 [%rd4], %f3;
DONE:
  ret;
}
)PTX";

void Check(CUresult result, const char* what) {
    if (result == CUDA_SUCCESS) return;
    const char* text = nullptr;
    cuGetErrorString(result, &text);
    throw std::runtime_error(std::string(what) + " failed: " + (text != nullptr ? text : "unknown CUDA error"));
}

struct NoDevice : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct Cuda {
    CUdevice device = 0;
    CUcontext context = nullptr;
    CUmodule module = nullptr;
    CUfunction saxpy = nullptr;
    CUdeviceptr x = 0, y = 0;

    explicit Cuda(size_t elements) {
        if (cuInit(0) != CUDA_SUCCESS) throw NoDevice("no CUDA device (cuInit failed)");
        Check(cuDeviceGet(&device, 0), "cuDeviceGet");
        Check(cuDevicePrimaryCtxRetain(&context, device), "cuDevicePrimaryCtxRetain");
        Check(cuCtxSetCurrent(context), "cuCtxSetCurrent");
        Check(cuModuleLoadData(&module, kPtx), "cuModuleLoadData");
        Check(cuModuleGetFunction(&saxpy, module, "saxpy"), "cuModuleGetFunction");
        Check(cuMemAlloc(&x, elements * sizeof(float)), "cuMemAlloc");
        Check(cuMemAlloc(&y, elements * sizeof(float)), "cuMemAlloc");
        Check(cuMemsetD32(x, 0x3f800000u, elements), "cuMemsetD32");
        Check(cuMemsetD32(y, 0x3f800000u, elements), "cuMemsetD32");
    }
    ~Cuda() {
        cuCtxSynchronize();
        if (y) cuMemFree(y);
        if (x) cuMemFree(x);
        if (module) cuModuleUnload(module);
        if (context) cuDevicePrimaryCtxRelease(device);
    }
    Cuda(const Cuda&) = delete;
    Cuda& operator=(const Cuda&) = delete;

    void Saxpy(unsigned elements) {
        float a = 2.0f;
        void* arguments[] = {&y, &x, &a, &elements};
        Check(cuLaunchKernel(saxpy, (elements + 255) / 256, 1, 1, 256, 1, 1, 0, nullptr, arguments, nullptr), "cuLaunchKernel");
    }
};

}  // namespace

int main(int argc, char** argv) {
    int sessions = 2;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--sessions") == 0 && i + 1 < argc) {
            sessions = std::atoi(argv[++i]);
        } else {
            std::printf("usage: gpa_cpp_example_cuda [--sessions N]\n"
                        "Measures a saxpy kernel at several sizes with the GPA C++ API (one sample per size).\n");
            return std::strcmp(argv[i], "--help") == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
        }
    }
    const std::vector<unsigned> sizes = {1u << 20, 1u << 22, 1u << 24, 1u << 26};
    try {
        Cuda cuda(sizes.back());
        gpa::Library library;
        gpa::Context context(cuda.context);
        std::printf("device: %s\n", context.DeviceDescription().value_or("(unknown)").c_str());
        for (const char* name : {"GPUTime", "FetchSize", "WriteSize", "L2CacheHit"}) context.Enable(name);

        for (int s = 0; s < sessions; ++s) {
            gpa::Session session = context.BeginSession();
            std::printf("session %u: %u passes\n", session.id(), session.PassCount());
            session.ForEachPass([&](gpa::Pass& pass) {
                for (gpa_uint32 sample = 0; sample < sizes.size(); ++sample) {
                    pass.Measure(sample, [&] { cuda.Saxpy(sizes[sample]); });
                }
            });
            const gpa::Results results = session.End();
            for (gpa_uint32 sample = 0; sample < results.SampleCount(); ++sample) {
                const double ms = results.Get<double>(sample, "GPUTime");
                const double kilobytes = results.Get<double>(sample, "FetchSize") + results.Get<double>(sample, "WriteSize");
                std::printf("session %u sample %u (%u elements): GPUTime = %.4f ms, FetchSize + WriteSize = %.0f KB, "
                            "L2CacheHit = %.1f%% -> %.1f GB/s\n",
                            results.id(), sample, sizes[sample], ms, kilobytes, results.Get<double>(sample, "L2CacheHit"),
                            ms > 0 ? kilobytes * 1024.0 / (ms * 1e6) : 0.0);
            }
        }
        return EXIT_SUCCESS;
    } catch (const NoDevice& error) {
        std::fprintf(stderr, "%s: nothing to profile here\n", error.what());
        return 77;
    } catch (const gpa::Error& error) {
        std::fprintf(stderr, "GPA error %s: %s\n", GPA_GetStatusAsStr(error.status()), error.what());
    } catch (const std::exception& error) {
        std::fprintf(stderr, "error: %s\n", error.what());
    }
    return EXIT_FAILURE;
}
