#include "tools/gpaprof/cuda/waiting_kernels.h"

#include "tools/gpaprof/cuda/caller_frames.h"

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

LaunchRule Rule(bool waits, bool severalDevices, bool waiterRunning, bool kernelReplay, uint32_t passes) {
    LaunchFacts launch;
    launch.waits = waits;
    launch.severalDevices = severalDevices;
    launch.waiterRunning = waiterRunning;
    launch.kernelReplay = kernelReplay;
    launch.passes = passes;
    return RuleFor(launch);
}

TEST(WaitingKernels, AWaitingKernelIsMeasuredOnlyWithOnePassOnOneDevice) {
    // torchrun: one device per process, the default set of one pass: NCCL's kernels measured.
    EXPECT_EQ(Rule(true, false, false, false, 1), LaunchRule::Profile);
    EXPECT_EQ(Rule(true, false, false, false, 6), LaunchRule::WaitsWithPasses);
    EXPECT_EQ(Rule(true, false, false, true, 1), LaunchRule::WaitsUnderKernelReplay);
    EXPECT_EQ(Rule(true, true, false, false, 1), LaunchRule::WaitsOnSeveralDevices);
    EXPECT_EQ(Rule(true, true, false, true, 6), LaunchRule::WaitsUnderKernelReplay);
}

TEST(WaitingKernels, KernelsBehindARunningWaiterWaitOnlyWhereThePeerMayBeTheSameThreads) {
    EXPECT_EQ(Rule(false, true, true, false, 1), LaunchRule::AfterRunningWaiter);
    EXPECT_EQ(Rule(true, true, true, false, 6), LaunchRule::AfterRunningWaiter);
    EXPECT_EQ(Rule(false, true, false, false, 6), LaunchRule::Profile);
    // One device: a peer in another process goes on by itself, so waiting for the waiter cannot hang.
    EXPECT_EQ(Rule(false, false, true, false, 6), LaunchRule::Profile);
    EXPECT_EQ(Rule(false, false, false, true, 6), LaunchRule::Profile);
}

TEST(WaitingKernels, EveryUnprofiledRuleSaysWhyAndThatCountersAreNA) {
    EXPECT_TRUE(RuleNote(LaunchRule::Profile, 1).empty());
    for (LaunchRule rule : {LaunchRule::AfterRunningWaiter, LaunchRule::WaitsUnderKernelReplay, LaunchRule::WaitsWithPasses,
                            LaunchRule::WaitsOnSeveralDevices}) {
        const std::string note = RuleNote(rule, 6);
        EXPECT_NE(note.find("not profiled"), std::string::npos) << note;
        EXPECT_NE(note.find("NA"), std::string::npos) << note;
        EXPECT_NE(note.find("GPAPROF_CUDA_WAITING_KERNELS"), std::string::npos) << note;
    }
    EXPECT_NE(RuleNote(LaunchRule::WaitsWithPasses, 6).find("a counter set of 6 passes"), std::string::npos);
}

TEST(CommunicationLibraries, AreKnownByTheirFileNames) {
    EXPECT_TRUE(IsCommunicationLibraryPath("/opt/torch/.venv/lib/python3.12/site-packages/nvidia/nccl/lib/libnccl.so.2"));
    EXPECT_TRUE(IsCommunicationLibraryPath("libnccl-net.so"));
    EXPECT_TRUE(IsCommunicationLibraryPath("/opt/rocm/lib/librccl.so.1"));
    EXPECT_TRUE(IsCommunicationLibraryPath("/usr/lib/libnvshmem_host.so.3"));
    EXPECT_FALSE(IsCommunicationLibraryPath("/usr/lib/x86_64-linux-gnu/libcuda.so.1"));
    EXPECT_FALSE(IsCommunicationLibraryPath("/opt/torch/lib/libtorch_cuda.so"));
    EXPECT_FALSE(IsCommunicationLibraryPath("/home/me/nccl_tests/libmy.so"));  // the file's name counts, not the folder's
    EXPECT_FALSE(IsCommunicationLibraryPath(""));
}

bool NamesThisTest(std::string_view path) { return path.find("gpaprof_cuda_host_tests") != std::string_view::npos; }
bool NamesNothing(std::string_view) { return false; }

TEST(CommunicationLibraries, TheCallersOfACallAreEveryModuleOnTheStack) {
    CallerLocator callers;
    EXPECT_TRUE(callers.CalledFromModule(&NamesThisTest));  // this test's executable is on its own stack
    EXPECT_FALSE(callers.CalledFromModule(&NamesNothing));
}

bool NamesTheCLibrary(std::string_view path) { return path.find("libc.so") != std::string_view::npos; }

TEST(CommunicationLibraries, ALoadedModuleIsFoundAndAnAbsentOneIsNot) {
    CallerLocator callers;
    EXPECT_TRUE(callers.ModuleLoaded(&NamesTheCLibrary));
    EXPECT_FALSE(callers.ModuleLoaded(&NamesNothing));
    EXPECT_FALSE(callers.ModuleLoaded(&NamesNothing)) << "asked again without a scan";
    EXPECT_TRUE(callers.ModuleLoaded(&NamesTheCLibrary)) << "another question scans again";
    EXPECT_FALSE(callers.ModuleLoaded(&IsCommunicationLibraryPath)) << "no NCCL in this test";
}

}  // namespace
}  // namespace gpaprof::cuda
