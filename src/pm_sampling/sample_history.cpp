#include "pm_sampling/sample_history.h"

#include <algorithm>
#include <cstdio>

namespace gpa::pm_sampling {
namespace {

std::string Ms(uint64_t ns) {
    char text[32];
    if (ns < 1000) {
        std::snprintf(text, sizeof text, "%llu ns", static_cast<unsigned long long>(ns));
    } else if (ns < 1000000) {
        std::snprintf(text, sizeof text, "%.1f us", double(ns) / 1e3);
    } else {
        std::snprintf(text, sizeof text, "%.3f ms", double(ns) / 1e6);
    }
    return text;
}

WindowResult Refused(size_t metrics, std::string why) {
    WindowResult result;
    result.quality = WindowQuality::Refused;
    result.why = std::move(why);
    result.values.assign(metrics, std::nullopt);
    result.valueWhy.assign(metrics, std::string());
    return result;
}

}  // namespace

bool JoinToPrevious(uint64_t lastEndNs, uint64_t intervalNs, WindowSample* sample) {
    if (sample->endNs <= sample->startNs || sample->endNs <= lastEndNs) return false;
    if (sample->startNs < lastEndNs) {
        if (lastEndNs - sample->startNs > intervalNs / 2) return false;
        sample->startNs = lastEndNs;
    }
    return true;
}

SampleHistory::SampleHistory(std::vector<std::string> metrics, uint64_t intervalNs, uint64_t retentionNs)
    : metrics_(std::move(metrics)), intervalNs_(intervalNs), retentionNs_(retentionNs) {}

void SampleHistory::Append(std::vector<WindowSample> samples) {
    for (WindowSample& sample : samples) {
        // Out of order or overlapping what is kept: never merged in (the sampler hands samples in order; one that
        // is not would make every window over it wrong).
        if (sample.endNs < sample.startNs) continue;
        if (!samples_.empty() && sample.startNs < samples_.back().endNs) continue;
        samples_.push_back(std::move(sample));
    }
    if (samples_.empty()) return;
    const uint64_t newest = samples_.back().endNs;
    const uint64_t horizon = newest > retentionNs_ ? newest - retentionNs_ : 0;
    while (!samples_.empty() && samples_.front().endNs < horizon) {
        forgottenUntilNs_ = std::max(forgottenUntilNs_, samples_.front().endNs);
        samples_.pop_front();
    }
    while (!gaps_.empty() && gaps_.front().toNs < horizon) gaps_.pop_front();
}

void SampleHistory::MarkGap(uint64_t fromNs, uint64_t toNs) {
    if (toNs <= fromNs) return;
    gaps_.push_back(Gap{fromNs, toNs});
}

uint64_t SampleHistory::NewestEndNs() const { return samples_.empty() ? 0 : samples_.back().endNs; }
uint64_t SampleHistory::OldestStartNs() const { return samples_.empty() ? 0 : samples_.front().startNs; }

WindowResult SampleHistory::Window(uint64_t beginNs, uint64_t endNs, const WindowRules& rules) const {
    if (endNs <= beginNs) return Refused(metrics_.size(), "the window ends before it begins");
    if (samples_.empty()) return Refused(metrics_.size(), "no PM sample has been decoded yet");
    if (beginNs < OldestStartNs()) {
        if (forgottenUntilNs_ != 0 && beginNs < forgottenUntilNs_) {
            return Refused(metrics_.size(),
                           "the window began " + Ms(OldestStartNs() - beginNs) + " before the oldest PM sample kept: its "
                           "samples were forgotten (samples are kept " + Ms(retentionNs_) + " behind the newest; read "
                           "the results sooner)");
        }
        return Refused(metrics_.size(), "the window began " + Ms(OldestStartNs() - beginNs) +
                                            " before the first PM sample: the device was not sampled yet");
    }
    if (endNs > NewestEndNs()) {
        return Refused(metrics_.size(), "the window ends " + Ms(endNs - NewestEndNs()) +
                                            " after the newest PM sample decoded: its samples are not there yet");
    }
    for (const Gap& gap : gaps_) {
        if (gap.fromNs < endNs && gap.toNs > beginNs) {
            return Refused(metrics_.size(), "PM samples are missing inside the window (the sampler lost " +
                                                Ms(gap.toNs - gap.fromNs) + " of samples there)");
        }
    }
    return IntegrateWindow(metrics_, Samples(beginNs, endNs), beginNs, endNs, intervalNs_, rules);
}

std::vector<WindowSample> SampleHistory::Samples(uint64_t beginNs, uint64_t endNs) const {
    // The first sample ending after beginNs (samples are in order and do not overlap, so their ends are sorted).
    auto first = std::upper_bound(samples_.begin(), samples_.end(), beginNs,
                                  [](uint64_t t, const WindowSample& s) { return t < s.endNs; });
    std::vector<WindowSample> met;
    for (auto it = first; it != samples_.end() && it->startNs < endNs; ++it) met.push_back(*it);
    return met;
}

}  // namespace gpa::pm_sampling
