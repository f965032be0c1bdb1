#include "tools/gpaprof/cuda/waiting_kernels.h"

#include <gtest/gtest.h>

#include <string>

namespace gpaprof::cuda {
namespace {

TEST(WaitingKernels, NcclCollectivesWaitWhateverTheirMangling) {
    const WaitingKernels waiting(nullptr);
    EXPECT_TRUE(waiting.Waits("ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)"));
    EXPECT_TRUE(waiting.Waits("_Z38ncclDevKernel_AllReduce_Sum_f32_RING_LL24ncclDevKernelArgsStorageILm4096EE"));
    EXPECT_TRUE(waiting.Waits("ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)"));
    EXPECT_FALSE(waiting.Waits("_Z5scalePfif"));
    EXPECT_FALSE(waiting.Waits("ampere_sgemm_128x64_nn"));
    EXPECT_FALSE(waiting.Waits("nccl_like_but_not"));
}

TEST(WaitingKernels, ThePatternAddsKernelsOfTheApplication) {
    std::string error;
    const WaitingKernels waiting("wait_flag|^_Z9spin", &error);
    EXPECT_TRUE(error.empty()) << error;
    EXPECT_TRUE(waiting.Waits("_Z9wait_flagPViiPi"));
    EXPECT_TRUE(waiting.Waits("_Z9spinPi"));
    EXPECT_FALSE(waiting.Waits("_Z8set_flagPVii"));
    EXPECT_TRUE(waiting.Waits("ncclDevKernel_Broadcast_RING_LL"));  // NCCL's stay
}

TEST(WaitingKernels, APatternThatDoesNotCompileIsIgnoredAndSaysWhy) {
    std::string error;
    const WaitingKernels waiting("wait_(flag", &error);
    EXPECT_NE(error.find("GPAPROF_CUDA_WAITING_KERNELS=wait_(flag is not a regular expression"), std::string::npos) << error;
    EXPECT_FALSE(waiting.Waits("_Z9wait_flagPViiPi"));
    EXPECT_TRUE(waiting.Waits("ncclDevKernel_AllGather_RING_LL"));
    const WaitingKernels empty("");
    EXPECT_FALSE(empty.Waits("_Z9wait_flagPViiPi"));
}

}  // namespace
}  // namespace gpaprof::cuda
