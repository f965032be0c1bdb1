// The cross-rank report from files: rows in rank order with the known numbers of rank_fixture.h, ranks from
// ProcessRank= before file names, files that cannot be read named with the reason while the others are
// reported, and the synthetic data-parallel run (bench/rank_traces_synthetic.h) checked against what its
// generator says each rank holds, its slow rank found.
#include <gtest/gtest.h>

#include "rank_fixture.h"
#include "rank_traces_synthetic.h"
#include "tools/gpaprof/report/rank_report.h"
#include "tools/gpaprof/report/rank_text_report.h"

namespace gpaprof::report {
namespace {

using namespace testing;

TEST(RankReport, RowsInRankOrderWithTheirNumbers) {
    ScratchFolder folder;
    folder.Write("run_2.atp", RankFixture(0, 3000));  // own work 8500: 54.5 % above the median of 5500
    folder.Write("run_10.atp", RankFixture(0, 0));
    folder.Write("run_1.atp", RankFixture(0, 100));
    const CrossRankReport report = BuildCrossRankReport({folder.path()}, {});
    EXPECT_EQ(report.filesFound, 3u);
    EXPECT_TRUE(report.unreadable.empty());
    EXPECT_TRUE(report.problems.empty());
    ASSERT_EQ(report.rows.size(), 3u);
    EXPECT_EQ(report.rows[0].rank, 1);
    EXPECT_EQ(report.rows[1].rank, 2);
    EXPECT_EQ(report.rows[2].rank, 10);
    EXPECT_EQ(report.rows[0].rankFrom, "file name");
    EXPECT_EQ(report.rows[1].path, folder.File("run_2.atp"));
    EXPECT_EQ(report.rows[1].kernelNs, 12000u);
    EXPECT_EQ(report.rows[1].communicationNs, 6000u);
    EXPECT_EQ(report.rows[1].hostGapNs, 2500u);
    EXPECT_EQ(report.rows[1].apiNs, 15600u);
    EXPECT_EQ(report.rows[1].dispatches, 3u);
    EXPECT_EQ(report.rows[2].ownWorkNs(), 5500u);
    // Own work 5600, 8500, 5500: median 5600; rank 2 is 51.8 % above it.
    EXPECT_DOUBLE_EQ(report.stragglers.medianOwnWorkNs, 5600.0);
    ASSERT_EQ(report.stragglers.stragglers.size(), 1u);
    EXPECT_EQ(report.rows[report.stragglers.stragglers[0]].rank, 2);
    EXPECT_NEAR(report.stragglers.standing[1].aboveMedianPercent, 100.0 * (8500.0 / 5600.0 - 1.0), 1e-9);
    // With a share of 60 % there is none.
    CrossRankOptions lenient;
    lenient.stragglerSharePercent = 60.0;
    EXPECT_TRUE(BuildCrossRankReport({folder.path()}, lenient).stragglers.stragglers.empty());
    ASSERT_EQ(report.topKernels.size(), 2u);
    EXPECT_EQ(report.topKernels[0].name, kRankNcclKernel);
    EXPECT_EQ(report.topKernels[0].totalNs, 18000u);
    EXPECT_EQ(report.topKernels[1].name, "compute");
    EXPECT_EQ(report.topKernels[1].totalNs, 3000u + 3100u + 6000u);
    EXPECT_EQ(report.topKernels[1].maxNs, 6000u);
    EXPECT_EQ(report.rows[report.topKernels[1].maxRow].rank, 2);

    const std::string text = WriteRankTextSummary(report);
    EXPECT_NE(text.find("gpaprof report over 3 ranks: 3 of 3 trace files read"), std::string::npos) << text;
    EXPECT_NE(text.find("rank 2: own work 8.500 us, +51.8 %"), std::string::npos) << text;
    EXPECT_NE(text.find("[comm]"), std::string::npos) << text;
}

TEST(RankReport, ProcessRankLineBeforeTheFileName) {
    ScratchFolder folder;
    AtpFile seven = RankFixture();
    seven.session.processRank = EnvironmentVariable{"RANK", "7"};
    folder.Write("run_0.atp", seven);
    folder.Write("run_1.atp", RankFixture());
    folder.Write("launcher.atp", RankFixture());
    const CrossRankReport report = BuildCrossRankReport({folder.path()}, {});
    ASSERT_EQ(report.rows.size(), 3u);
    // From the names launcher, run_0, run_1: their last numbers, none for the launcher; run_0 says 7 itself.
    EXPECT_EQ(report.rows[0].rank, 1);
    EXPECT_EQ(report.rows[0].rankFrom, "file name");
    EXPECT_EQ(report.rows[1].rank, 7);
    EXPECT_EQ(report.rows[1].rankFrom, "ProcessRank RANK=7");
    EXPECT_FALSE(report.rows[2].rank);  // without a rank: last
    EXPECT_EQ(report.rows[2].Label(), "launcher.atp");
    bool noted = false;
    for (const std::string& note : report.notes) noted |= note.find("launcher.atp: no rank") != std::string::npos;
    EXPECT_TRUE(noted);
    // A file without a rank (a launcher's own calls) is read and listed, but not counted as a rank.
    const std::string text = WriteRankTextSummary(report);
    EXPECT_NE(text.find("gpaprof report over 2 ranks: 3 of 3 trace files read (1 without a rank)"), std::string::npos) << text;
}

TEST(RankReport, ARankGivenTwiceIsNoted) {
    ScratchFolder folder;
    AtpFile one = RankFixture();
    one.session.processRank = EnvironmentVariable{"RANK", "1"};
    folder.Write("run_0.atp", one);
    folder.Write("run_1.atp", RankFixture());
    const CrossRankReport report = BuildCrossRankReport({folder.path()}, {});
    ASSERT_EQ(report.rows.size(), 2u);
    EXPECT_EQ(report.rows[0].rank, 1);
    EXPECT_EQ(report.rows[1].rank, 1);
    ASSERT_FALSE(report.notes.empty());
    EXPECT_NE(report.notes.back().find("rank 1 is given by 2 files"), std::string::npos) << report.notes.back();
}

TEST(RankReport, UnreadableFilesAreNamedAndTheOthersReported) {
    ScratchFolder folder;
    folder.Write("run_0.atp", RankFixture());
    folder.Write("run_1.atp", RankFixture(0, 50));
    folder.WriteText("run_2.atp", "not a trace\n");
    folder.WriteText("run_3.atp", "");
    folder.WriteText("run_4.csv", "#ProfileFileVersion=3.0\n");
    const CrossRankReport report =
        BuildCrossRankReport({folder.path(), folder.File("run_9.atp"), folder.File("run_4.csv")}, {});
    EXPECT_EQ(report.filesFound, 4u);
    ASSERT_EQ(report.rows.size(), 2u);
    EXPECT_EQ(report.rows[1].kernelNs, 9050u);
    ASSERT_EQ(report.unreadable.size(), 3u);
    EXPECT_EQ(report.unreadable[0].path, folder.File("run_9.atp"));
    EXPECT_EQ(report.unreadable[0].message, "no such file or folder");
    EXPECT_EQ(report.unreadable[1].path, folder.File("run_2.atp"));
    EXPECT_NE(report.unreadable[1].message.find("not a gpaprof trace"), std::string::npos);
    EXPECT_EQ(report.unreadable[2].path, folder.File("run_3.atp"));
    EXPECT_EQ(report.unreadable[2].message, "the file is empty");
    const std::string text = WriteRankTextSummary(report);
    EXPECT_NE(text.find("2 of 4 trace files read, 3 input(s) could not be read"), std::string::npos) << text;
    EXPECT_NE(text.find("Could not be read\n  " + folder.File("run_9.atp") + ": no such file or folder"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("note: left out " + folder.File("run_4.csv")), std::string::npos) << text;
}

TEST(RankReport, SyntheticRunMatchesItsGeneratorAndFindsTheSlowRank) {
    bench::SyntheticRanksOptions options;
    options.ranks = 8;
    options.steps = 2;
    options.slowRanks = {5};
    options.rankHeader = false;  // ranks from the file names
    const bench::SyntheticRanks ranks(options);
    ScratchFolder folder;
    std::vector<bench::SyntheticRankFacts> facts(options.ranks);
    for (uint32_t r = 0; r < options.ranks; ++r) {
        folder.Write("run_" + std::to_string(r) + ".atp", ranks.Trace(r, &facts[r]));
    }
    const CrossRankReport report = BuildCrossRankReport({folder.path()}, {});
    ASSERT_EQ(report.rows.size(), options.ranks);
    EXPECT_TRUE(report.problems.empty());
    for (uint32_t r = 0; r < options.ranks; ++r) {
        const RankRow& row = report.rows[r];
        SCOPED_TRACE("rank " + std::to_string(r));
        EXPECT_EQ(row.rank, r);
        EXPECT_EQ(row.dispatches, facts[r].kernels);
        EXPECT_EQ(row.communicationDispatches, facts[r].ncclKernels);
        EXPECT_EQ(row.kernelNs, facts[r].kernelNs);
        EXPECT_EQ(row.communicationNs, facts[r].ncclNs);
        EXPECT_EQ(row.apiCalls, facts[r].calls);
        EXPECT_EQ(row.host, "node00");
        ASSERT_EQ(row.devices.size(), 1u);
        EXPECT_EQ(row.devices[0], "NVIDIA H200");
    }
    ASSERT_EQ(report.stragglers.stragglers.size(), 1u);
    EXPECT_EQ(report.rows[report.stragglers.stragglers[0]].rank, 5);
    // The others waited for it in their NCCL kernels: it has less communication time than the median rank.
    std::vector<double> communication;
    for (const RankRow& row : report.rows) communication.push_back(static_cast<double>(row.communicationNs));
    EXPECT_LT(static_cast<double>(report.rows[5].communicationNs), Median(communication));
    ASSERT_FALSE(report.topKernels.empty());
    EXPECT_TRUE(report.topKernels[0].communication);
    EXPECT_EQ(report.topKernels[0].ranks, options.ranks);
}

}  // namespace
}  // namespace gpaprof::report
