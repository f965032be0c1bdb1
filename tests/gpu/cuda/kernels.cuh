// Kernels with known answers for the GPU tests. Instruction counts are pinned with inline PTX so that the
// compiler cannot add, merge or drop them; each op uses an immediate offset, so no address arithmetic.
// Loads are volatile: ptxas drops plain loads whose results are unused, even from inline assembly.
// The kernels that are not templates are static: every test file that includes this has its own copy.
#pragma once

#include <cuda_runtime.h>

namespace gpu_test {

// ---- streaming ---------------------------------------------------------------------------------------------
static __global__ void CopyKernel(const float4* __restrict__ source, float4* __restrict__ destination, size_t count) {
    const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
    for (size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride) {
        destination[i] = source[i];
    }
}

// Reads `count` floats `repeats` times through L2 only (ld.global.cg: not cached in L1).
static __global__ void ReadThroughL2(const float* __restrict__ data, size_t count, int repeats, float* sink) {
    const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
    float sum = 0.f;
    for (int r = 0; r < repeats; ++r) {
        for (size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride) {
            sum += __ldcg(data + i);
        }
    }
    if (sum == -1.f) *sink = sum;  // never true for the data used; keeps the loads
}

// Each block reads the same `count` floats `repeats` times with L1-cached loads.
static __global__ void ReadThroughL1(const float* __restrict__ data, int count, int repeats, float* sink) {
    float sum = 0.f;
    for (int r = 0; r < repeats; ++r) {
        for (int i = threadIdx.x; i < count; i += blockDim.x) sum += __ldca(data + i);
    }
    if (sum == -1.f) *sink = sum;
}

// ---- launches ---------------------------------------------------------------------------------------------
static __global__ void Touch(int* out) {
    if (threadIdx.x == 0 && out != nullptr) out[blockIdx.x] = blockIdx.x;
}

// Spins for `cycles` SM clock cycles.
static __global__ void Spin(long long cycles, int* out) {
    const long long start = clock64();
    while (clock64() - start < cycles) {
    }
    if (threadIdx.x == 0 && out != nullptr) out[blockIdx.x] = 1;
}

// ---- instruction mix ---------------------------------------------------------------------------------------
#define OPENGPA_REPEAT16(X, base) X(base + 0) X(base + 1) X(base + 2) X(base + 3) X(base + 4) X(base + 5) X(base + 6) \
    X(base + 7) X(base + 8) X(base + 9) X(base + 10) X(base + 11) X(base + 12) X(base + 13) X(base + 14) X(base + 15)
#define OPENGPA_REPEAT64(X) OPENGPA_REPEAT16(X, 0) OPENGPA_REPEAT16(X, 16) OPENGPA_REPEAT16(X, 32) OPENGPA_REPEAT16(X, 48)

constexpr int kMixOps = 64;             // of each memory kind and of FP32 FMAs
constexpr int kMixBlock = 128;          // threads per block
constexpr int kMixSharedFloats = kMixOps * kMixBlock;
constexpr int kMixGlobalFloatsPerThread = kMixOps * kMixBlock;  // offsets reach k * 512 bytes
enum MixKind { kMixBaseline = 0, kMixMemory = 1, kMixAlu = 2, kMixConstant = 3 };

__constant__ float kMixConstants[256];

// kMixMemory: 64 global loads (LDG), 64 global stores (STG), 64 shared loads (LDS), 64 shared stores (STS) and
// 64 generic loads (LD) aimed at shared memory when `genericToShared`, else at global memory.
// kMixAlu: 64 FP32 FMAs, 16 FP64 FMAs, 16 MUFU.EX2. kMixConstant: 16 indexed constant loads (LDC).
template <int Kind>
__global__ void Mix(float* global, int genericToShared, float a, float b, float* out) {
    __shared__ float shared[kMixSharedFloats];
    float x = a * threadIdx.x + b;
    if constexpr (Kind == kMixMemory) {
        const size_t thread = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
        float* mine = global + thread * kMixGlobalFloatsPerThread;
        float* sharedMine = shared + threadIdx.x;
        const unsigned sharedAddress = static_cast<unsigned>(__cvta_generic_to_shared(sharedMine));
        float* generic = genericToShared ? sharedMine : mine;
        float v;
#define OPENGPA_MEMORY_OPS(k)                                                                           \
    asm volatile("ld.volatile.global.f32 %0, [%1+%2];" : "=f"(v) : "l"(mine), "n"((k) * 512) : "memory"); \
    asm volatile("st.global.f32 [%0+%1], %2;" ::"l"(mine), "n"((k) * 512), "f"(x) : "memory");         \
    asm volatile("st.shared.f32 [%0+%1], %2;" ::"r"(sharedAddress), "n"((k) * 512), "f"(x) : "memory"); \
    asm volatile("ld.volatile.shared.f32 %0, [%1+%2];" : "=f"(v) : "r"(sharedAddress), "n"((k) * 512) : "memory"); \
    asm volatile("ld.volatile.f32 %0, [%1+%2];" : "=f"(v) : "l"(generic), "n"((k) * 512) : "memory");
        OPENGPA_REPEAT64(OPENGPA_MEMORY_OPS)
#undef OPENGPA_MEMORY_OPS
    }
    if constexpr (Kind == kMixAlu) {
        double d = x;
#define OPENGPA_FMA(k) asm volatile("fma.rn.f32 %0, %0, %1, %2;" : "+f"(x) : "f"(a), "f"(b));
        OPENGPA_REPEAT64(OPENGPA_FMA)
#undef OPENGPA_FMA
#define OPENGPA_DFMA(k) asm volatile("fma.rn.f64 %0, %0, %1, %1;" : "+d"(d) : "d"(0.5));
        OPENGPA_REPEAT16(OPENGPA_DFMA, 0)
#undef OPENGPA_DFMA
#define OPENGPA_EX2(k) asm volatile("ex2.approx.ftz.f32 %0, %0;" : "+f"(x));
        OPENGPA_REPEAT16(OPENGPA_EX2, 0)
#undef OPENGPA_EX2
        if (d == -1.0) x = 0.f;
    }
    if constexpr (Kind == kMixConstant) {
        const int i = threadIdx.x;
        float sum = 0.f;
#pragma unroll
        for (int k = 0; k < 16; ++k) sum += kMixConstants[(i * 7 + k * 13) & 255];
        x += sum;
    }
    out[static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x] = x;
}

// ---- divergence ----------------------------------------------------------------------------------------------
// The first `activeLanes` lanes of every warp run 4096 x 8 FP32 FMAs; the others skip them.
static __global__ void Diverge(int activeLanes, float a, float b, float* out) {
    float x = a * threadIdx.x;
    if (static_cast<int>(threadIdx.x & 31) < activeLanes) {
#pragma unroll 1
        for (int i = 0; i < 4096; ++i) {
            asm volatile(
                "fma.rn.f32 %0, %0, %1, %2;\n\tfma.rn.f32 %0, %0, %1, %2;\n\tfma.rn.f32 %0, %0, %1, %2;\n\t"
                "fma.rn.f32 %0, %0, %1, %2;\n\tfma.rn.f32 %0, %0, %1, %2;\n\tfma.rn.f32 %0, %0, %1, %2;\n\t"
                "fma.rn.f32 %0, %0, %1, %2;\n\tfma.rn.f32 %0, %0, %1, %2;"
                : "+f"(x)
                : "f"(a), "f"(b));
        }
    }
    out[static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x] = x;
}

// ---- shared-memory bank conflicts ----------------------------------------------------------------------------
// Lane l reads row l of a 32x32 tile: with no padding every lane hits the same bank (32-way conflict); one
// float of padding per row spreads the lanes over all 32 banks.
template <int Pad>
__global__ void SharedColumns(int iterations, float* out) {
    __shared__ float tile[32][32 + Pad];
    for (int i = threadIdx.x; i < 32 * (32 + Pad); i += blockDim.x) (&tile[0][0])[i] = static_cast<float>(i);
    __syncthreads();
    const int lane = threadIdx.x & 31;
    const int warp = threadIdx.x >> 5;
    volatile float* rows = &tile[0][0];
    float sum = 0.f;
    for (int it = 0; it < iterations; ++it) sum += rows[lane * (32 + Pad) + ((warp + it) & 31)];
    out[static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x] = sum;
}

}  // namespace gpu_test
