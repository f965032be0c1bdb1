// What a sample of the PM block (VK_GPA_PERF_BLOCK_PM_SAMPLING_OPENGPA) returns. Pure; tested on the CPU.
//
// Cumulative samples: one 64-bit word per requested counter, as for every cumulative sample, holding the bits of
// an IEEE 754 double (as the KHR block's float counters: memcpy the word into a double). Counts (.sum: bytes) and
// rates over elapsed time (.pct_of_peak_sustained_elapsed) alike: a count integrated over a window is a fraction
// where the window cuts a sample (its share of the sample's time), so neither fits an integer. A value not known
// is the quiet NaN 0x7FF8000000000000, never 0.
//
// Trace samples: OpenGPA's SPM trace format (pm_sampling/trace_buffer.h) of the requested counters, in request
// order, over the PM samples that meet the sample's [begin, end); a value not known (or not finite) is NaN.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "pm_sampling/sample_window.h"
#include "pm_sampling/trace_buffer.h"

namespace ogpa::vklayer {

inline constexpr uint64_t kPmUnknownWord = 0x7FF8000000000000ull;

inline uint64_t EncodePmValue(const std::optional<double>& value) {
    if (!value || *value != *value) return kPmUnknownWord;
    return std::bit_cast<uint64_t>(*value);
}

inline double DecodePmWord(uint64_t word) { return std::bit_cast<double>(word); }

// The trace of `events` (indices into `metrics`, in request order) over `samples` (values in `metrics` order).
inline gpa::pm_sampling::TraceData PmTraceData(const std::vector<std::string>& metrics, const std::vector<uint32_t>& events,
                                               const std::vector<gpa::pm_sampling::WindowSample>& samples,
                                               uint64_t intervalNs) {
    gpa::pm_sampling::TraceData trace;
    trace.intervalNs = intervalNs;
    for (uint32_t event : events) trace.counters.push_back(metrics.at(event));
    for (const gpa::pm_sampling::WindowSample& sample : samples) {
        gpa::pm_sampling::TraceSample out;
        out.startNs = sample.startNs;
        out.endNs = sample.endNs;
        out.droppedBefore = sample.droppedBefore;
        for (uint32_t event : events) {
            const bool known = event < sample.values.size() && sample.values[event] && std::isfinite(*sample.values[event]);
            out.values.push_back(known ? *sample.values[event] : DecodePmWord(kPmUnknownWord));
        }
        trace.samples.push_back(std::move(out));
    }
    return trace;
}

}  // namespace ogpa::vklayer
