// The HTML page: well-formed, self-contained, the expected tables and values, every trace string escaped,
// and chart data the page's script can parse.
#include <gtest/gtest.h>

#include "html_check.h"
#include "json_value.h"
#include "report_fixture.h"
#include "tools/gpaprof/files/atp_file.h"
#include "tools/gpaprof/files/csv_file.h"
#include "tools/gpaprof/files/occupancy_file.h"
#include "tools/gpaprof/report/html_report.h"
#include "tools/gpaprof/report/utf8_text.h"

namespace gpaprof::report {
namespace {

using namespace testing;

ReportInputs FullInputs() {
    return ParseReportInputs({{"fixture.atp", WriteAtp(OpenClFixture())},
                              {"fixture.csv", WriteCsv(CsvFixture())},
                              {"fixture.occupancy", WriteOccupancy(OccupancyFixture())}});
}

// The <tr> of a table whose first cell contains `first`, or "".
std::string Row(const std::string& html, const std::string& tableId, const std::string& first) {
    const size_t table = html.find("id=\"" + tableId + "\"");
    if (table == std::string::npos) return {};
    const size_t tableEnd = html.find("</table>", table);
    size_t at = html.find(first, table);
    if (at == std::string::npos || at > tableEnd) return {};
    const size_t begin = html.rfind("<tr>", at);
    return html.substr(begin, html.find("</tr>", at) - begin);
}

TEST(HtmlReport, WellFormedAndSelfContained) {
    const ReportInputs inputs = FullInputs();
    ASSERT_TRUE(inputs.problems.empty()) << FormatProblem(inputs.problems[0]);
    const std::string html = WriteHtmlReport(BuildReport(inputs));
    EXPECT_EQ(HtmlProblem(html), "");
    EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
    // Nothing from elsewhere: no external scripts, styles, images or links out.
    for (const char* external : {"src=", "href=\"http", "<link", "url(", "@import", "http://", "https://"}) {
        if (std::string(external) == "http://") {
            // The SVG namespace is an identifier, not a fetch.
            std::string stripped = html;
            for (size_t at; (at = stripped.find("http://www.w3.org/2000/svg")) != std::string::npos;) stripped.erase(at, 26);
            EXPECT_EQ(stripped.find(external), std::string::npos) << external;
            continue;
        }
        EXPECT_EQ(html.find(external), std::string::npos) << external;
    }
    EXPECT_NE(html.find("Content-Security-Policy"), std::string::npos);
}

TEST(HtmlReport, EscapesHostileStrings) {
    const std::string html = WriteHtmlReport(BuildReport(FullInputs()));
    EXPECT_EQ(html.find("<script>alert(1)</script>"), std::string::npos);
    EXPECT_EQ(html.find("<b>&"), std::string::npos);
    EXPECT_NE(html.find("&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);
    EXPECT_NE(html.find("compute &lt;/script&gt;&lt;b&gt;&amp;&quot;&#39;"), std::string::npos);
    // Exactly the page's own two scripts.
    size_t scripts = 0;
    for (size_t at = html.find("<script"); at != std::string::npos; at = html.find("<script", at + 1)) ++scripts;
    EXPECT_EQ(scripts, 2u);
}

TEST(HtmlReport, InvalidUtf8AndControlCharactersBecomeValidText) {
    AtpFile file = OpenClFixture();
    file.parts[0].threads[0].entries[10].kernel->kernelName = "bad\xff\xfe\x01name";
    const ReportInputs inputs = ParseReportInputs({{"x.atp", WriteAtp(file)}});
    const std::string html = WriteHtmlReport(BuildReport(inputs));
    EXPECT_EQ(HtmlProblem(html), "");
    EXPECT_NE(html.find("bad\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBDname"), std::string::npos);
    std::string error;
    EXPECT_TRUE(ParseJson(ScriptContent(html, "id=\"gpaprof-data\""), &error)) << error;
}

TEST(HtmlReport, TablesHoldTheSummaries) {
    const std::string html = WriteHtmlReport(BuildReport(FullInputs()));
    for (const char* id : {"session-table", "devices-table", "api-table-ocl", "context-table", "top-kernels-table",
                           "kernel-table", "kernel-list-table", "transfer-totals-table", "transfers-longest-table",
                           "transfers-largest-table", "counters-table", "occupancy-table", "marker-table"}) {
        EXPECT_NE(html.find(std::string("id=\"") + id + "\""), std::string::npos) << id;
    }
    // clFinish: 4 calls, 49.200 us in all, 12.300 us on average, 100 ns minimum, 25.000 us maximum.
    const std::string finish = Row(html, "api-table-ocl", ">clFinish<");
    EXPECT_NE(finish.find(">4</td>"), std::string::npos) << finish;
    EXPECT_NE(finish.find("data-sort=\"49200.000\">49.200 us</td>"), std::string::npos) << finish;
    EXPECT_NE(finish.find(">12.300 us</td>"), std::string::npos) << finish;
    EXPECT_NE(finish.find(">100 ns</td>"), std::string::npos) << finish;
    EXPECT_NE(finish.find(">25.000 us</td>"), std::string::npos) << finish;
    // Top kernel: the hostile one, 2 dispatches, 16 us, 76.2 %.
    const std::string top = Row(html, "top-kernels-table", "&lt;script&gt;");
    EXPECT_NE(top.find(">16.000 us</td>"), std::string::npos) << top;
    EXPECT_NE(top.find(">76.2 %</td>"), std::string::npos) << top;
    const std::string vector = Row(html, "kernel-table", ">vector_add<");
    EXPECT_NE(vector.find(">62.5 %</td>"), std::string::npos) << vector;  // average occupancy
    const std::string inner = Row(html, "marker-table", ">inner<");
    EXPECT_NE(inner.find(">4.000 us</td>"), std::string::npos) << inner;
    const std::string largest = Row(html, "transfers-largest-table", ">clEnqueueWriteBuffer<");
    EXPECT_NE(largest.find(">1.00 MiB</td>"), std::string::npos) << largest;
    EXPECT_NE(largest.find(">1048.58 GB/s</td>"), std::string::npos) << largest;
    EXPECT_NE(largest.find(">thread 200 call #3</td>"), std::string::npos) << largest;
}

TEST(HtmlReport, ChecksWithRulesAndEvidence) {
    const std::string html = WriteHtmlReport(BuildReport(FullInputs()));
    for (const char* id : {"leaks", "failed-calls", "deprecated-calls", "redundant-sync", "blocking-transfers",
                           "work-group-size"}) {
        const size_t at = html.find(std::string("id=\"check-") + id + "\"");
        ASSERT_NE(at, std::string::npos) << id;
        const std::string article = html.substr(at, html.find("</article>", at) - at);
        EXPECT_NE(article.find("data-status=\"fired\""), std::string::npos) << id;
        EXPECT_NE(article.find("<strong>Rule:</strong>"), std::string::npos) << id;
        EXPECT_NE(article.find("<ul class=\"evidence\">"), std::string::npos) << id;
    }
    EXPECT_NE(html.find("clBuildProgram returned CL_BUILD_PROGRAM_FAILURE 1 time; first at thread 100 call #6"),
              std::string::npos);
}

TEST(HtmlReport, ChartDataParsesAndCarriesTheTimeline) {
    const std::string html = WriteHtmlReport(BuildReport(FullInputs()));
    const std::string data = ScriptContent(html, "id=\"gpaprof-data\"");
    EXPECT_EQ(data.find('<'), std::string::npos);
    std::string error;
    std::optional<JsonValue> json = ParseJson(data, &error);
    ASSERT_TRUE(json) << error;
    const JsonValue* charts = json->Find("charts");
    ASSERT_NE(charts, nullptr);
    const JsonValue* timeline = charts->Find("timeline");
    ASSERT_NE(timeline, nullptr);
    EXPECT_EQ(timeline->Find("span")->number, 71000.0);
    // Lanes: markers (2 lanes: "inner" overlaps), calls, of two threads, then the two device queues.
    std::vector<std::string> lanes;
    for (const JsonValue& lane : timeline->Find("lanes")->array) lanes.push_back(lane.Find("name")->string);
    EXPECT_EQ(lanes, (std::vector<std::string>{"thread 100 markers", "thread 100 markers (2)", "thread 100",
                                                "thread 200", "queue 1 (0x0000000000000A01) on cpu device",
                                                "queue 2 (0x0000000000000A02) on cpu device"}));
    EXPECT_EQ(timeline->Find("items")->array.size(), 3u + 28u + 7u);
    EXPECT_EQ(timeline->Find("total")->number, 38.0);
    const JsonValue* kernels = charts->Find("top-kernels");
    ASSERT_NE(kernels, nullptr);
    EXPECT_EQ(kernels->Find("bars")->array[0].Find("label")->string, kHostileKernel);
    EXPECT_EQ(kernels->Find("bars")->array[0].Find("value")->number, 16000.0);
    EXPECT_NE(charts->Find("api-ocl"), nullptr);
}

TEST(HtmlReport, TimelineKeepsTheLongestItemsWhenCapped) {
    HtmlOptions options;
    options.maxTimelineItems = 5;
    const std::string html = WriteHtmlReport(BuildReport(FullInputs()), options);
    std::string error;
    std::optional<JsonValue> json = ParseJson(ScriptContent(html, "id=\"gpaprof-data\""), &error);
    ASSERT_TRUE(json) << error;
    const JsonValue* items = json->Find("charts")->Find("timeline")->Find("items");
    ASSERT_EQ(items->array.size(), 5u);
    EXPECT_EQ(items->array[0].array[2].number, 38600.0);  // the hostile marker: 21900 to 60500
    EXPECT_NE(html.find("The chart shows the 5 longest of 38 items"), std::string::npos);
}

TEST(HtmlReport, CounterFileOnly) {
    const ReportInputs inputs = ParseReportInputs({{"fixture.csv", WriteCsv(CsvFixture())}});
    const std::string html = WriteHtmlReport(BuildReport(inputs));
    EXPECT_EQ(HtmlProblem(html), "");
    EXPECT_EQ(html.find("id=\"timeline-chart\""), std::string::npos);
    EXPECT_NE(html.find("id=\"counters-table\""), std::string::npos);
    EXPECT_NE(html.find("no trace (.atp) given"), std::string::npos);
    const std::string top = Row(html, "top-kernels-table", "&lt;script&gt;");
    EXPECT_NE(top.find(">10.000 us</td>"), std::string::npos) << top;
}

// Rows of CUDA graph launches: the counter table shows their launch and node (NA for an eager row, and for the
// node of a whole-graph row, whose sizes are NULL); without graph rows it has no such columns.
TEST(HtmlReport, CounterTableShowsGraphLaunchAndNode) {
    CsvFile csv = CsvFixture();
    csv.rows[1].graphLaunch = 3;
    csv.rows[1].graphNode = 42;
    DispatchRow whole = csv.rows[1];
    whole.method = "graph_whole__k3_CPU";
    whole.executionOrder = 3;
    whole.graphLaunch = 4;
    whole.graphNode.reset();
    whole.globalWorkSize = whole.workGroupSize = WorkSize::Unspecified();
    csv.rows.push_back(whole);
    csv.hasGraphColumns = true;
    const std::string html = WriteHtmlReport(BuildReport(ParseReportInputs({{"fixture.csv", WriteCsv(csv)}})));
    EXPECT_EQ(HtmlProblem(html), "");
    EXPECT_NE(html.find("<th>Time</th><th>Graph launch</th><th>Graph node</th><th>GPUTime</th>"), std::string::npos);
    const std::string node = Row(html, "counters-table", ">vector_add__k2_CPU<");
    EXPECT_NE(node.find(">3</td><td class=\"num\" data-sort=\"42.000\">42</td>"), std::string::npos) << node;
    const std::string eager = Row(html, "counters-table", "__k1_CPU<");
    EXPECT_NE(eager.find("<td>NA</td><td>NA</td>"), std::string::npos) << eager;
    const std::string graph = Row(html, "counters-table", ">graph_whole__k3_CPU<");
    EXPECT_NE(graph.find(">NULL</td><td class=\"code\">NULL</td>"), std::string::npos) << graph;
    EXPECT_NE(graph.find(">4</td><td>NA</td>"), std::string::npos) << graph;

    const std::string plain = WriteHtmlReport(BuildReport(ParseReportInputs({{"fixture.csv", WriteCsv(CsvFixture())}})));
    EXPECT_EQ(plain.find("Graph launch"), std::string::npos);
}

TEST(HtmlReport, ReaderProblemsAreShownWithTheirLines) {
    std::string text = WriteAtp(OpenClFixture());
    text.insert(text.find("=====ocl Timestamp Output====="), "not an API line\n");
    const ReportInputs inputs = ParseReportInputs({{"broken.atp", text}});
    ASSERT_FALSE(inputs.problems.empty());
    const std::string html = WriteHtmlReport(BuildReport(inputs));
    EXPECT_EQ(HtmlProblem(html), "");
    EXPECT_NE(html.find("id=\"problems\""), std::string::npos);
    EXPECT_NE(html.find(HtmlEscape(FormatProblem(inputs.problems[0]))), std::string::npos);
}

TEST(HtmlReport, CudaTrace) {
    const ReportInputs inputs = ParseReportInputs({{"cuda.atp", WriteAtp(CudaFixture())}});
    ASSERT_TRUE(inputs.problems.empty()) << FormatProblem(inputs.problems[0]);
    const std::string html = WriteHtmlReport(BuildReport(inputs));
    EXPECT_EQ(HtmlProblem(html), "");
    const std::string launch = Row(html, "api-table-cuda", ">cudaDeviceSynchronize<");
    EXPECT_NE(launch.find(">2</td>"), std::string::npos) << launch;
    const std::string kernel = Row(html, "kernel-table", ">_Z6vecAddPfS_S_i<");
    EXPECT_NE(kernel.find(">2.500 us</td>"), std::string::npos) << kernel;
    EXPECT_NE(html.find("stream 7"), std::string::npos);
    EXPECT_NE(html.find("CUDA: 11 calls on 1 thread"), std::string::npos);
}

TEST(HtmlCheck, CatchesWhatItShould) {
    EXPECT_EQ(HtmlProblem("<p>a &amp; b</p>"), "");
    EXPECT_NE(HtmlProblem("<p>a & b</p>"), "");
    EXPECT_NE(HtmlProblem("<p><b>x</p></b>"), "");
    EXPECT_NE(HtmlProblem("<p title=\"<x>\">x</p>"), "");
    EXPECT_NE(HtmlProblem("<script>var s = '</script>';</script>"), "");
    EXPECT_NE(HtmlProblem("<div>"), "");
}

}  // namespace
}  // namespace gpaprof::report
