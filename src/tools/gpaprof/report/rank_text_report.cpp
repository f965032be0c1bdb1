#include "tools/gpaprof/report/rank_text_report.h"

#include <filesystem>

#include "tools/gpaprof/report/format_units.h"
#include "tools/gpaprof/report/text_report.h"

namespace gpaprof::report {
namespace {

std::string Ns(uint64_t ns) { return FormatDuration(static_cast<double>(ns)); }

std::string Percent(double value) { return (value > 0 ? "+" : "") + FormatDecimal(value, 1) + " %"; }

std::string FileName(const std::string& path) { return std::filesystem::path(path).filename().string(); }

// Kernel names run to hundreds of characters (mangled templates); the table keeps their start.
std::string Shortened(const std::string& name, size_t limit = 72) {
    return name.size() <= limit ? name : name.substr(0, limit - 3) + "...";
}

std::string Join(const std::vector<std::string>& items) {
    std::string text;
    for (const std::string& item : items) text += (text.empty() ? "" : ", ") + item;
    return text;
}

}  // namespace

std::string WriteRankTextSummary(const CrossRankReport& report) {
    const size_t read = report.rows.size();
    size_t unranked = 0;  // e.g. a launcher's own calls (torchrun's device query): listed, but not a rank
    for (const RankRow& row : report.rows) unranked += !row.rank;
    const size_t ranks = read - unranked;
    std::string text = "gpaprof report over " + std::to_string(ranks) + (ranks == 1 ? " rank" : " ranks") + ": " +
                       std::to_string(read) + " of " + std::to_string(report.filesFound) + " trace files read";
    if (unranked) text += " (" + std::to_string(unranked) + " without a rank)";
    if (!report.unreadable.empty()) text += ", " + std::to_string(report.unreadable.size()) + " input(s) could not be read";
    text += "\n";
    for (const std::string& note : report.clocks.notes) text += "clocks: " + note + "\n";
    for (const std::string& note : report.notes) text += "note: " + note + "\n";

    const StragglerVerdict& verdict = report.stragglers;
    text += "\nRanks (own work = compute + host gaps; host gaps: the device idle between its first and last work)\n";
    std::vector<std::vector<std::string>> rows = {{"rank", "file", "host", "device", "dispatches", "kernel time",
                                                   "communication", "compute", "host gaps", "API time", "own work",
                                                   "vs median", "straggler"}};
    for (size_t r = 0; r < report.rows.size(); ++r) {
        const RankRow& row = report.rows[r];
        const RankStanding& standing = verdict.standing[r];
        const bool compared = row.hasDeviceWork() && verdict.medianOwnWorkNs > 0.0;
        rows.push_back({row.rank ? std::to_string(*row.rank) : "-", FileName(row.path), row.host.empty() ? "-" : row.host,
                        row.devices.empty() ? "-" : Join(row.devices), std::to_string(row.dispatches), Ns(row.kernelNs),
                        Ns(row.communicationNs), Ns(row.computeNs()), Ns(row.hostGapNs), Ns(row.apiNs),
                        Ns(row.ownWorkNs()), compared ? Percent(standing.aboveMedianPercent) : "-",
                        standing.straggler ? "yes" : ""});
    }
    text += FormatColumns(rows);

    text += "\nStragglers: own work more than " + FormatDecimal(verdict.sharePercent, 1) + " % above the median (" +
            FormatDuration(verdict.medianOwnWorkNs) + " over " + std::to_string(verdict.ranksCompared) +
            " ranks with device work)\n";
    if (verdict.ranksCompared == 0) text += "  not decidable: no rank has device work\n";
    else if (verdict.stragglers.empty()) text += "  none\n";
    for (size_t r : verdict.stragglers) {
        const RankRow& row = report.rows[r];
        text += "  " + row.Label() + ": own work " + Ns(row.ownWorkNs()) + ", " +
                Percent(verdict.standing[r].aboveMedianPercent) + " (compute " + Ns(row.computeNs()) + ", host gaps " +
                Ns(row.hostGapNs) + "; communication " + Ns(row.communicationNs) + ")\n";
    }

    text += "\nTop kernels over all ranks (device time summed over the ranks; per rank: least, median, most)\n";
    if (report.topKernels.empty()) {
        text += "  none\n";
    } else {
        std::vector<std::vector<std::string>> kernels = {{"kernel", "ranks", "dispatches", "total", "least", "median",
                                                          "most", "least on", "most on"}};
        for (const KernelSpread& k : report.topKernels) {
            kernels.push_back({Shortened(k.name) + (k.communication ? " [comm]" : ""), std::to_string(k.ranks),
                               std::to_string(k.dispatches), Ns(k.totalNs), Ns(k.minNs), FormatDuration(k.medianNs),
                               Ns(k.maxNs), report.rows[k.minRow].Label(), report.rows[k.maxRow].Label()});
        }
        text += FormatColumns(kernels);
    }

    if (!report.unreadable.empty()) {
        text += "\nCould not be read\n";
        for (const InputProblem& problem : report.unreadable) text += "  " + FormatProblem(problem) + "\n";
    }
    return text;
}

}  // namespace gpaprof::report
