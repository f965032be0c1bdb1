// Launches kernels, waits for them, then dies without any clean-up: gpaprof's files must still hold every
// call and kernel recorded before the end.
//
//   crash_after_kernels [--launches L] [--segv] [--probe]      (default: abort())
#include <csignal>

#include "app_common.cuh"

__global__ void increment(int* counter) { atomicAdd(counter, 1); }

int main(int argc, char** argv) {
    ProbeIfAsked(argc, argv);
    const int launches = IntArgument(argc, argv, "--launches", 5);
    int* counter = nullptr;
    CHECK(cudaMalloc(&counter, sizeof(int)));
    CHECK(cudaMemset(counter, 0, sizeof(int)));
    for (int l = 0; l < launches; ++l) {
        increment<<<4, 64>>>(counter);
        CHECK_LAUNCH();
    }
    int value = 0;
    CHECK(cudaMemcpy(&value, counter, sizeof value, cudaMemcpyDeviceToHost));
    std::printf("crash_after_kernels: %d increments, now dying\n", value);
    std::fflush(stdout);
    if (HasArgument(argc, argv, "--segv")) {
        volatile int* nowhere = nullptr;
        *nowhere = value;
    }
    std::abort();
}
