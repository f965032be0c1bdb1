// When gpaprof ran kernels of its own (replay passes), on the clock of CUPTI's activity records: -t leaves out
// a kernel that started inside such a time and that no call of the application launched (while gpaprof
// replays, the application's kernels have finished and its new ones wait). Times are opened and closed in
// order; not thread-safe (the owner locks).
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace gpaprof::cuda {

class ReplayWindows {
public:
    void Open(uint64_t time) { windows_.emplace_back(time, UINT64_MAX); }
    void Close(uint64_t time) {
        if (!windows_.empty() && windows_.back().second == UINT64_MAX) windows_.back().second = time;
    }
    bool Contains(uint64_t time) const {
        if (time == 0) return false;  // a record without times says nothing
        // The last window that opened at or before `time`.
        auto after = std::upper_bound(windows_.begin(), windows_.end(), std::make_pair(time, UINT64_MAX));
        if (after == windows_.begin()) return false;
        return time < std::prev(after)->second;
    }

private:
    std::vector<std::pair<uint64_t, uint64_t>> windows_;  // [open, close), in time order
};

}  // namespace gpaprof::cuda
