// Putting several ranks' traces on one time axis. Every time in a .atp is on its machine's CLOCK_MONOTONIC
// (device times are mapped onto it, docs/profiler_files.md), so ranks of one machine already share a clock and
// ranks of different machines do not (each counts from its own boot). The ClockId= header line (the boot id)
// says which files share a clock.
//
//  - auto (the default): files with one ClockId keep their times. With several ClockIds, each machine after the
//    first (the one of the lowest rank) is shifted so that the median end of its ranks' first communication
//    kernel (the first collective: it ends on every rank at about the same moment) meets the first machine's;
//    without communication kernels on both, so that the medians of the ranks' first recorded times meet. Files
//    without ClockId count as one machine of their own.
//  - none: every time as recorded.
//  - start: each rank shifted so that its first recorded time is the earliest rank's (ranks compared from
//    their start, whatever their clocks).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tools/gpaprof/report/rank_summary.h"

namespace gpaprof::report {

enum class ClockAlignment { Auto, None, Start };

std::optional<ClockAlignment> ParseClockAlignment(std::string_view text);
const char* ClockAlignmentName(ClockAlignment alignment);

struct RankClocks {
    std::vector<int64_t> shiftNs;    // per row: added to each of its times
    std::vector<std::string> notes;  // how the clocks were aligned, one line per machine
};

RankClocks AlignRankClocks(const std::vector<RankRow>& rows, ClockAlignment alignment);

}  // namespace gpaprof::report
