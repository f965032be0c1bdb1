// Each best-practice check firing on the fixtures with the expected evidence, not firing on a clean
// trace, and saying why when the trace cannot decide it.
#include <gtest/gtest.h>

#include "report_fixture.h"
#include "tools/gpaprof/report/best_practices.h"
#include "tools/gpaprof/report/call_outcome.h"

namespace gpaprof::report {
namespace {

using namespace testing;

// Runs a check on a trace kept alive with its timeline.
template <typename CheckFunction>
CheckResult RunCheck(CheckFunction check, const AtpFile& file, const OccupancyFile* occupancy = nullptr) {
    const Timeline timeline = BuildTimeline(file);
    return check(CheckInput{file, timeline, occupancy});
}

std::string AllEvidence(const CheckResult& result) {
    std::string text;
    for (const Evidence& evidence : result.evidence) text += evidence.text + "\n";
    return text;
}

// A trace that does everything right: everything released, nothing blocking or repeated.
AtpFile CleanTrace() {
    return SingleThreadTrace({
        Call("clCreateContext", "0x00000000000000C1", {"NULL", "1", "{0xD1}", "NULL", "NULL", "[CL_SUCCESS]"}, 100, 200),
        Call("clCreateCommandQueueWithProperties", "0x0000000000000A01", {"0x00000000000000C1", "0xD1", "NULL", "[CL_SUCCESS]"},
             300, 400),
        Call("clCreateBuffer", "0x0000000000000B01", {"0x00000000000000C1", "CL_MEM_READ_WRITE", "4096", "NULL", "[CL_SUCCESS]"},
             500, 600),
        Enqueue(Call("clEnqueueWriteBuffer", "CL_SUCCESS",
                     {"0x0000000000000A01", "0x0000000000000B01", "CL_FALSE", "0", "4096", "0x7000", "0", "NULL", "NULL"},
                     700, 800),
                0x11F4, "CL_COMMAND_WRITE_BUFFER", 900, 1000, 1, "0x0000000000000A01"),
        Kernel(Enqueue(Call("clEnqueueNDRangeKernel", "CL_SUCCESS",
                            {"0x0000000000000A01", "0xF1", "1", "NULL", "{1024}", "{64}", "0", "NULL", "[0x0000000000000E71]"},
                            1100, 1200),
                       0x11F0, "CL_COMMAND_NDRANGE_KERNEL", 1300, 1400, 1, "0x0000000000000A01"),
               "0xF1", "good_kernel", {1024}, {64}),
        Call("clGetKernelWorkGroupInfo", "CL_SUCCESS",
             {"0xF1", "0xD1", "CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE", "8", "[32]", "NULL"}, 1210, 1220),
        Call("clFinish", "CL_SUCCESS", {"0x0000000000000A01"}, 1500, 1600),
        Call("clReleaseEvent", "CL_SUCCESS", {"0x0000000000000E71"}, 1700, 1800),
        Call("clReleaseMemObject", "CL_SUCCESS", {"0x0000000000000B01"}, 1900, 2000),
        Call("clReleaseCommandQueue", "CL_SUCCESS", {"0x0000000000000A01"}, 2100, 2200),
        Call("clReleaseContext", "CL_SUCCESS", {"0x00000000000000C1"}, 2300, 2400),
    });
}

TEST(BestPractices, CleanTracePassesEveryCheck) {
    const AtpFile file = CleanTrace();
    const Timeline timeline = BuildTimeline(file);
    for (const CheckResult& result : RunBestPracticeChecks(CheckInput{file, timeline, nullptr})) {
        EXPECT_EQ(result.status, CheckStatus::Passed) << result.id << ":\n" << AllEvidence(result);
        EXPECT_EQ(result.occurrences, 0u) << result.id;
        EXPECT_FALSE(result.rule.empty()) << result.id;
        EXPECT_FALSE(result.title.empty()) << result.id;
    }
}

TEST(BestPractices, EmptyTraceIsNotDecidable) {
    AtpFile file;
    const Timeline timeline = BuildTimeline(file);
    for (const CheckResult& result : RunBestPracticeChecks(CheckInput{file, timeline, nullptr})) {
        EXPECT_EQ(result.status, CheckStatus::NotDecidable) << result.id;
        EXPECT_FALSE(result.notes.empty()) << result.id;
    }
}

TEST(LeakCheck, FiresOnUnreleasedBufferAndEvent) {
    const CheckResult result = RunCheck(CheckLeaks, OpenClFixture());
    EXPECT_EQ(result.status, CheckStatus::Fired);
    EXPECT_EQ(result.occurrences, 2u);
    ASSERT_EQ(result.evidence.size(), 2u);
    EXPECT_EQ(result.evidence[0].text,
              "1 memory object never released: 0x0000000000000B02 (clCreateBuffer, thread 100 call #4)");
    EXPECT_EQ(*result.evidence[0].threadId, kMainThread);
    EXPECT_EQ(*result.evidence[0].callIndex, 4u);
    EXPECT_EQ(result.evidence[1].text,
              "1 event never released: 0x0000000000000E71 (clEnqueueNDRangeKernel, thread 100 call #10)");
}

TEST(LeakCheck, RetainNeedsASecondRelease) {
    const AtpFile file = SingleThreadTrace({
        Call("clCreateBuffer", "0x0000000000000B01", {"0xC1", "CL_MEM_READ_WRITE", "64", "NULL", "[CL_SUCCESS]"}, 1, 2),
        Call("clRetainMemObject", "CL_SUCCESS", {"0x0000000000000B01"}, 3, 4),
        Call("clReleaseMemObject", "CL_SUCCESS", {"0x0000000000000B01"}, 5, 6),
    });
    const CheckResult once = RunCheck(CheckLeaks, file);
    EXPECT_EQ(once.status, CheckStatus::Fired);
    AtpFile twice = file;
    twice.parts[0].threads[0].entries.push_back(Call("clReleaseMemObject", "CL_SUCCESS", {"0x0000000000000B01"}, 7, 8));
    EXPECT_EQ(RunCheck(CheckLeaks, twice).status, CheckStatus::Passed);
}

TEST(LeakCheck, KernelsFromCreateKernelsInProgram) {
    const AtpFile file = SingleThreadTrace({
        Call("clCreateKernelsInProgram", "CL_SUCCESS", {"0xE1", "2", "[0x0000000000000F01,0x0000000000000F02]", "[2]"}, 1, 2),
        Call("clReleaseKernel", "CL_SUCCESS", {"0x0000000000000F01"}, 3, 4),
    });
    const CheckResult result = RunCheck(CheckLeaks, file);
    ASSERT_EQ(result.occurrences, 1u);
    EXPECT_NE(result.evidence[0].text.find("0x0000000000000F02"), std::string::npos);
}

TEST(LeakCheck, NotDecidedForKindsWhoseReleaseWasExcluded) {
    AtpFile file = OpenClFixture();
    file.parts[0].excludedApis = {"clReleaseMemObject"};
    const CheckResult result = RunCheck(CheckLeaks, file);
    ASSERT_EQ(result.occurrences, 1u);  // the event only
    EXPECT_NE(result.evidence[0].text.find("event"), std::string::npos);
    ASSERT_EQ(result.notes.size(), 1u);
    EXPECT_NE(result.notes[0].find("clReleaseMemObject was excluded"), std::string::npos);
}

TEST(LeakCheck, Cuda) {
    const CheckResult result = RunCheck(CheckLeaks, CudaFixture());
    ASSERT_EQ(result.occurrences, 1u);
    EXPECT_EQ(result.evidence[0].text,
              "1 device allocation never released: 0x00007F0000000000 (cudaMalloc, thread 100 call #0)");
}

TEST(LeakCheck, HandlesComparedByValue) {
    const AtpFile file = SingleThreadTrace({
        Call("cudaMalloc", "cudaSuccess", {"[0x00007F2A40000000]", "1048576"}, 1, 2),
        Call("cudaFree", "cudaSuccess", {"0x7f2a40000000"}, 3, 4),
    }, "cuda");
    EXPECT_EQ(RunCheck(CheckLeaks, file).status, CheckStatus::Passed);
}

TEST(FailedCallCheck, ListsEachFunctionAndError) {
    const CheckResult result = RunCheck(CheckFailedCalls, OpenClFixture());
    EXPECT_EQ(result.status, CheckStatus::Fired);
    EXPECT_EQ(result.occurrences, 2u);
    ASSERT_EQ(result.evidence.size(), 2u);
    EXPECT_EQ(result.evidence[0].text, "clBuildProgram returned CL_BUILD_PROGRAM_FAILURE 1 time; first at thread 100 call #6");
    EXPECT_EQ(result.evidence[1].text, "clCreateBuffer returned CL_INVALID_BUFFER_SIZE 1 time; first at thread 200 call #6");
    EXPECT_EQ(RunCheck(CheckFailedCalls, CleanTrace()).status, CheckStatus::Passed);
}

TEST(FailedCallCheck, Cuda) {
    const CheckResult result = RunCheck(CheckFailedCalls, CudaFixture());
    ASSERT_EQ(result.occurrences, 1u);
    EXPECT_EQ(result.evidence[0].text, "cudaMemcpy returned cudaErrorInvalidValue 1 time; first at thread 100 call #8");
}

TEST(CallOutcome, Conventions) {
    EXPECT_FALSE(ClassifyCall("ocl", Call("clFlush", "CL_SUCCESS", {}, 0, 0)).failed);
    EXPECT_TRUE(ClassifyCall("ocl", Call("clFlush", "-36", {}, 0, 0)).failed);
    EXPECT_TRUE(ClassifyCall("ocl", Call("clCreateBuffer", "NULL", {"0x1", "0", "0", "NULL", "NULL"}, 0, 0)).failed);
    EXPECT_FALSE(ClassifyCall("ocl", Call("clCreateBuffer", "0x0000000000000B01", {"[CL_SUCCESS]"}, 0, 0)).failed);
    EXPECT_FALSE(ClassifyCall("ocl", Call("clGetExtensionFunctionAddress", "NULL", {"\"x\""}, 0, 0)).failed);
    EXPECT_FALSE(ClassifyCall("cuda", Call("cudaEventQuery", "cudaErrorNotReady", {}, 0, 0)).failed);
    EXPECT_TRUE(ClassifyCall("cuda", Call("cuMemAlloc", "CUDA_ERROR_OUT_OF_MEMORY", {}, 0, 0)).failed);
    EXPECT_TRUE(ClassifyCall("hsa", Call("hsa_init", "HSA_STATUS_ERROR_OUT_OF_RESOURCES", {}, 0, 0)).failed);
    EXPECT_FALSE(ClassifyCall("hsa", Call("hsa_init", "HSA_STATUS_SUCCESS", {}, 0, 0)).failed);
}

TEST(DeprecatedCallCheck, FiresForTheVersionThePlatformImplements) {
    const CheckResult result = RunCheck(CheckDeprecatedCalls, OpenClFixture());
    EXPECT_EQ(result.status, CheckStatus::Fired);
    ASSERT_EQ(result.evidence.size(), 1u);
    EXPECT_EQ(result.evidence[0].text,
              "clCreateCommandQueue (deprecated since OpenCL 2.0) called 1 time, first at thread 100 call #2; use "
              "clCreateCommandQueueWithProperties");
    EXPECT_EQ(RunCheck(CheckDeprecatedCalls, CleanTrace()).status, CheckStatus::Passed);
}

TEST(DeprecatedCallCheck, NotOnAnOlderPlatform) {
    AtpFile file = OpenClFixture();
    file.session.devices[0].platformVersion = "OpenCL 1.2 AMD-APP";
    EXPECT_EQ(RunCheck(CheckDeprecatedCalls, file).status, CheckStatus::Passed);
    file.parts[0].threads[0].entries.push_back(Call("clEnqueueBarrier", "CL_SUCCESS", {"0x1"}, 80000, 80001));
    const CheckResult result = RunCheck(CheckDeprecatedCalls, file);
    ASSERT_EQ(result.occurrences, 1u);
    EXPECT_NE(result.evidence[0].text.find("clEnqueueBarrier (deprecated since OpenCL 1.2)"), std::string::npos);
}

TEST(DeprecatedCallCheck, UnknownPlatformVersionIsSaid) {
    AtpFile file = OpenClFixture();
    file.session.devices.clear();
    const CheckResult result = RunCheck(CheckDeprecatedCalls, file);
    EXPECT_EQ(result.occurrences, 1u);
    ASSERT_EQ(result.notes.size(), 1u);
    EXPECT_NE(result.notes[0].find("names no OpenCL platform version"), std::string::npos);
}

TEST(DeprecatedCallCheck, Cuda) {
    const CheckResult result = RunCheck(CheckDeprecatedCalls, CudaFixture());
    ASSERT_EQ(result.occurrences, 1u);
    EXPECT_NE(result.evidence[0].text.find("cudaThreadSynchronize"), std::string::npos);
    EXPECT_NE(result.evidence[0].text.find("use cudaDeviceSynchronize"), std::string::npos);
}

TEST(RedundantSyncCheck, FinishAfterFinishAndAfterBlockingRead) {
    const CheckResult result = RunCheck(CheckRedundantSync, OpenClFixture());
    EXPECT_EQ(result.status, CheckStatus::Fired);
    ASSERT_EQ(result.occurrences, 2u);
    EXPECT_EQ(result.evidence[0].text,
              "clFinish at thread 100 call #13 on queue 0x0000000000000A01 follows clFinish at thread 100 call #12 on "
              "the same queue with nothing enqueued in between");
    EXPECT_EQ(result.evidence[1].text,
              "clFinish at thread 100 call #15 on queue 0x0000000000000A01 follows clEnqueueReadBuffer at thread 100 "
              "call #14 on the same queue with nothing enqueued in between");
}

TEST(RedundantSyncCheck, EnqueueFromAnotherThreadInBetweenIsWork) {
    AtpFile file = SingleThreadTrace({
        Call("clFinish", "CL_SUCCESS", {"0xA1"}, 100, 200),
        Call("clFinish", "CL_SUCCESS", {"0xA1"}, 300, 400),
    });
    file.parts[0].threads.push_back({kWorkerThread, {Call("clEnqueueMarkerWithWaitList", "CL_SUCCESS", {"0xA1", "0", "NULL", "NULL"}, 250, 260)}});
    EXPECT_EQ(RunCheck(CheckRedundantSync, file).status, CheckStatus::Passed);
}

TEST(RedundantSyncCheck, NotAfterABlockingCallOnAnOutOfOrderQueue) {
    const AtpFile file = SingleThreadTrace({
        Call("clCreateCommandQueueWithProperties", "0x0000000000000A01",
             {"0xC1", "0xD1", "{CL_QUEUE_PROPERTIES,CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE,0}", "[CL_SUCCESS]"}, 1, 2),
        Call("clEnqueueReadBuffer", "CL_SUCCESS", {"0x0000000000000A01", "0xB1", "CL_TRUE", "0", "64", "0x7", "0", "NULL", "NULL"},
             3, 4),
        Call("clFinish", "CL_SUCCESS", {"0x0000000000000A01"}, 5, 6),
    });
    EXPECT_EQ(RunCheck(CheckRedundantSync, file).status, CheckStatus::Passed);
}

TEST(RedundantSyncCheck, CudaSynchronizeBursts) {
    const CheckResult result = RunCheck(CheckRedundantSync, CudaFixture());
    ASSERT_EQ(result.occurrences, 2u);
    EXPECT_EQ(result.evidence[0].text,
              "cudaDeviceSynchronize at thread 100 call #5 follows cudaDeviceSynchronize at thread 100 call #4 with no "
              "device work issued in between");
    EXPECT_EQ(result.evidence[1].text,
              "cudaThreadSynchronize at thread 100 call #7 follows cudaDeviceSynchronize at thread 100 call #5 with no "
              "device work issued in between");
}

TEST(RedundantSyncCheck, CudaStreamSyncAfterWorkIsNeeded) {
    const AtpFile file = SingleThreadTrace({
        Call("cudaStreamSynchronize", "cudaSuccess", {"0x5"}, 1, 2),
        Call("cudaMemcpyAsync", "cudaSuccess", {"0x1", "0x2", "64", "cudaMemcpyHostToDevice", "0x5"}, 3, 4),
        Call("cudaStreamSynchronize", "cudaSuccess", {"0x5"}, 5, 6),
        Call("cudaStreamSynchronize", "cudaSuccess", {"0x5"}, 7, 8),
    }, "cuda");
    const CheckResult result = RunCheck(CheckRedundantSync, file);
    ASSERT_EQ(result.occurrences, 1u);
    EXPECT_EQ(*result.evidence[0].callIndex, 3u);
}

TEST(BlockingTransferCheck, BlockingWriteAndRead) {
    const CheckResult result = RunCheck(CheckBlockingTransfers, OpenClFixture());
    EXPECT_EQ(result.status, CheckStatus::Fired);
    ASSERT_EQ(result.occurrences, 2u);
    EXPECT_EQ(result.evidence[0].text,
              "clEnqueueWriteBuffer: 1 call with blocking flag CL_TRUE (argument 3), 4.00 KiB in all, host blocked "
              "8.000 us; first at thread 100 call #9");
    EXPECT_EQ(result.evidence[1].text,
              "clEnqueueReadBuffer: 1 call with blocking flag CL_TRUE (argument 3), 8.00 KiB in all, host blocked "
              "8.000 us; first at thread 100 call #14");
}

TEST(BlockingTransferCheck, CudaSynchronousCopy) {
    const CheckResult result = RunCheck(CheckBlockingTransfers, CudaFixture());
    ASSERT_EQ(result.occurrences, 1u);  // the failed copy is not counted
    EXPECT_NE(result.evidence[0].text.find("cudaMemcpy: 1 call with cudaMemcpy is synchronous"), std::string::npos);
}

TEST(WorkGroupSizeCheck, NotAMultipleAndUnspecified) {
    const CheckResult result = RunCheck(CheckWorkGroupSizes, OpenClFixture());
    EXPECT_EQ(result.status, CheckStatus::Fired);
    ASSERT_EQ(result.occurrences, 2u);
    EXPECT_EQ(result.evidence[0].text,
              std::string("kernel ") + kHostileKernel +
                  ": 1 dispatch with work-group {30} = 30 work-items, not a multiple of 32 (preferred multiple from "
                  "clGetKernelWorkGroupInfo at thread 100 call #8); first at thread 100 call #10");
    EXPECT_EQ(result.evidence[1].text,
              std::string("kernel ") + kHostileKernel +
                  ": 1 dispatch without a work-group size (local size NULL), the runtime chooses one; first at thread "
                  "100 call #11");
    // vector_add {64}: no multiple known without the .occupancy file.
    ASSERT_EQ(result.notes.size(), 1u);
    EXPECT_NE(result.notes[0].find("unknown for vector_add"), std::string::npos);
}

TEST(WorkGroupSizeCheck, OccupancyGivesTheMultiple) {
    const OccupancyFile occupancy = OccupancyFixture();
    const CheckResult result = RunCheck(CheckWorkGroupSizes, OpenClFixture(), &occupancy);
    EXPECT_EQ(result.occurrences, 2u);
    EXPECT_TRUE(result.notes.empty());
    AtpFile file = OpenClFixture();
    file.parts[0].threads[1].entries[1].kernel->localSize = {48};
    const CheckResult odd = RunCheck(CheckWorkGroupSizes, file, &occupancy);
    EXPECT_EQ(odd.occurrences, 3u);
    EXPECT_NE(AllEvidence(odd).find("vector_add: 1 dispatch with work-group {48} = 48 work-items, not a multiple of 32 "
                                    "(preferred multiple from the .occupancy wavefront size)"),
              std::string::npos);
}

TEST(WorkGroupSizeCheck, TasksAreOneWorkItemByDefinition) {
    const AtpFile file = SingleThreadTrace({Kernel(Enqueue(Call("clEnqueueTask", "CL_SUCCESS", {"0xA1", "0xF1", "0", "NULL", "NULL"}, 1, 2),
                                                           0x11F1, "CL_COMMAND_TASK", 3, 4, 1, "0xA1"),
                                                   "0xF1", "single", {1}, {1})});
    const OccupancyFile occupancy = OccupancyFixture();
    EXPECT_EQ(RunCheck(CheckWorkGroupSizes, file, &occupancy).occurrences, 0u);
}

TEST(WorkGroupSizeCheck, NoDispatchIsNotDecidable) {
    EXPECT_EQ(RunCheck(CheckWorkGroupSizes, CudaFixture()).status, CheckStatus::NotDecidable);
}

TEST(BestPractices, EvidenceIsCappedButCounted) {
    std::vector<ApiCall> calls;
    for (uint64_t i = 0; i < 120; ++i) calls.push_back(Call("clFinish", "CL_SUCCESS", {"0xA1"}, 10 * i + 1, 10 * i + 2));
    const CheckResult result = RunCheck(CheckRedundantSync, SingleThreadTrace(calls));
    EXPECT_EQ(result.occurrences, 119u);
    EXPECT_EQ(result.evidence.size(), kMaxEvidence);
}

}  // namespace
}  // namespace gpaprof::report
