// The pure parts of what gpaprof keeps of an executable CUDA graph (graph_programs.h): kernel node parameters of
// every version read alike. (Reading graphs and replaying them needs a GPU: cuda_graph_counters_test.cpp.)
#include "tools/gpaprof/cuda/graph_programs.h"

#include <gtest/gtest.h>

namespace gpaprof::cuda {
namespace {

template <typename Params>
Params Filled() {
    Params params{};
    params.func = reinterpret_cast<CUfunction>(0x10);
    params.gridDimX = 1;
    params.gridDimY = 2;
    params.gridDimZ = 3;
    params.blockDimX = 4;
    params.blockDimY = 5;
    params.blockDimZ = 6;
    params.sharedMemBytes = 7;
    params.kernelParams = reinterpret_cast<void**>(0x20);
    params.extra = reinterpret_cast<void**>(0x30);
    return params;
}

void ExpectCommonFields(const CUDA_KERNEL_NODE_PARAMS& p) {
    EXPECT_EQ(p.func, reinterpret_cast<CUfunction>(0x10));
    EXPECT_EQ(p.gridDimX, 1u);
    EXPECT_EQ(p.gridDimY, 2u);
    EXPECT_EQ(p.gridDimZ, 3u);
    EXPECT_EQ(p.blockDimX, 4u);
    EXPECT_EQ(p.blockDimY, 5u);
    EXPECT_EQ(p.blockDimZ, 6u);
    EXPECT_EQ(p.sharedMemBytes, 7u);
    EXPECT_EQ(p.kernelParams, reinterpret_cast<void**>(0x20));
    EXPECT_EQ(p.extra, reinterpret_cast<void**>(0x30));
}

TEST(GraphPrograms, KernelNodeParamsOfEveryVersionReadAlike) {
    const CUDA_KERNEL_NODE_PARAMS v1 = AsKernelNodeParams(Filled<CUDA_KERNEL_NODE_PARAMS_v1>());
    ExpectCommonFields(v1);
    EXPECT_EQ(v1.kern, nullptr) << "v1 has no CUkernel";
    EXPECT_EQ(v1.ctx, nullptr);

    CUDA_KERNEL_NODE_PARAMS_v3 v3 = Filled<CUDA_KERNEL_NODE_PARAMS_v3>();
    v3.kern = reinterpret_cast<CUkernel>(0x40);
    v3.ctx = reinterpret_cast<CUcontext>(0x50);
    const CUDA_KERNEL_NODE_PARAMS converted = AsKernelNodeParams(v3);
    ExpectCommonFields(converted);
    EXPECT_EQ(converted.kern, reinterpret_cast<CUkernel>(0x40));
    EXPECT_EQ(converted.ctx, reinterpret_cast<CUcontext>(0x50));
}

}  // namespace
}  // namespace gpaprof::cuda
