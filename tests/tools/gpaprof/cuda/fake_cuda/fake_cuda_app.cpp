// Plays the CUDA driver and a CUDA program for gpaprof's CUDA part on a machine without a GPU (fake_cuda.h): loads
// the injection library gpaprof names in CUDA_INJECTION64_PATH and calls its InitializeInjection, as the driver
// does in cuInit; creates the context; then each of `threads` threads launches `launches` kernels through the
// runtime, checking each with cudaGetLastError, and every `driver-every`-th launch one more through the driver API.
//
//   fake_cuda_app [--launches N] [--threads T] [--driver-every K] [--streams S] [--end WAY]
//
// FAKE_CUDA_INITIALIZATIONS=N calls InitializeInjection N times (default 1).
// Prints the calls it made and the callbacks it delivered (what gpaprof subscribed to decides the second), then
// ends as WAY says: return (from main, the default), exit, _exit, abort, or still-launching (main returns once every
// thread made N launches, while the threads go on launching; it prints how many launches were made before).
#include <dlfcn.h>
#include <pthread.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "fake_cuda.h"

namespace {

long Argument(int argc, char** argv, const char* name, long fallback) {
    for (int i = 1; i + 1 < argc; ++i) {
        if (std::strcmp(argv[i], name) == 0) return std::strtol(argv[i + 1], nullptr, 10);
    }
    return fallback;
}

std::string TextArgument(int argc, char** argv, const char* name, const char* fallback) {
    for (int i = 1; i + 1 < argc; ++i) {
        if (std::strcmp(argv[i], name) == 0) return argv[i + 1];
    }
    return fallback;
}

std::atomic<long> g_launched{0};

}  // namespace

int main(int argc, char** argv) {
    const long launches = Argument(argc, argv, "--launches", 100);
    const long threads = Argument(argc, argv, "--threads", 1);
    const long driverEvery = Argument(argc, argv, "--driver-every", 10);
    const long streams = Argument(argc, argv, "--streams", 1);
    const std::string end = TextArgument(argc, argv, "--end", "return");
    const bool stillLaunching = end == "still-launching";
    if (end != "return" && end != "exit" && end != "_exit" && end != "abort" && !stillLaunching) {
        std::fprintf(stderr, "fake_cuda_app: --end %s: not return, exit, _exit, abort or still-launching\n", end.c_str());
        return 2;
    }
    if (const char* injection = std::getenv("CUDA_INJECTION64_PATH"); injection && *injection) {
        void* library = dlopen(injection, RTLD_NOW);
        auto* initialize = library ? reinterpret_cast<int (*)()>(dlsym(library, "InitializeInjection")) : nullptr;
        if (!initialize) {
            std::fprintf(stderr, "fake_cuda_app: cannot load %s: %s\n", injection, dlerror());
            return 2;
        }
        // FAKE_CUDA_INITIALIZATIONS=2: called again, as the real driver does when the process initialises it too
        // (gpaprof does, to read the devices, wherever libcuda.so.1 is installed).
        const char* times = std::getenv("FAKE_CUDA_INITIALIZATIONS");
        for (long i = 0, n = times ? std::strtol(times, nullptr, 10) : 1; i < n; ++i) initialize();
    }
    FakeCudaCreateContext();
    const auto start = std::chrono::steady_clock::now();
    std::vector<std::thread> workers;
    for (long t = 0; t < threads; ++t) {
        workers.emplace_back([=] {
            pthread_setname_np(pthread_self(), "fake-launcher");  // (for profilers: the launching threads)
            for (long i = 0; i < launches || stillLaunching; ++i) {
                const uint64_t stream = static_cast<uint64_t>(0x1000 * (1 + t * streams + i % streams));
                FakeCudaRuntimeLaunch(stream);
                FakeCudaGetLastError();
                if (driverEvery > 0 && i % driverEvery == driverEvery - 1) FakeCudaDriverLaunch(stream);
                g_launched.fetch_add(1, std::memory_order_relaxed);
            }
        });
    }
    if (stillLaunching) {
        for (std::thread& worker : workers) worker.detach();
        while (g_launched.load() < threads * launches) std::this_thread::sleep_for(std::chrono::microseconds(100));
        std::printf("fake_cuda_app: main returns while %ld thread(s) launch; launches_before_exit=%ld\n", threads,
                    g_launched.load());
        std::fflush(stdout);
        return 0;
    }
    for (std::thread& worker : workers) worker.join();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    uint64_t getLastError = 0;
    const uint64_t delivered = FakeCudaCallbacksDelivered(&getLastError);
    const long driverLaunches = driverEvery > 0 ? threads * (launches / driverEvery) : 0;
    std::printf("fake_cuda_app: %ld runtime launches, %ld driver launches, %ld cudaGetLastError calls; %llu callbacks delivered, "
                "%llu of them cudaGetLastError's; loop_seconds=%.6f ns_per_launch=%.1f\n",
                threads * launches, driverLaunches, threads * launches, static_cast<unsigned long long>(delivered),
                static_cast<unsigned long long>(getLastError), seconds, seconds * 1e9 / static_cast<double>(threads * launches));
    std::fflush(stdout);
    if (end == "exit") std::exit(0);
    if (end == "_exit") _exit(0);
    if (end == "abort") std::abort();
    return 0;
}
