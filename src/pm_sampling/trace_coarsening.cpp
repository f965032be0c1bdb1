#include "pm_sampling/trace_coarsening.h"

#include <cmath>
#include <limits>
#include <vector>

#include "pm_sampling/sample_window.h"

namespace gpa::pm_sampling {

uint32_t SamplesPerBin(uint64_t requestedNs, uint64_t samplerIntervalNs) {
    if (samplerIntervalNs == 0 || requestedNs <= samplerIntervalNs) return 1;
    const double bins = std::round(static_cast<double>(requestedNs) / static_cast<double>(samplerIntervalNs));
    return bins >= 4294967295.0 ? 4294967295u : static_cast<uint32_t>(bins);
}

namespace {

constexpr double kNoValue = std::numeric_limits<double>::quiet_NaN();

// Joins `parts` (consecutive, no gap, none after lost ones but the first) into one sample.
TraceSample Join(const std::vector<const TraceSample*>& parts, const std::vector<Integration>& how) {
    TraceSample joined;
    joined.startNs = parts.front()->startNs;
    joined.endNs = parts.back()->endNs;
    joined.droppedBefore = parts.front()->droppedBefore;
    const double span = static_cast<double>(joined.endNs - joined.startNs);
    for (size_t m = 0; m < how.size(); ++m) {
        double total = 0;
        for (const TraceSample* part : parts) {
            const double value = part->values[m];
            const double weight = how[m] == Integration::TimeMean ? static_cast<double>(part->endNs - part->startNs) : 1.0;
            total += value * weight;  // NaN in any part makes the whole NaN: not known
        }
        if (parts.size() == 1) {
            joined.values.push_back(parts.front()->values[m]);
        } else if (how[m] == Integration::Sum) {
            joined.values.push_back(total);
        } else if (how[m] == Integration::TimeMean && span > 0) {
            joined.values.push_back(total / span);
        } else {
            joined.values.push_back(kNoValue);
        }
    }
    return joined;
}

}  // namespace

TraceData CoarsenTrace(const TraceData& trace, uint32_t samplesPerBin) {
    if (samplesPerBin <= 1) return trace;
    TraceData coarse;
    coarse.intervalNs = trace.intervalNs * samplesPerBin;
    coarse.counters = trace.counters;
    std::vector<Integration> how;
    for (const std::string& counter : trace.counters) how.push_back(IntegrationOf(counter));
    std::vector<const TraceSample*> bin;
    const auto flush = [&] {
        if (!bin.empty()) coarse.samples.push_back(Join(bin, how));
        bin.clear();
    };
    for (const TraceSample& sample : trace.samples) {
        // A new joined sample after lost samples or a gap of more than half an interval (not contiguous time).
        const bool breaks = !bin.empty() && (sample.droppedBefore || sample.startNs > bin.back()->endNs + trace.intervalNs / 2);
        if (breaks || bin.size() == samplesPerBin) flush();
        bin.push_back(&sample);
    }
    flush();
    return coarse;
}

}  // namespace gpa::pm_sampling
