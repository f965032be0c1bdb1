#include "tools/gpaprof/report/html_report.h"

#include <algorithm>
#include <map>
#include <optional>

#include "tools/gpaprof/files/csv_file.h"
#include "tools/gpaprof/report/call_outcome.h"
#include "tools/gpaprof/report/format_units.h"
#include "tools/gpaprof/report/html_assets.h"
#include "tools/gpaprof/report/html_chart_data.h"
#include "tools/gpaprof/report/json_writer.h"
#include "tools/gpaprof/report/lane_packing.h"
#include "tools/gpaprof/report/marker_summary.h"
#include "tools/gpaprof/report/pm_kernel_windows_views.h"
#include "tools/gpaprof/report/utf8_text.h"

namespace gpaprof::report {

using html_charts::BarChartData;
using html_charts::TimelineData;

namespace {

struct Cell {
    std::string html;              // already escaped
    std::optional<double> sortKey;  // numeric cells sort by this
    bool code = false;
};

Cell Text(const std::string& text) { return Cell{HtmlEscape(text), std::nullopt, false}; }
Cell Code(const std::string& text) { return Cell{HtmlEscape(text), std::nullopt, true}; }
Cell Count(uint64_t value) { return Cell{std::to_string(value), static_cast<double>(value), false}; }
Cell Duration(double ns) { return Cell{HtmlEscape(FormatDuration(ns)), ns, false}; }
Cell Bytes(uint64_t bytes) { return Cell{HtmlEscape(FormatBytes(bytes)), static_cast<double>(bytes), false}; }
Cell Percent(double value) { return Cell{FormatDecimal(value, 1) + " %", value, false}; }
Cell Bandwidth(double gbps) { return Cell{FormatDecimal(gbps, 2) + " GB/s", gbps, false}; }
Cell Optional(const std::optional<uint64_t>& value) { return value ? Count(*value) : Text("NA"); }

std::string SizeList(const std::vector<uint64_t>& sizes) {
    if (sizes.empty()) return "NULL";
    std::string text = "{";
    for (size_t i = 0; i < sizes.size(); ++i) text += (i ? "," : "") + std::to_string(sizes[i]);
    return text + "}";
}

class Page {
public:
    void Raw(const std::string& html) { html_ += html; }
    void Line(const std::string& html) {
        html_ += html;
        html_ += '\n';
    }
    void Heading(int level, const std::string& text) {
        Line("<h" + std::to_string(level) + ">" + HtmlEscape(text) + "</h" + std::to_string(level) + ">");
    }
    void Help(const std::string& text) { Line("<p class=\"help\">" + HtmlEscape(text) + "</p>"); }

    // numeric[i]: column i holds numbers (right-aligned, sorted by value).
    void Table(const std::string& id, const std::vector<std::string>& headers, const std::vector<std::vector<Cell>>& rows) {
        Line("<table class=\"data sortable\" id=\"" + HtmlEscape(id) + "\">");
        Raw("<thead><tr>");
        for (const std::string& header : headers) Raw("<th>" + HtmlEscape(header) + "</th>");
        Line("</tr></thead>");
        Line("<tbody>");
        for (const std::vector<Cell>& row : rows) {
            Raw("<tr>");
            for (const Cell& cell : row) {
                if (cell.sortKey) {
                    Raw("<td class=\"num\" data-sort=\"" + FormatDecimal(*cell.sortKey, 3) + "\">" + cell.html + "</td>");
                } else {
                    Raw(std::string(cell.code ? "<td class=\"code\">" : "<td>") + cell.html + "</td>");
                }
            }
            Line("</tr>");
        }
        Line("</tbody></table>");
    }

