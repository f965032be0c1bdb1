// The merged timeline of several ranks: valid JSON, one process per rank in rank order with its host threads
// and queue tracks, each rank's times shifted onto one axis (two machines' first collectives meet), flow ids
// unique over the file, and otherData naming each rank's file and shift.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "json_value.h"
#include "rank_fixture.h"
#include "tools/gpaprof/files/file_io.h"
#include "tools/gpaprof/report/rank_report.h"
#include "tools/gpaprof/report/rank_timeline_export.h"

namespace gpaprof::report {
namespace {

using namespace testing;

constexpr uint64_t kMachineOffset = 5000000000000ull;  // machine b's clock, ahead of machine a's

JsonValue Export(const CrossRankReport& report) {
    std::vector<InputProblem> problems;
    const std::string text = RankTraceEventsText(report, &problems);
    EXPECT_TRUE(problems.empty());
    std::string error;
    std::optional<JsonValue> root = ParseJson(text, &error);
    EXPECT_TRUE(root) << error;
    return root.value_or(JsonValue{});
}

double Number(const JsonValue& event, const char* key) {
    const JsonValue* value = event.Find(key);
    return value ? value->number : -1.0;
}

std::string Text(const JsonValue& event, const char* key) {
    const JsonValue* value = event.Find(key);
    return value ? value->string : std::string();
}

TEST(RankTimelineExport, OneProcessPerRankOnOneTimeAxis) {
    ScratchFolder folder;
    AtpFile a = RankFixture(1000000);
    a.session.clockId = "boot-a";
    a.session.hostName = "node-a";
    AtpFile b = RankFixture(kMachineOffset + 1000200, 400);  // its collective ends 200 ns after rank 0's, by its clock
    b.session.clockId = "boot-b";
    b.session.hostName = "node-b";
    folder.Write("run_1.atp", b);
    folder.Write("run_0.atp", a);
    const CrossRankReport report = BuildCrossRankReport({folder.path()}, {});
    ASSERT_EQ(report.rows.size(), 2u);
    EXPECT_EQ(report.clocks.shiftNs, (std::vector<int64_t>{0, -static_cast<int64_t>(kMachineOffset) - 200}));

    const JsonValue root = Export(report);
    const JsonValue* events = root.Find("traceEvents");
    ASSERT_TRUE(events);
    std::vector<std::string> processes;
    std::set<std::string> tracks;
    std::set<double> pids;
    std::map<double, double> ncclEnd;  // pid -> ts + dur of its NCCL kernel
    std::map<std::string, int> flows;  // "s<id>", "f<id>"
    double earliestTs = 1e300;
    for (const JsonValue& event : events->array) {
        const std::string ph = Text(event, "ph");
        pids.insert(Number(event, "pid"));
        if (ph == "M" && Text(event, "name") == "process_name") {
            processes.push_back(event.Find("args")->Find("name")->string);
        } else if (ph == "M" && Text(event, "name") == "thread_name") {
            tracks.insert(event.Find("args")->Find("name")->string);
        } else if (ph == "X") {
            earliestTs = std::min(earliestTs, Number(event, "ts"));
            if (Text(event, "name") == kRankNcclKernel) ncclEnd[Number(event, "pid")] = Number(event, "ts") + Number(event, "dur");
        } else if (ph == "s" || ph == "f") {
            ++flows[ph + event.Find("id")->numberText];
        }
    }
    EXPECT_EQ(processes, (std::vector<std::string>{"rank 0 (run_0.atp, node-a)", "rank 1 (run_1.atp, node-b)"}));
    EXPECT_EQ(pids, (std::set<double>{1.0, 2.0}));
    EXPECT_TRUE(tracks.count("thread 100"));
    EXPECT_TRUE(tracks.count("cpu device (OpenCL device): queue 1 (0x0000000000000A01)")) << *tracks.begin();
    // Rank 0's collective ends at 1,009,500 ns, the base is its first call at 1,000,100: 9.400 us; rank 1's,
    // shifted, at the same moment.
    ASSERT_EQ(ncclEnd.size(), 2u);
    EXPECT_DOUBLE_EQ(ncclEnd[1.0], 9.4);
    EXPECT_DOUBLE_EQ(ncclEnd[2.0], 9.4);
    EXPECT_DOUBLE_EQ(earliestTs, 0.0);
    // Each rank's 4 enqueue calls get an arrow to their device work, numbered over the whole file.
    EXPECT_EQ(flows.size(), 16u);
    for (const auto& [id, count] : flows) EXPECT_EQ(count, 1) << id;

    const JsonValue* other = root.Find("otherData");
    ASSERT_TRUE(other);
    EXPECT_EQ(Number(*other, "timeBaseNs"), 1000100.0);
    const JsonValue* ranks = other->Find("ranks");
    ASSERT_TRUE(ranks);
    ASSERT_EQ(ranks->array.size(), 2u);
    EXPECT_EQ(Text(ranks->array[1], "file"), folder.File("run_1.atp"));
    EXPECT_EQ(ranks->array[1].Find("shiftNs")->numberText, "-5000000000200");
    EXPECT_EQ(ranks->array[0].Find("rank")->numberText, "0");
    ASSERT_TRUE(other->Find("clockAlignment"));
    EXPECT_EQ(other->Find("clockAlignment")->array.size(), 2u);
}

TEST(RankTimelineExport, WrittenToAFileAsTheTextSays) {
    ScratchFolder folder;
    folder.Write("run_0.atp", RankFixture());
    folder.Write("run_1.atp", RankFixture(500, 20));
    const CrossRankReport report = BuildCrossRankReport({folder.path()}, {});
    std::vector<InputProblem> problems;
    std::string error;
    ASSERT_TRUE(WriteRankTraceEventsFile(report, folder.File("merged.json"), 1, &problems, &error)) << error;
    EXPECT_EQ(ReadTextFile(folder.File("merged.json"), nullptr).value_or(""), RankTraceEventsText(report, &problems));
    EXPECT_TRUE(problems.empty());
    EXPECT_FALSE(WriteRankTraceEventsFile(report, "/nonexistent-dir/merged.json", 1, &problems, &error));
    EXPECT_FALSE(error.empty());
}

}  // namespace
}  // namespace gpaprof::report
