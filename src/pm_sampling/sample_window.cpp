#include "pm_sampling/sample_window.h"

#include <algorithm>
#include <cstdio>

namespace gpa::pm_sampling {
namespace {

bool EndsWith(std::string_view text, std::string_view suffix) {
    return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

std::string Percent(double share) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f%%", share * 100.0);
    return text;
}

}  // namespace

Integration IntegrationOf(std::string_view metric, std::string* why) {
    auto say = [&](const char* reason) {
        if (why) *why = reason;
    };
    // base__counter.rollup[.submetric]
    const size_t first = metric.find('.');
    if (first == std::string_view::npos) {
        say("not a metric name of the form base.rollup[.submetric]");
        return Integration::None;
    }
    const std::string_view rest = metric.substr(first + 1);
    const size_t second = rest.find('.');
    const std::string_view rollup = rest.substr(0, second);
    const std::string_view submetric = second == std::string_view::npos ? std::string_view() : rest.substr(second + 1);
    if (submetric.empty()) {
        if (rollup == "sum" || rollup == "avg") return Integration::Sum;
        say("the largest or smallest instance can differ from sample to sample: not added up over time");
        return Integration::None;
    }
    if (submetric == "per_second" || EndsWith(submetric, "_elapsed")) return Integration::TimeMean;
    say("a ratio whose denominator is not elapsed time: not averaged over time");
    return Integration::None;
}

WindowResult IntegrateWindow(const std::vector<std::string>& metrics, const std::vector<WindowSample>& samples,
                             uint64_t beginNs, uint64_t endNs, uint64_t intervalNs, const WindowRules& rules) {
    WindowResult result;
    result.values.assign(metrics.size(), std::nullopt);
    result.valueWhy.assign(metrics.size(), std::string());
    if (endNs <= beginNs) {
        result.why = "the window ends before it begins";
        return result;
    }
    const double length = double(endNs - beginNs);
    std::vector<Integration> how(metrics.size());
    for (size_t m = 0; m < metrics.size(); ++m) how[m] = IntegrationOf(metrics[m], &result.valueWhy[m]);
    std::vector<double> sums(metrics.size(), 0.0), weights(metrics.size(), 0.0);
    std::vector<bool> unknown(metrics.size(), false);
    uint64_t covered = 0, edge = 0, lastEnd = 0;
    bool missing = false;
    for (const WindowSample& sample : samples) {
        if (sample.endNs <= beginNs || sample.startNs >= endNs || sample.endNs <= sample.startNs) continue;
        const uint64_t from = std::max(sample.startNs, beginNs), to = std::min(sample.endNs, endNs);
        // Samples missing inside the window: a hole between two samples, or one marked as following lost ones
        // whose loss lies inside (after the window began).
        if (result.samples > 0 && sample.startNs > lastEnd + intervalNs / 2) missing = true;
        if (sample.droppedBefore && sample.startNs > beginNs) missing = true;
        lastEnd = sample.endNs;
        ++result.samples;
        covered += to - from;
        if (sample.startNs < beginNs || sample.endNs > endNs) edge += to - from;
        const double share = double(to - from) / double(sample.endNs - sample.startNs);
        for (size_t m = 0; m < metrics.size(); ++m) {
            if (how[m] == Integration::None) continue;
            if (m >= sample.values.size() || !sample.values[m]) {
                unknown[m] = true;
                continue;
            }
            if (how[m] == Integration::Sum) {
                sums[m] += *sample.values[m] * share;
            } else {
                sums[m] += *sample.values[m] * double(to - from);
                weights[m] += double(to - from);
            }
        }
    }
    result.coverage = double(covered) / length;
    result.edgeShare = double(edge) / length;
    // Not covered at either end (the sampler started late or stopped early) is missing too.
    if (result.samples == 0) {
        result.why = "no PM sample covers the window";
        return result;
    }
    if (missing || result.coverage < 1.0 - double(intervalNs) / (2.0 * length)) {
        result.why = "PM samples are missing inside the window (" + Percent(std::min(result.coverage, 1.0)) +
                     " of it covered)";
        result.coverage = std::min(result.coverage, 1.0);
        return result;
    }
    for (size_t m = 0; m < metrics.size(); ++m) {
        if (how[m] == Integration::None) continue;
        if (unknown[m]) {
            result.valueWhy[m] = "a sample inside the window does not know it";
            continue;
        }
        result.values[m] = how[m] == Integration::Sum ? sums[m] : (weights[m] > 0 ? sums[m] / weights[m] : 0.0);
    }
    if (length < double(rules.minIntervals) * double(intervalNs)) {
        result.quality = WindowQuality::Approximate;
        result.why = "the window is shorter than " + std::to_string(rules.minIntervals) +
                     " sampling intervals: its edge samples are estimated by their share of time (" +
                     Percent(result.edgeShare) + " of the window)";
    } else {
        result.quality = WindowQuality::Measured;
    }
    return result;
}

}  // namespace gpa::pm_sampling
