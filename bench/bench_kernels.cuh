// Kernels the benchmarks launch: deterministic (each writes a function of its inputs only, so replayed or
// repeated launches give identical results and identical integer counter values) and different in kind:
// streaming memory, FMA-bound arithmetic, shared-memory reduction.
#pragma once

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

#define BENCH_CHECK(call)                                                                                   \
    do {                                                                                                    \
        const cudaError_t bench_error_ = (call);                                                            \
        if (bench_error_ != cudaSuccess) {                                                                  \
            std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(bench_error_)); \
            std::exit(2);                                                                                   \
        }                                                                                                   \
    } while (0)

// out = a * x + y
__global__ void bench_saxpy(float* out, const float* x, const float* y, float a, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = a * x[i] + y[i];
}

// out = a polynomial of in, evaluated with `rounds` dependent FMAs per element
__global__ void bench_fma(float* out, const float* in, int n, int rounds) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = in[i];
    float acc = 0.0f;
    for (int r = 0; r < rounds; ++r) acc = acc * 0.999f + v;
    out[i] = acc;
}

// out[block] = sum of the block's 256 inputs, through shared memory
__global__ void bench_reduce(float* out, const float* in) {
    __shared__ float partial[256];
    partial[threadIdx.x] = in[blockIdx.x * 256 + threadIdx.x];
    __syncthreads();
    for (int stride = 128; stride > 0; stride /= 2) {
        if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0) out[blockIdx.x] = partial[0];
}

// The three kernels over n elements (n a multiple of 256).
struct BenchBuffers {
    int n = 0;
    float *x = nullptr, *y = nullptr, *out = nullptr, *sums = nullptr;

    void Allocate(int elements) {
        n = elements;
        BENCH_CHECK(cudaMalloc(&x, n * sizeof(float)));
        BENCH_CHECK(cudaMalloc(&y, n * sizeof(float)));
        BENCH_CHECK(cudaMalloc(&out, n * sizeof(float)));
        BENCH_CHECK(cudaMalloc(&sums, (n / 256) * sizeof(float)));
        float* host = static_cast<float*>(std::malloc(n * sizeof(float)));
        for (int i = 0; i < n; ++i) host[i] = static_cast<float>(i % 97) * 0.01f;
        BENCH_CHECK(cudaMemcpy(x, host, n * sizeof(float), cudaMemcpyHostToDevice));
        BENCH_CHECK(cudaMemcpy(y, host, n * sizeof(float), cudaMemcpyHostToDevice));
        std::free(host);
    }
    void Free() {
        cudaFree(x);
        cudaFree(y);
        cudaFree(out);
        cudaFree(sums);
    }
    // Launches kernel `which` (0 saxpy, 1 fma, 2 reduce) on `stream`.
    void Launch(int which, cudaStream_t stream = nullptr) const {
        const int blocks = n / 256;
        if (which == 0) bench_saxpy<<<blocks, 256, 0, stream>>>(out, x, y, 2.0f, n);
        if (which == 1) bench_fma<<<blocks, 256, 0, stream>>>(out, x, n, 64);
        if (which == 2) bench_reduce<<<blocks, 256, 0, stream>>>(sums, x);
    }
};
