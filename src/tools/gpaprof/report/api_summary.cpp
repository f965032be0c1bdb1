#include "tools/gpaprof/report/api_summary.h"

#include <algorithm>
#include <map>
#include <set>

#include "tools/gpaprof/report/call_outcome.h"

namespace gpaprof::report {

std::vector<ApiSummary> SummarizeApis(const Timeline& timeline) {
    std::vector<ApiSummary> summaries;
    std::vector<std::map<std::string, ApiFunctionStats>> functions;
    std::vector<std::set<uint64_t>> threads;
    for (const HostCall& host : timeline.calls) {
        size_t slot = 0;
        while (slot < summaries.size() && summaries[slot].api != host.api) ++slot;
        if (slot == summaries.size()) {
            summaries.push_back(ApiSummary{});
            summaries.back().api = host.api;
            functions.emplace_back();
            threads.emplace_back();
        }
        ApiFunctionStats& stats = functions[slot][host.call->name];
        const uint64_t duration = host.duration();
        if (stats.calls == 0) {
            stats.name = host.call->name;
            stats.minNs = duration;
            stats.maxNs = duration;
        }
        ++stats.calls;
        stats.totalNs += duration;
        stats.minNs = std::min(stats.minNs, duration);
        stats.maxNs = std::max(stats.maxNs, duration);
        if (ClassifyCall(host.api, *host.call).failed) ++stats.failures;
        threads[slot].insert(host.threadId);
    }
    for (size_t slot = 0; slot < summaries.size(); ++slot) {
        ApiSummary& summary = summaries[slot];
        summary.threads = threads[slot].size();
        for (auto& [name, stats] : functions[slot]) {
            summary.calls += stats.calls;
            summary.failures += stats.failures;
            summary.totalNs += stats.totalNs;
            summary.functions.push_back(stats);
        }
        for (ApiFunctionStats& stats : summary.functions) {
            stats.averageNs = static_cast<double>(stats.totalNs) / static_cast<double>(stats.calls);
            stats.sharePercent =
                summary.totalNs ? 100.0 * static_cast<double>(stats.totalNs) / static_cast<double>(summary.totalNs) : 0.0;
        }
        std::stable_sort(summary.functions.begin(), summary.functions.end(),
                         [](const ApiFunctionStats& a, const ApiFunctionStats& b) { return a.totalNs > b.totalNs; });
    }
    return summaries;
}

}  // namespace gpaprof::report
