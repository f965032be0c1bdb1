// gpaprof-report as a program: outputs, exit codes, and input problems printed as FILE:LINE: MESSAGE.
#include <gtest/gtest.h>

#include <filesystem>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "rank_fixture.h"
#include "report_fixture.h"
#include "tools/gpaprof/files/atp_file.h"
#include "tools/gpaprof/files/csv_file.h"
#include "tools/gpaprof/files/file_io.h"
#include "tools/gpaprof/files/occupancy_file.h"
#include "tools/gpaprof/report/report_options.h"

namespace gpaprof::report {
namespace {

using namespace testing;

struct ToolRun {
    int exitCode = -1;
    std::string out, err;
};

class ReportTool : public ::testing::Test {
protected:
    void SetUp() override {
        char pattern[] = "/tmp/gpaprof-report-test-XXXXXX";
        ASSERT_NE(mkdtemp(pattern), nullptr);
        dir_ = pattern;
        std::string error;
        ASSERT_TRUE(WriteAtpFile(dir_ + "/s.atp", OpenClFixture(), &error)) << error;
        ASSERT_TRUE(WriteCsvFile(dir_ + "/s.csv", CsvFixture(), &error)) << error;
        ASSERT_TRUE(WriteOccupancyFile(dir_ + "/s.occupancy", OccupancyFixture(), &error)) << error;
    }
    void TearDown() override {
        std::error_code ignored;
        std::filesystem::remove_all(dir_, ignored);
    }

    ToolRun Tool(const std::string& arguments) {
        const std::string command = std::string(GPAPROF_REPORT_EXECUTABLE) + " " + arguments + " >'" + dir_ +
                                    "/out.txt' 2>'" + dir_ + "/err.txt'";
        const int status = std::system(command.c_str());
        ToolRun run;
        run.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        run.out = ReadTextFile(dir_ + "/out.txt", nullptr).value_or("");
        run.err = ReadTextFile(dir_ + "/err.txt", nullptr).value_or("");
        return run;
    }
    std::string Path(const std::string& name) const { return "'" + dir_ + "/" + name + "'"; }

