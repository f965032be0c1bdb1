#include "tools/gpaprof/report/kernel_summary.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace gpaprof::report {
namespace {

void Add(std::map<std::pair<std::string, std::string>, KernelStats>* table, const std::string& name,
         const std::string& device, const std::string& api, uint64_t duration) {
    KernelStats& stats = (*table)[{name, device}];
    if (stats.calls == 0) {
        stats.name = name;
        stats.device = device;
        stats.api = api;
        stats.minNs = duration;
        stats.maxNs = duration;
    }
    ++stats.calls;
    stats.totalNs += duration;
    stats.minNs = std::min(stats.minNs, duration);
    stats.maxNs = std::max(stats.maxNs, duration);
}

}  // namespace

KernelSummary SummarizeKernels(const Timeline* timeline, const CsvFile* csv, const OccupancyFile* occupancy) {
    KernelSummary summary;
    std::map<std::pair<std::string, std::string>, KernelStats> table;
    bool traceHasKernels = false;
    if (timeline) {
        for (const DeviceActivity& activity : timeline->activities) {
            if (activity.kind != ActivityKind::Kernel) continue;
            traceHasKernels = true;
            if (!activity.completed) {
                ++summary.incomplete;
                continue;
            }
            Add(&table, activity.name, activity.device, activity.api, activity.duration());
        }
    }
    if (traceHasKernels) {
        summary.source = KernelSummary::Source::Trace;
    } else if (csv && !csv->rows.empty()) {
        summary.source = KernelSummary::Source::CounterFile;
        std::vector<std::string> deviceNames;
        for (const DeviceHeader& device : csv->session.devices) deviceNames.push_back(device.name);
        for (const DispatchRow& row : csv->rows) {
            std::optional<MethodName> method = MethodName::Parse(row.method, deviceNames);
            const std::string name = method ? method->kernel : row.method;
            const std::string device = method ? method->device : std::string();
            if (!row.timeMs) {
                ++summary.incomplete;
                continue;
            }
            // Clamped: a damaged file may hold any number, and converting one past 2^64 ns is undefined.
            const double ns = std::min(std::max(0.0, *row.timeMs * 1e6), 1.8e19);
            Add(&table, name, device, "", static_cast<uint64_t>(std::isnan(ns) ? 0.0 : std::round(ns)));
        }
    }
    for (auto& [key, stats] : table) {
        summary.dispatches += stats.calls;
        summary.totalNs += stats.totalNs;
        summary.kernels.push_back(stats);
    }
    for (KernelStats& stats : summary.kernels) {
        stats.averageNs = static_cast<double>(stats.totalNs) / static_cast<double>(stats.calls);
        stats.sharePercent =
            summary.totalNs ? 100.0 * static_cast<double>(stats.totalNs) / static_cast<double>(summary.totalNs) : 0.0;
        if (occupancy) {
            double sum = 0.0;
            size_t rows = 0;
            for (const OccupancyRow& row : occupancy->rows) {
                if (row.kernelName != stats.name || !row.occupancyPercent) continue;
                sum += *row.occupancyPercent;
                ++rows;
            }
            if (rows) stats.occupancyPercent = sum / static_cast<double>(rows);
        }
    }
    std::stable_sort(summary.kernels.begin(), summary.kernels.end(),
                     [](const KernelStats& a, const KernelStats& b) { return a.totalNs > b.totalNs; });
    return summary;
}

std::vector<KernelStats> TopKernels(const KernelSummary& summary, size_t count) {
    std::vector<KernelStats> top(summary.kernels.begin(),
                                 summary.kernels.begin() + static_cast<std::ptrdiff_t>(std::min(count, summary.kernels.size())));
    return top;
}

}  // namespace gpaprof::report
