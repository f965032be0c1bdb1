// gpaprof-report's "Kernels as the PM samples saw them" (pm_kernel_windows.h) on a hand-built trace and samples.
//
// Interval 1000 ns. Device 0 (the trace's NVIDIA_H100): sample i covers [1000 i, 1000 i + 1000) with
// dram__bytes_read.sum = 1000 (i + 1) B and sm__...pct = 10 i %, for i = 0..9; then a hole: [12000,13000)
// dropped-before, [13000,14000) and [14000,20000) in 1000 ns samples; [20000,21000) replay, [21000,22000),
// [22000,23000). Device 1 (sampled, the trace has no work on it): huge values over everything, never to be used.
// Kernels (device index 0 unless said):
//   whole   [1000,5000)   4 intervals, measured: (2000+3000+4000+5000) B / 4 us = 3.5 GB/s, mean 25 %
//   short   [5500,6500)   approximate: half of 6000 B + half of 7000 B over 1 us = 6.5 GB/s, mean 55 %
//   hole    [8000,14000)  refused: samples missing inside
//   other   [2000,3000)   on device 2, which has no samples: refused
//   replay  [19500,22500) refused: a replay sample inside
#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "html_check.h"
#include "pm_sampling/metric_sets.h"
#include "report_fixture.h"
#include "tools/gpaprof/files/atp_file.h"
#include "tools/gpaprof/report/html_report.h"
#include "tools/gpaprof/report/pm_kernel_windows.h"
#include "tools/gpaprof/report/pm_kernel_windows_views.h"
#include "tools/gpaprof/report/text_report.h"

