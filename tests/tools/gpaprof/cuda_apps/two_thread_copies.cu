// Two host threads, each with its own stream, each launching copy kernels over two 128 MiB buffers of its own
// and two small kernels per round, then freeing its buffers while the other may still be launching: gpaprof
// must keep every kernel in .csv, .atp and .occupancy whichever way it replays.
//
//   two_thread_copies [--rounds R] [--mib M] [--managed] [--probe]     (8 R kernels in all)
//     --managed  the small kernels' counter is managed memory, which gpaprof's own replay cannot restore
#include <chrono>
#include <cstdio>
#include <thread>
#include <vector>

#include "app_common.cuh"

__global__ void copy_floats(float* to, const float* from, size_t n) {
    for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n; i += static_cast<size_t>(gridDim.x) * blockDim.x) {
        to[i] = from[i];
    }
}

__global__ void count_once(int* counter) {
    if (threadIdx.x == 0) atomicAdd(counter, 1);
}

int main(int argc, char** argv) {
    ProbeIfAsked(argc, argv);
    const int rounds = IntArgument(argc, argv, "--rounds", 1);
    const size_t bytes = static_cast<size_t>(IntArgument(argc, argv, "--mib", 128)) << 20;
    const bool managed = HasArgument(argc, argv, "--managed");
    std::vector<int> counts(2, 0);
    auto work = [&](int index) {
        // The second thread starts a little later, so that the first frees while the second launches.
        std::this_thread::sleep_for(std::chrono::milliseconds(index * 2));
        cudaStream_t stream = nullptr;
        CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
        float *a = nullptr, *b = nullptr;
        int* counter = nullptr;
        CHECK(cudaMalloc(&a, bytes));
        CHECK(cudaMalloc(&b, bytes));
        if (managed) {
            CHECK(cudaMallocManaged(&counter, sizeof(int)));
        } else {
            CHECK(cudaMalloc(&counter, sizeof(int)));
        }
        CHECK(cudaMemsetAsync(a, 0, bytes, stream));
        CHECK(cudaMemsetAsync(counter, 0, sizeof(int), stream));
        const size_t n = bytes / sizeof(float);
        for (int r = 0; r < rounds; ++r) {
            copy_floats<<<1024, 256, 0, stream>>>(b, a, n);
            CHECK_LAUNCH();
            copy_floats<<<1024, 256, 0, stream>>>(a, b, n);
            CHECK_LAUNCH();
            count_once<<<1, 32, 0, stream>>>(counter);
            CHECK_LAUNCH();
            count_once<<<1, 32, 0, stream>>>(counter);
            CHECK_LAUNCH();
        }
        CHECK(cudaMemcpyAsync(&counts[index], counter, sizeof(int), cudaMemcpyDeviceToHost, stream));
        CHECK(cudaStreamSynchronize(stream));
        CHECK(cudaFree(a));
        CHECK(cudaFree(b));
        CHECK(cudaFree(counter));
        CHECK(cudaStreamDestroy(stream));
    };
    std::thread first(work, 0), second(work, 1);
    first.join();
    second.join();
    if (counts[0] != 2 * rounds || counts[1] != 2 * rounds) {
        std::fprintf(stderr, "two_thread_copies: counters %d and %d, expected %d each\n", counts[0], counts[1], 2 * rounds);
        return 1;
    }
    std::printf("two_thread_copies: %d kernels\n", 8 * rounds);
    return 0;
}
