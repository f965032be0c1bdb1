// The PM samples of one device kept for a while, on the CPU's CLOCK_MONOTONIC, for the graphics APIs' samples to
// take their windows from (DeviceSampling keeps one per GPU). Pure bookkeeping on samples: no GPU, tested on the CPU.
//
// A GPA sample's counters are asked for after its GPU work has ended, often much later (GPA_IsSampleReady polls,
// results are read at the end of a frame or of the session): the history keeps `retentionNs` of samples behind
// the newest, and a window older than that is refused with the reason, never filled in.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "pm_sampling/sample_window.h"

namespace gpa::pm_sampling {

// A sample taken after one that ended at lastEndNs (0: none), both converted to CLOCK_MONOTONIC: false when it is out of
// order (empty, or ending by then: left out, never made up); a start before lastEndNs by at most half an interval
// (the jitter of the clock offsets the two conversions used) is moved to lastEndNs, so that the two meet as they do
// on the GPU's clock. A larger overlap is out of order too.
bool JoinToPrevious(uint64_t lastEndNs, uint64_t intervalNs, WindowSample* sample);

class SampleHistory {
public:
    SampleHistory(std::vector<std::string> metrics, uint64_t intervalNs, uint64_t retentionNs);

    const std::vector<std::string>& metrics() const { return metrics_; }
    uint64_t intervalNs() const { return intervalNs_; }

    // Appends samples in time order (each sample's values in metrics() order); forgets those that ended more than
    // retentionNs before the newest one's end. A sample that starts before the newest kept ends (out of order,
    // overlapping) or ends before it starts is left out.
    void Append(std::vector<WindowSample> samples);
    // A gap in the samples that the sampler knows of (it stopped and started again, or the hardware dropped some):
    // a window over it is refused. (WindowSample::droppedBefore says the same for the sample that follows.)
    void MarkGap(uint64_t fromNs, uint64_t toNs);

    // The newest sample's end (0 when none): a window ending after it is not complete yet.
    uint64_t NewestEndNs() const;
    // The oldest sample kept's start (0 when none).
    uint64_t OldestStartNs() const;

    // [beginNs, endNs) integrated (IntegrateWindow's rules). Refused, saying which, when the window reaches back
    // before the oldest sample kept (forgotten: retention) or past the newest (not decoded yet), or over a gap.
    WindowResult Window(uint64_t beginNs, uint64_t endNs, const WindowRules& rules = {}) const;
    // The samples that meet [beginNs, endNs), in time order (a trace sample's contents).
    std::vector<WindowSample> Samples(uint64_t beginNs, uint64_t endNs) const;

private:
    std::vector<std::string> metrics_;
    uint64_t intervalNs_;
    uint64_t retentionNs_;
    std::deque<WindowSample> samples_;
    struct Gap { uint64_t fromNs, toNs; };
    std::deque<Gap> gaps_;
    uint64_t forgottenUntilNs_ = 0;  // the end of the newest sample forgotten (retention): older windows say so
};

}  // namespace gpa::pm_sampling
