// The Perfetto (Chrome trace-event JSON) export: valid JSON, the expected events with exact times, slices
// that nest on every track, flows from enqueue calls to device work, hostile strings escaped.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <map>

#include "json_value.h"
#include "report_fixture.h"
#include "tools/gpaprof/files/atp_file.h"
#include "tools/gpaprof/report/json_writer.h"
#include "tools/gpaprof/report/trace_event_export.h"

namespace gpaprof::report {
namespace {

using namespace testing;

JsonValue Export(const AtpFile& file) {
    const ReportInputs inputs = ParseReportInputs({{"fixture.atp", WriteAtp(file)}});
    EXPECT_TRUE(inputs.problems.empty());
    const std::string text = WriteTraceEvents(BuildReport(inputs));
    std::string error;
    std::optional<JsonValue> json = ParseJson(text, &error);
    EXPECT_TRUE(json) << error;
    return json ? *json : JsonValue{};
}

// "12.345" (microseconds, three decimals) -> 12345 ns, exactly.
uint64_t Ns(const JsonValue& value) {
    const std::string& text = value.numberText;
    const size_t dot = text.find('.');
    EXPECT_NE(dot, std::string::npos) << text;
    EXPECT_EQ(text.size() - dot - 1, 3u) << text;
    return std::stoull(text.substr(0, dot)) * 1000 + std::stoull(text.substr(dot + 1));
}

std::vector<const JsonValue*> Events(const JsonValue& root, const std::string& phase) {
    std::vector<const JsonValue*> events;
    for (const JsonValue& event : root.Find("traceEvents")->array) {
        if (event.Find("ph")->string == phase) events.push_back(&event);
    }
    return events;
}

const JsonValue* Named(const std::vector<const JsonValue*>& events, const std::string& name) {
    for (const JsonValue* event : events) {
        if (event->Find("name")->string == name) return event;
    }
    return nullptr;
}

TEST(TraceEventExport, HostCallsWithExactTimes) {
    const JsonValue root = Export(OpenClFixture());
    const std::vector<const JsonValue*> slices = Events(root, "X");
    const JsonValue* build = Named(slices, "clBuildProgram");
    ASSERT_NE(build, nullptr);
    EXPECT_EQ(build->Find("pid")->number, 1.0);
    EXPECT_EQ(build->Find("tid")->number, static_cast<double>(kMainThread));
    EXPECT_EQ(build->Find("ts")->numberText, "9.100");   // (10000 - 900) ns
    EXPECT_EQ(build->Find("dur")->numberText, "10.000");
    EXPECT_EQ(build->Find("cat")->string, "ocl,api");
    const JsonValue* args = build->Find("args");
    EXPECT_EQ(args->Find("return")->string, "CL_BUILD_PROGRAM_FAILURE");
    EXPECT_EQ(args->Find("error")->string, "CL_BUILD_PROGRAM_FAILURE");
    EXPECT_EQ(args->Find("call index")->number, 6.0);
    EXPECT_EQ(root.Find("otherData")->Find("timeBaseNs")->number, 900.0);
    EXPECT_EQ(root.Find("displayTimeUnit")->string, "ns");
    size_t calls = 0;
    for (const JsonValue* slice : slices) calls += slice->Find("cat")->string == "ocl,api" ? 1 : 0;
    EXPECT_EQ(calls, 28u);
}

TEST(TraceEventExport, DeviceTracksPerQueue) {
    const JsonValue root = Export(OpenClFixture());
    const std::vector<const JsonValue*> slices = Events(root, "X");
    const JsonValue* kernel = Named(slices, kHostileKernel);
    ASSERT_NE(kernel, nullptr);
    EXPECT_EQ(kernel->Find("cat")->string, "kernel");
    EXPECT_EQ(kernel->Find("pid")->number, 2.0);
    EXPECT_EQ(Ns(*kernel->Find("ts")), 40000u - 900u);
    EXPECT_EQ(Ns(*kernel->Find("dur")), 10000u);
    EXPECT_EQ(kernel->Find("args")->Find("work-group size")->string, "{30}");
    EXPECT_EQ(kernel->Find("args")->Find("enqueued by")->string, "thread 100 call #10");
    const JsonValue* transfer = Named(slices, "CL_COMMAND_READ_BUFFER");
    ASSERT_NE(transfer, nullptr);
    EXPECT_EQ(transfer->Find("args")->Find("bytes")->number, 8192.0);
    EXPECT_EQ(transfer->Find("args")->Find("bandwidth (GB/s)")->number, 2.0);

    std::map<std::pair<double, double>, std::string> threadNames;
    std::map<double, std::string> processNames;
    for (const JsonValue* meta : Events(root, "M")) {
        const std::string what = meta->Find("name")->string;
        if (what == "thread_name") {
            threadNames[{meta->Find("pid")->number, meta->Find("tid")->number}] = meta->Find("args")->Find("name")->string;
        } else if (what == "process_name") {
            processNames[meta->Find("pid")->number] = meta->Find("args")->Find("name")->string;
        }
    }
    EXPECT_EQ(processNames[1.0], "host: fixture");
    EXPECT_EQ(processNames[2.0], "cpu device (OpenCL device)");
    EXPECT_EQ((threadNames[{1.0, 100.0}]), "thread 100");
    EXPECT_EQ((threadNames[{1.0, 200.0}]), "thread 200");
    EXPECT_EQ((threadNames[{2.0, kernel->Find("tid")->number}]), "queue 1 (0x0000000000000A01)");
}

TEST(TraceEventExport, MarkersNestAroundCalls) {
    const JsonValue root = Export(OpenClFixture());
    std::vector<const JsonValue*> markers;
    for (const JsonValue* slice : Events(root, "X")) {
        if (slice->Find("cat")->string == "marker") markers.push_back(slice);
    }
    ASSERT_EQ(markers.size(), 3u);
    const JsonValue* hostile = Named(markers, kHostileMarker);
    ASSERT_NE(hostile, nullptr);
    EXPECT_EQ(hostile->Find("tid")->number, 100.0);  // on the thread's own track, around its calls
    EXPECT_EQ(Ns(*hostile->Find("dur")), 60500u - 21900u);
    EXPECT_EQ(hostile->Find("args")->Find("group")->string, "app");
}

// On every (pid, tid) track, slices must nest: a viewer rejects or misdraws partial overlaps.
TEST(TraceEventExport, SlicesNestOnEveryTrack) {
    AtpFile file = OpenClFixture();
    // Make two commands on queue 2 overlap, as on an out-of-order queue.
    file.parts[0].threads[1].entries[2].command->start = 57000;
    const JsonValue root = Export(file);
    std::map<std::pair<double, double>, std::vector<std::pair<uint64_t, uint64_t>>> tracks;
    for (const JsonValue* slice : Events(root, "X")) {
        const uint64_t start = Ns(*slice->Find("ts"));
        tracks[{slice->Find("pid")->number, slice->Find("tid")->number}].push_back({start, start + Ns(*slice->Find("dur"))});
    }
    for (auto& [track, slices] : tracks) {
        std::sort(slices.begin(), slices.end(), [](auto a, auto b) { return a.first != b.first ? a.first < b.first : a.second > b.second; });
        std::vector<uint64_t> open;
        for (const auto& [start, end] : slices) {
            while (!open.empty() && open.back() <= start) open.pop_back();
            EXPECT_TRUE(open.empty() || end <= open.back())
                << "track " << track.first << "/" << track.second << ": [" << start << "," << end << ") overlaps";
            open.push_back(end);
        }
    }
    bool overlapTrack = false;
    for (const JsonValue* meta : Events(root, "M")) {
        const JsonValue* args = meta->Find("args");
        if (args->Find("name") && args->Find("name")->string == "queue 2 (0x0000000000000A02) (overlap 1)") overlapTrack = true;
    }
    EXPECT_TRUE(overlapTrack);
}

TEST(TraceEventExport, FlowsFromEnqueueToDevice) {
    const JsonValue root = Export(OpenClFixture());
    const std::vector<const JsonValue*> starts = Events(root, "s");
    const std::vector<const JsonValue*> finishes = Events(root, "f");
    ASSERT_EQ(starts.size(), 7u);
    ASSERT_EQ(finishes.size(), 7u);
    for (size_t i = 0; i < starts.size(); ++i) {
        EXPECT_EQ(starts[i]->Find("id")->number, finishes[i]->Find("id")->number);
        EXPECT_EQ(starts[i]->Find("pid")->number, 1.0);
        EXPECT_NE(finishes[i]->Find("pid")->number, 1.0);
        EXPECT_EQ(finishes[i]->Find("bp")->string, "e");
    }
}

TEST(TraceEventExport, CudaKernelTimestampsOnAStreamTrack) {
    const JsonValue root = Export(CudaFixture());
    const JsonValue* kernel = Named(Events(root, "X"), "_Z6vecAddPfS_S_i");
    ASSERT_NE(kernel, nullptr);
    EXPECT_EQ(Ns(*kernel->Find("dur")), 2500u);
    bool stream = false;
    for (const JsonValue* meta : Events(root, "M")) {
        if (meta->Find("args")->Find("name") && meta->Find("args")->Find("name")->string == "stream 7") stream = true;
    }
    EXPECT_TRUE(stream);
}

TEST(TraceEventExport, EscapesEverything) {
    AtpFile file = OpenClFixture();
    file.parts[0].threads[0].entries[0].args = {"\"quote\\ \x01\x7f\xff end\""};
    ReportInputs inputs;
    inputs.atpPath = "fixture.atp";
    inputs.atp = file;
    const std::string text = WriteTraceEvents(BuildReport(inputs));
    std::string error;
    std::optional<JsonValue> json = ParseJson(text, &error);
    ASSERT_TRUE(json) << error;
    const JsonValue* call = Named(Events(*json, "X"), "clGetPlatformIDs");
    ASSERT_NE(call, nullptr);
    EXPECT_EQ(call->Find("args")->Find("arguments")->string, "\"quote\\ \x01\x7f\xEF\xBF\xBD end\"");
}

TEST(JsonWriter, StringsNumbersAndScriptSafety) {
    EXPECT_EQ(JsonString("a\"b\\c\n\t\x01"), "\"a\\\"b\\\\c\\n\\t\\u0001\"");
    EXPECT_EQ(JsonString("</script>", true), "\"\\u003c/script\\u003e\"");
    EXPECT_EQ(JsonString("\xE2\x80\xA8", true), "\"\\u2028\"");
    EXPECT_EQ(JsonString("\xC0\xAF"), "\"\xEF\xBF\xBD\xEF\xBF\xBD\"");  // overlong '/'
    JsonWriter writer;
    writer.BeginObject().Key("a").Number(3.5).Key("b").Number(2.0).Key("c").MicrosecondsFromNs(1234567);
    writer.Key("d").Number(std::numeric_limits<double>::quiet_NaN());
    writer.Key("e").BeginArray().Unsigned(1).Signed(-2).Bool(true).Null().EndArray().EndObject();
    EXPECT_EQ(writer.text(), "{\"a\":3.5,\"b\":2,\"c\":1234.567,\"d\":null,\"e\":[1,-2,true,null]}");
}

}  // namespace
}  // namespace gpaprof::report
