// gpaprof's CUDA part without a GPU: the published API-type table, argument formats, the occupancy calculation
// against known answers of NVIDIA's occupancy calculator, and the --sym helpers. The records the part writes
// and how the assembler turns them into the .atp and .csv: cuda_records_test.cpp.
#define __CUDA_API_VERSION_INTERNAL 1  // CUPTI's driver parameter structs need the driver's own types

#include <gtest/gtest.h>

#include <cuda.h>
#include <cupti_driver_cbid.h>
#include <cupti_runtime_cbid.h>
#include <generated_cuda_meta.h>
#include <generated_cuda_runtime_api_meta.h>

#include <set>
#include <string>
#include <vector>

#include "tools/gpaprof/cuda/arg_format.h"
#include "tools/gpaprof/cuda/caller_frames.h"
#include "tools/gpaprof/cuda/cuda_api_table.h"
#include "tools/gpaprof/cuda/cuda_occupancy.h"

namespace gpaprof::cuda {
namespace {

// ---- the API-type enumeration ---------------------------------------------------------------------------

TEST(CudaApiTable, RuntimeFunctionsAreNumberedByTheirCuptiCallbackId) {
    const CudaApiInfo* malloc = FindApi(CudaDomain::Runtime, CUPTI_RUNTIME_TRACE_CBID_cudaMalloc_v3020);
    ASSERT_TRUE(malloc);
    EXPECT_EQ(malloc->name, "cudaMalloc");  // CUPTI's version suffix _v3020 is not part of the name
    EXPECT_EQ(malloc->apiType, 20u);
    EXPECT_TRUE(malloc->argumentsKnown);
    EXPECT_EQ(malloc->apiClass, CudaApiClass::Other);
    const CudaApiInfo* launch = FindApiByName("cudaLaunchKernel");
    ASSERT_TRUE(launch);
    EXPECT_EQ(launch->apiType, static_cast<uint32_t>(CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000));
    EXPECT_EQ(launch->apiClass, CudaApiClass::KernelLaunch);
}

TEST(CudaApiTable, DriverFunctionsAreNumberedTenThousandPlusTheirCallbackId) {
    const CudaApiInfo* launch = FindApi(CudaDomain::Driver, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel);
    ASSERT_TRUE(launch);
    EXPECT_EQ(launch->name, "cuLaunchKernel");
    EXPECT_EQ(launch->apiType, 10000u + CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel);
    EXPECT_EQ(launch->apiClass, CudaApiClass::KernelLaunch);
    const CudaApiInfo* copy = FindApiByName("cuMemcpyHtoD_v2");  // driver names keep their suffix
    ASSERT_TRUE(copy);
    EXPECT_EQ(copy->domain, CudaDomain::Driver);
    EXPECT_EQ(copy->apiClass, CudaApiClass::Memcpy);
    ASSERT_TRUE(FindApiByType(copy->apiType));
    EXPECT_EQ(FindApiByType(copy->apiType)->name, "cuMemcpyHtoD_v2");
}

TEST(CudaApiTable, OnlyRuntimeFunctionsThatEnqueueNothingGoUnheardWhenLeftOut) {
    const std::vector<uint32_t> unheard = UnheardRuntimeCallbacks(
        {"cudaGetLastError", "cudaPeekAtLastError", "cudaMemcpy", "cudaLaunchKernel", "cudaGraphLaunch", "cuCtxGetCurrent",
         "cuMemAlloc_v2", "noSuchFunction"});
    const std::set<uint32_t> got(unheard.begin(), unheard.end());
    // What only its record needs: not heard of.
    EXPECT_EQ(got, (std::set<uint32_t>{CUPTI_RUNTIME_TRACE_CBID_cudaGetLastError_v3020, CUPTI_RUNTIME_TRACE_CBID_cudaPeekAtLastError_v3020}));
    // Copies, launches and graph launches are still heard (their device work is joined to them), and so is every
    // driver function (gpaprof follows memory, contexts and graphs there).
    EXPECT_TRUE(UnheardRuntimeCallbacks({}).empty());
    // A name with several callback ids: all of them.
    size_t streamSyncs = 0;
    for (const CudaApiInfo& info : AllApis()) streamSyncs += info.name == "cudaStreamSynchronize";
    EXPECT_EQ(UnheardRuntimeCallbacks({"cudaStreamSynchronize"}).size(), streamSyncs);
}

TEST(CudaApiTable, EveryNumberIsUniqueAndInItsDomainsRange) {
    std::set<uint32_t> types;
    size_t runtime = 0, driver = 0;
    for (const CudaApiInfo& info : AllApis()) {
        EXPECT_TRUE(types.insert(info.apiType).second) << info.name;
        if (info.domain == CudaDomain::Runtime) {
            ++runtime;
            EXPECT_GT(info.apiType, 0u);
            EXPECT_LT(info.apiType, kDriverApiTypeBase) << info.name;
            // cuda*, and the registration calls nvcc's code makes (__cudaRegisterFatBinary, ...)
            const std::string_view bare = info.name.substr(info.name.find_first_not_of('_'));
            EXPECT_EQ(bare.substr(0, 4), "cuda") << info.name;
        } else {
            ++driver;
            EXPECT_GE(info.apiType, kDriverApiTypeBase);
            EXPECT_LT(info.apiType, 2 * kDriverApiTypeBase) << info.name;
            EXPECT_EQ(info.name.substr(0, 2), "cu") << info.name;
        }
    }
    EXPECT_GT(runtime, 300u);
    EXPECT_GT(driver, 500u);
}

TEST(CudaApiTable, ClassifiesTheCallsThatEnqueueDeviceWork) {
    EXPECT_EQ(ClassifyApi("cudaMemcpyAsync"), CudaApiClass::Memcpy);
    EXPECT_EQ(ClassifyApi("cudaMemcpy2DToArray"), CudaApiClass::Memcpy);
    EXPECT_EQ(ClassifyApi("cuMemcpyDtoHAsync_v2"), CudaApiClass::Memcpy);
    EXPECT_EQ(ClassifyApi("cuMemcpyBatchAsync"), CudaApiClass::Other);  // several copies
    EXPECT_EQ(ClassifyApi("cudaMemsetAsync"), CudaApiClass::Memset);
    EXPECT_EQ(ClassifyApi("cuMemsetD32_v2"), CudaApiClass::Memset);
    EXPECT_EQ(ClassifyApi("cuLaunchKernelEx"), CudaApiClass::KernelLaunch);
    EXPECT_EQ(ClassifyApi("cudaLaunchCooperativeKernel"), CudaApiClass::KernelLaunch);
    EXPECT_EQ(ClassifyApi("cudaLaunchCooperativeKernelMultiDevice"), CudaApiClass::Other);
    EXPECT_EQ(ClassifyApi("cudaGraphLaunch"), CudaApiClass::GraphLaunch);
    EXPECT_EQ(ClassifyApi("cudaLaunchHostFunc"), CudaApiClass::Other);
    EXPECT_EQ(ClassifyApi("cudaMalloc"), CudaApiClass::Other);
}

TEST(CudaApiTable, NamesReturnCodesAndCopyKinds) {
    EXPECT_EQ(CudaErrorName(0), "cudaSuccess");
    EXPECT_EQ(CudaErrorName(1), "cudaErrorInvalidValue");
    EXPECT_EQ(CuResultName(0), "CUDA_SUCCESS");
    EXPECT_EQ(CuResultName(1), "CUDA_ERROR_INVALID_VALUE");
    EXPECT_EQ(MemcpyKindName(1), "cudaMemcpyHostToDevice");
    EXPECT_EQ(CudaErrorName(987654), "987654");  // an unknown value stays a number
}

// ---- arguments ------------------------------------------------------------------------------------------

TEST(CudaArguments, OutPointersShowTheirValueAfterASuccessfulCall) {
    void* allocation = reinterpret_cast<void*>(uintptr_t{0x7F0012340000});
    cudaMalloc_v3020_params params{&allocation, 4096};
    std::vector<std::string> args;
    ArgContext done;
    done.succeeded = true;
    ASSERT_TRUE(FormatArguments(CudaDomain::Runtime, CUPTI_RUNTIME_TRACE_CBID_cudaMalloc_v3020, &params, done, &args));
    ASSERT_EQ(args.size(), 2u);
    EXPECT_EQ(args[0], "[0x00007F0012340000]");
    EXPECT_EQ(args[1], "4096");
    ArgContext failed;
    ASSERT_TRUE(FormatArguments(CudaDomain::Runtime, CUPTI_RUNTIME_TRACE_CBID_cudaMalloc_v3020, &params, failed, &args));
    EXPECT_EQ(args[0], PointerText(&allocation));  // a failed call's out-pointer is not read
}

TEST(CudaArguments, CopiesNameTheirKindAndLeaveDataPointersAlone) {
    char host[16] = {};
    cudaMemcpy_v3020_params params{reinterpret_cast<void*>(uintptr_t{0x7F0000001000}), host, sizeof host,
                                   cudaMemcpyHostToDevice};
    std::vector<std::string> args;
    ArgContext done;
    done.succeeded = true;
    ASSERT_TRUE(FormatArguments(CudaDomain::Runtime, CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_v3020, &params, done, &args));
    ASSERT_EQ(args.size(), 4u);
    EXPECT_EQ(args[0], "0x00007F0000001000");
    EXPECT_EQ(args[1], PointerText(host));
    EXPECT_EQ(args[2], "16");
    EXPECT_EQ(args[3], "cudaMemcpyHostToDevice");
}

TEST(CudaArguments, LaunchesShowGridsAsTriplesAndDoNotReadKernelArguments) {
    int value = 5;
    void* kernelArgs[] = {&value};
    cudaLaunchKernel_v7000_params params{reinterpret_cast<const void*>(uintptr_t{0x401000}), dim3(4096, 1, 1),
                                         dim3(256, 1, 1), kernelArgs, 1024, nullptr};
    std::vector<std::string> args;
    ArgContext done;
    done.succeeded = true;
    ASSERT_TRUE(FormatArguments(CudaDomain::Runtime, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, &params, done, &args));
    ASSERT_EQ(args.size(), 6u);
    EXPECT_EQ(args[0], "0x0000000000401000");
    EXPECT_EQ(args[1], "{4096,1,1}");
    EXPECT_EQ(args[2], "{256,1,1}");
    EXPECT_EQ(args[3], PointerText(kernelArgs));
    EXPECT_EQ(args[4], "1024");
    EXPECT_EQ(args[5], "NULL");
    EXPECT_EQ(StreamArgument(CudaDomain::Runtime, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, &params), 0u);
}

TEST(CudaArguments, DriverLaunchParametersAndDevicePointers) {
    cuLaunchKernel_params launch{};
    launch.f = reinterpret_cast<CUfunction>(uintptr_t{0xABC0});
    launch.gridDimX = 8, launch.gridDimY = 2, launch.gridDimZ = 1;
    launch.blockDimX = 128, launch.blockDimY = 1, launch.blockDimZ = 1;
    launch.sharedMemBytes = 512;
    launch.hStream = reinterpret_cast<CUstream>(uintptr_t{0x5000});
    const std::optional<LaunchParameters> parsed = KernelLaunchParameters(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, &launch);
    ASSERT_TRUE(parsed);
    EXPECT_EQ(parsed->function, launch.f);
    EXPECT_EQ(parsed->grid[0], 8u);
    EXPECT_EQ(parsed->grid[1], 2u);
    EXPECT_EQ(parsed->block[0], 128u);
    EXPECT_EQ(parsed->dynamicSharedBytes, 512u);
    EXPECT_EQ(parsed->stream, launch.hStream);
    EXPECT_FALSE(KernelLaunchParameters(CUPTI_DRIVER_TRACE_CBID_cuMemAlloc_v2, &launch));

    CUdeviceptr pointer = 0x7F0000200000;
    cuMemAlloc_v2_params alloc{&pointer, 1 << 20};
    std::vector<std::string> args;
    ArgContext done;
    done.succeeded = true;
    ASSERT_TRUE(FormatArguments(CudaDomain::Driver, CUPTI_DRIVER_TRACE_CBID_cuMemAlloc_v2, &alloc, done, &args));
    ASSERT_EQ(args.size(), 2u);
    EXPECT_EQ(args[0], "[0x00007F0000200000]");  // a device address, in hex
    EXPECT_EQ(args[1], "1048576");
}

// A call's arguments go into one buffer that keeps its storage from call to call.
TEST(CudaArguments, ArgumentListsReuseTheirBuffer) {
    int value = 5;
    void* kernelArgs[] = {&value};
    cudaLaunchKernel_v7000_params params{reinterpret_cast<const void*>(uintptr_t{0xABCDEF}), dim3(7, 8, 9),
                                         dim3(32, 1, 1), kernelArgs, 0, reinterpret_cast<cudaStream_t>(uintptr_t{0x10})};
    ArgContext done;
    done.succeeded = true;
    ArgList list;
    ASSERT_TRUE(FormatArguments(CudaDomain::Runtime, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, &params, done, &list));
    ASSERT_EQ(list.size(), 6u);
    EXPECT_EQ(list[0], "0x0000000000ABCDEF");
    EXPECT_EQ(list[1], "{7,8,9}");
    EXPECT_EQ(list[4], "0");
    EXPECT_EQ(list[5], "0x0000000000000010");
    const size_t capacity = list.text().capacity();
    const char* storage = list.text().data();
    ASSERT_TRUE(FormatArguments(CudaDomain::Runtime, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, &params, done, &list));
    EXPECT_EQ(list.size(), 6u);  // cleared, not appended to
    EXPECT_EQ(list[2], "{32,1,1}");
    EXPECT_EQ(list.text().capacity(), capacity);
    EXPECT_EQ(list.text().data(), storage);
    EXPECT_FALSE(FormatArguments(CudaDomain::Runtime, 0xFFFFFu, &params, done, &list));
    EXPECT_EQ(list.size(), 0u);
}

TEST(CudaArguments, HexValuesAreSixteenUppercaseDigits) {
    EXPECT_EQ(HexValue(0), "0x0000000000000000");
    EXPECT_EQ(HexValue(0xDEADBEEFull), "0x00000000DEADBEEF");
    EXPECT_EQ(HexValue(~0ull), "0xFFFFFFFFFFFFFFFF");
    EXPECT_EQ(PointerText(nullptr), "NULL");
    EXPECT_EQ(FormatArgument(-3, ArgStyle::Plain, ArgContext{}), "-3");
    EXPECT_EQ(FormatArgument(2.5f, ArgStyle::Plain, ArgContext{}), "2.5");
    EXPECT_EQ(FormatArgument(true, ArgStyle::Plain, ArgContext{}), "1");
}

TEST(CudaArguments, StringsAreQuotedAndEscaped) {
    EXPECT_EQ(QuotedString("saxpy"), "\"saxpy\"");
    EXPECT_EQ(QuotedString("a \"b\"\n"), "\"a \\\"b\\\"\\n\"");
    EXPECT_EQ(QuotedString(nullptr), "NULL");
    const std::string longText(300, 'x');
    EXPECT_EQ(QuotedString(longText.c_str()), "\"" + std::string(256, 'x') + "...\"");
    const char* name = "sm_90";
    EXPECT_EQ(FormatArgument(name, ArgStyle::Plain, ArgContext{}), "\"sm_90\"");
}

// ---- occupancy ------------------------------------------------------------------------------------------

// An H100/H200 SM (compute capability 9.0) as cuDeviceGetAttribute describes it.
SmLimits Hopper() {
    SmLimits limits;
    limits.deviceName = "NVIDIA H200";
    limits.computeMajor = 9;
    limits.computeMinor = 0;
    limits.smCount = 132;
    limits.warpSize = 32;
    limits.maxThreadsPerSm = 2048;
    limits.maxBlocksPerSm = 32;
    limits.registersPerSm = 65536;
    limits.registersPerBlock = 65536;
    limits.sharedMemoryPerSm = 233472;
    limits.reservedSharedMemoryPerBlock = 1024;
    limits.maxThreadsPerBlock = 1024;
    return limits;
}

KernelResources Uses(uint64_t registers, uint64_t staticShared = 0, uint64_t dynamicShared = 0) {
    KernelResources kernel;
    kernel.registersPerThread = registers;
    kernel.staticSharedBytes = staticShared;
    kernel.dynamicSharedBytes = dynamicShared;
    kernel.maxThreadsPerBlock = 1024;
    return kernel;
}

// Known answers worked out with the CUDA Occupancy Calculator's formula (cuda_occupancy.h) for sm_90.
struct OccupancyCase {
    const char* what;
    uint64_t block, registers, staticShared, dynamicShared;
    uint64_t blocksPerSm;
    double percent;
    OccupancyLimiter limiter;
};

TEST(CudaOccupancy, MatchesTheOccupancyCalculatorOnHopper) {
    const OccupancyCase cases[] = {
        // 32 regs: 1024 per warp, 16 warps per sub-partition, 64 per SM = the warp limit: 8 blocks of 8 warps.
        {"full", 256, 32, 0, 0, 8, 100.0, OccupancyLimiter::Vgpr},
        // 64 regs: 2048 per warp, 8 per sub-partition, 32 warps: 4 blocks.
        {"registers", 256, 64, 0, 0, 4, 50.0, OccupancyLimiter::Vgpr},
        // 40 regs: 1280 per warp (already a multiple of 256), 12 per sub-partition, 48 warps: 6 blocks.
        {"register granularity", 256, 40, 0, 0, 6, 75.0, OccupancyLimiter::Vgpr},
        // 41 regs round up to 1536 per warp: 10 per sub-partition, 40 warps: 5 blocks.
        {"register rounding", 256, 41, 0, 0, 5, 62.5, OccupancyLimiter::Vgpr},
        // 48 KiB + 1 KiB reserved per block: 233472 / 50176 = 4 blocks of 4 warps.
        {"shared memory", 128, 16, 48 * 1024, 0, 4, 25.0, OccupancyLimiter::Lds},
        // Static + dynamic shared memory add up: 20000 + 20000 + 1024 -> 41024 (a multiple of 128): 5 blocks.
        {"static and dynamic", 256, 16, 20000, 20000, 5, 62.5, OccupancyLimiter::Lds},
        // One warp per block: 32 block slots give 32 warps.
        {"block slots", 32, 16, 0, 0, 32, 50.0, OccupancyLimiter::WorkGroup},
        // 1024 threads x 64 regs = exactly the per-block register file: 1 block of 32 warps.
        {"one big block", 1024, 64, 0, 0, 1, 50.0, OccupancyLimiter::Vgpr},
        // 1024 threads x 72 regs exceed the per-block limit: the block cannot launch.
        {"too many registers", 1024, 72, 0, 0, 0, 0.0, OccupancyLimiter::Vgpr},
        // 48 threads = 2 warps (the second one partly idle): 32 block slots, 64 warps = 100%.
        {"partial warp", 48, 16, 0, 0, 32, 100.0, OccupancyLimiter::Vgpr},
    };
    for (const OccupancyCase& c : cases) {
        SCOPED_TRACE(c.what);
        const OccupancyResult result =
            ComputeCudaOccupancy(77, "k", Hopper(), Uses(c.registers, c.staticShared, c.dynamicShared), {c.block, 100});
        EXPECT_EQ(result.blocksPerSm, c.blocksPerSm);
        ASSERT_TRUE(result.row.occupancyPercent);
        EXPECT_DOUBLE_EQ(*result.row.occupancyPercent, c.percent);
        EXPECT_EQ(result.limiter, c.limiter);
    }
}

TEST(CudaOccupancy, FillsTheOccupancyRowInNvidiaTerms) {
    const OccupancyResult result = ComputeCudaOccupancy(1234, "_Z5saxpyPfPKffi", Hopper(), Uses(64, 1024, 512), {256, 4096});
    const OccupancyRow& row = result.row;
    EXPECT_EQ(row.threadId, 1234u);
    EXPECT_EQ(row.kernelName, "_Z5saxpyPfPKffi");
    EXPECT_EQ(row.deviceName, "NVIDIA H200");
    EXPECT_EQ(row.computeUnits, 132u);
    EXPECT_EQ(row.maxWavesPerComputeUnit, 64u);
    EXPECT_EQ(row.maxWorkGroupsPerComputeUnit, 32u);
    EXPECT_EQ(row.maxVgprs, 65536u);
    EXPECT_FALSE(row.maxSgprs);  // no scalar registers on NVIDIA GPUs
    EXPECT_EQ(row.maxLds, 233472u);
    EXPECT_EQ(row.usedVgprs, 64u);
    EXPECT_FALSE(row.usedSgprs);
    EXPECT_EQ(row.usedLds, 1536u);
    EXPECT_EQ(row.waveSize, 32u);
    EXPECT_EQ(row.workGroupSize, 256u);
    EXPECT_EQ(row.wavesPerWorkGroup, 8u);
    EXPECT_EQ(row.maxWorkGroupSize, 1024u);
    EXPECT_EQ(row.maxWavesPerWorkGroup, 32u);
    EXPECT_EQ(row.globalWorkSize, 256u * 4096u);
    EXPECT_FALSE(row.maxGlobalWorkSize);
    EXPECT_EQ(row.vgprLimitedWaves, 32u);
    EXPECT_FALSE(row.sgprLimitedWaves);
    EXPECT_EQ(row.ldsLimitedWaves, 64u);
    EXPECT_EQ(row.workGroupLimitedWaves, 64u);
    EXPECT_EQ(row.graphicsIpVersion, "sm_90");
    EXPECT_EQ(row.simdsPerComputeUnit, 4u);
    EXPECT_EQ(LimitingResource(row), OccupancyLimiter::Vgpr);
}

TEST(CudaOccupancy, GranularityFollowsTheArchitecture) {
    EXPECT_EQ(GranularityFor(6, 0).subPartitions, 2u);
    EXPECT_EQ(GranularityFor(6, 1).sharedMemoryGranularity, 256u);
    EXPECT_EQ(GranularityFor(8, 0).sharedMemoryGranularity, 128u);
    EXPECT_EQ(GranularityFor(9, 0).registerAllocationUnit, 256u);
}

// ---- --sym ----------------------------------------------------------------------------------------------

TEST(CudaCallerFrames, RecognisesTheRuntimeAndNvccLaunchGlue) {
    EXPECT_TRUE(IsCudaRuntimeSymbol("cudaLaunchKernel"));
    EXPECT_TRUE(IsCudaRuntimeSymbol("__cudaPushCallConfiguration"));
    EXPECT_TRUE(IsCudaRuntimeSymbol("_ZN6cudartL14cudaApiMallocEPPvm"));
    EXPECT_TRUE(IsCudaRuntimeSymbol("_Z24__device_stub__Z5saxpyPfPfPf"));
    EXPECT_FALSE(IsCudaRuntimeSymbol("main"));
    EXPECT_FALSE(IsCudaRuntimeSymbol("_Z9runSolverv"));
    EXPECT_EQ(KernelOfLaunchStub("_Z24__device_stub__Z5saxpyPfPfPf"), "_Z5saxpyPf");
    EXPECT_EQ(KernelOfLaunchStub("__device_stub__kernel"), "kernel");
    EXPECT_EQ(KernelOfLaunchStub("main"), "");
}

TEST(CudaCallerFrames, ReadsFunctionRangesFromAnElfFile) {
    bool relative = false;
    // This test program has no CUDA runtime in it; the read must work and find nothing.
    const auto ranges = CudaRuntimeRanges("/proc/self/exe", &relative);
    EXPECT_TRUE(ranges.empty());
    EXPECT_TRUE(CudaRuntimeRanges("/nonexistent", &relative).empty());
}

}  // namespace
}  // namespace gpaprof::cuda
