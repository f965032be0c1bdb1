#include "tools/gpaprof/report/text_report.h"

#include <algorithm>

#include "tools/gpaprof/report/format_units.h"
#include "tools/gpaprof/report/pm_kernel_windows_views.h"

namespace gpaprof::report {
namespace {

std::string Ns(uint64_t ns) { return FormatDuration(static_cast<double>(ns)); }

}  // namespace

std::string FormatColumns(const std::vector<std::vector<std::string>>& rows) {
    std::vector<size_t> widths;
    for (const auto& row : rows) {
        widths.resize(std::max(widths.size(), row.size()), 0);
        for (size_t i = 0; i < row.size(); ++i) widths[i] = std::max(widths[i], row[i].size());
    }
    std::string text;
    for (const auto& row : rows) {
        std::string line = "  ";
        for (size_t i = 0; i < row.size(); ++i) {
            const std::string padding(widths[i] - row[i].size(), ' ');
            line += i == 0 ? row[i] + padding : padding + row[i];
            if (i + 1 < row.size()) line += "  ";
        }
        text += line + "\n";
    }
    return text;
}

std::string WriteTextSummary(const Report& report) {
    std::string text = "gpaprof report: " + report.title + "\n";
    if (!report.session.application.empty()) text += "application: " + report.session.application + "\n";
    for (const std::string& note : report.notes) text += "note: " + note + "\n";

    for (const ApiSummary& api : report.apis) {
        text += "\n" + ApiDisplayName(api.api) + " API summary: " + std::to_string(api.calls) + " calls, " +
                Ns(api.totalNs) + ", " + std::to_string(api.failures) + " failed\n";
        std::vector<std::vector<std::string>> rows = {{"function", "calls", "total", "average", "min", "max", "failed", "share"}};
        for (const ApiFunctionStats& f : api.functions) {
            rows.push_back({f.name, std::to_string(f.calls), Ns(f.totalNs), FormatDuration(f.averageNs), Ns(f.minNs),
                            Ns(f.maxNs), std::to_string(f.failures), FormatDecimal(f.sharePercent, 1) + " %"});
        }
        text += FormatColumns(rows);
    }

    text += "\nTop kernels (" + std::to_string(report.kernels.dispatches) + " dispatches, " +
            Ns(report.kernels.totalNs) + " on the device)\n";
    if (report.kernels.incomplete) {
        text += "  " + std::to_string(report.kernels.incomplete) +
                " dispatches have no device times (never completed, or none were recorded) and are not counted\n";
    }
    if (report.kernels.kernels.empty()) {
        text += "  none\n";
    } else {
        std::vector<std::vector<std::string>> rows = {{"kernel", "device", "dispatches", "total", "average", "share"}};
        for (const KernelStats& k : TopKernels(report.kernels, 10)) {
            rows.push_back({k.name, k.device, std::to_string(k.calls), Ns(k.totalNs), FormatDuration(k.averageNs),
                            FormatDecimal(k.sharePercent, 1) + " %"});
        }
        text += FormatColumns(rows);
    }

    if (report.inputs && report.inputs->pmSampling) text += WritePmSamplingText(*report.inputs->pmSampling, report.pmSampling);
    if (report.pmKernels) text += WritePmKernelWindowsText(*report.pmKernels, report.timeline.begin);

    if (report.inputs && report.inputs->atp) {
        text += "\nTop data transfers by time (" + std::to_string(report.transfers.transfers) + " transfers, " +
                FormatBytes(report.transfers.bytes) + ")\n";
        if (report.transfers.longest.empty()) {
            text += "  none\n";
        } else {
            std::vector<std::vector<std::string>> rows = {{"call", "direction", "size", "time", "bandwidth"}};
            for (const TransferRecord& r : report.transfers.longest) {
                rows.push_back({r.call.empty() ? r.command : r.call, r.direction, FormatBytes(r.bytes), Ns(r.durationNs),
                                FormatDecimal(r.bandwidthGBps, 2) + " GB/s"});
            }
            text += FormatColumns(rows);
        }
        text += "\nBest-practice checks\n";
        for (const CheckResult& check : report.checks) {
            text += "  [" + std::string(check.status == CheckStatus::Fired ? SeverityName(check.severity)
                                                                            : CheckStatusName(check.status)) +
                    "] " + check.title;
            if (check.status == CheckStatus::Fired) text += ": " + std::to_string(check.occurrences);
            text += "\n";
            for (const Evidence& evidence : check.evidence) text += "      " + evidence.text + "\n";
            for (const std::string& note : check.notes) text += "      note: " + note + "\n";
        }
    }
    return text;
}

}  // namespace gpaprof::report
