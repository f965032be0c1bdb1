// What a GPA sample costs on the CPU against the CUPTI calls it stands for: the time spent in
// GPA_BeginSample + GPA_EndSample around each kernel launch of a one-pass session, divided by the time spent in
// cuptiRangeProfilerPushRange + cuptiRangeProfilerPopRange around the same launches in a user-range session
// set up directly with CUPTI, in the same process. Rounds alternate between the two; medians are printed.
//
//   sample_overhead [--samples N] [--rounds R]        (defaults 200 and 9)
//   prints: gpa_ns_per_sample=.. cupti_ns_per_range=.. ratio=..
#include <cuda.h>

#include <algorithm>
#include <functional>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

#include "GPUPerfAPI.h"
#include "bench_kernels.cuh"
#include "sample_overhead_cupti.h"

namespace {

uint64_t Now() {
    timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return static_cast<uint64_t>(now.tv_sec) * 1000000000ull + static_cast<uint64_t>(now.tv_nsec);
}

void Fail(const char* what, const std::string& why) {
    std::fprintf(stderr, "sample_overhead: %s: %s\n", what, why.c_str());
    std::exit(3);
}

#define GPA_OK(call)                                                                              \
    do {                                                                                          \
        if (const GPA_Status s_ = (call); s_ != GPA_STATUS_OK) Fail(#call, OGPA_GetLastErrorMessage()); \
    } while (0)

// Nanoseconds per sample spent in GPA_BeginSample + GPA_EndSample.
double GpaRound(CUcontext context, const BenchBuffers& buffers, int samples) {
    GPA_OK(GPA_OpenContext(context, GPA_OPENCONTEXT_DEFAULT_BIT));
    GPA_OK(GPA_EnableCounterStr("GPUTime"));
    gpa_uint32 session = 0, passes = 0;
    GPA_OK(GPA_BeginSession(&session));
    GPA_OK(GPA_GetPassCount(&passes));
    if (passes != 1) Fail("GPUTime", "needs " + std::to_string(passes) + " passes, expected 1");
    GPA_OK(GPA_BeginPass());
    uint64_t spent = 0;
    for (int s = 0; s < samples; ++s) {
        const uint64_t t0 = Now();
        const GPA_Status begun = GPA_BeginSample(static_cast<gpa_uint32>(s));
        const uint64_t t1 = Now();
        buffers.Launch(0);
        const uint64_t t2 = Now();
        const GPA_Status ended = GPA_EndSample();
        const uint64_t t3 = Now();
        if (begun != GPA_STATUS_OK) Fail("GPA_BeginSample", GPA_GetStatusAsStr(begun));
        if (ended != GPA_STATUS_OK) Fail("GPA_EndSample", OGPA_GetLastErrorMessage());
        spent += (t1 - t0) + (t3 - t2);
    }
    GPA_OK(GPA_EndPass());
    GPA_OK(GPA_EndSession());
    bool ready = false;
    while (!ready) GPA_OK(GPA_IsSessionReady(&ready, session));
    GPA_OK(GPA_CloseContext());
    return static_cast<double>(spent) / samples;
}

double Median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
    // GPA's CUDA backend holds 256 samples per pass unless OPENGPA_CUDA_MAX_SAMPLES says otherwise.
    int samples = 200, rounds = 9;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--samples")) samples = std::atoi(argv[i + 1]);
        if (!std::strcmp(argv[i], "--rounds")) rounds = std::atoi(argv[i + 1]);
    }
    BenchBuffers buffers;
    BENCH_CHECK(cudaSetDevice(0));
    buffers.Allocate(1 << 16);
    BENCH_CHECK(cudaDeviceSynchronize());
    CUcontext context = nullptr;
    cuCtxGetCurrent(&context);
    GPA_OK(GPA_Initialize());
    std::vector<double> gpa, cupti;
    for (int r = 0; r < rounds; ++r) {
        gpa.push_back(GpaRound(context, buffers, samples));
        std::string problem;
        const double raw = CuptiRangeRound(context, [&] { buffers.Launch(0); }, samples, &problem);
        if (raw < 0) Fail("raw CUPTI", problem);
        cupti.push_back(raw);
        std::printf("round %d gpa_ns_per_sample=%.1f cupti_ns_per_range=%.1f\n", r, gpa.back(), cupti.back());
    }
    GPA_OK(GPA_Destroy());
    buffers.Free();
    const double g = Median(gpa), c = Median(cupti);
    std::printf("sample_overhead samples=%d rounds=%d gpa_ns_per_sample=%.1f cupti_ns_per_range=%.1f ratio=%.3f\n", samples,
                rounds, g, c, g / c);
    return 0;
}
