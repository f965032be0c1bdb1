// Putting ranks' clocks on one axis: one machine keeps its times; another machine is shifted so that the ends
// of its first communication kernels meet the first machine's (or its first times, without them); none and
// start as their names say.
#include <gtest/gtest.h>

#include "tools/gpaprof/report/rank_clock_alignment.h"

namespace gpaprof::report {
namespace {

RankRow Row(int64_t rank, const std::string& clockId, uint64_t begin, std::optional<uint64_t> firstCommunicationEnd) {
    RankRow row;
    row.rank = rank;
    row.clockId = clockId;
    row.host = clockId.empty() ? "" : "host-" + clockId;
    row.begin = begin;
    row.end = begin + 1000000;
    row.firstCommunicationEnd = firstCommunicationEnd;
    return row;
}

TEST(RankClockAlignment, OneMachineKeepsItsTimes) {
    const std::vector<RankRow> rows = {Row(0, "boot-a", 1000, 5000), Row(1, "boot-a", 900000, 5100)};
    const RankClocks clocks = AlignRankClocks(rows, ClockAlignment::Auto);
    EXPECT_EQ(clocks.shiftNs, (std::vector<int64_t>{0, 0}));
    ASSERT_EQ(clocks.notes.size(), 1u);
    EXPECT_NE(clocks.notes[0].find("one machine's clock (ClockId boot-a)"), std::string::npos);
    // Files that do not say their machine are taken as one.
    const RankClocks unknown = AlignRankClocks({Row(0, "", 1000, {}), Row(1, "", 2000, {})}, ClockAlignment::Auto);
    EXPECT_EQ(unknown.shiftNs, (std::vector<int64_t>{0, 0}));
    EXPECT_NE(unknown.notes[0].find("no ClockId= line"), std::string::npos);
}

TEST(RankClockAlignment, SecondMachineMeetsTheFirstAtItsFirstCollective) {
    // Machine b's clock is 1,000,000,000 ns ahead; its collectives end at 1,000,005,000 and 1,000,005,400 (median
    // 1,000,005,200), machine a's at 5,000 and 5,200 (median 5,100).
    const std::vector<RankRow> rows = {Row(0, "a", 1000, 5000), Row(1, "a", 1100, 5200),
                                       Row(2, "b", 1000001000, 1000005000), Row(3, "b", 1000001100, 1000005400)};
    const RankClocks clocks = AlignRankClocks(rows, ClockAlignment::Auto);
    EXPECT_EQ(clocks.shiftNs, (std::vector<int64_t>{0, 0, -1000000100, -1000000100}));
    ASSERT_EQ(clocks.notes.size(), 2u);
    EXPECT_NE(clocks.notes[1].find("machine host-b (2 files: rank 2 ... rank 3): shifted -1.000 s"), std::string::npos)
        << clocks.notes[1];
    EXPECT_NE(clocks.notes[1].find("first communication kernel"), std::string::npos);
}

TEST(RankClockAlignment, WithoutCollectivesTheFirstTimesMeet) {
    const std::vector<RankRow> rows = {Row(0, "a", 1000, {}), Row(1, "a", 3000, {}), Row(2, "b", 500, 7000)};
    const RankClocks clocks = AlignRankClocks(rows, ClockAlignment::Auto);
    EXPECT_EQ(clocks.shiftNs, (std::vector<int64_t>{0, 0, 1500}));  // median first time 2000 against 500
    EXPECT_NE(clocks.notes[1].find("first recorded time"), std::string::npos) << clocks.notes[1];
}

TEST(RankClockAlignment, NoneAndStart) {
    const std::vector<RankRow> rows = {Row(0, "a", 1000, 5000), Row(1, "b", 70000, 90000)};
    EXPECT_EQ(AlignRankClocks(rows, ClockAlignment::None).shiftNs, (std::vector<int64_t>{0, 0}));
    EXPECT_EQ(AlignRankClocks(rows, ClockAlignment::Start).shiftNs, (std::vector<int64_t>{0, -69000}));
    EXPECT_EQ(ParseClockAlignment("start"), ClockAlignment::Start);
    EXPECT_EQ(ParseClockAlignment("auto"), ClockAlignment::Auto);
    EXPECT_EQ(ParseClockAlignment("none"), ClockAlignment::None);
    EXPECT_FALSE(ParseClockAlignment("nccl"));
}

}  // namespace
}  // namespace gpaprof::report
