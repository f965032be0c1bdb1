// gpaprof-report on a .pmsampling.csv beside a trace (CudaFixture + PmSamplingFixture, report_fixture.cpp): the
// input is recognised, the Perfetto export has the counters on the trace's clock in the device's process with the
// flags and NA runs as slices, the text summary has the numbers worked out below, and the HTML timeline has
// the sample lanes.
//
// The samples (interval 1000 ns; the trace starts at 1000 ns, its kernel runs 6000..8500 on NVIDIA_H100):
//   device 0: [5000,6000) 10 % 1000 B; [6000,7000) 80 % 4000 B; [7000,8000) 90 % NA; [8000,9000) and
//             [9000,10000) replay 100 % 500 B; [12000,13000) dropped-before 40 % 2000 B
//   device 1: [5500,6500) 60 % 0 B; [6500,7500) NA NA; [9000,10000) 20 % 100 B
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "json_value.h"
#include "html_check.h"
#include "report_fixture.h"
#include "tools/gpaprof/files/atp_file.h"
#include "tools/gpaprof/report/html_report.h"
#include "tools/gpaprof/report/pm_sampling_summary.h"
#include "tools/gpaprof/report/pm_sampling_tracks.h"
#include "tools/gpaprof/report/text_report.h"
#include "tools/gpaprof/report/trace_event_export.h"

