#include <algorithm>

#include "tools/gpaprof/report/format_units.h"
#include "tools/gpaprof/report/pm_kernel_windows_views.h"
#include "tools/gpaprof/report/utf8_text.h"

namespace gpaprof::report {
namespace {

using gpa::pm_sampling::WindowQuality;

// The cells of html_report.cpp's tables: numbers right-aligned, sorted by data-sort.
std::string NumberCell(const std::string& text, double sortKey) {
    return "<td class=\"num\" data-sort=\"" + FormatDecimal(sortKey, 3) + "\">" + HtmlEscape(text) + "</td>";
}

}  // namespace

std::string WritePmKernelWindowsHtml(const PmKernelWindows& windows, uint64_t traceBegin) {
    const size_t shown = windows.kernels.size();
    std::string html = "<section id=\"pm-kernels\">\n<h2>Kernels as the PM samples saw them</h2>\n";
    html += "<p class=\"help\">" +
            HtmlEscape((windows.others ? "The " + std::to_string(shown) + " longest of " : std::string("All ")) +
                       std::to_string(shown + windows.others) + " kernels, each kernel's window integrated over its device's PM samples (docs/pm_sampling.md): "
                       ".sum metrics per second of the window (G = 10^9), rates averaged over it. Approximate: the "
                       "window is shorter than 4 sampling intervals; refused: samples are missing inside it, or "
                       "flagged replay (gpaprof's work), which are never used. Hover a quality for why.") +
            "</p>\n";
    for (const std::string& left : windows.notIntegrated) {
        html += "<p class=\"note\">Not integrated: " + HtmlEscape(left) + "</p>\n";
    }
    html += "<table class=\"data sortable\" id=\"pm-kernels-table\">\n<thead><tr>";
    for (const char* header : {"Kernel", "Device", "Start", "Duration", "Quality"}) html += std::string("<th>") + header + "</th>";
    for (const PmWindowMetric& metric : windows.metrics) html += "<th>" + HtmlEscape(PmKernelMetricHeading(metric)) + "</th>";
    html += "</tr></thead>\n<tbody>\n";
    for (const PmKernelWindow& kernel : windows.kernels) {
        const uint64_t start = kernel.startNs - std::min(traceBegin, kernel.startNs);
        html += "<tr><td class=\"code\" title=\"" + HtmlEscape(kernel.name) + "\">" +
                HtmlEscape(ShortKernelName(kernel.name)) + "</td>";
        html += "<td>" + HtmlEscape(std::to_string(kernel.deviceIndex) + ": " + kernel.device) + "</td>";
        html += NumberCell(FormatDuration(static_cast<double>(start)), static_cast<double>(start));
        html += NumberCell(FormatDuration(static_cast<double>(kernel.duration())), static_cast<double>(kernel.duration()));
        html += "<td class=\"quality-" + std::string(WindowQualityName(kernel.quality)) + "\"" +
                (kernel.why.empty() ? std::string() : " title=\"" + HtmlEscape(kernel.why) + "\"") + ">" +
                WindowQualityName(kernel.quality) + "</td>";
        for (size_t m = 0; m < windows.metrics.size(); ++m) {
            const std::string text = PmKernelValueText(windows, kernel, m);
            const std::optional<double>& value = kernel.values[m];
            if (kernel.quality != WindowQuality::Refused && value) {
                html += NumberCell(text, *value);
            } else {
                html += "<td" + (kernel.valueWhy[m].empty() ? std::string() : " title=\"" + HtmlEscape(kernel.valueWhy[m]) + "\"") +
                        ">" + HtmlEscape(text) + "</td>";
            }
        }
        html += "</tr>\n";
    }
    html += "</tbody></table>\n";
    if (windows.others) {
        html += "<p class=\"note\">And " + std::to_string(windows.others) + " other kernel" +
                (windows.others == 1 ? "" : "s") + ", shorter, not shown.</p>\n";
    }
    return html + "</section>\n";
}

}  // namespace gpaprof::report
