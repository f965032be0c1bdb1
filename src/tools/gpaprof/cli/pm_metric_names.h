// gpaprof --pm-metrics: a name no chip can PM-sample stops gpaprof before the application starts (exit 2, the
// nearest names given), as --counters does (counter_names.h): a typo must not cost a run of a long job.
//
// Checked through CUPTI's host API, which needs no GPU, against the PM-sampling catalog of every chip it supports
// (the device's chip is not known before the run). A name may be sampled when, on at least one chip,
//   - its base metric (the part before the first '.') is in the chip's PM-sampling catalog,
//   - CUPTI takes the whole name (the submetric too) into a PM-sampling configuration,
// and the names a chip takes fit in PM sampling's one pass on at least one chip. The CUDA part plans again for the
// device's own chip (src/pm_sampling MakePlan) and writes what that chip lacks as LeftOut lines of the file.
#pragma once

#include <string>
#include <vector>

namespace gpaprof::cli {

struct PmMetricCheck {
    bool checked = false;  // false: CUPTI could not be used here; `note` says why and the names go to the run as given
    std::string note;
    std::string refusal;   // why gpaprof must stop; empty when every name may be sampled
    size_t chips = 0;      // chips whose catalogs were read
    double seconds = 0;    // what the check cost
};

PmMetricCheck CheckPmMetricNames(const std::vector<std::string>& names);

}  // namespace gpaprof::cli