namespace gpaprof::report {
namespace {

using namespace testing;

const char* const kSm = "sm__cycles_active.avg.pct_of_peak_sustained_elapsed";
const char* const kDram = "dram__bytes_read.sum";

ReportInputs Inputs(bool withTrace = true) {
    std::vector<std::pair<std::string, std::string>> files;
    if (withTrace) files.emplace_back("cuda.atp", WriteAtp(CudaFixture()));
    files.emplace_back("cuda.pmsampling.csv", WritePmSampling(PmSamplingFixture()));
    ReportInputs inputs = ParseReportInputs(files);
    EXPECT_TRUE(inputs.problems.empty());
    EXPECT_TRUE(inputs.failures.empty());
    return inputs;
}

JsonValue ExportJson(const ReportInputs& inputs) {
    const std::string text = WriteTraceEvents(BuildReport(inputs));
    std::string error;
    std::optional<JsonValue> json = ParseJson(text, &error);
    EXPECT_TRUE(json) << error;
    return json ? *json : JsonValue{};
}

// (ts as written, value) of the counter events of `name` in process `pid`.
std::vector<std::pair<std::string, double>> Counter(const JsonValue& root, uint64_t pid, const std::string& name) {
    std::vector<std::pair<std::string, double>> points;
    for (const JsonValue& event : root.Find("traceEvents")->array) {
        if (event.Find("ph")->string != "C" || event.Find("name")->string != name) continue;
        if (event.Find("pid")->number != static_cast<double>(pid)) continue;
        EXPECT_EQ(event.Find("cat")->string, "pm_sampling");
        EXPECT_EQ(event.Find("tid"), nullptr);
        points.emplace_back(event.Find("ts")->numberText, event.Find("args")->Find("value")->number);
    }
    return points;
}

// "name ts dur" of the complete events on (pid, tid).
std::vector<std::string> Slices(const JsonValue& root, uint64_t pid, uint64_t tid) {
    std::vector<std::string> slices;
    for (const JsonValue& event : root.Find("traceEvents")->array) {
        if (event.Find("ph")->string != "X" || event.Find("pid")->number != static_cast<double>(pid)) continue;
        if (event.Find("tid")->number != static_cast<double>(tid)) continue;
        slices.push_back(event.Find("name")->string + " " + event.Find("ts")->numberText + " " +
                         event.Find("dur")->numberText);
    }
    return slices;
}

std::string Name(const JsonValue& root, const char* what, uint64_t pid, std::optional<uint64_t> tid) {
    for (const JsonValue& event : root.Find("traceEvents")->array) {
        if (event.Find("ph")->string != "M" || event.Find("name")->string != what) continue;
        if (event.Find("pid")->number != static_cast<double>(pid)) continue;
        const JsonValue* eventTid = event.Find("tid");
        if (tid ? (!eventTid || eventTid->number != static_cast<double>(*tid)) : eventTid != nullptr) continue;
        return event.Find("args")->Find("name")->string;
    }
    return "";
}

TEST(PmSamplingReport, InputRecognisedByNameAndByContent) {
    EXPECT_EQ(DetectInputKind("run.pmsampling.csv", ""), InputKind::PmSampling);
    EXPECT_EQ(DetectInputKind("run.csv", ""), InputKind::Csv);
    EXPECT_EQ(DetectInputKind("samples.txt", "# PmSamplingFileVersion=1\n# ProfilerVersion=1\n"), InputKind::PmSampling);
    const ReportInputs inputs = Inputs();
    ASSERT_TRUE(inputs.pmSampling.has_value());
    EXPECT_EQ(inputs.pmSampling->rows.size(), 9u);
    EXPECT_EQ(*inputs.pmSamplingPath, "cuda.pmsampling.csv");
    // A second one is refused, the first kept.
    const ReportInputs twice = ParseReportInputs({{"a.pmsampling.csv", WritePmSampling(PmSamplingFixture())},
                                                  {"b.pmsampling.csv", WritePmSampling(PmSamplingFixture())}});
    ASSERT_EQ(twice.failures.size(), 1u);
    EXPECT_EQ(twice.failures[0].path, "b.pmsampling.csv");
}

TEST(PmSamplingReport, DevicesGoToTheTracesDeviceProcessByName) {
    const ReportInputs inputs = Inputs();
    const Report report = BuildReport(inputs);
    const auto processes = TimelineDeviceProcesses(report.timeline);
    ASSERT_EQ(processes.size(), 1u);
    EXPECT_EQ(processes[0].second, "NVIDIA_H100");
    EXPECT_EQ(PmSamplingProcesses(*inputs.pmSampling, processes), (std::vector<uint64_t>{2, 3}));
    // Two sampled devices of one name share its process.
    PmSamplingFile twins = PmSamplingFixture();
    twins.devices[1].name = "NVIDIA H100";
    EXPECT_EQ(PmSamplingProcesses(twins, processes), (std::vector<uint64_t>{2, 2}));
    EXPECT_EQ(PmSamplingProcesses(twins, {}), (std::vector<uint64_t>{2, 3}));
}

TEST(PmSamplingReport, CountersOnTheTracesClockBesideTheKernel) {
    const JsonValue root = ExportJson(Inputs());
    EXPECT_EQ(root.Find("otherData")->Find("timeBaseNs")->number, 1000.0);  // the trace's first call
    EXPECT_EQ(Name(root, "process_name", 2, std::nullopt), "NVIDIA_H100 (CUDA device)");
    // Device 0: every value from its sample's start; NA writes nothing; replay samples are measured values too.
    using Points = std::vector<std::pair<std::string, double>>;
    EXPECT_EQ(Counter(root, 2, kSm),
              (Points{{"4.000", 10}, {"5.000", 80}, {"6.000", 90}, {"7.000", 100}, {"8.000", 100}, {"11.000", 40}}));
    EXPECT_EQ(Counter(root, 2, kDram),
              (Points{{"4.000", 1000}, {"5.000", 4000}, {"7.000", 500}, {"8.000", 500}, {"11.000", 2000}}));
    // The kernel slice is in the same process, on the same clock.
    bool kernel = false;
    for (const JsonValue& event : root.Find("traceEvents")->array) {
        if (event.Find("ph")->string == "X" && event.Find("name")->string == "_Z6vecAddPfS_S_i") {
            EXPECT_EQ(event.Find("pid")->number, 2.0);
            EXPECT_EQ(event.Find("ts")->numberText, "5.000");
            kernel = true;
        }
    }
    EXPECT_TRUE(kernel);
    // Device 1 has no work in the trace: a process of its own.
    EXPECT_EQ(Name(root, "process_name", 3, std::nullopt), "NVIDIA A100-SXM4-40GB (GA100) device 1: PM sampling");
    EXPECT_EQ(Counter(root, 3, kSm), (Points{{"4.500", 60}, {"8.000", 20}}));
    EXPECT_EQ(Counter(root, 3, kDram), (Points{{"4.500", 0}, {"8.000", 100}}));
}

TEST(PmSamplingReport, FlagsAndNaRunsAreSlices) {
    const JsonValue root = ExportJson(Inputs());
    const uint64_t flags0 = kPmSamplingTidBase;
    EXPECT_EQ(Name(root, "thread_name", 2, flags0), "PM sampling: device 0");
    EXPECT_EQ(Slices(root, 2, flags0), (std::vector<std::string>{"gpaprof replay 7.000 2.000", "samples lost 9.000 2.000"}));
    EXPECT_EQ(Name(root, "thread_name", 2, flags0 + 2), std::string("PM sampling: device 0 NA: ") + kDram);
    EXPECT_EQ(Slices(root, 2, flags0 + 2), (std::vector<std::string>{"NA 6.000 1.000"}));
    EXPECT_EQ(Slices(root, 2, flags0 + 1), std::vector<std::string>{});  // sm has no NA on device 0
    const uint64_t flags1 = kPmSamplingTidBase + 100000;
    EXPECT_EQ(Slices(root, 3, flags1), (std::vector<std::string>{"not sampled 6.500 1.500"}));
    EXPECT_EQ(Slices(root, 3, flags1 + 1), (std::vector<std::string>{"NA 5.500 1.000"}));
    EXPECT_EQ(Slices(root, 3, flags1 + 2), (std::vector<std::string>{"NA 5.500 1.000"}));
}

TEST(PmSamplingReport, SamplesAloneMakeATimelineFromTheFirstSample) {
    const JsonValue root = ExportJson(Inputs(/*withTrace=*/false));
    EXPECT_EQ(root.Find("otherData")->Find("timeBaseNs")->number, 5000.0);
    EXPECT_EQ(Name(root, "process_name", 2, std::nullopt), "NVIDIA H100 (GH100) device 0: PM sampling");
    EXPECT_EQ(Counter(root, 2, kSm).front(), (std::pair<std::string, double>{"0.000", 10}));
}

TEST(PmSamplingReport, SummaryNumbers) {
    const std::vector<PmDeviceSummary> devices = SummarizePmSampling(PmSamplingFixture());
    ASSERT_EQ(devices.size(), 2u);
    const PmDeviceSummary& d0 = devices[0];
    EXPECT_EQ(d0.samples, 6u);
    EXPECT_EQ(d0.replaySamples, 2u);
    EXPECT_EQ(d0.droppedBefore, 1u);
    EXPECT_EQ(d0.firstNs, 5000u);
    EXPECT_EQ(d0.lastNs, 13000u);
    const PmMetricSummary& sm = d0.metrics[0];
    EXPECT_TRUE(sm.percent);
    EXPECT_EQ(sm.samples, 4u);  // replay left out
    EXPECT_EQ(sm.missing, 0u);
    EXPECT_DOUBLE_EQ(*sm.mean, 55.0);  // (10 + 80 + 90 + 40) / 4, all 1000 ns long
    EXPECT_DOUBLE_EQ(*sm.max, 90.0);
    EXPECT_EQ(*sm.above50Ns, 2000u);
    EXPECT_EQ(sm.sampledNs, 4000u);
    EXPECT_FALSE(sm.total.has_value());
    const PmMetricSummary& dram = d0.metrics[1];
    EXPECT_EQ(dram.samples, 3u);
    EXPECT_EQ(dram.missing, 1u);
    EXPECT_DOUBLE_EQ(*dram.mean, 7000.0 / 3.0);
    EXPECT_DOUBLE_EQ(*dram.max, 4000.0);
    EXPECT_DOUBLE_EQ(*dram.total, 7000.0);
    EXPECT_FALSE(dram.above50Ns.has_value());
    const PmMetricSummary& sm1 = devices[1].metrics[0];
    EXPECT_DOUBLE_EQ(*sm1.mean, 40.0);
    EXPECT_EQ(*sm1.above50Ns, 1000u);
    EXPECT_EQ(sm1.missing, 1u);

    // Weighted by length: a 3000 ns sample at 10 and a 1000 ns one at 90 average 30, not 50.
    PmSamplingFile uneven = PmSamplingFixture();
    uneven.rows = {{0, 0, 3000, false, false, {10.0, 1.0}}, {0, 3000, 4000, false, false, {90.0, 1.0}}};
    EXPECT_DOUBLE_EQ(*SummarizePmSampling(uneven)[0].metrics[0].mean, 30.0);
    EXPECT_EQ(*SummarizePmSampling(uneven)[0].metrics[0].above50Ns, 1000u);
    // A device without samples has no numbers, not zeros.
    EXPECT_FALSE(SummarizePmSampling(uneven)[1].metrics[0].mean.has_value());
}

TEST(PmSamplingReport, TextSummary) {
    const ReportInputs inputs = Inputs();
    const std::string text = WriteTextSummary(BuildReport(inputs));
    EXPECT_NE(text.find("PM sampling (9 samples, interval "), std::string::npos) << text;
    EXPECT_NE(text.find("device 0: NVIDIA H100 (GH100): 6 samples over 8.000 us, 2 in replay windows, 1 after lost "
                        "samples"),
              std::string::npos)
        << text;
    // metric, samples, NA, mean, max, above 50 %, total, rate.
    EXPECT_NE(text.find(std::string(kSm) + "        4   0  55.0 %  90.0 %  2.000 us (50.0 %)      -             -"),
              std::string::npos)
        << text;
    // Mean 7000 / 3 (no decimals from 1000 on), total 7000 B over 3000 ns sampled: 2.333 G per second.
    EXPECT_NE(text.find(std::string(kDram) + "                                       3   1    2333    4000                  -   "
                                             "7000       2.333 G"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find(std::string(kSm) + "        2   1  40.0 %   60.0 %  1.000 us (50.0 %)"), std::string::npos) << text;
    EXPECT_NE(text.find(std::string(kDram) + "                                       2   1  50.000  100.000                  -  "
                                             "100.000       0.050 G"),
              std::string::npos)
        << text;
}

TEST(PmSamplingReport, HtmlTimelineHasSampleLanesOnTheSameAxis) {
    const ReportInputs inputs = Inputs();
    const std::string html = WriteHtmlReport(BuildReport(inputs));
    EXPECT_EQ(HtmlProblem(html), "");
    EXPECT_NE(html.find("id=\"pm-sampling-table\""), std::string::npos);
    std::string error;
    std::optional<JsonValue> json = ParseJson(ScriptContent(html, "id=\"gpaprof-data\""), &error);
    ASSERT_TRUE(json) << error;
    const JsonValue* timeline = json->Find("charts")->Find("timeline");
    ASSERT_NE(timeline, nullptr);
    EXPECT_EQ(timeline->Find("span")->number, 12000.0);  // 1000 (first call) .. 13000 (last sample)
    const std::vector<JsonValue>& lanes = timeline->Find("lanes")->array;
    size_t firstSampleLane = lanes.size();
    for (size_t i = 0; i < lanes.size(); ++i) {
        if (lanes[i].Find("top") && firstSampleLane == lanes.size()) firstSampleLane = i;
    }
    ASSERT_EQ(lanes.size() - firstSampleLane, 4u);  // 2 devices x 2 metrics
    EXPECT_EQ(lanes[firstSampleLane].Find("name")->string, std::string("device 0: ") + kSm);
    EXPECT_EQ(lanes[firstSampleLane].Find("top")->number, 100.0);
    EXPECT_EQ(lanes[firstSampleLane + 1].Find("top")->number, 4000.0);
    // The kernel and the first sample bar, relative to the same begin.
    std::vector<std::vector<double>> bars;
    bool kernelAt5000 = false;
    for (const JsonValue& item : timeline->Find("items")->array) {
        std::vector<double> fields;
        for (const JsonValue& field : item.array) fields.push_back(field.number);
        if (fields[4] == 1 && fields[1] == 5000 && fields[2] == 2500) kernelAt5000 = true;  // 6000..8500
        if (fields[0] == static_cast<double>(firstSampleLane)) bars.push_back(fields);
    }
    EXPECT_TRUE(kernelAt5000);
    // sm on device 0: 10, 80, 90 (one bar each: 2000 bars fit), replay 100 twice (grey), 40 after lost samples.
    ASSERT_EQ(bars.size(), 6u);
    EXPECT_EQ(bars[0], (std::vector<double>{static_cast<double>(firstSampleLane), 4000, 1000, 1, 6, 10}));
    EXPECT_EQ(bars[3][4], 7.0);
    EXPECT_EQ(bars[5], (std::vector<double>{static_cast<double>(firstSampleLane), 11000, 1000, 1, 8, 40}));
}

TEST(PmSamplingReport, HtmlMergesSamplesBeyondTheBarLimit) {
    HtmlOptions options;
    options.maxSampleBarsPerLane = 3;  // buckets of 4000 ns over the 12000 ns span
    const ReportInputs inputs = Inputs();
    const std::string html = WriteHtmlReport(BuildReport(inputs), options);
    std::string error;
    std::optional<JsonValue> json = ParseJson(ScriptContent(html, "id=\"gpaprof-data\""), &error);
    ASSERT_TRUE(json) << error;
    const JsonValue* timeline = json->Find("charts")->Find("timeline");
    const size_t smLane = timeline->Find("lanes")->array.size() - 4;
    std::vector<std::vector<double>> bars;
    for (const JsonValue& item : timeline->Find("items")->array) {
        if (item.array[0].number != static_cast<double>(smLane)) continue;
        std::vector<double> fields;
        for (const JsonValue& field : item.array) fields.push_back(field.number);
        bars.push_back(fields);
    }
    // Bucket 1 (4000..8000): 10, 80, 90 -> mean 60 of 3; bucket 1 replay 100 (7000..8000 rel.), bucket 2 replay
    // 100, then 40 after lost samples.
    ASSERT_EQ(bars.size(), 4u);
    EXPECT_EQ(bars[0], (std::vector<double>{static_cast<double>(smLane), 4000, 3000, 3, 6, 60}));
    EXPECT_EQ(bars[1], (std::vector<double>{static_cast<double>(smLane), 7000, 1000, 1, 7, 100}));
    EXPECT_EQ(bars[2], (std::vector<double>{static_cast<double>(smLane), 8000, 1000, 1, 7, 100}));
    EXPECT_EQ(bars[3][4], 8.0);
}

}  // namespace
}  // namespace gpaprof::report
