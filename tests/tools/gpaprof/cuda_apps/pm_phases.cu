// Alternating phases of known kind for gpaprof --pm-sampling (issue 35): --pairs times a memory-bound kernel
// (MemoryPhase: writes 1 GiB --repeats times over, about 5 ms on an H200) followed at once, on the same stream, by a
// compute-bound kernel (ComputePhase: chains of FMAs in registers, no memory traffic but its one store, about
// 5 ms with the default --iterations). The phases' times are the kernels' (the .atp); the samples must show DRAM
// busy in the first kind and SMs busy without DRAM in the second, switching where the trace switches.
//
//   pm_phases [--pairs P] [--repeats R] [--iterations N] [--probe]
// Prints "pm_phases: <P> pairs".
#include <cstdio>

#include "app_common.cuh"

__global__ void MemoryPhase(uint4* data, size_t words, int repeats) {
    for (int r = 0; r < repeats; ++r) {
        for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < words; i += size_t(gridDim.x) * blockDim.x) {
            data[i] = make_uint4(r, r, r, r);
        }
    }
}

__global__ void ComputePhase(float* out, int iterations) {
    float a = threadIdx.x * 1e-3f, b = a + 1, c = a + 2, d = a + 3;
    for (int i = 0; i < iterations; ++i) {
        a = fmaf(a, 0.9999f, 1e-4f);
        b = fmaf(b, 0.9999f, 1e-4f);
        c = fmaf(c, 0.9999f, 1e-4f);
        d = fmaf(d, 0.9999f, 1e-4f);
    }
    // One store a block, so that the chains are not optimised away and the phase moves next to no bytes.
    if (threadIdx.x == 0) out[blockIdx.x] = a + b + c + d;
}

int main(int argc, char** argv) {
    ProbeIfAsked(argc, argv);
    const int pairs = IntArgument(argc, argv, "--pairs", 4);
    const int repeats = IntArgument(argc, argv, "--repeats", 20);
    const int iterations = IntArgument(argc, argv, "--iterations", 150000);
    const size_t bytes = size_t(1) << 30;
    uint4* data = nullptr;
    float* out = nullptr;
    CHECK(cudaMalloc(&data, bytes));
    CHECK(cudaMalloc(&out, 1 << 20));
    int sms = 0;
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    CHECK(cudaDeviceSynchronize());
    for (int p = 0; p < pairs; ++p) {
        MemoryPhase<<<sms * 8, 512>>>(data, bytes / sizeof(uint4), repeats);
        CHECK_LAUNCH();
        ComputePhase<<<sms * 8, 256>>>(out, iterations);
        CHECK_LAUNCH();
    }
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaFree(data));
    CHECK(cudaFree(out));
    std::printf("pm_phases: %d pairs\n", pairs);
    return 0;
}
