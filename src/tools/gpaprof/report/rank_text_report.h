// The cross-rank report as text for a terminal: the per-rank table, the stragglers, the top kernels over all
// ranks with their spread, how the clocks were aligned, and the files that could not be read and why.
#pragma once

#include <string>

#include "tools/gpaprof/report/rank_report.h"

namespace gpaprof::report {

std::string WriteRankTextSummary(const CrossRankReport& report);

}  // namespace gpaprof::report
