#include "tools/gpaprof/report/rank_summary.h"

#include <algorithm>
#include <filesystem>

#include "tools/gpaprof/report/communication_kernels.h"

namespace gpaprof::report {

std::string RankRow::Label() const {
    if (rank) return "rank " + std::to_string(*rank);
    return std::filesystem::path(path).filename().string();
}

double Median(std::vector<double> values) {
    if (values.empty()) return 0.0;
    std::sort(values.begin(), values.end());
    const size_t n = values.size();
    return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2.0;
}

RankRow SummarizeRank(const Timeline& timeline, const SessionInfo& session) {
    RankRow row;
    row.host = session.hostName.value_or("");
    row.clockId = session.clockId.value_or("");
    row.begin = timeline.begin;
    row.end = timeline.end;
    for (const HostCall& call : timeline.calls) {
        ++row.apiCalls;
        row.apiNs += call.duration();
    }
    // Completed activities come first, by device start (timeline.h): one sweep finds the idle stretches.
    bool any = false;
    uint64_t busyUntil = 0;
    uint64_t earliestCommunication = 0;
    for (const DeviceActivity& activity : timeline.activities) {
        if (!activity.completed) {
            if (activity.kind == ActivityKind::Kernel) ++row.incomplete;
            continue;
        }
        if (!activity.device.empty() &&
            std::find(row.devices.begin(), row.devices.end(), activity.device) == row.devices.end()) {
            row.devices.push_back(activity.device);
        }
        if (!any) {
            any = true;
            row.deviceBegin = activity.start;
            busyUntil = activity.end;
        } else if (activity.start > busyUntil) {
            row.hostGapNs += activity.start - busyUntil;
        }
        busyUntil = std::max(busyUntil, activity.end);
        if (activity.kind != ActivityKind::Kernel) continue;
        const uint64_t duration = activity.duration();
        ++row.dispatches;
        row.kernelNs += duration;
        RankKernelTotal& total = row.kernels[activity.name];
        ++total.dispatches;
        total.ns += duration;
        if (IsCommunicationKernel(activity.name)) {
            ++row.communicationDispatches;
            row.communicationNs += duration;
            if (!row.firstCommunicationEnd || activity.start < earliestCommunication) {
                earliestCommunication = activity.start;
                row.firstCommunicationEnd = activity.end;
            }
        }
    }
    row.deviceEnd = any ? busyUntil : 0;
    if (row.devices.empty()) {
        for (const DeviceHeader& device : session.devices) row.devices.push_back(device.name);
    }
    return row;
}

StragglerVerdict FindStragglers(const std::vector<RankRow>& rows, double sharePercent) {
    StragglerVerdict verdict;
    verdict.sharePercent = sharePercent;
    verdict.standing.resize(rows.size());
    std::vector<double> compared;
    for (size_t i = 0; i < rows.size(); ++i) {
        verdict.standing[i].ownWorkNs = static_cast<double>(rows[i].ownWorkNs());
        if (rows[i].hasDeviceWork()) compared.push_back(verdict.standing[i].ownWorkNs);
    }
    verdict.ranksCompared = compared.size();
    verdict.medianOwnWorkNs = Median(compared);
    if (verdict.medianOwnWorkNs <= 0.0) return verdict;
    for (size_t i = 0; i < rows.size(); ++i) {
        if (!rows[i].hasDeviceWork()) continue;
        RankStanding& standing = verdict.standing[i];
        standing.aboveMedianPercent = 100.0 * (standing.ownWorkNs / verdict.medianOwnWorkNs - 1.0);
        // Compared as the rule reads (more than median + share), not through the rounded percentage.
        standing.straggler = standing.ownWorkNs > verdict.medianOwnWorkNs * (1.0 + sharePercent / 100.0);
        if (standing.straggler) verdict.stragglers.push_back(i);
    }
    std::stable_sort(verdict.stragglers.begin(), verdict.stragglers.end(), [&](size_t a, size_t b) {
        return verdict.standing[a].aboveMedianPercent > verdict.standing[b].aboveMedianPercent;
    });
    return verdict;
}

std::vector<KernelSpread> SpreadKernels(const std::vector<RankRow>& rows, size_t count) {
    std::map<std::string, KernelSpread> byName;
    std::map<std::string, std::vector<double>> perRank;
    for (size_t r = 0; r < rows.size(); ++r) {
        for (const auto& [name, total] : rows[r].kernels) {
            KernelSpread& spread = byName[name];
            if (spread.ranks == 0) {
                spread.name = name;
                spread.communication = IsCommunicationKernel(name);
                spread.minNs = spread.maxNs = total.ns;
                spread.minRow = spread.maxRow = r;
            }
            ++spread.ranks;
            spread.dispatches += total.dispatches;
            spread.totalNs += total.ns;
            if (total.ns < spread.minNs) {
                spread.minNs = total.ns;
                spread.minRow = r;
            }
            if (total.ns > spread.maxNs) {
                spread.maxNs = total.ns;
                spread.maxRow = r;
            }
            perRank[name].push_back(static_cast<double>(total.ns));
        }
    }
    std::vector<KernelSpread> spreads;
    for (auto& [name, spread] : byName) {
        spread.medianNs = Median(perRank[name]);
        spreads.push_back(std::move(spread));
    }
    std::stable_sort(spreads.begin(), spreads.end(),
                     [](const KernelSpread& a, const KernelSpread& b) { return a.totalNs > b.totalNs; });
    if (spreads.size() > count) spreads.resize(count);
    return spreads;
}

}  // namespace gpaprof::report
