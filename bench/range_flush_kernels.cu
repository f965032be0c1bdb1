// Kernels of bench/range_flush_cost (its host part is C++20, which nvcc here does not take).
#include <cuda.h>

#include "bench_kernels.cuh"
#include "range_flush_kernels.h"

namespace {

BenchBuffers g_buffers;

}  // namespace

void ProbeSetUp(int elements) {
    BENCH_CHECK(cudaFree(nullptr));
    g_buffers.Allocate(elements);
    BENCH_CHECK(cudaDeviceSynchronize());
}

void ProbeLaunch(CUstream stream) { g_buffers.Launch(0, reinterpret_cast<cudaStream_t>(stream)); }
