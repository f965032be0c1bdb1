// Ends in one of the ways real programs end, right after launching kernels, without synchronising, freeing or
// resetting anything unless the way says so: gpaprof must write every dispatch and keep the exit code.
//
//   exit_paths --way W [--launches N] [--exit-code C] [--count-file F] [--graph] [--probe]
//     --graph      the kernels are the 5 nodes of a CUDA graph (made by stream capture), launched N / 5 times
//     return       copies one result back, prints it and returns C from main
//     exit         ... calls exit(C)
//     _exit        ... cudaDeviceSynchronize, then _exit(C) (no atexit handler, no static destructor runs)
//     quick_exit   ... quick_exit(C)
//     static       returns C; a static object's destructor then launches N more kernels and copies a result
//     reset        cudaDeviceReset(), then returns C
//     thread       a detached thread launches kernels until the process ends, adding one to the count in F
//                  after each launch returned; main returns C once the thread has launched N
//     abort        abort() (rows up to the last completed dispatch)
// Prints "exit_paths: <way> <launches> launches" before it ends.
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "app_common.cuh"

__global__ void add_one(int* counter) { atomicAdd(counter, 1); }

namespace {

int* g_counter = nullptr;
cudaStream_t g_stream = nullptr;
cudaGraphExec_t g_graph = nullptr;  // --graph
constexpr int kGraphNodes = 5;

void MakeGraph() {
    CHECK(cudaStreamCreate(&g_stream));
    cudaGraph_t graph = nullptr;
    CHECK(cudaStreamBeginCapture(g_stream, cudaStreamCaptureModeThreadLocal));
    for (int n = 0; n < kGraphNodes; ++n) add_one<<<2, 64, 0, g_stream>>>(g_counter);
    CHECK(cudaStreamEndCapture(g_stream, &graph));
    CHECK(cudaGraphInstantiate(&g_graph, graph, 0));
}

void Launch(int count) {
    if (g_graph) {
        for (int l = 0; l < count / kGraphNodes; ++l) CHECK(cudaGraphLaunch(g_graph, g_stream));
        return;
    }
    for (int l = 0; l < count; ++l) {
        add_one<<<2, 64>>>(g_counter);
        CHECK_LAUNCH();
    }
}

int CopyBack() {
    int value = 0;
    CHECK(cudaMemcpy(&value, g_counter, sizeof value, cudaMemcpyDeviceToHost));
    return value;
}

// A static object whose destructor still uses CUDA, as libraries' singletons do: made on first use, after
// CUDA started, so that it is destroyed before the CUDA runtime tears itself down (a static object made
// before the runtime's first call would find it gone: "driver shutting down", with or without gpaprof).
struct LaunchesAtDestruction {
    int launches = 0;
    ~LaunchesAtDestruction() {
        Launch(launches);
        std::printf("exit_paths: static destructor launched %d, counter %d\n", launches, CopyBack());
        std::fflush(stdout);
    }
};
LaunchesAtDestruction& Singleton(int launches) {
    static LaunchesAtDestruction singleton{launches};
    return singleton;
}

}  // namespace

int main(int argc, char** argv) {
    ProbeIfAsked(argc, argv);
    const std::string way = StringArgument(argc, argv, "--way", "return");
    const int launches = IntArgument(argc, argv, "--launches", 30);
    const int code = IntArgument(argc, argv, "--exit-code", 0);
    CHECK(cudaMalloc(&g_counter, sizeof(int)));
    CHECK(cudaMemset(g_counter, 0, sizeof(int)));
    if (HasArgument(argc, argv, "--graph")) MakeGraph();

    if (way == "thread") {
        const char* path = StringArgument(argc, argv, "--count-file", "launched.count");
        const int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
        if (fd < 0 || ftruncate(fd, sizeof(uint64_t)) != 0) return 2;
        void* mapped = mmap(nullptr, sizeof(uint64_t), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        if (mapped == MAP_FAILED) return 2;
        auto* count = static_cast<std::atomic<uint64_t>*>(mapped);
        std::thread([count] {
            for (;;) {
                add_one<<<2, 64>>>(g_counter);
                if (cudaGetLastError() != cudaSuccess) return;  // the runtime is going away
                count->fetch_add(1);
            }
        }).detach();
        while (count->load() < static_cast<uint64_t>(launches)) std::this_thread::sleep_for(std::chrono::microseconds(50));
        std::printf("exit_paths: thread %llu launches so far\n", static_cast<unsigned long long>(count->load()));
        std::fflush(stdout);
        return code;
    }

    Launch(launches);
    std::printf("exit_paths: %s %d launches, counter %d\n", way.c_str(), launches, CopyBack());
    std::fflush(stdout);
    if (way == "return") return code;
    if (way == "exit") std::exit(code);
    if (way == "_exit") {
        CHECK(cudaDeviceSynchronize());
        _exit(code);
    }
    if (way == "quick_exit") std::quick_exit(code);
    if (way == "static") {
        Singleton(launches);
        return code;
    }
    if (way == "reset") {
        CHECK(cudaDeviceReset());
        return code;
    }
    if (way == "abort") std::abort();
    std::fprintf(stderr, "exit_paths: unknown --way %s\n", way.c_str());
    return 2;
}
