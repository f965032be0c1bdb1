// The cross-rank tables: a rank's row from a trace with known numbers (rank_fixture.h), the straggler rule,
// the kernels' spread over the ranks, and which kernels are communication.
#include <gtest/gtest.h>

#include "rank_fixture.h"
#include "report_fixture.h"
#include "tools/gpaprof/report/communication_kernels.h"
#include "tools/gpaprof/report/rank_summary.h"
#include "tools/gpaprof/report/timeline.h"

namespace gpaprof::report {
namespace {

using namespace testing;

RankRow Row(const AtpFile& file) { return SummarizeRank(BuildTimeline(file), file.session); }

TEST(RankSummary, RowOfATraceWithKnownNumbers) {
    const RankRow row = Row(RankFixture());
    EXPECT_EQ(row.dispatches, 3u);
    EXPECT_EQ(row.incomplete, 0u);
    EXPECT_EQ(row.kernelNs, 9000u);
    EXPECT_EQ(row.communicationNs, 6000u);
    EXPECT_EQ(row.communicationDispatches, 1u);
    EXPECT_EQ(row.computeNs(), 3000u);
    EXPECT_EQ(row.hostGapNs, 2500u);  // 3000-3500, 9500-10000, 10500-12000: the transfer is device work too
    EXPECT_EQ(row.apiCalls, 5u);
    EXPECT_EQ(row.apiNs, 12600u);
    EXPECT_EQ(row.ownWorkNs(), 5500u);
    EXPECT_EQ(row.deviceBegin, 1000u);
    EXPECT_EQ(row.deviceEnd, 13000u);
    ASSERT_TRUE(row.firstCommunicationEnd);
    EXPECT_EQ(*row.firstCommunicationEnd, 9500u);
    EXPECT_EQ(row.begin, 100u);
    EXPECT_EQ(row.end, 13100u);
    ASSERT_EQ(row.devices.size(), 1u);
    EXPECT_EQ(row.devices[0], "cpu device");
    ASSERT_EQ(row.kernels.size(), 2u);
    EXPECT_EQ(row.kernels.at("compute").dispatches, 2u);
    EXPECT_EQ(row.kernels.at("compute").ns, 3000u);
    EXPECT_EQ(row.kernels.at(kRankNcclKernel).ns, 6000u);

    const RankRow later = Row(RankFixture(1000000, 700));
    EXPECT_EQ(later.kernelNs, 9700u);
    EXPECT_EQ(later.ownWorkNs(), 6200u);
    EXPECT_EQ(later.hostGapNs, 2500u);
    EXPECT_EQ(*later.firstCommunicationEnd, 1009500u);
}

// Work on two queues at once is busy time once: only the stretches where nothing runs are host gaps.
TEST(RankSummary, OverlappingWorkIsNotAGap) {
    AtpFile file = RankFixture();
    // A kernel on queue 2 from 2500 to 4000 closes the gap 3000-3500.
    file.parts[0].threads[0].entries.push_back(
        Kernel(Enqueue(Call("clEnqueueNDRangeKernel", "CL_SUCCESS", {}, 1000, 1100), 0x11F0, "CL_COMMAND_NDRANGE_KERNEL",
                       2500, 4000, 2, "0x0000000000000A02"),
               "0x0000000000000F02", "other", {32}, {32}));
    const RankRow row = Row(file);
    EXPECT_EQ(row.hostGapNs, 2000u);
    EXPECT_EQ(row.dispatches, 4u);
    EXPECT_EQ(row.kernelNs, 10500u);
}

TEST(RankSummary, WithoutDeviceWorkTheHeaderNamesTheDevice) {
    AtpFile file = RankFixture();
    file.parts[0].threads[0].entries.resize(0);
    file.parts[0].threads[0].entries.push_back(Call("clGetPlatformIDs", "CL_SUCCESS", {}, 10, 30));
    const RankRow row = Row(file);
    EXPECT_FALSE(row.hasDeviceWork());
    EXPECT_EQ(row.dispatches, 0u);
    EXPECT_EQ(row.hostGapNs, 0u);
    EXPECT_EQ(row.apiNs, 20u);
    ASSERT_EQ(row.devices.size(), 1u);
    EXPECT_EQ(row.devices[0], "cpu device");
    EXPECT_FALSE(row.firstCommunicationEnd);
}

RankRow WithOwnWork(uint64_t computeNs, uint64_t gapNs, std::optional<int64_t> rank) {
    RankRow row;
    row.rank = rank;
    row.kernelNs = computeNs + 100;
    row.communicationNs = 100;
    row.hostGapNs = gapNs;
    row.deviceBegin = 1;
    row.deviceEnd = 2;
    return row;
}

TEST(RankSummary, StragglerIsMoreThanTheShareAboveTheMedian) {
    // Own work 100, 100, 110, 111 (ns): median 105; 10 % above it is 115.5.
    std::vector<RankRow> rows = {WithOwnWork(100, 0, 0), WithOwnWork(90, 10, 1), WithOwnWork(110, 0, 2),
                                 WithOwnWork(100, 11, 3)};
    StragglerVerdict verdict = FindStragglers(rows, 10.0);
    EXPECT_DOUBLE_EQ(verdict.medianOwnWorkNs, 105.0);
    EXPECT_EQ(verdict.ranksCompared, 4u);
    EXPECT_TRUE(verdict.stragglers.empty());
    EXPECT_NEAR(verdict.standing[3].aboveMedianPercent, 100.0 * (111.0 / 105.0 - 1.0), 1e-9);

    // A fifth rank at 130 (median 110, limit 121) is one; at a share of 20 % (limit 132) it is not.
    rows.push_back(WithOwnWork(100, 30, 4));
    verdict = FindStragglers(rows, 10.0);
    EXPECT_DOUBLE_EQ(verdict.medianOwnWorkNs, 110.0);
    ASSERT_EQ(verdict.stragglers.size(), 1u);
    EXPECT_EQ(verdict.stragglers[0], 4u);
    EXPECT_TRUE(verdict.standing[4].straggler);
    EXPECT_NEAR(verdict.standing[4].aboveMedianPercent, 100.0 * (130.0 / 110.0 - 1.0), 1e-9);
    EXPECT_TRUE(FindStragglers(rows, 20.0).stragglers.empty());
    // Exactly at the limit is not above it: 121 against a median of 110 at 10 %.
    rows.back() = WithOwnWork(121, 0, 4);
    EXPECT_TRUE(FindStragglers(rows, 10.0).stragglers.empty());
    rows.back() = WithOwnWork(122, 0, 4);
    EXPECT_EQ(FindStragglers(rows, 10.0).stragglers.size(), 1u);
}

TEST(RankSummary, StragglersMostAboveFirstAndRanksWithoutDeviceWorkLeftOut) {
    std::vector<RankRow> rows = {WithOwnWork(100, 0, 0), WithOwnWork(150, 0, 1), WithOwnWork(100, 0, 2),
                                 WithOwnWork(200, 0, 3), WithOwnWork(100, 0, 4)};
    RankRow launcher;  // a process that ran no device work (a launcher's): not compared
    launcher.apiNs = 5;
    rows.push_back(launcher);
    const StragglerVerdict verdict = FindStragglers(rows, 10.0);
    EXPECT_EQ(verdict.ranksCompared, 5u);
    EXPECT_DOUBLE_EQ(verdict.medianOwnWorkNs, 100.0);
    ASSERT_EQ(verdict.stragglers.size(), 2u);
    EXPECT_EQ(verdict.stragglers[0], 3u);
    EXPECT_EQ(verdict.stragglers[1], 1u);
    EXPECT_FALSE(verdict.standing[5].straggler);

    const StragglerVerdict none = FindStragglers({launcher}, 10.0);
    EXPECT_EQ(none.ranksCompared, 0u);
    EXPECT_TRUE(none.stragglers.empty());
}

TEST(RankSummary, KernelSpreadOverTheRanks) {
    std::vector<RankRow> rows(3);
    rows[0].kernels["a"] = {2, 100};
    rows[0].kernels[kRankNcclKernel] = {1, 500};
    rows[1].kernels["a"] = {2, 300};
    rows[1].kernels[kRankNcclKernel] = {1, 50};
    rows[2].kernels["a"] = {3, 200};
    rows[2].kernels["b"] = {1, 10};
    const std::vector<KernelSpread> spread = SpreadKernels(rows, 10);
    ASSERT_EQ(spread.size(), 3u);
    EXPECT_EQ(spread[0].name, "a");  // 600 in all
    EXPECT_EQ(spread[0].ranks, 3u);
    EXPECT_EQ(spread[0].dispatches, 7u);
    EXPECT_EQ(spread[0].totalNs, 600u);
    EXPECT_EQ(spread[0].minNs, 100u);
    EXPECT_EQ(spread[0].minRow, 0u);
    EXPECT_DOUBLE_EQ(spread[0].medianNs, 200.0);
    EXPECT_EQ(spread[0].maxNs, 300u);
    EXPECT_EQ(spread[0].maxRow, 1u);
    EXPECT_FALSE(spread[0].communication);
    EXPECT_EQ(spread[1].name, kRankNcclKernel);  // 550, on 2 ranks
    EXPECT_TRUE(spread[1].communication);
    EXPECT_EQ(spread[1].ranks, 2u);
    EXPECT_DOUBLE_EQ(spread[1].medianNs, 275.0);
    EXPECT_EQ(spread[2].name, "b");
    EXPECT_EQ(SpreadKernels(rows, 1).size(), 1u);
}

TEST(CommunicationKernels, NcclNamesPlainAndMangled) {
    EXPECT_TRUE(IsCommunicationKernel("ncclDevKernel_AllReduce_Sum_f32_RING_LL"));
    EXPECT_TRUE(IsCommunicationKernel("ncclKernel_AllGather_RING_LL_Sum_int8_t"));
    EXPECT_TRUE(IsCommunicationKernel(kRankNcclKernel));
    EXPECT_TRUE(IsCommunicationKernel("_ZN4nccl6detail3fooEv"));  // in namespace nccl
    EXPECT_TRUE(IsCommunicationKernel("_Z26ncclDevKernel_Generic_4096P24ncclDevKernelArgsStorage"));
    EXPECT_FALSE(IsCommunicationKernel("sm90_xmma_gemm_f32f32"));
    EXPECT_FALSE(IsCommunicationKernel("_Z6vecAddPfS_S_i"));
    EXPECT_FALSE(IsCommunicationKernel("_Z4ncc"));   // too short for its length
    EXPECT_FALSE(IsCommunicationKernel("_Z99nccl"));  // a length past the end
    EXPECT_FALSE(IsCommunicationKernel("my_nccl_like_kernel"));
    EXPECT_FALSE(IsCommunicationKernel(""));
}

}  // namespace
}  // namespace gpaprof::report
