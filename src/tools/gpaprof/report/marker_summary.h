// Perf-marker summary: per marker name and group, how often the application's marked ranges ran and how
// long (total, average, minimum, maximum), over all threads.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tools/gpaprof/report/timeline.h"

namespace gpaprof::report {

struct MarkerStats {
    std::string name;
    std::string group;
    uint64_t count = 0;
    uint64_t unclosed = 0;   // ranges without an end marker (counted up to the end of the trace)
    uint64_t totalNs = 0, minNs = 0, maxNs = 0;
    double averageNs = 0.0;
};

// By total time, longest first; ties by name.
std::vector<MarkerStats> SummarizeMarkers(const Timeline& timeline);

}  // namespace gpaprof::report
