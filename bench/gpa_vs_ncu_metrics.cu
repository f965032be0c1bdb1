// The same kernels measured through OpenGPA's C API (raw NVIDIA counters, GPA_OPENCONTEXT_ENABLE_HARDWARE_COUNTERS_BIT,
// one sample per kernel, as many passes as the counters need) and, in "plain" mode, just run for ncu to profile.
// bench/gpa_vs_ncu_metrics.sh compares the two.
//
// Like with like for caches: every GPA sample starts with a cold L2, as ncu's passes do with
// --cache-control all. Before each sample (outside its range) a read-only kernel streams a buffer several
// times the L2's size, which leaves the L2 holding clean lines of that buffer and none of the kernels' data.
//
//   gpa_vs_ncu_metrics gpa <metric,metric,...>    prints: value <kernel index> <metric> <value>
//   gpa_vs_ncu_metrics plain                      launches the three kernels once
#include <cuda.h>

#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "GPUPerfAPI.h"
#include "bench_kernels.cuh"

#define GPA_OK(call)                                                                                      \
    do {                                                                                                  \
        const GPA_Status gpa_status_ = (call);                                                            \
        if (gpa_status_ != GPA_STATUS_OK) {                                                               \
            std::fprintf(stderr, "%s failed: %s (%s)\n", #call, GPA_GetStatusAsStr(gpa_status_), OGPA_GetLastErrorMessage()); \
            std::exit(3);                                                                                 \
        }                                                                                                 \
    } while (0)

constexpr int kElements = 1 << 22;

// Reads `n` floats and keeps the sum only if it is impossible, so the loads cannot be optimised away and
// nothing is written: the L2 is left clean.
__global__ void bench_flush_l2(const float* in, size_t n, float* never) {
    float sum = 0.0f;
    for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n; i += static_cast<size_t>(gridDim.x) * blockDim.x) {
        sum += in[i];
    }
    if (sum == -1.0f) *never = sum;
}

struct L2Flush {
    float* buffer = nullptr;
    size_t n = 0;
    void Allocate() {
        int device = 0, l2 = 0;
        BENCH_CHECK(cudaGetDevice(&device));
        BENCH_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device));
        n = 4 * static_cast<size_t>(l2) / sizeof(float);
        BENCH_CHECK(cudaMalloc(&buffer, n * sizeof(float) + sizeof(float)));
        BENCH_CHECK(cudaMemset(buffer, 0, n * sizeof(float) + sizeof(float)));
    }
    void Run() const {
        bench_flush_l2<<<1024, 256>>>(buffer, n, buffer + n);
        BENCH_CHECK(cudaDeviceSynchronize());
    }
};

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: gpa_vs_ncu_metrics gpa <metrics> | plain\n");
        return 2;
    }
    BenchBuffers buffers;
    BENCH_CHECK(cudaSetDevice(0));
    buffers.Allocate(kElements);
    L2Flush flush;
    flush.Allocate();
    BENCH_CHECK(cudaDeviceSynchronize());
    if (!std::strcmp(argv[1], "plain")) {
        for (int k = 0; k < 3; ++k) buffers.Launch(k);
        BENCH_CHECK(cudaDeviceSynchronize());
        buffers.Free();
        return 0;
    }
    if (argc < 3) return 2;
    CUcontext context = nullptr;
    cuCtxGetCurrent(&context);
    GPA_OK(GPA_Initialize());
    GPA_OK(GPA_OpenContext(context, static_cast<GPA_OpenContextFlags>(GPA_OPENCONTEXT_HIDE_PUBLIC_COUNTERS_BIT |
                                                                      GPA_OPENCONTEXT_ENABLE_HARDWARE_COUNTERS_BIT)));
    std::vector<std::string> metrics;
    std::stringstream list(argv[2]);
    std::string metric;
    while (std::getline(list, metric, ',')) {
        if (metric.empty()) continue;
        if (GPA_EnableCounterStr(metric.c_str()) == GPA_STATUS_OK) {
            metrics.push_back(metric);
        } else {
            std::printf("missing %s %s\n", metric.c_str(), OGPA_GetLastErrorMessage());
        }
    }
    gpa_uint32 session = 0, passes = 0;
    GPA_OK(GPA_BeginSession(&session));
    GPA_OK(GPA_GetPassCount(&passes));
    std::printf("passes %u\n", passes);
    for (gpa_uint32 pass = 0; pass < passes; ++pass) {
        GPA_OK(GPA_BeginPass());
        for (int k = 0; k < 3; ++k) {
            flush.Run();
            GPA_OK(GPA_BeginSample(static_cast<gpa_uint32>(k)));
            buffers.Launch(k);
            GPA_OK(GPA_EndSample());
        }
        GPA_OK(GPA_EndPass());
    }
    GPA_OK(GPA_EndSession());
    bool ready = false;
    while (!ready) GPA_OK(GPA_IsSessionReady(&ready, session));
    for (int k = 0; k < 3; ++k) {
        for (const std::string& name : metrics) {
            gpa_uint32 index = 0;
            GPA_Type type = GPA_TYPE_FLOAT64;
            GPA_OK(GPA_GetCounterIndex(name.c_str(), &index));
            GPA_OK(GPA_GetCounterDataType(index, &type));
            double value = 0.0;
            if (type == GPA_TYPE_UINT64) {
                gpa_uint64 integer = 0;
                GPA_OK(GPA_GetSampleUInt64(session, k, index, &integer));
                value = static_cast<double>(integer);
            } else if (type == GPA_TYPE_UINT32) {
                gpa_uint32 integer = 0;
                GPA_OK(GPA_GetSampleUInt32(session, k, index, &integer));
                value = integer;
            } else if (type == GPA_TYPE_FLOAT32) {
                gpa_float32 real = 0;
                GPA_OK(GPA_GetSampleFloat32(session, k, index, &real));
                value = real;
            } else {
                GPA_OK(GPA_GetSampleFloat64(session, k, index, &value));
            }
            std::printf("value %d %s %.17g\n", k, name.c_str(), value);
        }
    }
    GPA_OK(GPA_CloseContext());
    GPA_OK(GPA_Destroy());
    buffers.Free();
    return 0;
}
