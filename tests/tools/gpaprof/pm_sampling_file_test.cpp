// <out>.pmsampling.csv against its layout (docs/profiler_files.md): the writer's exact text for known samples, the
// reader giving them back field by field (two devices, NA values, flags, metrics left out), the separator rules,
// the strict reader's problems with their lines, and gpaprof --check on such files.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "files_test_session.h"
#include "tools/gpaprof/files/pm_sampling_file.h"

#ifdef GPAPROF_EXECUTABLE
#include "profiled_run.h"
#endif

namespace gpaprof {
namespace {

PmSamplingFile Samples() {
    PmSamplingFile file;
    file.session = Session();
    file.session.devices.clear();  // the file has its own device lines
    file.session.hostName = "node7";
    file.session.clockId = "3f1c2b4e-0000-4000-8000-000000000001";
    file.intervalNs = 100000;
    file.devices = {{0, "NVIDIA H100 80GB HBM3", "GH100"}, {1, "NVIDIA H100 80GB HBM3", "GH100"}};
    file.metrics = {"sm__cycles_active.avg.pct_of_peak_sustained_elapsed", "dram__bytes_read.sum"};
    file.leftOut = {{"nvlrx__bytes.sum", "the chip's PM-sampling catalog has no such metric"}};
    file.rows = {
        {0, 1000000, 1100000, false, false, {12.5, 1048576.0}},
        {1, 1000050, 1100050, false, false, {std::nullopt, 0.0}},
        {0, 1100000, 1200000, false, true, {99.75, std::nullopt}},
        {0, 1500000, 1600000, true, false, {0.001, 3.5e12}},
        {1, 1300050, 1400050, true, true, {100.0, 2048.0}},
    };
    return file;
}

const char* const kText =
    "# PmSamplingFileVersion=1\n"
    "# ProfilerVersion=0.1.0\n"
    "# Application=/opt/app/bin/solver\n"
    "# ApplicationArgs=--size 64 \"two words\"\n"
    "# WorkingDirectory=/home/user/run\n"
    "# OS Version=Debian GNU/Linux 12 (bookworm) Build 6.1.0\n"
    "# DisplayName=session1\n"
    "# HostName=node7\n"
    "# ClockId=3f1c2b4e-0000-4000-8000-000000000001\n"
    "# ListSeparator=,\n"
    "# IntervalNs=100000\n"
    "# Device0=NVIDIA H100 80GB HBM3 (GH100)\n"
    "# Device1=NVIDIA H100 80GB HBM3 (GH100)\n"
    "# LeftOut=nvlrx__bytes.sum: the chip's PM-sampling catalog has no such metric\n"
    "Device,StartNs,EndNs,Flags,sm__cycles_active.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum\n"
    "0,1000000,1100000,,12.5,1048576\n"
    "1,1000050,1100050,,NA,0\n"
    "0,1100000,1200000,replay,99.75,NA\n"
    "0,1500000,1600000,dropped-before,0.001,3500000000000\n"
    "1,1300050,1400050,dropped-before|replay,100,2048\n";

TEST(PmSamplingFile, WriterFollowsTheLayoutExactly) { EXPECT_EQ(WritePmSampling(Samples()), kText); }

TEST(PmSamplingFile, ReaderGivesEverySampleBack) {
    const Parsed<PmSamplingFile> parsed = ParsePmSampling(kText, {true});
    ASSERT_TRUE(parsed.ok()) << parsed.Describe();
    EXPECT_EQ(parsed.file, Samples());
    const PmSamplingFile& file = parsed.file;
    ASSERT_EQ(file.rows.size(), 5u);
    EXPECT_FALSE(file.rows[1].values[0].has_value());  // NA stays unknown, never 0
    EXPECT_EQ(file.rows[1].values[1], 0.0);            // a measured 0 stays 0
    EXPECT_TRUE(file.rows[2].replay);
    EXPECT_FALSE(file.rows[2].droppedBefore);
    EXPECT_TRUE(file.rows[4].replay && file.rows[4].droppedBefore);
    EXPECT_EQ(file.leftOut.size(), 1u);
    EXPECT_EQ(file.devices[1].chip, "GH100");
}

TEST(PmSamplingFile, RoundTripThroughAFileWithAnotherSeparatorAndEnvironment) {
    PmSamplingFile file = Samples();
    file.session.listSeparator = ';';
    file.session.fullEnvironment = false;
    file.session.environment = {{"CUDA_VISIBLE_DEVICES", "0,1"}};
    file.session.processRank = EnvironmentVariable{"RANK", "3"};
    file.devices[1].name = "Device (with parentheses)";  // the chip is what the last " (" opens
    const std::string path = ::testing::TempDir() + "/pm_sampling_round_trip.pmsampling.csv";
    std::string error;
    ASSERT_TRUE(WritePmSamplingFile(path, file, &error)) << error;
    const Parsed<PmSamplingFile> parsed = ReadPmSamplingFile(path, {true});
    ASSERT_TRUE(parsed.ok()) << parsed.Describe();
    EXPECT_EQ(parsed.file, file);
    const std::string text = WritePmSampling(file);
    EXPECT_NE(text.find("Device;StartNs;EndNs;Flags;sm__"), std::string::npos) << text;
    EXPECT_NE(text.find("\n0;1100000;1200000;replay;99.75;NA\n"), std::string::npos) << text;
    std::remove(path.c_str());
}

TEST(PmSamplingFile, SeparatorsThatFieldsHoldAreNotUsed) {
    EXPECT_EQ(PmSamplingSeparator(';'), ';');
    EXPECT_EQ(PmSamplingSeparator('\t'), '\t');
    for (char unusable : {'|', '.', '_', '-', '+', 'e', '7', ' ', '#', ':', '('}) {
        EXPECT_EQ(PmSamplingSeparator(unusable), ',') << unusable;
    }
    PmSamplingFile file = Samples();
    file.session.listSeparator = '.';  // would split "dram__bytes_read.sum" and "12.5"
    const Parsed<PmSamplingFile> parsed = ParsePmSampling(WritePmSampling(file), {true});
    ASSERT_TRUE(parsed.ok()) << parsed.Describe();
    EXPECT_EQ(parsed.file.session.listSeparator, ',');
    EXPECT_EQ(parsed.file.rows, file.rows);
}

TEST(PmSamplingFile, ExtremeValuesReadBackExactly) {
    PmSamplingFile file = Samples();
    file.rows = {{0, 1, 2, false, false, {1e100, 1.5e-70}}, {0, 2, 3, false, false, {-0.125, 123456789012345678.0}}};
    const std::string text = WritePmSampling(file);
    EXPECT_NE(text.find("\n0,1,2,,1e+100,1.5e-70\n"), std::string::npos) << text;
    EXPECT_NE(text.find("\n0,2,3,,-0.125,123456789012345680\n"), std::string::npos) << text;
    const Parsed<PmSamplingFile> parsed = ParsePmSampling(text, {true});
    ASSERT_TRUE(parsed.ok()) << parsed.Describe();
    EXPECT_EQ(parsed.file.rows, file.rows);
}

TEST(PmSamplingFile, PercentMetrics) {
    EXPECT_TRUE(IsPercentMetric("sm__cycles_active.avg.pct_of_peak_sustained_elapsed"));
    EXPECT_TRUE(IsPercentMetric("sm__warps_active.avg.pct"));
    EXPECT_FALSE(IsPercentMetric("dram__bytes_read.sum"));
    EXPECT_FALSE(IsPercentMetric("sm__inst_executed_realtime.avg.per_cycle_elapsed"));
}

// The header of kText and its column row, for files with other rows.
std::string WithRows(const std::string& rows) {
    const std::string text = kText;
    const size_t columns = text.find("Device,StartNs");
    return text.substr(0, text.find('\n', columns) + 1) + rows;
}

std::string Problems(const std::string& text) { return ParsePmSampling(text).Describe(); }

TEST(PmSamplingFile, ReaderReportsBadRowsWithTheirLines) {
    // Line 16 is the first row.
    EXPECT_EQ(Problems(WithRows("0,1,2,,3\n")), "line 16: row has 5 fields, the column row has 6\n");
    EXPECT_EQ(Problems(WithRows("0,1,2,,3,4,5\n")), "line 16: row has 7 fields, the column row has 6\n");
    EXPECT_EQ(Problems(WithRows("0,1,2,,fast,4\n")),
              "line 16: sm__cycles_active.avg.pct_of_peak_sustained_elapsed is 'fast', expected a number or NA\n");
    EXPECT_EQ(Problems(WithRows("0,1,2,,1,nan\n")), "line 16: dram__bytes_read.sum is 'nan', expected a number or NA\n");
    EXPECT_EQ(Problems(WithRows("0,1,2,,1,\n")), "line 16: dram__bytes_read.sum is '', expected a number or NA\n");
    EXPECT_EQ(Problems(WithRows("0,-1,2,,1,2\n")),
              "line 16: StartNs is '-1', expected nanoseconds (an unsigned integer)\n");
    EXPECT_EQ(Problems(WithRows("0,5,2,,1,2\n")), "line 16: EndNs is '2', expected a time at or after StartNs\n");
    EXPECT_EQ(Problems(WithRows("2,1,2,,1,2\n")),
              "line 16: Device is '2', expected the index of a '# Device<index>=' header line\n");
    EXPECT_EQ(Problems(WithRows("0,1,2,overflow,1,2\n")),
              "line 16: Flags is 'overflow', expected empty, or dropped-before and/or replay joined by '|', each once\n");
    EXPECT_EQ(Problems(WithRows("0,1,2,replay|replay,1,2\n")),
              "line 16: Flags is 'replay|replay', expected empty, or dropped-before and/or replay joined by '|', each "
              "once\n");
    // A good row among bad ones is kept.
    const Parsed<PmSamplingFile> parsed = ParsePmSampling(WithRows("0,1,2,,x,4\n1,10,20,,5,6\n"));
    EXPECT_EQ(parsed.problems.size(), 1u);
    ASSERT_EQ(parsed.file.rows.size(), 1u);
    EXPECT_EQ(parsed.file.rows[0].device, 1u);
}

TEST(PmSamplingFile, ReaderWantsEachDevicesSamplesInTimeOrder) {
    // Device 1's samples may interleave with device 0's; each device's own must not go back or overlap.
    const std::string ordered = WithRows("0,100,200,,1,2\n1,50,150,,1,2\n0,200,300,,1,2\n1,150,250,,1,2\n");
    EXPECT_EQ(Problems(ordered), "");
    EXPECT_EQ(Problems(WithRows("0,100,200,,1,2\n0,50,90,,1,2\n")),
              "line 17: StartNs 50 is before the end of device 0's previous sample (200): its samples must be in "
              "time order\n");
    EXPECT_EQ(Problems(WithRows("0,100,200,,1,2\n0,150,250,,1,2\n")),
              "line 17: StartNs 150 is before the end of device 0's previous sample (200): its samples must be in "
              "time order\n");
    const Parsed<PmSamplingFile> parsed = ParsePmSampling(WithRows("0,100,200,,1,2\n0,50,90,,1,2\n0,200,300,,3,4\n"));
    ASSERT_EQ(parsed.file.rows.size(), 2u);  // the unsorted row is left out, the next one compared with the last kept
    EXPECT_EQ(parsed.file.rows[1].startNs, 200u);
}

TEST(PmSamplingFile, ReaderReportsBadHeaders) {
    EXPECT_EQ(Problems("Device,StartNs,EndNs,Flags,m\n"),
              "file: no '# PmSamplingFileVersion=' header line: not a .pmsampling.csv file\n"
              "file: no '# IntervalNs=' header line\n");
    EXPECT_EQ(Problems("# PmSamplingFileVersion=1\n# IntervalNs=0\n# Device0=H100\n# Device1=A (B)\n# Device1=C (D)\n"
                       "# LeftOut=no reason\n# ListSeparator=|\nDevice,StartNs,EndNs,Flags,m,m\n"),
              "line 2: IntervalNs must be a positive integer: '0'\n"
              "line 3: a device line is '# Device<index>=<name> (<chip>)': '# Device0=H100'\n"
              "line 5: a second line for device 1\n"
              "line 6: LeftOut must be '<metric>: <why>': 'no reason'\n"
              "line 7: ListSeparator must be one character that no field holds: '|'\n"
              "line 8: metric 'm' twice\n");
    EXPECT_EQ(Problems("# PmSamplingFileVersion=1\n# IntervalNs=10\nStart,End\n"),
              "line 3: the column row must start with Device,StartNs,EndNs,Flags: 'Start,End'\n");
    EXPECT_EQ(Problems("# PmSamplingFileVersion=1\n# IntervalNs=10\n"),
              "file: no column row (expected a line starting with 'Device')\n");
}

TEST(PmSamplingFile, StrictReadingWantsTheWritersLayout) {
    EXPECT_EQ(ParsePmSampling(WithRows("0,1,2,,12.50,4\n"), {false}).Describe(), "");
    const Parsed<PmSamplingFile> strict = ParsePmSampling(WithRows("0,1,2,,12.50,4\n"), {true});
    EXPECT_FALSE(strict.ok());
    EXPECT_NE(strict.Describe().find("line 16"), std::string::npos) << strict.Describe();
    const std::string unknownKey = "# Colour=blue\n" + std::string(kText);
    EXPECT_EQ(ParsePmSampling(unknownKey, {false}).Describe(), "");
    EXPECT_EQ(ParsePmSampling(unknownKey, {true}).Describe().substr(0, 35), "line 1: unknown header key 'Colour'");
}

#ifdef GPAPROF_EXECUTABLE
// In a scratch folder of its own, removed when the test passes (it wrote into /tmp and left four files a run).
class PmSamplingFileCheck : public testing::ProfiledRunTest {
protected:
    void SetUp() override { MakeDirectory("gpaprof-pm-check"); }
};

TEST_F(PmSamplingFileCheck, GpaprofCheckReadsItStrictly) {
    using testing::Execute;
    using testing::Outcome;
    const std::string directory = directory_;
    const std::string good = directory + "/check_good.pmsampling.csv";
    const std::string bad = directory + "/check_bad.pmsampling.csv";
    std::ofstream(good) << kText;
    std::ofstream(bad) << WithRows("0,100,200,,1,2\n0,50,90,,1,2\n");
    const Outcome check = Execute({GPAPROF_EXECUTABLE, "--check", good}, directory);
    EXPECT_EQ(check.exitCode, 0) << check.out << check.err;
    EXPECT_NE(check.out.find("check_good.pmsampling.csv: OK (5 samples of 2 metrics on 2 devices)"), std::string::npos)
        << check.out;
    const Outcome broken = Execute({GPAPROF_EXECUTABLE, "--check", bad}, directory);
    EXPECT_EQ(broken.exitCode, 1);
    EXPECT_NE(broken.out.find("line 17: StartNs 50 is before the end of device 0's previous sample"), std::string::npos)
        << broken.out;
}
#endif

}  // namespace
}  // namespace gpaprof