namespace gpaprof::report {
namespace {

using gpa::pm_sampling::WindowQuality;
using namespace testing;

const char* const kDram = "dram__bytes_read.sum";
const char* const kSm = "sm__cycles_active.avg.pct_of_peak_sustained_elapsed";
const char* const kMax = "sm__warps_active.max";  // not added up over time

KernelTimestamp Stamp(const std::string& name, uint64_t start, uint64_t end, uint64_t device = 0) {
    KernelTimestamp stamp;
    stamp.kernelName = name;
    stamp.kernelObject = "0x0000000000400000";
    stamp.start = start;
    stamp.end = end;
    stamp.agentName = "NVIDIA_H100";
    stamp.agentHandle = "0x1";
    stamp.queueIndex = 7;
    stamp.deviceIndex = device;
    stamp.packetType = "KERNEL";
    stamp.packetFields = "{grid=4,1,1 block=128,1,1}";
    return stamp;
}

AtpFile Trace() {
    AtpFile file = CudaFixture();  // its calls start at 1000 ns: the trace's start
    file.parts[0].kernelTimestamps = {Stamp("whole", 1000, 5000), Stamp("short", 5500, 6500),
                                      Stamp("hole", 8000, 14000), Stamp("other", 2000, 3000, 2),
                                      Stamp("replay", 19500, 22500)};
    return file;
}

PmSamplingFile Samples() {
    PmSamplingFile file;
    file.session = FixtureSession();
    file.session.devices.clear();
    file.intervalNs = 1000;
    file.devices = {{0, "NVIDIA H100", "GH100"}, {1, "NVIDIA A100-SXM4-40GB", "GA100"}};
    file.metrics = {kDram, kSm, kMax};
    for (uint64_t i = 0; i < 10; ++i) {
        file.rows.push_back({0, 1000 * i, 1000 * i + 1000, false, false, {1000.0 * double(i + 1), 10.0 * double(i), 1.0}});
    }
    file.rows.push_back({0, 12000, 13000, true, false, {1000.0, 50.0, 1.0}});
    for (uint64_t t = 13000; t < 23000; t += 1000) {
        file.rows.push_back({0, t, t + 1000, false, t == 20000, {1000.0, 50.0, 1.0}});
    }
    file.rows.push_back({1, 0, 30000, false, false, {1e12, 99.0, 1.0}});
    return file;
}

// The name as a view, not a const std::string&: a reference returned from a call given a temporary string is what
// GCC 13's -Wdangling-reference warns about (the GPU machine's GCC failed the -Werror build on it, 2026-11-29).
const PmKernelWindow& Find(const PmKernelWindows& windows, std::string_view name) {
    for (const PmKernelWindow& kernel : windows.kernels) {
        if (kernel.name == name) return kernel;
    }
    ADD_FAILURE() << name << " not in the table";
    return windows.kernels.front();
}

TEST(PmKernelWindows, IntegratesEachKernelOverItsDevicesSamples) {
    const std::optional<PmKernelWindows> windows = IntegrateKernelWindows(Trace(), Samples());
    ASSERT_TRUE(windows);
    ASSERT_EQ(windows->metrics.size(), 2u);
    EXPECT_EQ(windows->metrics[0].metric, kDram);
    EXPECT_TRUE(windows->metrics[0].rate);
    EXPECT_FALSE(windows->metrics[1].rate);
    EXPECT_TRUE(windows->metrics[1].percent);
    ASSERT_EQ(windows->notIntegrated.size(), 1u);
    EXPECT_EQ(windows->notIntegrated[0].rfind(kMax, 0), 0u);
    EXPECT_EQ(windows->kernels.size(), 5u);
    EXPECT_EQ(windows->others, 0u);

    const PmKernelWindow& whole = Find(*windows, "whole");
    EXPECT_EQ(whole.quality, WindowQuality::Measured) << whole.why;
    EXPECT_DOUBLE_EQ(*whole.values[0], 3.5e9);
    EXPECT_DOUBLE_EQ(*whole.values[1], 25.0);

    const PmKernelWindow& shortKernel = Find(*windows, "short");
    EXPECT_EQ(shortKernel.quality, WindowQuality::Approximate);
    EXPECT_NE(shortKernel.why.find("shorter than 4 sampling intervals"), std::string::npos) << shortKernel.why;
    EXPECT_DOUBLE_EQ(*shortKernel.values[0], 6.5e9);
    EXPECT_DOUBLE_EQ(*shortKernel.values[1], 55.0);

    const PmKernelWindow& hole = Find(*windows, "hole");
    EXPECT_EQ(hole.quality, WindowQuality::Refused);
    EXPECT_NE(hole.why.find("missing inside the window"), std::string::npos) << hole.why;
    EXPECT_FALSE(hole.values[0]);

    const PmKernelWindow& other = Find(*windows, "other");
    EXPECT_EQ(other.quality, WindowQuality::Refused);
    EXPECT_EQ(other.why, "device 2 was not sampled");
    EXPECT_FALSE(other.values[0]);

    const PmKernelWindow& replay = Find(*windows, "replay");
    EXPECT_EQ(replay.quality, WindowQuality::Refused);
    EXPECT_NE(replay.why.find("replay"), std::string::npos) << replay.why;
    EXPECT_FALSE(replay.values[0]);
    EXPECT_FALSE(replay.values[1]);
}

TEST(PmKernelWindows, KeepsTheLongestKernelsAndCountsTheOthers) {
    const std::optional<PmKernelWindows> windows = IntegrateKernelWindows(Trace(), Samples(), 2);
    ASSERT_TRUE(windows);
    ASSERT_EQ(windows->kernels.size(), 2u);
    EXPECT_EQ(windows->kernels[0].name, "hole");    // 6 us
    EXPECT_EQ(windows->kernels[1].name, "whole");   // 4 us, before replay's 3 us
    EXPECT_EQ(windows->others, 3u);
    const std::string text = WritePmKernelWindowsText(*windows, 1000);
    EXPECT_NE(text.find("(the 2 longest of 5 kernels)"), std::string::npos) << text;
    EXPECT_NE(text.find("  and 3 other kernels, shorter, not shown\n"), std::string::npos) << text;
}

// sm-throughput's three parts (docs/pm_sampling.md) make a column "sm__throughput (largest part)": per kernel, the
// largest of the parts' window means (ncu's definition), not the mean of each sample's largest. In "whole"
// ([1000,5000)) the triage part reads 10 % then 30 % (mean 20 %), the MIO reads 25 % then 5 % (mean 15 %): 20 %,
// where the samples' largest would average 27.5 %. An NA part makes it NA, saying which.
TEST(PmKernelWindows, SmThroughputIsTheLargestOfItsPartsWindowMeans) {
    const std::vector<std::string>& parts = gpa::pm_sampling::SmThroughputMetrics();
    PmSamplingFile file;
    file.session = FixtureSession();
    file.session.devices.clear();
    file.intervalNs = 1000;
    file.devices = {{0, "NVIDIA H100", "GH100"}};
    file.metrics = {parts[0], parts[1], parts[2], kDram};
    for (uint64_t i = 0; i < 10; ++i) {
        const bool early = i < 3;
        std::optional<double> write = 1.0;
        if (i >= 6) write = std::nullopt;  // "late" [6000,9000): a withheld reading
        file.rows.push_back({0, 1000 * i, 1000 * i + 1000, false, false,
                             {early ? 10.0 : 30.0, early ? 25.0 : 5.0, write, 100.0}});
    }
    AtpFile trace = Trace();
    trace.parts[0].kernelTimestamps = {Stamp("whole", 1000, 5000), Stamp("late", 6000, 9000)};
    const std::optional<PmKernelWindows> windows = IntegrateKernelWindows(trace, file);
    ASSERT_TRUE(windows);
    ASSERT_EQ(windows->metrics.size(), 5u);
    const PmWindowMetric& derived = windows->metrics[4];
    EXPECT_EQ(derived.metric, "sm__throughput (largest part)");
    EXPECT_TRUE(derived.percent);
    EXPECT_EQ(derived.largestOf, (std::vector<size_t>{0, 1, 2}));
    const PmKernelWindow& whole = Find(*windows, "whole");
    EXPECT_EQ(whole.quality, WindowQuality::Measured) << whole.why;
    EXPECT_DOUBLE_EQ(*whole.values[0], 20.0);
    EXPECT_DOUBLE_EQ(*whole.values[1], 15.0);
    EXPECT_DOUBLE_EQ(*whole.values[4], 20.0);
    const PmKernelWindow& late = Find(*windows, "late");
    EXPECT_FALSE(late.values[2]);
    EXPECT_FALSE(late.values[4]);
    EXPECT_EQ(late.valueWhy[4], parts[2] + " is NA");
    EXPECT_NE(WritePmKernelWindowsText(*windows, 0).find("sm__throughput (largest part)"), std::string::npos);

    // Without every part, no such column.
    file.metrics[1] = "sm__cycles_active.avg.pct_of_peak_sustained_elapsed";
    const std::optional<PmKernelWindows> partial = IntegrateKernelWindows(trace, file);
    ASSERT_TRUE(partial);
    EXPECT_EQ(partial->metrics.size(), 4u);
}

TEST(PmKernelWindows, NoneWithoutKernelTimestamps) {
    AtpFile trace = Trace();
    trace.parts[0].kernelTimestamps.clear();
    EXPECT_FALSE(IntegrateKernelWindows(trace, Samples()));
}

ReportInputs Inputs(bool withSamples) {
    std::vector<std::pair<std::string, std::string>> files = {{"k.atp", WriteAtp(Trace())}};
    if (withSamples) files.emplace_back("k.pmsampling.csv", WritePmSampling(Samples()));
    ReportInputs inputs = ParseReportInputs(files);
    EXPECT_TRUE(inputs.problems.empty());
    EXPECT_TRUE(inputs.failures.empty());
    return inputs;
}

TEST(PmKernelWindows, TextSectionShowsRatesQualitiesAndReasons) {
    const ReportInputs inputs = Inputs(true);
    const std::string text = WriteTextSummary(BuildReport(inputs));
    const size_t at = text.find("\nKernels as the PM samples saw them (5 kernels)\n");
    ASSERT_NE(at, std::string::npos) << text;
    const std::string section = text.substr(at);
    EXPECT_NE(section.find("dram__bytes_read.sum/s"), std::string::npos) << section;
    EXPECT_NE(section.find("not integrated: sm__warps_active.max: "), std::string::npos) << section;
    // Longest first; whole starts with the trace (0 ns); rates in G/s, means as they are.
    const char* const table =
        "  kernel          device      start  duration      quality  dram__bytes_read.sum/s  "
        "sm__cycles_active.avg.pct_of_peak_sustained_elapsed\n"
        "  hole    0: NVIDIA H100   7.000 us  6.000 us  refused [1]                       -  "
        "                                                  -\n"
        "  whole   0: NVIDIA H100       0 ns  4.000 us     measured                 3.500 G  "
        "                                             25.0 %\n"
        "  replay  0: NVIDIA H100  18.500 us  3.000 us  refused [2]                       -  "
        "                                                  -\n"
        "  other   2: NVIDIA_H100   1.000 us  1.000 us  refused [3]                       -  "
        "                                                  -\n"
        "  short   0: NVIDIA H100   4.500 us  1.000 us  approximate                 6.500 G  "
        "                                             55.0 %\n"
        "  [1] PM samples are missing inside the window (66.7% of it covered)\n"
        "  [2] samples in the window are gpaprof's kernel replay (flagged replay)\n"
        "  [3] device 2 was not sampled\n";
    EXPECT_NE(section.find(table), std::string::npos) << section;
}

TEST(PmKernelWindows, HtmlSectionIsATableWithReasonsInTitles) {
    const ReportInputs inputs = Inputs(true);
    const std::string html = WriteHtmlReport(BuildReport(inputs));
    EXPECT_EQ(HtmlProblem(html), "");
    EXPECT_NE(html.find("<a href=\"#pm-kernels\">"), std::string::npos);
    EXPECT_NE(html.find("<section id=\"pm-kernels\">"), std::string::npos);
    EXPECT_NE(html.find("<table class=\"data sortable\" id=\"pm-kernels-table\">"), std::string::npos);
    EXPECT_NE(html.find("<th>dram__bytes_read.sum/s</th>"), std::string::npos);
    EXPECT_NE(html.find("<td class=\"num\" data-sort=\"3500000000.000\">3.500 G</td>"), std::string::npos);
    EXPECT_NE(html.find("title=\"device 2 was not sampled\">refused</td>"), std::string::npos);
}

TEST(PmKernelWindows, NoSectionWithoutSamples) {
    const ReportInputs inputs = Inputs(false);
    const Report report = BuildReport(inputs);
    EXPECT_FALSE(report.pmKernels);
    EXPECT_EQ(WriteTextSummary(report).find("Kernels as the PM samples saw them"), std::string::npos);
    EXPECT_EQ(WriteHtmlReport(report).find("pm-kernels"), std::string::npos);
}

}  // namespace
}  // namespace gpaprof::report
