#include "tools/gpaprof/report/marker_summary.h"

#include <algorithm>
#include <map>

namespace gpaprof::report {

std::vector<MarkerStats> SummarizeMarkers(const Timeline& timeline) {
    std::map<std::pair<std::string, std::string>, MarkerStats> table;
    for (const MarkerSpan& span : timeline.markers) {
        MarkerStats& stats = table[{span.name, span.group}];
        const uint64_t duration = span.end - span.start;
        if (stats.count == 0) {
            stats.name = span.name;
            stats.group = span.group;
            stats.minNs = duration;
            stats.maxNs = duration;
        }
        ++stats.count;
        stats.unclosed += span.closed ? 0 : 1;
        stats.totalNs += duration;
        stats.minNs = std::min(stats.minNs, duration);
        stats.maxNs = std::max(stats.maxNs, duration);
    }
    std::vector<MarkerStats> markers;
    for (auto& [key, stats] : table) {
        stats.averageNs = static_cast<double>(stats.totalNs) / static_cast<double>(stats.count);
        markers.push_back(stats);
    }
    std::stable_sort(markers.begin(), markers.end(),
                     [](const MarkerStats& a, const MarkerStats& b) { return a.totalNs > b.totalNs; });
    return markers;
}

}  // namespace gpaprof::report
