// The timeline and the summary pages computed from hand-built profiles, checked against the exact
// numbers in report_fixture.cpp.
#include <gtest/gtest.h>

#include "report_fixture.h"
#include "tools/gpaprof/report/api_summary.h"
#include "tools/gpaprof/report/context_summary.h"
#include "tools/gpaprof/report/format_units.h"
#include "tools/gpaprof/report/kernel_summary.h"
#include "tools/gpaprof/report/lane_packing.h"
#include "tools/gpaprof/report/timeline.h"
#include "tools/gpaprof/report/transfer_summary.h"

namespace gpaprof::report {
namespace {

using namespace testing;

const ApiFunctionStats* Function(const ApiSummary& summary, const std::string& name) {
    for (const ApiFunctionStats& stats : summary.functions) {
        if (stats.name == name) return &stats;
    }
    return nullptr;
}

TEST(Timeline, HostCallsDeviceActivitiesAndMarkers) {
    const AtpFile file = OpenClFixture();
    const Timeline timeline = BuildTimeline(file);
    EXPECT_EQ(timeline.calls.size(), 28u);
    EXPECT_EQ(timeline.begin, 900u);    // the "setup" marker begins first
    EXPECT_EQ(timeline.end, 71900u);    // clReleaseContext ends last
    ASSERT_EQ(timeline.activities.size(), 7u);  // 4 kernels, 3 transfers
    // By device start.
    EXPECT_EQ(timeline.activities[0].command, "CL_COMMAND_WRITE_BUFFER");
    EXPECT_EQ(timeline.activities[0].start, 23000u);
    EXPECT_EQ(timeline.activities[1].name, kHostileKernel);
    EXPECT_EQ(timeline.activities[1].kind, ActivityKind::Kernel);
    EXPECT_EQ(timeline.activities[1].queue, "queue 1 (0x0000000000000A01)");
    EXPECT_EQ(timeline.activities[1].context, "context 1 (0x00000000000000C1)");
    EXPECT_EQ(timeline.activities[1].device, "cpu device");
    ASSERT_TRUE(timeline.activities[1].hostCall);
    EXPECT_EQ(timeline.calls[*timeline.activities[1].hostCall].Where(), "thread 100 call #10");
    EXPECT_EQ(timeline.activities[1].localSize, std::vector<uint64_t>{30});
    EXPECT_TRUE(timeline.activities[2].localSize.empty());

    ASSERT_EQ(timeline.markers.size(), 3u);
    EXPECT_EQ(timeline.markers[0].name, "setup");
    EXPECT_EQ(timeline.markers[0].group, "app");
    EXPECT_EQ(timeline.markers[0].end, 21800u);
    EXPECT_EQ(timeline.markers[1].name, kHostileMarker);
    EXPECT_EQ(timeline.markers[1].depth, 0u);
    EXPECT_EQ(timeline.markers[1].end, 60500u);
    EXPECT_EQ(timeline.markers[2].name, "inner");
    EXPECT_EQ(timeline.markers[2].depth, 1u);
    EXPECT_TRUE(timeline.notes.empty());
}

TEST(Timeline, UnclosedAndUnmatchedMarkersAreNoted) {
    AtpFile file = SingleThreadTrace({Call("clFlush", "CL_SUCCESS", {"0x1"}, 100, 200)});
    file.markerThreads.push_back({7, {{PerfMarker::Kind::End, "", "", 50}, {PerfMarker::Kind::Begin, "open", "", 60}}});
    const Timeline timeline = BuildTimeline(file);
    ASSERT_EQ(timeline.markers.size(), 1u);
    EXPECT_FALSE(timeline.markers[0].closed);
    EXPECT_EQ(timeline.markers[0].end, 200u);
    ASSERT_EQ(timeline.notes.size(), 2u);
    EXPECT_NE(timeline.notes[0].find("no begin marker"), std::string::npos);
    EXPECT_NE(timeline.notes[1].find("no end marker"), std::string::npos);
}

TEST(Timeline, IncompleteCommandsStayOutOfTheTimes) {
    AtpFile file = SingleThreadTrace({Kernel(Enqueue(Call("clEnqueueNDRangeKernel", "CL_SUCCESS", {"0x1"}, 100, 200),
                                                     0x11F0, "CL_COMMAND_NDRANGE_KERNEL", 0, 0, 1, "0x1"),
                                             "0x2", "lost", {64}, {64})});
    const Timeline timeline = BuildTimeline(file);
    ASSERT_EQ(timeline.activities.size(), 1u);
    EXPECT_FALSE(timeline.activities[0].completed);
    EXPECT_EQ(timeline.end, 200u);
    const KernelSummary kernels = SummarizeKernels(&timeline, nullptr, nullptr);
    EXPECT_EQ(kernels.incomplete, 1u);
    EXPECT_TRUE(kernels.kernels.empty());
}

TEST(Timeline, CudaKernelTimestampSection) {
    const AtpFile file = CudaFixture();
    const Timeline timeline = BuildTimeline(file);
    ASSERT_EQ(timeline.activities.size(), 1u);
    const DeviceActivity& kernel = timeline.activities[0];
    EXPECT_EQ(kernel.api, "cuda");
    EXPECT_EQ(kernel.name, "_Z6vecAddPfS_S_i");
    EXPECT_EQ(kernel.queue, "stream 7");
    EXPECT_EQ(kernel.device, "NVIDIA_H100");
    EXPECT_EQ(kernel.duration(), 2500u);
    EXPECT_EQ(ApiDisplayName("cuda"), "CUDA");
}

TEST(Timeline, KernelTimestampsRepeatingCallTimesAreLeftOut) {
    AtpFile file = CudaFixture();
    ApiCall& launch = file.parts[0].threads[0].entries[3];
    launch = Kernel(Enqueue(launch, 0, "KERNEL", 6000, 8500, 7, "0x7"), "0x400000", "_Z6vecAddPfS_S_i", {512}, {128});
    Timeline timeline = BuildTimeline(file);
    ASSERT_EQ(timeline.activities.size(), 1u);
    EXPECT_TRUE(timeline.activities[0].hostCall.has_value());
    // A kernel only the section has (one a CUDA graph launch started) is kept.
    KernelTimestamp graphKernel = file.parts[0].kernelTimestamps[0];
    graphKernel.kernelName = "graph_node_kernel";
    graphKernel.start = 8600;
    graphKernel.end = 8700;
    file.parts[0].kernelTimestamps.push_back(graphKernel);
    timeline = BuildTimeline(file);
    ASSERT_EQ(timeline.activities.size(), 2u);
    EXPECT_EQ(timeline.activities[1].name, "graph_node_kernel");
    EXPECT_FALSE(timeline.activities[1].hostCall.has_value());
}

TEST(Timeline, KernelsWithoutDeviceTimesAreNotCountedTwice) {
    // The CUDA part writes each launch in both places; without device times both say 0, 0.
    AtpFile file = CudaFixture();
    ApiCall& launch = file.parts[0].threads[0].entries[3];
    launch = Kernel(Enqueue(launch, 1, "CUDA_KERNEL", 0, 0, 7, "0x7"), "0x400000", "_Z6vecAddPfS_S_i", {512}, {128});
    file.parts[0].kernelTimestamps[0].start = 0;
    file.parts[0].kernelTimestamps[0].end = 0;
    file.parts[0].kernelTimestamps.push_back(file.parts[0].kernelTimestamps[0]);  // a second, graph-launched one
    const Timeline timeline = BuildTimeline(file);
    EXPECT_EQ(timeline.activities.size(), 2u);
    EXPECT_EQ(SummarizeKernels(&timeline, nullptr, nullptr).incomplete, 2u);
}

TEST(ApiSummary, PerFunctionExactNumbers) {
    const AtpFile file = OpenClFixture();
    const std::vector<ApiSummary> summaries = SummarizeApis(BuildTimeline(file));
    ASSERT_EQ(summaries.size(), 1u);
    const ApiSummary& ocl = summaries[0];
    EXPECT_EQ(ocl.api, "ocl");
    EXPECT_EQ(ocl.calls, 28u);
    EXPECT_EQ(ocl.threads, 2u);
    EXPECT_EQ(ocl.failures, 2u);
    uint64_t total = 0;
    for (const auto& thread : file.parts[0].threads) {
        for (const ApiCall& call : thread.entries) total += call.end - call.start;
    }
    EXPECT_EQ(ocl.totalNs, total);

    const ApiFunctionStats* finish = Function(ocl, "clFinish");
    ASSERT_NE(finish, nullptr);
    EXPECT_EQ(finish->calls, 4u);
    EXPECT_EQ(finish->totalNs, 49200u);
    EXPECT_EQ(finish->minNs, 100u);
    EXPECT_EQ(finish->maxNs, 25000u);
    EXPECT_DOUBLE_EQ(finish->averageNs, 12300.0);
    EXPECT_DOUBLE_EQ(finish->sharePercent, 100.0 * 49200.0 / static_cast<double>(total));
    EXPECT_EQ(ocl.functions.front().name, "clFinish");  // the most time

    const ApiFunctionStats* buffers = Function(ocl, "clCreateBuffer");
    ASSERT_NE(buffers, nullptr);
    EXPECT_EQ(buffers->calls, 3u);
    EXPECT_EQ(buffers->totalNs, 1200u);
    EXPECT_EQ(buffers->minNs, 200u);
    EXPECT_EQ(buffers->failures, 1u);
    EXPECT_EQ(Function(ocl, "clBuildProgram")->failures, 1u);
    EXPECT_EQ(Function(ocl, "clFinish")->failures, 0u);
}

TEST(ApiSummary, OnePerApiPart) {
    AtpFile file = OpenClFixture();
    file.parts.push_back(CudaFixture().parts[0]);
    const std::vector<ApiSummary> summaries = SummarizeApis(BuildTimeline(file));
    ASSERT_EQ(summaries.size(), 2u);
    EXPECT_EQ(summaries[1].api, "cuda");
    EXPECT_EQ(summaries[1].calls, 11u);
    EXPECT_EQ(summaries[1].failures, 1u);  // cudaErrorInvalidValue; cudaErrorNotReady is an answer, not a failure
}

TEST(KernelSummary, FromTheTrace) {
    const AtpFile file = OpenClFixture();
    const Timeline timeline = BuildTimeline(file);
    const OccupancyFile occupancy = OccupancyFixture();
    const KernelSummary summary = SummarizeKernels(&timeline, nullptr, &occupancy);
    EXPECT_EQ(summary.source, KernelSummary::Source::Trace);
    EXPECT_EQ(summary.dispatches, 4u);
    EXPECT_EQ(summary.totalNs, 21000u);
    ASSERT_EQ(summary.kernels.size(), 2u);
    const KernelStats& first = summary.kernels[0];
    EXPECT_EQ(first.name, kHostileKernel);
    EXPECT_EQ(first.device, "cpu device");
    EXPECT_EQ(first.calls, 2u);
    EXPECT_EQ(first.totalNs, 16000u);
    EXPECT_EQ(first.minNs, 6000u);
    EXPECT_EQ(first.maxNs, 10000u);
    EXPECT_DOUBLE_EQ(first.averageNs, 8000.0);
    EXPECT_DOUBLE_EQ(first.sharePercent, 100.0 * 16000.0 / 21000.0);
    EXPECT_FALSE(first.occupancyPercent.has_value());
    const KernelStats& second = summary.kernels[1];
    EXPECT_EQ(second.name, "vector_add");
    EXPECT_EQ(second.totalNs, 5000u);
    EXPECT_DOUBLE_EQ(second.averageNs, 2500.0);
    ASSERT_TRUE(second.occupancyPercent.has_value());
    EXPECT_DOUBLE_EQ(*second.occupancyPercent, 62.5);
}

TEST(KernelSummary, FromTheCounterFileWithoutATrace) {
    const CsvFile csv = CsvFixture();
    const KernelSummary summary = SummarizeKernels(nullptr, &csv, nullptr);
    EXPECT_EQ(summary.source, KernelSummary::Source::CounterFile);
    ASSERT_EQ(summary.kernels.size(), 2u);
    EXPECT_EQ(summary.kernels[0].name, kHostileKernel);
    EXPECT_EQ(summary.kernels[0].device, "CPU");
    EXPECT_EQ(summary.kernels[0].totalNs, 10000u);
    EXPECT_EQ(summary.kernels[1].totalNs, 2000u);
}

TEST(KernelSummary, TopTenOfTwelve) {
    std::vector<ApiCall> calls;
    for (uint64_t k = 0; k < 12; ++k) {
        // Kernel k runs (k + 1) * 1000 ns.
        calls.push_back(Kernel(Enqueue(Call("clEnqueueNDRangeKernel", "CL_SUCCESS", {"0x1"}, 100 + k * 100, 150 + k * 100),
                                       0x11F0, "CL_COMMAND_NDRANGE_KERNEL", 100000 * (k + 1),
                                       100000 * (k + 1) + (k + 1) * 1000, 1, "0x1"),
                               "0x2", "kernel_" + std::to_string(k), {64}, {64}));
    }
    const AtpFile file = SingleThreadTrace(calls);
    const Timeline timeline = BuildTimeline(file);
    const std::vector<KernelStats> top = TopKernels(SummarizeKernels(&timeline, nullptr, nullptr), 10);
    ASSERT_EQ(top.size(), 10u);
    EXPECT_EQ(top.front().name, "kernel_11");
    EXPECT_EQ(top.front().totalNs, 12000u);
    EXPECT_EQ(top.back().name, "kernel_2");
}

TEST(TransferSummary, TopBySizeAndByTimeWithBandwidth) {
    const AtpFile file = OpenClFixture();
    const TransferSummary summary = SummarizeTransfers(BuildTimeline(file));
    EXPECT_EQ(summary.transfers, 3u);
    EXPECT_EQ(summary.bytes, 4096u + 8192u + 1048576u);
    EXPECT_EQ(summary.durationNs, 4096u + 4096u + 1000u);
    ASSERT_EQ(summary.largest.size(), 3u);
    EXPECT_EQ(summary.largest[0].bytes, 1048576u);
    EXPECT_EQ(summary.largest[0].call, "clEnqueueWriteBuffer");
    EXPECT_EQ(summary.largest[0].direction, "host to device");
    EXPECT_EQ(*summary.largest[0].threadId, kWorkerThread);
    EXPECT_EQ(*summary.largest[0].callIndex, 3u);
    EXPECT_DOUBLE_EQ(summary.largest[0].bandwidthGBps, 1048.576);
    ASSERT_EQ(summary.longest.size(), 3u);
    EXPECT_EQ(summary.longest[0].call, "clEnqueueReadBuffer");  // 4096 ns like the write, but larger
    EXPECT_EQ(summary.longest[0].direction, "device to host");
    EXPECT_DOUBLE_EQ(summary.longest[0].bandwidthGBps, 2.0);
    EXPECT_EQ(summary.longest[1].bytes, 4096u);
    EXPECT_DOUBLE_EQ(summary.longest[1].bandwidthGBps, 1.0);
    EXPECT_EQ(summary.longest[2].durationNs, 1000u);
    ASSERT_EQ(summary.directions.size(), 2u);
    EXPECT_EQ(summary.directions[0].direction, "host to device");
    EXPECT_EQ(summary.directions[0].transfers, 2u);
    EXPECT_EQ(summary.directions[0].bytes, 4096u + 1048576u);
}

TEST(TransferSummary, KeepsOnlyTheTop) {
    std::vector<ApiCall> calls;
    for (uint64_t k = 0; k < 15; ++k) {
        ApiCall call = Enqueue(Call("clEnqueueReadBuffer", "CL_SUCCESS", {"0x1"}, 10 * k + 1, 10 * k + 2), 0x11F3,
                               "CL_COMMAND_READ_BUFFER", 1000 * (k + 1), 1000 * (k + 1) + 100, 1, "0x1");
        call.transferSize = 1000 * (k + 1);
        calls.push_back(call);
    }
    const AtpFile file = SingleThreadTrace(calls);
    const TransferSummary summary = SummarizeTransfers(BuildTimeline(file));
    EXPECT_EQ(summary.transfers, 15u);
    ASSERT_EQ(summary.largest.size(), 10u);
    EXPECT_EQ(summary.largest[0].bytes, 15000u);
    EXPECT_EQ(summary.largest[9].bytes, 6000u);
    ASSERT_EQ(summary.longest.size(), 10u);
    EXPECT_EQ(summary.longest[0].bytes, 15000u);  // equal times: larger first
}

TEST(TransferSummary, Directions) {
    EXPECT_EQ(TransferDirection("CL_COMMAND_COPY_BUFFER", ""), "device to device");
    EXPECT_EQ(TransferDirection("CL_COMMAND_FILL_BUFFER", ""), "fill");
    EXPECT_EQ(TransferDirection("CL_COMMAND_MAP_BUFFER", ""), "map");
    EXPECT_EQ(TransferDirection("CL_COMMAND_UNMAP_MEM_OBJECT", ""), "unmap");
    EXPECT_EQ(TransferDirection("", "cuMemcpyHtoD_v2"), "host to device");
    EXPECT_EQ(TransferDirection("cudaMemcpyDeviceToHost", "cudaMemcpyAsync"), "device to host");
    // The CUDA part's command names (CUPTI copy kinds).
    EXPECT_EQ(TransferDirection("CUDA_MEMCPY_HTOD", "cudaMemcpy"), "host to device");
    EXPECT_EQ(TransferDirection("CUDA_MEMCPY_DTOH", "cudaMemcpy"), "device to host");
    EXPECT_EQ(TransferDirection("CUDA_MEMCPY_DTOD", "cudaMemcpy"), "device to device");
    EXPECT_EQ(TransferDirection("CUDA_MEMCPY_PTOP", "cudaMemcpyPeer"), "device to device");
    EXPECT_EQ(TransferDirection("CUDA_MEMCPY_HTOH", "cudaMemcpy"), "host to host");
    EXPECT_EQ(TransferDirection("CUDA_MEMCPY_ATOH", "cudaMemcpy2DFromArray"), "device to host");
    EXPECT_EQ(TransferDirection("CUDA_MEMSET", "cudaMemset"), "fill");
    EXPECT_EQ(TransferDirection("CL_COMMAND_READ_BUFFER", ""), "device to host");
    EXPECT_EQ(TransferDirection("CL_COMMAND_WRITE_IMAGE", ""), "host to device");
}

TEST(ContextSummary, PerContextAndDevice) {
    const AtpFile file = OpenClFixture();
    const std::vector<ContextStats> contexts = SummarizeContexts(BuildTimeline(file));
    ASSERT_EQ(contexts.size(), 1u);
    const ContextStats& context = contexts[0];
    EXPECT_EQ(context.context, "context 1 (0x00000000000000C1)");
    EXPECT_EQ(context.device, "cpu device");
    EXPECT_EQ(context.queues.size(), 2u);
    EXPECT_EQ(context.kernels, 4u);
    EXPECT_EQ(context.kernelNs, 21000u);
    EXPECT_EQ(context.transfers, 3u);
    EXPECT_EQ(context.transferBytes, 4096u + 8192u + 1048576u);
    EXPECT_EQ(context.transferNs, 9192u);
}

TEST(LanePacking, DisjointAndNested) {
    const std::vector<Interval> intervals = {{0, 100}, {10, 20}, {100, 150}, {50, 120}, {60, 70}};
    EXPECT_EQ(PackLanes(intervals, true), (std::vector<size_t>{0, 0, 0, 1, 0}));
    EXPECT_EQ(PackLanes(intervals, false), (std::vector<size_t>{0, 1, 0, 1, 2}));
}

TEST(FormatUnits, DurationsBytesBandwidth) {
    EXPECT_EQ(FormatDuration(812), "812 ns");
    EXPECT_EQ(FormatDuration(12345), "12.345 us");
    EXPECT_EQ(FormatDuration(1234567), "1.235 ms");
    EXPECT_EQ(FormatDuration(2.5e9), "2.500 s");
    EXPECT_EQ(FormatBytes(512), "512 B");
    EXPECT_EQ(FormatBytes(1536 * 1024), "1.50 MiB");
    EXPECT_EQ(FormatBandwidth(8192, 4096), "2.00 GB/s");
    EXPECT_EQ(FormatBandwidth(1, 0), "-");
}

}  // namespace
}  // namespace gpaprof::report
