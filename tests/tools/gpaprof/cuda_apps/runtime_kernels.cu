// gpaprof's main CUDA test program: runtime API calls, kernels with known resources and work, a launch
// through the driver API, copies and sets, NVTX ranges and gpaprof's own markers, and a chosen exit code.
//
//   runtime_kernels [--iterations N] [--exit-code C] [--name-query] [--probe]
//
// Per iteration: saxpy<<<4096, 256>>> (runtime), block_sum<<<512, 256, 1 KiB dynamic>>> (static and dynamic
// shared memory), saxpy again through cuLaunchKernel (driver API). Every result is checked on the host.
// --name-query: before the loop the application asks the driver for saxpy's name itself (cuKernelGetName, which
// the runtime also calls before every launch).
#include <cuda.h>
#include <nvtx3/nvToolsExt.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "app_common.cuh"
#include "gpa/gpaprof_markers.h"

constexpr int kN = 1 << 20;
constexpr int kSaxpyBlocks = kN / 256;
constexpr int kSumBlocks = 512;

__global__ void saxpy(float* y, const float* x, float a, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}

// Sums 2048 consecutive values per block into out[blockIdx.x].
__global__ void block_sum(float* out, const float* in) {
    __shared__ float staged[256];
    extern __shared__ float partial[];
    float sum = 0.0f;
    for (int k = 0; k < 8; ++k) sum += in[blockIdx.x * 2048 + k * 256 + threadIdx.x];
    staged[threadIdx.x] = sum;
    partial[threadIdx.x] = 0.0f;
    __syncthreads();
    for (int stride = 128; stride > 0; stride /= 2) {
        if (threadIdx.x < stride) staged[threadIdx.x] += staged[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0) out[blockIdx.x] = staged[0] + partial[0];
}

int main(int argc, char** argv) {
    ProbeIfAsked(argc, argv);
    const int iterations = IntArgument(argc, argv, "--iterations", 2);
    const int exitCode = IntArgument(argc, argv, "--exit-code", 0);

    std::vector<float> x(kN), y(kN);
    for (int i = 0; i < kN; ++i) {
        x[i] = static_cast<float>(i % 17) * 0.25f;
        y[i] = static_cast<float>(i % 5);
    }
    float *dx = nullptr, *dy = nullptr, *dsum = nullptr;
    CHECK(cudaSetDevice(0));
    CHECK(cudaMalloc(&dx, kN * sizeof(float)));
    CHECK(cudaMalloc(&dy, kN * sizeof(float)));
    CHECK(cudaMalloc(&dsum, kSumBlocks * sizeof(float)));
    CHECK(cudaMemcpy(dx, x.data(), kN * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dy, y.data(), kN * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(dsum, 0, kSumBlocks * sizeof(float)));

    CUfunction saxpyFunction = nullptr;
    CHECK(cudaGetFuncBySymbol(&saxpyFunction, reinterpret_cast<const void*>(&saxpy)));
    if (HasArgument(argc, argv, "--name-query")) {
        cudaKernel_t kernel = nullptr;
        CHECK(cudaGetKernel(&kernel, reinterpret_cast<const void*>(&saxpy)));
        const char* name = nullptr;
        if (cuKernelGetName(&name, reinterpret_cast<CUkernel>(kernel)) != CUDA_SUCCESS || !name ||
            std::strstr(name, "saxpy") == nullptr) {
            std::fprintf(stderr, "cuKernelGetName did not name saxpy\n");
            return 2;
        }
    }

    const float a = 2.0f;
    gpaprofBeginMarker("all iterations", "runtime_kernels");
    for (int iteration = 0; iteration < iterations; ++iteration) {
        nvtxRangePushA("iteration");
        saxpy<<<kSaxpyBlocks, 256>>>(dy, dx, a, kN);
        CHECK_LAUNCH();
        block_sum<<<kSumBlocks, 256, 256 * sizeof(float)>>>(dsum, dy);
        CHECK_LAUNCH();
        int n = kN;
        void* arguments[] = {&dy, &dx, const_cast<float*>(&a), &n};
        const CUresult launched = cuLaunchKernel(saxpyFunction, kSaxpyBlocks, 1, 1, 256, 1, 1, 0, nullptr, arguments, nullptr);
        if (launched != CUDA_SUCCESS) {
            std::fprintf(stderr, "cuLaunchKernel failed: %d\n", static_cast<int>(launched));
            return 2;
        }
        nvtxRangePop();
    }
    CHECK(cudaDeviceSynchronize());
    gpaprofEndMarker();

    std::vector<float> result(kN), sums(kSumBlocks);
    CHECK(cudaMemcpy(result.data(), dy, kN * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(sums.data(), dsum, kSumBlocks * sizeof(float), cudaMemcpyDeviceToHost));
    // y after k saxpy launches: y0 + k * a * x; two launches per iteration.
    int wrong = 0;
    for (int i = 0; i < kN; ++i) {
        const float expected = y[i] + 2.0f * iterations * a * x[i];
        if (std::fabs(result[i] - expected) > 1e-3f * std::fabs(expected) + 1e-3f) ++wrong;
    }
    // The last block_sum saw y after 2 * iterations - 1 saxpy launches.
    for (int b = 0; b < kSumBlocks; ++b) {
        double expected = 0.0;
        for (int k = 0; k < 2048; ++k) {
            const int i = b * 2048 + k;
            expected += y[i] + (2.0 * iterations - 1.0) * a * x[i];
        }
        if (std::fabs(sums[b] - expected) > 1e-3 * std::fabs(expected) + 1e-2) ++wrong;
    }
    CHECK(cudaFree(dx));
    CHECK(cudaFree(dy));
    CHECK(cudaFree(dsum));
    if (wrong) {
        std::fprintf(stderr, "runtime_kernels: %d wrong results\n", wrong);
        return 1;
    }
    std::printf("runtime_kernels: %d iterations, %d kernel launches, results correct\n", iterations, 3 * iterations);
    return exitCode;
}
