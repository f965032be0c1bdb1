// Finding ranks' files, their ranks from file names and headers, and reading them with the reason when a file
// cannot be read.
#include <gtest/gtest.h>

#include <filesystem>

#include "rank_fixture.h"
#include "tools/gpaprof/report/rank_files.h"

namespace gpaprof::report {
namespace {

using namespace testing;
using Ranks = std::vector<std::optional<int64_t>>;

TEST(RankFiles, RankFromTheNumberThatTellsTheFilesApart) {
    EXPECT_EQ(RanksFromFileNames({"out/run_0.atp", "out/run_1.atp", "out/run_10.atp"}), (Ranks{0, 1, 10}));
    // The node number is the same on several files: the rank is the next number.
    EXPECT_EQ(RanksFromFileNames({"node2_gpu0.atp", "node2_gpu1.atp", "node3_gpu0.atp", "node3_gpu1.atp"}),
              (Ranks{{}, {}, {}, {}}))
        << "no single number tells these apart, and the last numbers repeat";
    EXPECT_EQ(RanksFromFileNames({"resnet18_run_3.atp", "resnet18_run_4.atp"}), (Ranks{3, 4}));
    // gpaprof's name for a second process of one name adds its pid: the first telling number is the rank.
    EXPECT_EQ(RanksFromFileNames({"run_3.4321.atp", "run_4.4400.atp"}), (Ranks{3, 4}));
    // "rank" in every name wins, wherever it is.
    EXPECT_EQ(RanksFromFileNames({"job7_rank-12_x.atp", "job7_rank5_x.atp"}), (Ranks{12, 5}));
    EXPECT_EQ(RanksFromFileNames({"a/RANK_2.atp"}), (Ranks{2}));
    // One file: its last number.
    EXPECT_EQ(RanksFromFileNames({"out/run_7.atp"}), (Ranks{7}));
    // %q{RANK} of a process without RANK (a launcher): no rank; the others keep theirs by their last number.
    EXPECT_EQ(RanksFromFileNames({"run_0.atp", "run_1.atp", "run_unset-RANK.atp"}), (Ranks{0, 1, {}}));
    EXPECT_EQ(RanksFromFileNames({"trace.atp", "other.atp"}), (Ranks{{}, {}}));
    EXPECT_TRUE(RanksFromFileNames({}).empty());
}

TEST(RankFiles, RankFromTheProcessRankLine) {
    SessionInfo session;
    EXPECT_FALSE(RankFromHeader(session));
    session.processRank = EnvironmentVariable{"OMPI_COMM_WORLD_RANK", "17"};
    EXPECT_EQ(RankFromHeader(session), 17);
    session.processRank = EnvironmentVariable{"RANK", "x"};
    EXPECT_FALSE(RankFromHeader(session));
}

TEST(RankFiles, CrossRankInputAndFolders) {
    ScratchFolder folder;
    const std::string a = folder.Write("run_0.atp", RankFixture());
    const std::string b = folder.Write("run_1.atp", RankFixture());
    const std::string csv = folder.WriteText("run_0.csv", "#ProfileFileVersion=3.0\n");
    const std::string byLine = folder.WriteText("trace.txt", "TraceFileVersion=3.2\n");
    EXPECT_FALSE(IsCrossRankInput({a}));
    EXPECT_FALSE(IsCrossRankInput({a, csv}));
    EXPECT_FALSE(IsCrossRankInput({a, a}));  // one file named twice
    EXPECT_TRUE(IsCrossRankInput({a, b}));
    EXPECT_TRUE(IsCrossRankInput({a, byLine}));
    EXPECT_TRUE(IsCrossRankInput({a, folder.File("missing.atp")}));
    EXPECT_TRUE(IsCrossRankInput({folder.path()}));

    std::filesystem::create_directory(folder.File("empty"));
    const RankFileSet set = FindRankFiles({folder.path(), a, csv, folder.File("missing.atp"), folder.File("empty")});
    ASSERT_EQ(set.traces.size(), 2u);  // the folder's .atp files, by name; `a` once
    EXPECT_EQ(set.traces[0], a);
    EXPECT_EQ(set.traces[1], b);
    ASSERT_EQ(set.leftOut.size(), 1u);
    EXPECT_NE(set.leftOut[0].find("run_0.csv"), std::string::npos);
    ASSERT_EQ(set.failures.size(), 2u);
    EXPECT_EQ(set.failures[0].path, folder.File("missing.atp"));
    EXPECT_EQ(set.failures[0].message, "no such file or folder");
    EXPECT_EQ(set.failures[1].message, "the folder has no .atp file");
}

TEST(RankFiles, ReadingSaysWhyAFileCannotBeRead) {
    ScratchFolder folder;
    const std::vector<std::string> paths = {
        folder.Write("run_0.atp", RankFixture()),
        folder.WriteText("run_1.atp", ""),
        folder.WriteText("run_2.atp", "hello\n"),
        folder.File("run_3.atp"),
        folder.WriteText("run_4.atp", "TraceFileVersion=3.2\n=====ocl API Trace Output=====\n7\nx\n"),
    };
    std::vector<RankTraceRead> reads(paths.size());
    ReadRankTraces(paths, 2, [&](size_t index, RankTraceRead& read) { reads[index] = std::move(read); });
    ASSERT_TRUE(reads[0].atp);
    EXPECT_TRUE(reads[0].problems.empty());
    EXPECT_EQ(reads[0].atp->parts.at(0).threads.at(0).entries.size(), 5u);
    EXPECT_FALSE(reads[1].atp);
    EXPECT_EQ(reads[1].failure, "the file is empty");
    EXPECT_FALSE(reads[2].atp);
    EXPECT_NE(reads[2].failure.find("not a gpaprof trace"), std::string::npos);
    EXPECT_FALSE(reads[3].atp);
    EXPECT_NE(reads[3].failure.find("cannot open"), std::string::npos) << reads[3].failure;
    // A damaged trace is read as far as it goes, with its problems.
    ASSERT_TRUE(reads[4].atp);
    EXPECT_FALSE(reads[4].problems.empty());
}

}  // namespace
}  // namespace gpaprof::report