    std::string Take() { return std::move(html_); }

private:
    std::string html_;
};

void KeyValueTable(Page* page, const std::string& id, const std::vector<std::pair<std::string, std::string>>& rows) {
    page->Line("<table class=\"data\" id=\"" + id + "\"><tbody>");
    for (const auto& [key, value] : rows) {
        page->Line("<tr><th>" + HtmlEscape(key) + "</th><td class=\"code\">" + HtmlEscape(value) + "</td></tr>");
    }
    page->Line("</tbody></table>");
}

// ---- sections

void SessionSection(Page* page, const Report& report) {
    const SessionInfo& session = report.session;
    page->Line("<section id=\"session\">");
    page->Heading(2, "Session");
    std::vector<std::pair<std::string, std::string>> rows = {
        {"Application", session.application},     {"Arguments", session.applicationArgs},
        {"Working directory", session.workingDirectory}, {"Session name", session.displayName},
        {"Profiler version", session.profilerVersion}, {"OS", session.osVersion},
    };
    const ReportInputs& inputs = *report.inputs;
    if (inputs.atpPath) rows.emplace_back("Trace file", *inputs.atpPath);
    if (inputs.csvPath) rows.emplace_back("Counter file", *inputs.csvPath);
    if (inputs.occupancyPath) rows.emplace_back("Occupancy file", *inputs.occupancyPath);
    if (inputs.pmSamplingPath) rows.emplace_back("PM sampling file", *inputs.pmSamplingPath);
    KeyValueTable(page, "session-table", rows);
    if (!session.devices.empty()) {
        std::vector<std::vector<Cell>> devices;
        for (const DeviceHeader& device : session.devices) {
            devices.push_back({Text(device.name), Text(device.platformVendor), Text(device.platformName),
                               Text(device.platformVersion), Text(device.driverVersion), Text(device.runtimeVersion)});
        }
        page->Table("devices-table", {"Device", "Platform vendor", "Platform", "Platform version", "Driver", "Runtime"},
                    devices);
    }
    page->Line("</section>");
}

void ProblemsSection(Page* page, const Report& report) {
    const ReportInputs& inputs = *report.inputs;
    if (inputs.problems.empty() && report.notes.empty()) return;
    page->Line("<section id=\"problems\">");
    page->Heading(2, "Problems and notes");
    if (!inputs.problems.empty()) {
        page->Help("The readers reported these problems; the report shows what could be read.");
        page->Line("<ul class=\"problems\">");
        for (const InputProblem& problem : inputs.problems) page->Line("<li>" + HtmlEscape(FormatProblem(problem)) + "</li>");
        page->Line("</ul>");
    }
    if (!report.notes.empty()) {
        page->Line("<ul class=\"notes\">");
        for (const std::string& note : report.notes) page->Line("<li class=\"note\">" + HtmlEscape(note) + "</li>");
        page->Line("</ul>");
    }
    page->Line("</section>");
}

void OverviewSection(Page* page, const Report& report) {
    uint64_t apiCalls = 0, apiNs = 0, failures = 0;
    for (const ApiSummary& api : report.apis) {
        apiCalls += api.calls;
        apiNs += api.totalNs;
        failures += api.failures;
    }
    uint64_t findings = 0;
    for (const CheckResult& check : report.checks) findings += check.status == CheckStatus::Fired ? 1 : 0;
    auto card = [&](const std::string& id, const std::string& value, const std::string& label) {
        page->Line("<div class=\"card\" id=\"card-" + id + "\"><div class=\"value\">" + HtmlEscape(value) +
                   "</div><div class=\"label\">" + HtmlEscape(label) + "</div></div>");
    };
    page->Line("<section id=\"overview\">");
    page->Heading(2, "Overview");
    page->Line("<div class=\"cards\">");
    if (report.inputs->atp) {
        card("duration", FormatDuration(static_cast<double>(report.timeline.end - report.timeline.begin)),
             "traced time, first to last event");
        card("api-calls", std::to_string(apiCalls), "API calls (" + FormatDuration(static_cast<double>(apiNs)) + ")");
        card("failed-calls", std::to_string(failures), "failed API calls");
    }
    card("kernels", std::to_string(report.kernels.dispatches),
         "kernel dispatches (" + FormatDuration(static_cast<double>(report.kernels.totalNs)) + " on the device)");
    if (report.inputs->atp) {
        card("transfers", std::to_string(report.transfers.transfers),
             "data transfers (" + FormatBytes(report.transfers.bytes) + ")");
        card("checks", std::to_string(findings) + " of " + std::to_string(report.checks.size()),
             "best-practice checks that fired");
    }
    page->Line("</div></section>");
}

void TimelineSection(Page* page, const std::string& note, bool samples) {
    page->Line("<section id=\"timeline\">");
    page->Heading(2, "Timeline");
    page->Help("Host threads (API calls, perf markers) and device queues (kernels, transfers, other commands), from "
               "the first to the last event. Wheel: zoom; drag: pan; double-click: whole trace. Hover for details.");
    if (samples) {
        page->Help("Under them, one lane per device and metric of the PM samples (.pmsampling.csv), on the same time "
                   "axis: each bar as high as the sample's value against the lane's top (100 % for percent metrics, "
                   "the largest value otherwise). No bar: NA. Grey: gpaprof replaying kernels (-p), not the "
                   "application's work. Red: samples before it were lost. Where a lane has more samples than the "
                   "page draws, neighbours are drawn as their mean (the tooltip says of how many).");
    }
    if (!note.empty()) page->Line("<p class=\"note\">" + HtmlEscape(note) + "</p>");
    page->Line("<div class=\"legend\"><span><i style=\"background:#4c78c8\"></i>API call</span>"
               "<span><i style=\"background:#d23b30\"></i>failed API call</span>"
               "<span><i style=\"background:#8e63c7\"></i>perf marker</span>"
               "<span><i style=\"background:#e8833a\"></i>kernel</span>"
               "<span><i style=\"background:#3fa34d\"></i>data transfer</span>"
               "<span><i style=\"background:#9aa3b2\"></i>other command</span>" +
               std::string(samples ? "<span><i style=\"background:#2a9d8f\"></i>PM sample</span>"
                                     "<span><i style=\"background:#b8bec8\"></i>PM sample in a gpaprof replay</span>"
                                     "<span><i style=\"background:#d23b30\"></i>PM sample after lost ones</span>"
                                   : "") +
               "</div>");
    page->Line("<div class=\"chart\" id=\"timeline-chart\" data-chart=\"timeline\">"
               "<p class=\"note\">The timeline is drawn by the page's script.</p></div>");
    page->Line("<div id=\"timeline-tip\"></div>");
    page->Line("</section>");
}

void ApiSection(Page* page, const Report& report) {
    page->Line("<section id=\"api-summary\">");
    page->Heading(2, "API summary");
    page->Help("Per API function: calls, host time spent in the call (total, average, minimum, maximum), failed "
               "calls, and share of the API's total call time.");
    if (report.apis.empty()) page->Line("<p class=\"note\">The trace has no API calls.</p>");
    for (const ApiSummary& api : report.apis) {
        page->Heading(3, ApiDisplayName(api.api) + ": " + std::to_string(api.calls) + " calls on " +
                             std::to_string(api.threads) + (api.threads == 1 ? " thread" : " threads") + ", " +
                             FormatDuration(static_cast<double>(api.totalNs)) + ", " + std::to_string(api.failures) +
                             " failed");
        page->Line("<div class=\"chart\" data-chart=\"api-" + HtmlEscape(api.api) + "\"></div>");
        std::vector<std::vector<Cell>> rows;
        for (const ApiFunctionStats& f : api.functions) {
            rows.push_back({Code(f.name), Count(f.calls), Duration(static_cast<double>(f.totalNs)), Duration(f.averageNs),
                            Duration(static_cast<double>(f.minNs)), Duration(static_cast<double>(f.maxNs)),
                            Count(f.failures), Percent(f.sharePercent)});
        }
        page->Table("api-table-" + api.api, {"Function", "Calls", "Total", "Average", "Min", "Max", "Failed", "Share"},
                    rows);
    }
    page->Line("</section>");
}

void ContextSection(Page* page, const Report& report) {
    page->Line("<section id=\"context-summary\">");
    page->Heading(2, "Context summary");
    page->Help("Per context and device: the queues (streams) used, kernels, data transfers and other commands.");
    std::vector<std::vector<Cell>> rows;
    for (const ContextStats& c : report.contexts) {
        std::string queues;
        for (const std::string& queue : c.queues) queues += (queues.empty() ? "" : ", ") + queue;
        rows.push_back({Text(ApiDisplayName(c.api)), Code(c.context), Text(c.device), Code(queues), Count(c.kernels),
                        Duration(static_cast<double>(c.kernelNs)), Count(c.transfers), Bytes(c.transferBytes),
                        Duration(static_cast<double>(c.transferNs)), Count(c.otherCommands), Count(c.incomplete)});
    }
    if (rows.empty()) page->Line("<p class=\"note\">The trace has no device commands.</p>");
    else {
        page->Table("context-table", {"API", "Context", "Device", "Queues", "Kernels", "Kernel time", "Transfers",
                                      "Bytes", "Transfer time", "Other commands", "Never completed"},
                    rows);
    }
    page->Line("</section>");
}

void MarkerSection(Page* page, const Report& report) {
    const std::vector<MarkerStats> markers = SummarizeMarkers(report.timeline);
    if (markers.empty()) return;
    page->Line("<section id=\"markers\">");
    page->Heading(2, "Perf markers");
    page->Help("The ranges the application marked (begin/end perf markers), over all threads.");
    std::vector<std::vector<Cell>> rows;
    for (const MarkerStats& m : markers) {
        rows.push_back({Code(m.name), Text(m.group), Count(m.count), Duration(static_cast<double>(m.totalNs)),
                        Duration(m.averageNs), Duration(static_cast<double>(m.minNs)),
                        Duration(static_cast<double>(m.maxNs)), Count(m.unclosed)});
    }
    page->Table("marker-table", {"Marker", "Group", "Count", "Total", "Average", "Min", "Max", "Without end"}, rows);
    page->Line("</section>");
}

std::vector<Cell> KernelRow(const KernelStats& k) {
    return {Code(k.name),   Text(k.device),   Count(k.calls),
            Duration(static_cast<double>(k.totalNs)), Duration(k.averageNs),
            Duration(static_cast<double>(k.minNs)),   Duration(static_cast<double>(k.maxNs)),
            Percent(k.sharePercent), k.occupancyPercent ? Percent(*k.occupancyPercent) : Text("NA")};
}

const std::vector<std::string> kKernelHeaders = {"Kernel", "Device", "Dispatches", "Total", "Average",
                                                 "Min",    "Max",    "Share",      "Occupancy"};

void KernelSections(Page* page, const Report& report) {
    const KernelSummary& kernels = report.kernels;
    page->Line("<section id=\"top-kernels\">");
    page->Heading(2, "Top 10 kernels");
    page->Help("The kernels with the most device time in all.");
    if (kernels.kernels.empty()) {
        page->Line("<p class=\"note\">No kernel dispatch with device times" +
                   (kernels.incomplete ? " (" + std::to_string(kernels.incomplete) + " without)" : std::string()) +
                   ".</p>");
    } else {
        page->Line("<div class=\"chart\" data-chart=\"top-kernels\"></div>");
        std::vector<std::vector<Cell>> rows;
        for (const KernelStats& k : TopKernels(kernels, 10)) rows.push_back(KernelRow(k));
        page->Table("top-kernels-table", kKernelHeaders, rows);
    }
    page->Line("</section>");

    page->Line("<section id=\"kernel-summary\">");
    page->Heading(2, "Kernel summary");
    page->Help(std::string("Every kernel: dispatches and device time") +
               (kernels.source == KernelSummary::Source::CounterFile ? " (from the .csv Time column)" : "") +
               "; occupancy is the average theoretical occupancy from the .occupancy file.");
    std::vector<std::vector<Cell>> rows;
    for (const KernelStats& k : kernels.kernels) rows.push_back(KernelRow(k));
    if (!rows.empty()) page->Table("kernel-table", kKernelHeaders, rows);
    if (kernels.incomplete) {
        page->Line("<p class=\"note\">" + std::to_string(kernels.incomplete) +
                   " dispatches have no device times (they never completed, or none were recorded) and are not "
                   "counted.</p>");
    }
    page->Line("</section>");
}

void KernelListSection(Page* page, const Report& report, const HtmlOptions& options) {
    const Timeline& timeline = report.timeline;
    std::vector<std::vector<Cell>> rows;
    size_t total = 0;
    for (const DeviceActivity& activity : timeline.activities) {
        if (activity.kind != ActivityKind::Kernel) continue;
        ++total;
        if (rows.size() >= options.maxTableRows) continue;
        std::string where = "-";
        if (activity.hostCall) where = timeline.calls[*activity.hostCall].Where();
        rows.push_back({Count(total), Code(activity.name), Text(activity.device), Code(activity.queue), Text(where),
                        Code(SizeList(activity.globalSize)), Code(SizeList(activity.localSize)),
                        activity.completed ? Duration(static_cast<double>(activity.start - timeline.begin))
                                           : Text("never completed"),
                        activity.completed ? Duration(static_cast<double>(activity.duration())) : Text("-")});
    }
    if (rows.empty()) return;
    page->Line("<section id=\"kernel-list\">");
    page->Heading(2, "Kernel list");
    page->Help("Every kernel dispatch in device order, with its launch sizes.");
    page->Table("kernel-list-table",
                {"#", "Kernel", "Device", "Queue", "Enqueued by", "Global size", "Work-group size", "Start", "Duration"},
                rows);
    if (total > rows.size()) {
        page->Line("<p class=\"note\">First " + std::to_string(rows.size()) + " of " + std::to_string(total) +
                   " dispatches.</p>");
    }
    page->Line("</section>");
}

void TransferSection(Page* page, const Report& report) {
    const TransferSummary& transfers = report.transfers;
    page->Line("<section id=\"transfers\">");
    page->Heading(2, "Top 10 data transfers");
    page->Help("Bandwidth is bytes over device time (GB/s = 10^9 bytes per second).");
    if (!transfers.transfers) {
        page->Line("<p class=\"note\">The trace has no completed data transfer.</p></section>");
        return;
    }
    std::vector<std::vector<Cell>> totals;
    for (const DirectionTotals& d : transfers.directions) {
        totals.push_back({Text(d.direction), Count(d.transfers), Bytes(d.bytes), Duration(static_cast<double>(d.durationNs)),
                          Bandwidth(BandwidthGBps(d.bytes, d.durationNs))});
    }
    page->Table("transfer-totals-table", {"Direction", "Transfers", "Bytes", "Time", "Bandwidth"}, totals);
    auto records = [&](const std::string& id, const std::vector<TransferRecord>& list) {
        std::vector<std::vector<Cell>> rows;
        for (const TransferRecord& r : list) {
            std::string where = r.threadId ? "thread " + std::to_string(*r.threadId) + " call #" +
                                                 std::to_string(r.callIndex.value_or(0))
                                           : std::string("-");
            rows.push_back({Code(r.call.empty() ? r.command : r.call), Text(r.direction), Text(r.device), Code(r.queue),
                            Bytes(r.bytes), Duration(static_cast<double>(r.durationNs)), Bandwidth(r.bandwidthGBps),
                            Text(where)});
        }
        page->Table(id, {"Call", "Direction", "Device", "Queue", "Size", "Time", "Bandwidth", "Where"}, rows);
    };
    page->Heading(3, "Longest");
    records("transfers-longest-table", transfers.longest);
    page->Heading(3, "Largest");
    records("transfers-largest-table", transfers.largest);
    page->Line("</section>");
}

void PmSamplingSection(Page* page, const Report& report) {
    if (!report.inputs->pmSampling) return;
    const PmSamplingFile& file = *report.inputs->pmSampling;
    page->Line("<section id=\"pm-sampling\">");
    page->Heading(2, "PM sampling");
    page->Help("NVIDIA metrics sampled every " + FormatDuration(static_cast<double>(file.intervalNs)) +
               " per device (device-wide: other processes' work is in them too). Mean weighted by sample length; "
               "samples flagged replay (gpaprof -p replaying kernels) are left out of the numbers; NA is not 0.");
    for (const PmSamplingLeftOut& left : file.leftOut) {
        page->Line("<p class=\"note\">Not sampled: " + HtmlEscape(left.metric + ": " + left.reason) + "</p>");
    }
    std::vector<std::vector<Cell>> rows;
    for (const PmDeviceSummary& device : report.pmSampling) {
        for (const PmMetricSummary& metric : device.metrics) {
            auto value = [&](const std::optional<double>& v) {
                return v ? Cell{HtmlEscape(FormatMetricValue(*v, metric.percent)), *v, false} : Text("NA");
            };
            Cell above = Text("-");
            if (metric.above50Ns && metric.sampledNs) {
                above = Percent(100.0 * static_cast<double>(*metric.above50Ns) / static_cast<double>(metric.sampledNs));
            }
            rows.push_back({Text(std::to_string(device.device.index) + ": " + device.device.name), Code(metric.metric),
                            Count(metric.samples), Count(metric.missing), value(metric.mean), value(metric.max), above,
                            Count(device.replaySamples), Count(device.droppedBefore)});
        }
    }
    page->Table("pm-sampling-table", {"Device", "Metric", "Samples", "NA", "Mean", "Max", "Time above 50 %",
                                      "Replay samples", "After lost samples"},
                rows);
    page->Line("</section>");
}

void CounterSection(Page* page, const Report& report, const HtmlOptions& options) {
    if (!report.inputs->csv || report.inputs->csv->rows.empty()) return;
    const CsvFile& csv = *report.inputs->csv;
    page->Line("<section id=\"counters\">");
    page->Heading(2, "Performance counters");
    page->Help("One row per kernel dispatch from the .csv file.");
    std::vector<std::string> headers = {"#", "Method", "Thread", "Global size", "Work-group size", "Time"};
    if (csv.hasGraphColumns) {
        headers.push_back("Graph launch");
        headers.push_back("Graph node");
    }
    for (const std::string& name : csv.counterNames) headers.push_back(name);
    auto optionalCount = [](const std::optional<uint64_t>& value) { return value ? Count(*value) : Text("NA"); };
    std::vector<std::vector<Cell>> rows;
    for (const DispatchRow& row : csv.rows) {
        if (rows.size() >= options.maxTableRows) break;
        std::vector<Cell> cells = {Count(row.executionOrder), Code(row.method), Count(row.threadId),
                                   Code(FormatGlobalWorkSize(row.globalWorkSize)), Code(FormatWorkGroupSize(row.workGroupSize)),
                                   row.timeMs ? Duration(*row.timeMs * 1e6) : Text("NA")};
        if (csv.hasGraphColumns) {
            cells.push_back(optionalCount(row.graphLaunch));
            cells.push_back(optionalCount(row.graphNode));
        }
        for (const CounterValue& counter : row.counters) {
            if (counter.kind == CounterValue::Kind::NotAvailable) cells.push_back(Text("NA"));
            else if (counter.kind == CounterValue::Kind::Integer) cells.push_back(Count(counter.integer));
            else cells.push_back(Cell{FormatDecimal(counter.number, 2), counter.number, false});
        }
        rows.push_back(std::move(cells));
    }
    page->Table("counters-table", headers, rows);
    if (csv.rows.size() > rows.size()) {
        page->Line("<p class=\"note\">First " + std::to_string(rows.size()) + " of " + std::to_string(csv.rows.size()) +
                   " rows.</p>");
    }
    page->Line("</section>");
}

void OccupancySection(Page* page, const Report& report, const HtmlOptions& options) {
    if (!report.inputs->occupancy || report.inputs->occupancy->rows.empty()) return;
    const OccupancyFile& occupancy = *report.inputs->occupancy;
    page->Line("<section id=\"occupancy\">");
    page->Heading(2, "Occupancy");
    page->Help("Theoretical occupancy per dispatch from the .occupancy file, with the resource that limits it.");
    std::vector<std::vector<Cell>> rows;
    for (const OccupancyRow& row : occupancy.rows) {
        if (rows.size() >= options.maxTableRows) break;
        rows.push_back({Code(row.kernelName), Text(row.deviceName), Count(row.threadId), Optional(row.computeUnits),
                        Optional(row.waveSize), Optional(row.workGroupSize), Optional(row.usedVgprs),
                        Optional(row.usedLds), row.occupancyPercent ? Percent(*row.occupancyPercent) : Text("NA"),
                        Text(OccupancyLimiterName(LimitingResource(row)))});
    }
    page->Table("occupancy-table", {"Kernel", "Device", "Thread", "Compute units", "Wavefront size", "Work-group size",
                                    "Registers used", "Local memory used", "Occupancy", "Limited by"},
                rows);
    page->Line("</section>");
}

void ChecksSection(Page* page, const Report& report) {
    page->Line("<section id=\"best-practices\">");
    page->Heading(2, "Best-practice checks");
    if (report.checks.empty()) {
        page->Line("<p class=\"note\">The checks need a trace (.atp).</p></section>");
        return;
    }
    page->Help("Each check states its rule; when it fires, the evidence names the calls (thread and call index in the "
               ".atp, the .csv CallIndex).");
    for (const CheckResult& check : report.checks) {
        const std::string state = check.status == CheckStatus::Fired     ? "fired"
                                  : check.status == CheckStatus::Passed ? "passed"
                                                                        : "undecidable";
        page->Line("<article class=\"check " + state + " " + SeverityName(check.severity) + "\" id=\"check-" +
                   HtmlEscape(check.id) + "\" data-status=\"" + state + "\">");
        std::string badge = check.status == CheckStatus::Fired
                                ? std::string(SeverityName(check.severity)) + ": " + std::to_string(check.occurrences)
                                : CheckStatusName(check.status);
        page->Line("<h3>" + HtmlEscape(check.title) + "<span class=\"badge\">" + HtmlEscape(badge) + "</span></h3>");
        page->Line("<p><strong>Rule:</strong> " + HtmlEscape(check.rule) + "</p>");
        if (!check.evidence.empty()) {
            page->Line("<ul class=\"evidence\">");
            for (const Evidence& evidence : check.evidence) page->Line("<li>" + HtmlEscape(evidence.text) + "</li>");
            page->Line("</ul>");
            if (check.evidence.size() == kMaxEvidence) {
                page->Line("<p class=\"note\">Only the first " + std::to_string(kMaxEvidence) + " findings are listed.</p>");
            }
            page->Line("<p><strong>What to do:</strong> " + HtmlEscape(check.advice) + "</p>");
        }
        for (const std::string& note : check.notes) page->Line("<p class=\"note\">" + HtmlEscape(note) + "</p>");
        page->Line("</article>");
    }
    page->Line("</section>");
}

}  // namespace

std::string WriteHtmlReport(const Report& report, const HtmlOptions& options) {
    const bool trace = report.inputs->atp.has_value();
    const bool samples = report.inputs->pmSampling && !report.inputs->pmSampling->rows.empty();
    // Chart data first: the timeline note goes into the page.
    JsonWriter json(/*scriptSafe=*/true);
    std::string timelineNote;
    json.BeginObject().Key("charts").BeginObject();
    if (trace || samples) TimelineData(&json, report, options, &timelineNote);
    for (const ApiSummary& api : report.apis) {
        std::vector<std::pair<std::string, double>> bars;
        for (size_t i = 0; i < api.functions.size() && i < 10; ++i) {
            bars.emplace_back(api.functions[i].name, static_cast<double>(api.functions[i].totalNs));
        }
        BarChartData(&json, "api-" + api.api, "ns", bars);
    }
    if (!report.kernels.kernels.empty()) {
        std::vector<std::pair<std::string, double>> bars;
        for (const KernelStats& k : TopKernels(report.kernels, 10)) bars.emplace_back(k.name, static_cast<double>(k.totalNs));
        BarChartData(&json, "top-kernels", "ns", bars);
    }
    json.EndObject().EndObject();

    Page page;
    page.Line("<!DOCTYPE html>");
    page.Line("<html lang=\"en\"><head><meta charset=\"utf-8\">");
    // Nothing may be loaded from anywhere: the page is complete in itself.
    page.Line("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
              "script-src 'unsafe-inline'; img-src data:\">");
    page.Line("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">");
    page.Line("<meta name=\"generator\" content=\"gpaprof-report\">");
    page.Line("<title>gpaprof report: " + HtmlEscape(report.title) + "</title>");
    page.Line(std::string("<style>") + kReportStyle + "</style>");
    page.Line("</head><body>");
    page.Line("<header><h1>gpaprof report: " + HtmlEscape(report.title) + "</h1>");
    page.Line("<div id=\"gpaprof-status\" data-state=\"static\">Charts and sorting need JavaScript; the tables below "
              "are complete without it.</div>");
    page.Raw("<nav>");
    std::vector<std::pair<std::string, std::string>> links = {{"session", "Session"}, {"overview", "Overview"}};
    if (trace || samples) links.emplace_back("timeline", "Timeline");
    if (trace) links.insert(links.end(), {{"api-summary", "API summary"}, {"context-summary", "Contexts"}});
    if (report.inputs->pmSampling) links.emplace_back("pm-sampling", "PM sampling");
    if (report.pmKernels) links.emplace_back("pm-kernels", "Kernels in PM samples");
    links.insert(links.end(), {{"top-kernels", "Top kernels"}, {"kernel-summary", "Kernels"}});
    if (trace) links.insert(links.end(), {{"transfers", "Data transfers"}, {"best-practices", "Best practices"}});
    for (const auto& [id, label] : links) page.Raw("<a href=\"#" + id + "\">" + HtmlEscape(label) + "</a>");
    page.Line("</nav></header>");
    page.Line("<main>");
    SessionSection(&page, report);
    ProblemsSection(&page, report);
    OverviewSection(&page, report);
    if (trace || samples) TimelineSection(&page, timelineNote, samples);
    PmSamplingSection(&page, report);
    if (report.pmKernels) page.Raw(WritePmKernelWindowsHtml(*report.pmKernels, report.timeline.begin));
    if (trace) {
        ApiSection(&page, report);
        ContextSection(&page, report);
        MarkerSection(&page, report);
    }
    KernelSections(&page, report);
    if (trace) {
        KernelListSection(&page, report, options);
        TransferSection(&page, report);
    }
    CounterSection(&page, report, options);
    OccupancySection(&page, report, options);
    if (trace) ChecksSection(&page, report);
    page.Line("</main>");
    page.Line("<script type=\"application/json\" id=\"gpaprof-data\">" + json.Take() + "</script>");
    page.Line(std::string("<script>") + kReportScript + "</script>");
    page.Line("</body></html>");
    return page.Take();
}

}  // namespace gpaprof::report
