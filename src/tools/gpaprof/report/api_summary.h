// API summary: per API part (OpenCL, CUDA, ...), per function: calls, host time (total, average, minimum,
// maximum), failed calls and share of the part's API time.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tools/gpaprof/report/timeline.h"

namespace gpaprof::report {

struct ApiFunctionStats {
    std::string name;
    uint64_t calls = 0;
    uint64_t failures = 0;
    uint64_t totalNs = 0, minNs = 0, maxNs = 0;
    double averageNs = 0.0;
    double sharePercent = 0.0;  // of the part's total API time
};

struct ApiSummary {
    std::string api;            // part name: "ocl", "cuda", ...
    uint64_t calls = 0;
    uint64_t failures = 0;
    uint64_t totalNs = 0;
    uint64_t threads = 0;
    std::vector<ApiFunctionStats> functions;  // by total time, longest first; ties by name
};

// One summary per API part, in the order the parts first appear in the trace.
std::vector<ApiSummary> SummarizeApis(const Timeline& timeline);

}  // namespace gpaprof::report
