// Kernels of known DRAM traffic and length, apart in time, for gpaprof --pm-sampling (issue 35): each writes
// --gib GiB --repeats times over (40 GiB: about 10 ms on an H200), then the program sleeps --gap-ms.
//
//   known_dram_writes [--kernels K] [--gib G] [--repeats R] [--gap-ms M] [--probe]
// Prints "known_dram_writes: <K> kernels, <bytes> bytes written each".
#include <chrono>
#include <cstdio>
#include <thread>

#include "app_common.cuh"

__global__ void WriteAll(uint4* data, size_t words, int repeats) {
    for (int r = 0; r < repeats; ++r) {
        for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < words; i += size_t(gridDim.x) * blockDim.x) {
            data[i] = make_uint4(r, r, r, r);
        }
    }
}

int main(int argc, char** argv) {
    ProbeIfAsked(argc, argv);
    const int kernels = IntArgument(argc, argv, "--kernels", 3);
    const size_t bytes = size_t(IntArgument(argc, argv, "--gib", 1)) << 30;
    const int repeats = IntArgument(argc, argv, "--repeats", 40);
    const int gapMs = IntArgument(argc, argv, "--gap-ms", 20);
    uint4* data = nullptr;
    CHECK(cudaMalloc(&data, bytes));
    CHECK(cudaMemset(data, 0, bytes));
    CHECK(cudaDeviceSynchronize());
    for (int k = 0; k < kernels; ++k) {
        std::this_thread::sleep_for(std::chrono::milliseconds(gapMs));
        WriteAll<<<1056, 512>>>(data, bytes / sizeof(uint4), repeats);
        CHECK_LAUNCH();
        CHECK(cudaDeviceSynchronize());
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(gapMs));
    CHECK(cudaFree(data));
    std::printf("known_dram_writes: %d kernels, %zu bytes written each\n", kernels, bytes * repeats);
    return 0;
}