    std::string dir_;
};

TEST_F(ReportTool, WritesHtmlAndPerfetto) {
    const ToolRun run = Tool("--html " + Path("r.html") + " --perfetto=" + Path("r.json") + " " + Path("s.atp") + " " +
                         Path("s.csv") + " " + Path("s.occupancy"));
    EXPECT_EQ(run.exitCode, 0) << run.err;
    EXPECT_NE(run.err.find("wrote the HTML report to"), std::string::npos) << run.err;
    EXPECT_NE(run.err.find("wrote the Perfetto trace to"), std::string::npos) << run.err;
    EXPECT_TRUE(run.out.empty());
    const std::string html = ReadTextFile(dir_ + "/r.html", nullptr).value_or("");
    EXPECT_NE(html.find("id=\"check-leaks\""), std::string::npos);
    const std::string json = ReadTextFile(dir_ + "/r.json", nullptr).value_or("");
    EXPECT_EQ(json.rfind("{\"traceEvents\":[", 0), 0u);
}

TEST_F(ReportTool, TextSummaryByDefault) {
    const ToolRun run = Tool(Path("s.atp"));
    EXPECT_EQ(run.exitCode, 0) << run.err;
    EXPECT_NE(run.out.find("OpenCL API summary: 28 calls"), std::string::npos) << run.out;
    EXPECT_NE(run.out.find("Top kernels (4 dispatches"), std::string::npos) << run.out;
    EXPECT_NE(run.out.find("[warning] Objects created and never released: 2"), std::string::npos) << run.out;
}

// The .atp alone: the run's other files beside it under its name are read too, and said so; a file of a kind that is
// named is the only one of that kind read.
TEST_F(ReportTool, FilesBesideTheAtpAreReadAndNamed) {
    const ToolRun run = Tool(Path("s.atp"));
    EXPECT_EQ(run.exitCode, 0) << run.err;
    EXPECT_NE(run.err.find("also read " + dir_ + "/s.csv (beside the .atp"), std::string::npos) << run.err;
    EXPECT_NE(run.err.find("also read " + dir_ + "/s.occupancy (beside the .atp"), std::string::npos) << run.err;
    const ToolRun named = Tool(Path("s.atp") + " " + Path("s.csv"));
    EXPECT_EQ(named.exitCode, 0) << named.err;
    EXPECT_EQ(named.err.find("s.csv (beside"), std::string::npos) << named.err;
    EXPECT_NE(named.err.find("also read " + dir_ + "/s.occupancy"), std::string::npos) << named.err;
    std::filesystem::remove(dir_ + "/s.csv");
    std::filesystem::remove(dir_ + "/s.occupancy");
    const ToolRun alone = Tool(Path("s.atp"));
    EXPECT_EQ(alone.exitCode, 0) << alone.err;
    EXPECT_EQ(alone.err.find("also read"), std::string::npos) << alone.err;
}

TEST_F(ReportTool, ProblemsWithTheirLineAndStillAReport) {
    std::string text = WriteAtp(OpenClFixture());
    // Break the timestamp line of clBuildProgram: its end time is not a number.
    const size_t section = text.find("=====ocl Timestamp Output=====");
    const size_t at = text.find("clBuildProgram", section);
    const size_t lineStart = text.rfind('\n', at) + 1;
    const size_t line = static_cast<size_t>(std::count(text.begin(), text.begin() + static_cast<long>(lineStart), '\n')) + 1;
    text.replace(text.find("20000", at), 5, "2x000");
    ASSERT_TRUE(WriteTextFile(dir_ + "/bad.atp", text, nullptr));
    const ToolRun run = Tool("--html " + Path("bad.html") + " " + Path("bad.atp"));
    EXPECT_EQ(run.exitCode, 1);
    EXPECT_NE(run.err.find(dir_ + "/bad.atp:" + std::to_string(line) + ": end time is not an unsigned number: '2x000'"),
              std::string::npos)
        << run.err;
    const std::string html = ReadTextFile(dir_ + "/bad.html", nullptr).value_or("");
    EXPECT_NE(html.find("id=\"problems\""), std::string::npos);
}

TEST_F(ReportTool, GarbageNeverCrashes) {
    std::string garbage;
    for (int i = 0; i < 4096; ++i) garbage += static_cast<char>((i * 7919 + 13) % 256);
    ASSERT_TRUE(WriteTextFile(dir_ + "/g.atp", garbage, nullptr));
    ASSERT_TRUE(WriteTextFile(dir_ + "/g.csv", garbage, nullptr));
    ASSERT_TRUE(WriteTextFile(dir_ + "/g.occupancy", garbage, nullptr));
    const ToolRun run = Tool("--html " + Path("g.html") + " --perfetto " + Path("g.json") + " " + Path("g.atp") + " " +
                         Path("g.csv") + " " + Path("g.occupancy"));
    EXPECT_EQ(run.exitCode, 1) << run.err;
    EXPECT_NE(run.err.find("g.atp"), std::string::npos);
}

TEST_F(ReportTool, ExitCodes) {
    EXPECT_EQ(Tool("").exitCode, 2);
    EXPECT_EQ(Tool("--bogus " + Path("s.atp")).exitCode, 2);
    EXPECT_EQ(Tool("--html").exitCode, 2);
    const ToolRun help = Tool("--help");
    EXPECT_EQ(help.exitCode, 0);
    EXPECT_NE(help.out.find("Usage: gpaprof-report"), std::string::npos);
    EXPECT_NE(help.out.find("ui.perfetto.dev"), std::string::npos);
    const ToolRun missing = Tool(Path("missing.atp"));
    EXPECT_EQ(missing.exitCode, 3);
    EXPECT_NE(missing.err.find("missing.atp: cannot open"), std::string::npos) << missing.err;
    const ToolRun twice = Tool(Path("s.atp") + " " + Path("s.atp"));
    EXPECT_EQ(twice.exitCode, 3);
    EXPECT_NE(twice.err.find("a second .atp file"), std::string::npos) << twice.err;
    const ToolRun noTrace = Tool("--perfetto " + Path("x.json") + " " + Path("s.csv"));
    EXPECT_EQ(noTrace.exitCode, 3);
    EXPECT_NE(noTrace.err.find("--perfetto needs a trace"), std::string::npos);
    const ToolRun unwritable = Tool("--html /nonexistent-dir/r.html " + Path("s.atp"));
    EXPECT_EQ(unwritable.exitCode, 3);
    EXPECT_NE(unwritable.err.find("cannot write the HTML report"), std::string::npos);
}

// Several traces are the cross-rank report: exit 0 while one of them could be read, naming those that could not.
TEST_F(ReportTool, SeveralTracesAreTheCrossRankReport) {
    ASSERT_TRUE(WriteAtpFile(dir_ + "/run_0.atp", RankFixture(), nullptr));
    ASSERT_TRUE(WriteAtpFile(dir_ + "/run_1.atp", RankFixture(0, 4000), nullptr));
    ASSERT_TRUE(WriteTextFile(dir_ + "/run_2.atp", "garbage\n", nullptr));
    const ToolRun run = Tool(Path("run_0.atp") + " " + Path("run_1.atp") + " " + Path("run_2.atp") + " " +
                             Path("run_3.atp") + " --perfetto " + Path("ranks.json"));
    EXPECT_EQ(run.exitCode, 0) << run.err;
    EXPECT_NE(run.err.find("cannot read " + dir_ + "/run_2.atp: not a gpaprof trace"), std::string::npos) << run.err;
    EXPECT_NE(run.err.find("cannot read " + dir_ + "/run_3.atp: no such file or folder"), std::string::npos) << run.err;
    EXPECT_NE(run.err.find("wrote the Perfetto trace to"), std::string::npos) << run.err;
    const std::string json = ReadTextFile(dir_ + "/ranks.json", nullptr).value_or("");
    EXPECT_NE(json.find("\"rank 1 (run_1.atp)\""), std::string::npos);
    EXPECT_TRUE(run.out.empty());

    const ToolRun text = Tool("--text --straggler-share 50 " + Path("run_0.atp") + " " + Path("run_1.atp"));
    EXPECT_EQ(text.exitCode, 0) << text.err;
    // Own work 5500 and 9500: median 7500, rank 1 is 26.7 % above it, not more than 50 %.
    EXPECT_NE(text.out.find("gpaprof report over 2 ranks"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("Stragglers: own work more than 50.0 % above the median (7.500 us over 2 ranks"),
              std::string::npos)
        << text.out;
    EXPECT_NE(text.out.find("  none\n"), std::string::npos) << text.out;
    const ToolRun strict = Tool(Path("run_0.atp") + " " + Path("run_1.atp"));
    EXPECT_NE(strict.out.find("rank 1: own work 9.500 us, +26.7 %"), std::string::npos) << strict.out;

    const ToolRun folder = Tool(Path(""));
    EXPECT_EQ(folder.exitCode, 0) << folder.err;
    EXPECT_NE(folder.out.find("3 of 4 trace files read"), std::string::npos) << folder.out;  // with s.atp

    const ToolRun none = Tool(Path("run_2.atp") + " " + Path("run_3.atp"));
    EXPECT_EQ(none.exitCode, 3);
    EXPECT_NE(none.err.find("no trace could be read"), std::string::npos) << none.err;
    const ToolRun html = Tool("--html " + Path("r.html") + " " + Path("run_0.atp") + " " + Path("run_1.atp"));
    EXPECT_EQ(html.exitCode, 2);
    EXPECT_NE(html.err.find("--html is for one session's files"), std::string::npos) << html.err;
    const ToolRun unwritable =
        Tool("--perfetto /nonexistent-dir/r.json " + Path("run_0.atp") + " " + Path("run_1.atp"));
    EXPECT_EQ(unwritable.exitCode, 3);
    EXPECT_NE(unwritable.err.find("cannot write the Perfetto trace"), std::string::npos) << unwritable.err;
    // One session's files keep their report; the cross-rank options are noted and ignored.
    const ToolRun single = Tool("--top 3 " + Path("s.atp"));
    EXPECT_EQ(single.exitCode, 0) << single.err;
    EXPECT_NE(single.out.find("OpenCL API summary: 28 calls"), std::string::npos);
    EXPECT_NE(single.err.find("are for several ranks' files; ignored"), std::string::npos);
}

TEST_F(ReportTool, KindFromTheFirstLineWhenTheNameSaysNothing) {
    std::filesystem::copy_file(dir_ + "/s.atp", dir_ + "/trace.txt");
    const ToolRun run = Tool(Path("trace.txt"));
    EXPECT_EQ(run.exitCode, 0) << run.err;
    EXPECT_NE(run.out.find("OpenCL API summary"), std::string::npos);
    ASSERT_TRUE(WriteTextFile(dir_ + "/other.txt", "hello\n", nullptr));
    const ToolRun other = Tool(Path("other.txt"));
    EXPECT_EQ(other.exitCode, 3);
    EXPECT_NE(other.err.find("not a profiler file"), std::string::npos);
}

}  // namespace
}  // namespace gpaprof::report

namespace gpaprof::report {
namespace {

TEST(ReportOptions, CrossRankOptions) {
    std::string error;
    std::optional<ReportOptions> options =
        ParseReportOptions({"--straggler-share", "12.5", "--align=start", "--top", "3", "a.atp", "b.atp"}, &error);
    ASSERT_TRUE(options) << error;
    EXPECT_DOUBLE_EQ(*options->stragglerSharePercent, 12.5);
    EXPECT_EQ(*options->alignment, "start");
    EXPECT_EQ(*options->topKernels, 3u);
    EXPECT_FALSE(ParseReportOptions({"--straggler-share", "-1", "a.atp"}, &error));
    EXPECT_NE(error.find("--straggler-share takes a percentage"), std::string::npos);
    EXPECT_FALSE(ParseReportOptions({"--straggler-share=ten", "a.atp"}, &error));
    EXPECT_FALSE(ParseReportOptions({"--align", "nccl", "a.atp"}, &error));
    EXPECT_EQ(error, "--align takes auto, none or start, not 'nccl'");
    EXPECT_FALSE(ParseReportOptions({"--top", "0", "a.atp"}, &error));
    EXPECT_FALSE(ParseReportOptions({"--top", "x", "a.atp"}, &error));
    EXPECT_NE(error.find("--top takes a number"), std::string::npos);
}

TEST(ReportOptions, Parsing) {
    std::string error;
    std::optional<ReportOptions> options = ParseReportOptions({"--html=a.html", "--perfetto", "b.json", "s.atp"}, &error);
    ASSERT_TRUE(options) << error;
    EXPECT_EQ(*options->htmlPath, "a.html");
    EXPECT_EQ(*options->perfettoPath, "b.json");
    EXPECT_FALSE(options->text);
    EXPECT_EQ(options->inputs, std::vector<std::string>{"s.atp"});
    options = ParseReportOptions({"s.atp", "--", "--odd-name.csv"}, &error);
    ASSERT_TRUE(options) << error;
    EXPECT_TRUE(options->text);
    EXPECT_EQ(options->inputs, (std::vector<std::string>{"s.atp", "--odd-name.csv"}));
    EXPECT_FALSE(ParseReportOptions({"--html", "a", "--html", "b", "s.atp"}, &error));
    EXPECT_EQ(error, "--html given twice");
    EXPECT_FALSE(ParseReportOptions({"--html="}, &error));
    EXPECT_EQ(error, "--html needs a file name");
    EXPECT_FALSE(ParseReportOptions({}, &error));
    EXPECT_NE(error.find("no input file"), std::string::npos);
    options = ParseReportOptions({"-h"}, &error);
    ASSERT_TRUE(options);
    EXPECT_TRUE(options->help);
}

}  // namespace
}  // namespace gpaprof::report
