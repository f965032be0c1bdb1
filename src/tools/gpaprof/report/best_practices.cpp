#include "tools/gpaprof/report/best_practices.h"

#include <algorithm>
#include <numeric>

namespace gpaprof::report {

void CheckResult::Add(Evidence item) {
    ++occurrences;
    status = CheckStatus::Fired;
    if (evidence.size() < kMaxEvidence) evidence.push_back(std::move(item));
}

std::vector<CheckResult> RunBestPracticeChecks(const CheckInput& input) {
    std::vector<CheckResult> results;
    results.push_back(CheckLeaks(input));
    results.push_back(CheckFailedCalls(input));
    results.push_back(CheckDeprecatedCalls(input));
    results.push_back(CheckRedundantSync(input));
    results.push_back(CheckBlockingTransfers(input));
    results.push_back(CheckWorkGroupSizes(input));
    return results;
}

const char* CheckStatusName(CheckStatus status) {
    switch (status) {
        case CheckStatus::Passed: return "passed";
        case CheckStatus::Fired: return "fired";
        case CheckStatus::NotDecidable: return "not decidable";
    }
    return "passed";
}

const char* SeverityName(Severity severity) { return severity == Severity::Warning ? "warning" : "advice"; }

std::vector<size_t> CallsInTimeOrder(const Timeline& timeline) {
    std::vector<size_t> order(timeline.calls.size());
    std::iota(order.begin(), order.end(), size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        const HostCall& x = timeline.calls[a];
        const HostCall& y = timeline.calls[b];
        if (x.call->start != y.call->start) return x.call->start < y.call->start;
        if (x.threadId != y.threadId) return x.threadId < y.threadId;
        return x.index < y.index;
    });
    return order;
}

}  // namespace gpaprof::report
