// --ranks: the list's syntax, which processes it selects, and gpaprof's line on the processes it left out.
#include "tools/gpaprof/spool/rank_selection.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include <gtest/gtest.h>

namespace gpaprof {
namespace {

RankSelection Selection(const char* text) {
    std::string error;
    std::optional<RankSelection> selection = RankSelection::Parse(text, &error);
    EXPECT_TRUE(selection.has_value()) << text << ": " << error;
    return selection.value_or(RankSelection{});
}

EnvironmentLookup Environment(std::map<std::string, std::string> variables) {
    return [variables](const std::string& name) -> std::optional<std::string> {
        auto found = variables.find(name);
        if (found == variables.end()) return std::nullopt;
        return found->second;
    };
}

TEST(RankSelection, RanksAndRanges) {
    const RankSelection one = Selection("0");
    EXPECT_TRUE(one.Contains(0));
    EXPECT_FALSE(one.Contains(1));
    const RankSelection several = Selection("0, 8,16-18");
    for (uint64_t rank : {0u, 8u, 16u, 17u, 18u}) EXPECT_TRUE(several.Contains(rank)) << rank;
    for (uint64_t rank : {1u, 7u, 9u, 15u, 19u}) EXPECT_FALSE(several.Contains(rank)) << rank;
    EXPECT_TRUE(Selection("3-3").Contains(3));
}

TEST(RankSelection, MalformedListsAreRefusedWithTheReason) {
    std::string error;
    for (const char* malformed : {"", "x", "1,", ",1", "1-", "-1", "1--2", "0x1", "1.5", "1 2", "a-b"}) {
        error.clear();
        EXPECT_FALSE(RankSelection::Parse(malformed, &error).has_value()) << "'" << malformed << "'";
        EXPECT_NE(error.find("--ranks takes ranks and ranges such as 0 or 0,8,16 or 0-3"), std::string::npos) << error;
    }
    EXPECT_FALSE(RankSelection::Parse("5-2", &error).has_value());
    EXPECT_NE(error.find("'5-2' ends before it starts"), std::string::npos) << error;
}

TEST(RankSelection, TheFirstRankVariableSetIsTheProcesssRank) {
    EXPECT_FALSE(FindProcessRank(Environment({})).has_value());
    EXPECT_FALSE(FindProcessRank(Environment({{"RANK", ""}})).has_value()) << "set but empty: no rank";
    const std::optional<ProcessRank> torchrun = FindProcessRank(Environment({{"RANK", "3"}, {"OMPI_COMM_WORLD_RANK", "5"}}));
    ASSERT_TRUE(torchrun.has_value());
    EXPECT_EQ(torchrun->variable, "RANK");
    EXPECT_EQ(torchrun->value, "3");
    for (const char* variable : {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK", "SLURM_PROCID", "MV2_COMM_WORLD_RANK"}) {
        const std::optional<ProcessRank> rank = FindProcessRank(Environment({{variable, "7"}}));
        ASSERT_TRUE(rank.has_value()) << variable;
        EXPECT_EQ(rank->variable, variable);
    }
}

TEST(RankSelection, ProcessesWithoutAListedRankAreLeftOut) {
    const RankSelection selection = Selection("1,4-5");
    EXPECT_TRUE(RankSelected(selection, ProcessRank{"RANK", "1"}));
    EXPECT_TRUE(RankSelected(selection, ProcessRank{"SLURM_PROCID", "5"}));
    EXPECT_FALSE(RankSelected(selection, ProcessRank{"RANK", "0"}));
    EXPECT_FALSE(RankSelected(selection, std::nullopt)) << "a launcher has no rank";
    EXPECT_FALSE(RankSelected(selection, ProcessRank{"RANK", "one"})) << "not a number";
}

TEST(RankSelection, TheRunSaysWhichProcessesRanUnprofiled) {
    const std::filesystem::path directory = std::filesystem::temp_directory_path() / "gpaprof-rank-selection-test";
    std::filesystem::remove_all(directory);
    std::filesystem::create_directories(directory);
    EXPECT_EQ(DescribeLeftOutProcesses(directory.string(), "1"), "") << "nothing left out";
    std::ofstream(directory / LeftOutFileName(101)) << "RANK=0\n";
    EXPECT_EQ(DescribeLeftOutProcesses(directory.string(), "1"), "--ranks 1: 1 process ran unprofiled (rank 0)");
    std::ofstream(directory / LeftOutFileName(102)) << "RANK=2\n";
    std::ofstream(directory / LeftOutFileName(100)) << "\n";
    std::ofstream(directory / "103.spool") << "not a left-out process\n";
    EXPECT_EQ(DescribeLeftOutProcesses(directory.string(), "1"),
              "--ranks 1: 3 processes ran unprofiled (ranks 0, 2; 1 without a rank, such as the launcher)");
    for (long pid = 200; pid < 230; ++pid) std::ofstream(directory / LeftOutFileName(pid)) << "RANK=" << pid << "\n";
    const std::string many = DescribeLeftOutProcesses(directory.string(), "1");
    EXPECT_NE(many.find("33 processes"), std::string::npos) << many;
    EXPECT_NE(many.find(" and 16 more;"), std::string::npos) << "at most 16 ranks named: " << many;
    std::filesystem::remove_all(directory);
}

}  // namespace
}  // namespace gpaprof
