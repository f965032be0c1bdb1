#include "tools/gpaprof/report/rank_clock_alignment.h"

#include <algorithm>
#include <cmath>

#include "tools/gpaprof/report/format_units.h"

namespace gpaprof::report {
namespace {

struct Machine {
    std::string clockId;
    std::string host;
    std::vector<size_t> rows;
};

std::string Describe(const Machine& machine, const std::vector<RankRow>& rows) {
    std::string name = machine.clockId.empty() ? std::string("files without ClockId=")
                                               : "machine " + (machine.host.empty() ? machine.clockId : machine.host);
    name += " (" + std::to_string(machine.rows.size()) + (machine.rows.size() == 1 ? " file: " : " files: ");
    name += rows[machine.rows.front()].Label();
    if (machine.rows.size() > 1) name += " ... " + rows[machine.rows.back()].Label();
    return name + ")";
}

std::optional<double> MedianOf(const Machine& machine, const std::vector<RankRow>& rows, bool communication) {
    std::vector<double> values;
    for (size_t r : machine.rows) {
        if (communication && rows[r].firstCommunicationEnd) values.push_back(static_cast<double>(*rows[r].firstCommunicationEnd));
        if (!communication && (rows[r].begin || rows[r].end)) values.push_back(static_cast<double>(rows[r].begin));
    }
    if (values.empty()) return std::nullopt;
    return Median(std::move(values));
}

std::string Signed(int64_t ns) {
    return (ns < 0 ? "-" : "+") + FormatDuration(std::fabs(static_cast<double>(ns)));
}

}  // namespace

std::optional<ClockAlignment> ParseClockAlignment(std::string_view text) {
    if (text == "auto") return ClockAlignment::Auto;
    if (text == "none") return ClockAlignment::None;
    if (text == "start") return ClockAlignment::Start;
    return std::nullopt;
}

const char* ClockAlignmentName(ClockAlignment alignment) {
    switch (alignment) {
        case ClockAlignment::Auto: return "auto";
        case ClockAlignment::None: return "none";
        case ClockAlignment::Start: return "start";
    }
    return "auto";
}

RankClocks AlignRankClocks(const std::vector<RankRow>& rows, ClockAlignment alignment) {
    RankClocks clocks;
    clocks.shiftNs.assign(rows.size(), 0);
    if (rows.empty()) return clocks;
    if (alignment == ClockAlignment::None) {
        clocks.notes.push_back("times as recorded (--align none)");
        return clocks;
    }
    if (alignment == ClockAlignment::Start) {
        uint64_t earliest = 0;
        bool any = false;
        for (const RankRow& row : rows) {
            if (!row.begin && !row.end) continue;
            earliest = any ? std::min(earliest, row.begin) : row.begin;
            any = true;
        }
        for (size_t r = 0; r < rows.size(); ++r) {
            if (rows[r].begin || rows[r].end) clocks.shiftNs[r] = static_cast<int64_t>(earliest) - static_cast<int64_t>(rows[r].begin);
        }
        clocks.notes.push_back("each rank shifted so that its first recorded time is the earliest rank's (--align start)");
        return clocks;
    }

    std::vector<Machine> machines;
    for (size_t r = 0; r < rows.size(); ++r) {
        auto it = std::find_if(machines.begin(), machines.end(),
                               [&](const Machine& m) { return m.clockId == rows[r].clockId; });
        if (it == machines.end()) {
            machines.push_back(Machine{rows[r].clockId, rows[r].host, {}});
            it = machines.end() - 1;
        }
        it->rows.push_back(r);
    }
    if (machines.size() == 1) {
        clocks.notes.push_back(machines[0].clockId.empty()
                                   ? "the files do not say their machine (no ClockId= line): taken as one machine, "
                                     "times as recorded"
                                   : "one machine's clock (ClockId " + machines[0].clockId + "): times as recorded");
        return clocks;
    }
    const Machine& reference = machines[0];
    clocks.notes.push_back(Describe(reference, rows) + ": times as recorded, the others aligned to it");
    for (size_t m = 1; m < machines.size(); ++m) {
        const Machine& machine = machines[m];
        std::optional<double> ours = MedianOf(machine, rows, true), theirs = MedianOf(reference, rows, true);
        const char* how = "the end of its ranks' first communication kernel (median)";
        if (!ours || !theirs) {
            ours = MedianOf(machine, rows, false);
            theirs = MedianOf(reference, rows, false);
            how = "its ranks' first recorded time (median; no communication kernel on both machines)";
        }
        const int64_t shift = ours && theirs ? static_cast<int64_t>(std::llround(*theirs - *ours)) : 0;
        for (size_t r : machine.rows) clocks.shiftNs[r] = shift;
        clocks.notes.push_back(Describe(machine, rows) + ": shifted " + Signed(shift) + " to meet the first at " + how);
    }
    return clocks;
}

}  // namespace gpaprof::report
