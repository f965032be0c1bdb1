// Shared by gpaprof's CUDA test programs: error checks that name the failing call, and --probe.
#pragma once

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

// Exits with status 2 and the failing call when a CUDA runtime call fails.
#define CHECK(call)                                                                                        \
    do {                                                                                                   \
        const cudaError_t check_error_ = (call);                                                           \
        if (check_error_ != cudaSuccess) {                                                                 \
            std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,                      \
                         cudaGetErrorString(check_error_));                                                \
            std::exit(2);                                                                                  \
        }                                                                                                  \
    } while (0)

#define CHECK_LAUNCH() CHECK(cudaGetLastError())

// `--probe`: exit status 0 when a CUDA device is usable, 77 (the test drivers' "skip") when not.
inline void ProbeIfAsked(int argc, char** argv) {
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--probe") == 0) {
            int count = 0;
            const cudaError_t error = cudaGetDeviceCount(&count);
            if (error != cudaSuccess || count == 0) {
                std::printf("no CUDA device: %s\n", error != cudaSuccess ? cudaGetErrorString(error) : "none found");
                std::exit(77);
            }
            std::exit(0);
        }
    }
}

inline int IntArgument(int argc, char** argv, const char* name, int fallback) {
    for (int i = 1; i + 1 < argc; ++i) {
        if (std::strcmp(argv[i], name) == 0) return std::atoi(argv[i + 1]);
    }
    return fallback;
}

inline const char* StringArgument(int argc, char** argv, const char* name, const char* fallback) {
    for (int i = 1; i + 1 < argc; ++i) {
        if (std::strcmp(argv[i], name) == 0) return argv[i + 1];
    }
    return fallback;
}

inline bool HasArgument(int argc, char** argv, const char* name) {
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], name) == 0) return true;
    }
    return false;
}
