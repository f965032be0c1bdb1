// The program the gpaprof benchmarks profile: N kernel launches cycling through the three bench kernels (or
// one of them), timed from inside the program (CLOCK_MONOTONIC around the loop and its final synchronisation).
//
//   launch_loop [--launches N] [--elements E] [--kernel mix|saxpy|fma|reduce] [--free 0|1] [--warmup W]
//   (--free 0: the buffers are left to the process's end, as programs that never free do; --warmup W: W launches
//   before the timed loop, so that it leaves out the first launch's module load and a tool's first-call costs)
//   prints: launch_loop launches=N elements=E kernel=K loop_seconds=S
#include <cstring>
#include <ctime>
#include <string>

#include "bench_kernels.cuh"

static double Seconds() {
    timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return now.tv_sec + now.tv_nsec * 1e-9;
}

int main(int argc, char** argv) {
    int launches = 1000, elements = 1 << 20;
    std::string kernel = "mix";
    bool free = true;
    int warmup = 0;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--launches")) launches = std::atoi(argv[i + 1]);
        else if (!std::strcmp(argv[i], "--elements")) elements = std::atoi(argv[i + 1]);
        else if (!std::strcmp(argv[i], "--kernel")) kernel = argv[i + 1];
        else if (!std::strcmp(argv[i], "--free")) free = std::atoi(argv[i + 1]) != 0;
        else if (!std::strcmp(argv[i], "--warmup")) warmup = std::atoi(argv[i + 1]);
    }
    elements = (elements + 255) / 256 * 256;
    const int fixed = kernel == "saxpy" ? 0 : kernel == "fma" ? 1 : kernel == "reduce" ? 2 : -1;
    BenchBuffers buffers;
    buffers.Allocate(elements);
    for (int l = 0; l < warmup; ++l) buffers.Launch(fixed >= 0 ? fixed : l % 3);
    BENCH_CHECK(cudaDeviceSynchronize());
    const double start = Seconds();
    for (int l = 0; l < launches; ++l) {
        buffers.Launch(fixed >= 0 ? fixed : l % 3);
        BENCH_CHECK(cudaGetLastError());
    }
    BENCH_CHECK(cudaDeviceSynchronize());
    const double seconds = Seconds() - start;
    if (free) buffers.Free();
    std::printf("launch_loop launches=%d elements=%d kernel=%s loop_seconds=%.6f\n", launches, elements, kernel.c_str(),
                seconds);
    return 0;
}
