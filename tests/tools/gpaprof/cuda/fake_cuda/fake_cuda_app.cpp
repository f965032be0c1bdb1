// Plays the CUDA driver and a CUDA program for gpaprof's CUDA part on a machine without a GPU (fake_cuda.h): loads
// the injection library gpaprof names in CUDA_INJECTION64_PATH and calls its InitializeInjection, as the driver
// does in cuInit; creates the context; then each of `threads` threads launches `launches` kernels through the
// runtime, checking each with cudaGetLastError, and every `driver-every`-th launch one more through the driver API.
//
//   fake_cuda_app [--launches N] [--threads T] [--driver-every K] [--streams S]
//
// Prints the calls it made and the callbacks it delivered (what gpaprof subscribed to decides the second).
#include <dlfcn.h>
#include <pthread.h>

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

}  // namespace

int main(int argc, char** argv) {
    const long launches = Argument(argc, argv, "--launches", 100);
    const long threads = Argument(argc, argv, "--threads", 1);
    const long driverEvery = Argument(argc, argv, "--driver-every", 10);
    const long streams = Argument(argc, argv, "--streams", 1);
    if (const char* injection = std::getenv("CUDA_INJECTION64_PATH"); injection && *injection) {
        void* library = dlopen(injection, RTLD_NOW);
        auto* initialize = library ? reinterpret_cast<int (*)()>(dlsym(library, "InitializeInjection")) : nullptr;
        if (!initialize) {
            std::fprintf(stderr, "fake_cuda_app: cannot load %s: %s\n", injection, dlerror());
            return 2;
        }
        initialize();
    }
    FakeCudaCreateContext();
    const auto start = std::chrono::steady_clock::now();
    std::vector<std::thread> workers;
    for (long t = 0; t < threads; ++t) {
        workers.emplace_back([=] {
            pthread_setname_np(pthread_self(), "fake-launcher");  // (for profilers: the launching threads)
            for (long i = 0; i < launches; ++i) {
                const uint64_t stream = static_cast<uint64_t>(0x1000 * (1 + t * streams + i % streams));
                FakeCudaRuntimeLaunch(stream);
                FakeCudaGetLastError();
                if (driverEvery > 0 && i % driverEvery == driverEvery - 1) FakeCudaDriverLaunch(stream);
            }
        });
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
    return 0;
}
