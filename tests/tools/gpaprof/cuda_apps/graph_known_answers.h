// The shape and known answers of graph_known_answers.cu, shared by the program and the GPU tests that profile it
// (tests/tools/gpaprof/cuda/cuda_graph_counters_test.cpp). Plain C++: nvcc and the host compiler both read it.
#pragma once

#include <cstdint>

namespace graph_known_answers {

constexpr int kElements = 1 << 26;  // floats per buffer by default (--elements): 256 MiB, five times an H100's L2
constexpr int kBlock = 256;         // threads per block of fill and sum
constexpr int kFillBlocks = 4096;   // fill's grid as the graph is built (grid-stride: any grid fills every element)
constexpr int kFillBlocksUpdated = 1536;  // fill's grid after cudaGraphExecKernelNodeSetParams / cudaGraphExecUpdate
constexpr int kSumBlocks = 1024;    // sum writes one partial sum per block
constexpr int kCombineBlocks = 3;   // combine: a grid whose warp count rounds up (80 threads = 3 warps per block)
constexpr int kCombineThreads = 80;
constexpr int kKernelsPerLaunch = 3;  // fill, sum, combine (combine in a child graph)
constexpr int kDefaultLaunches = 10;

constexpr uint64_t Warps(uint64_t blocks, uint64_t threads) { return blocks * ((threads + 31) / 32); }
constexpr uint64_t kFillWarps = Warps(kFillBlocks, kBlock);                // 32768
constexpr uint64_t kFillWarpsUpdated = Warps(kFillBlocksUpdated, kBlock);  // 12288
constexpr uint64_t kSumWarps = Warps(kSumBlocks, kBlock);                  // 8192
constexpr uint64_t kCombineWarps = Warps(kCombineBlocks, kCombineThreads); // 9

// The kernels as CUDA names them (mangled).
inline constexpr const char* kFill = "_Z4fillPfi";             // fill(float*, int)
inline constexpr const char* kSum = "_Z3sumPKfiPf";            // sum(const float*, int, float*)
inline constexpr const char* kCombine = "_Z7combinePKfiPyPji";  // combine(const float*, int, unsigned long long*, unsigned*, int)

// Launches made with the grid the graph was built with before the update (--update-after, default launches / 2).
constexpr int DefaultUpdateAfter(int launches) { return launches / 2; }

// The total that combine records for every launch: fill writes i % 8 to element i.
constexpr uint64_t ExpectedTotal(uint64_t elements) { return elements / 8 * 28; }

}  // namespace graph_known_answers
