// Places intervals on as few lanes (tracks) as possible so that a track never shows two intervals that
// overlap. Used for queues whose commands overlap (out-of-order queues, several streams on one track) and
// for host threads, where a viewer requires slices on one track to nest properly.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace gpaprof::report {

struct Interval {
    uint64_t start = 0, end = 0;  // end >= start
};

// The lane of each interval (same order as the input). With allowNesting, an interval that lies inside
// another on a lane may share that lane (viewers draw it as a child); without, lanes hold disjoint
// intervals only. Intervals that merely touch (one ends where the next starts) share a lane.
std::vector<size_t> PackLanes(const std::vector<Interval>& intervals, bool allowNesting);

}  // namespace gpaprof::report
