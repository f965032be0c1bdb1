// The pure parts of what gpaprof keeps of an executable CUDA graph (graph_programs.h): kernel node parameters of
// every version read alike, the steps' descriptions. (Reading graphs and replaying them needs a GPU:
// cuda_graph_counters_test.cpp.)
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

TEST(GraphPrograms, StepsDescribeWhatTheyRun) {
    GraphStep kernel;
    kernel.kind = GraphStepKind::Kernel;
    kernel.cuptiNodeId = 17179869186ull;
    kernel.name = "_Z3sumPKfiPf";
    kernel.launch.grid[0] = 64;
    kernel.launch.block[0] = 256;
    kernel.launch.sharedBytes = 1024;
    kernel.launch.arguments.resize(24);
    CUlaunchAttribute cluster{};
    cluster.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    cluster.value.clusterDim.x = 2;
    cluster.value.clusterDim.y = 1;
    cluster.value.clusterDim.z = 1;
    kernel.launch.attributes.push_back(cluster);
    EXPECT_EQ(DescribeStep(kernel), "kernel node 17179869186 _Z3sumPKfiPf: grid 64x1x1, block 256x1x1, 1024 B shared, "
                                    "24 B of arguments, cluster 2x1x1");
    GraphStep copy;
    copy.kind = GraphStepKind::Memcpy;
    copy.cuptiNodeId = 3;
    copy.copy.srcMemoryType = CU_MEMORYTYPE_HOST;
    copy.copy.dstMemoryType = CU_MEMORYTYPE_DEVICE;
    copy.copy.WidthInBytes = 4;
    copy.copy.Height = 1;
    copy.copy.Depth = 1;
    EXPECT_EQ(DescribeStep(copy), "memcpy node 3: host to device, 4 B x 1 x 1, pitches 0/0");
    GraphStep set;
    set.kind = GraphStepKind::Memset;
    set.cuptiNodeId = 4;
    set.set.width = 100;
    set.set.height = 1;
    set.set.elementSize = 4;
    set.enabled = false;
    EXPECT_EQ(DescribeStep(set), "memset node 4: 100 x 1 elements of 4 B, pitch 0, disabled");
}

}  // namespace
}  // namespace gpaprof::cuda
