#include "tools/gpaprof/report/lane_packing.h"

#include <algorithm>
#include <numeric>

namespace gpaprof::report {

std::vector<size_t> PackLanes(const std::vector<Interval>& intervals, bool allowNesting) {
    std::vector<size_t> order(intervals.size());
    std::iota(order.begin(), order.end(), size_t{0});
    // Longer first among equal starts, so that a parent is placed before the children it contains.
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        if (intervals[a].start != intervals[b].start) return intervals[a].start < intervals[b].start;
        return intervals[a].end > intervals[b].end;
    });
    std::vector<std::vector<uint64_t>> openEnds;  // per lane: ends of the intervals still open, innermost last
    std::vector<size_t> lanes(intervals.size(), 0);
    for (size_t index : order) {
        const Interval& interval = intervals[index];
        const uint64_t end = std::max(interval.start, interval.end);
        size_t lane = 0;
        for (; lane < openEnds.size(); ++lane) {
            std::vector<uint64_t>& open = openEnds[lane];
            while (!open.empty() && open.back() <= interval.start) open.pop_back();
            if (open.empty() || (allowNesting && end <= open.back())) break;
        }
        if (lane == openEnds.size()) openEnds.emplace_back();
        openEnds[lane].push_back(end);
        lanes[index] = lane;
    }
    return lanes;
}

}  // namespace gpaprof::report
