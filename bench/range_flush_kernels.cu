// Kernels of bench/range_flush_cost and bench/range_pass_cost (their host parts are C++20, which nvcc here
// does not take).
#include <cuda.h>

#include "bench_kernels.cuh"
#include "range_flush_kernels.h"

namespace {

BenchBuffers g_buffers;
int4* g_flushBuffer = nullptr;
size_t g_flushBytes = 0;
cudaGraphExec_t g_flushGraph = nullptr;

// Reads every 16-byte word of `data` with loads cached in L2 only, so that the L2 ends up holding clean lines.
__global__ void alt_flush_read(const int4* data, size_t words, int* sink) {
    int fold = 0;
    for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < words; i += size_t(gridDim.x) * blockDim.x) {
        const int4 v = __ldcg(data + i);
        fold ^= v.x ^ v.y ^ v.z ^ v.w;
    }
    if (fold == 1) *sink = fold;
}

}  // namespace

void ProbeSetUp(int elements) {
    BENCH_CHECK(cudaFree(nullptr));
    g_buffers.Allocate(elements);
    BENCH_CHECK(cudaDeviceSynchronize());
}

void ProbeFree() { g_buffers.Free(); }

void ProbeLaunch(CUstream stream) { g_buffers.Launch(0, reinterpret_cast<cudaStream_t>(stream)); }

void AltFlushSetUp() {
    int l2 = 0, sms = 0;
    BENCH_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0));
    BENCH_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    g_flushBytes = 2 * static_cast<size_t>(l2);
    BENCH_CHECK(cudaMalloc(&g_flushBuffer, g_flushBytes));
    BENCH_CHECK(cudaMemset(g_flushBuffer, 0, g_flushBytes));
    cudaStream_t capture = nullptr;
    BENCH_CHECK(cudaStreamCreateWithFlags(&capture, cudaStreamNonBlocking));
    cudaGraph_t graph = nullptr;
    BENCH_CHECK(cudaStreamBeginCapture(capture, cudaStreamCaptureModeThreadLocal));
    alt_flush_read<<<sms * 8, 256, 0, capture>>>(g_flushBuffer, g_flushBytes / 16,
                                                  reinterpret_cast<int*>(g_flushBuffer));
    BENCH_CHECK(cudaStreamEndCapture(capture, &graph));
    BENCH_CHECK(cudaGraphInstantiate(&g_flushGraph, graph, 0));
    BENCH_CHECK(cudaDeviceSynchronize());
}

void AltFlushMemset(CUstream stream) {
    BENCH_CHECK(cudaMemsetAsync(g_flushBuffer, 0, g_flushBytes, reinterpret_cast<cudaStream_t>(stream)));
}

void AltFlushCopy(CUstream stream) {
    char* base = reinterpret_cast<char*>(g_flushBuffer);
    BENCH_CHECK(cudaMemcpyAsync(base + g_flushBytes / 2, base, g_flushBytes / 2, cudaMemcpyDeviceToDevice,
                                reinterpret_cast<cudaStream_t>(stream)));
}

void AltFlushGraph(CUstream stream) {
    BENCH_CHECK(cudaGraphLaunch(g_flushGraph, reinterpret_cast<cudaStream_t>(stream)));
}
