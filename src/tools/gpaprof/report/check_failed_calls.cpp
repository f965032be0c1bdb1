// Failed calls: every traced call whose return value (or error out-parameter) is an error code. Grouped
// by function and error, with the first occurrence of each as evidence.
#include <algorithm>
#include <map>

#include "tools/gpaprof/report/best_practices.h"
#include "tools/gpaprof/report/call_outcome.h"

namespace gpaprof::report {

CheckResult CheckFailedCalls(const CheckInput& input) {
    CheckResult result;
    result.id = "failed-calls";
    result.title = "Calls that returned an error";
    result.rule = "A call fails when it returns an error code (CL_* other than CL_SUCCESS, cudaError*/CUDA_ERROR_* "
                  "other than 'not ready', HSA_STATUS_ERROR*) or, for calls that return an object, when the error "
                  "out-parameter holds one or the object is NULL.";
    result.advice = "Check every return code; a failed call usually means later calls work on invalid objects or "
                    "that work silently did not happen.";
    result.severity = Severity::Warning;
    if (input.timeline.calls.empty()) {
        result.status = CheckStatus::NotDecidable;
        result.notes.push_back("the trace has no API calls");
        return result;
    }
    struct Group {
        uint64_t count = 0;
        const HostCall* first = nullptr;
        size_t order = 0;
    };
    std::map<std::pair<std::string, std::string>, Group> groups;  // (api function, error)
    size_t order = 0;
    for (size_t index : CallsInTimeOrder(input.timeline)) {
        const HostCall& host = input.timeline.calls[index];
        const CallOutcome outcome = ClassifyCall(host.api, *host.call);
        if (!outcome.failed) continue;
        Group& group = groups[{host.call->name, outcome.error}];
        if (group.count++ == 0) {
            group.first = &host;
            group.order = order++;
        }
    }
    std::vector<std::pair<size_t, std::pair<std::string, std::string>>> sorted;
    for (const auto& [key, group] : groups) sorted.emplace_back(group.order, key);
    std::sort(sorted.begin(), sorted.end());
    uint64_t total = 0;
    for (const auto& [rank, key] : sorted) {
        const Group& group = groups[key];
        total += group.count;
        std::string text = key.first + " returned " + key.second + " " + std::to_string(group.count) +
                           (group.count == 1 ? " time" : " times") + "; first at " + group.first->Where();
        result.Add(Evidence{group.first->api, group.first->threadId, group.first->index, text});
    }
    if (total) result.occurrences = total;
    return result;
}

}  // namespace gpaprof::report
