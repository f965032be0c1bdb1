// Blocking transfers: reads, writes and maps that hold the calling thread until the device has finished
// them (OpenCL CL_TRUE blocking flag, synchronous CUDA copies). Grouped by function, with the host time
// the thread spent blocked.
#include <map>

#include "tools/gpaprof/report/best_practices.h"
#include "tools/gpaprof/report/blocking_calls.h"
#include "tools/gpaprof/report/call_outcome.h"
#include "tools/gpaprof/report/format_units.h"

namespace gpaprof::report {

CheckResult CheckBlockingTransfers(const CheckInput& input) {
    CheckResult result;
    result.id = "blocking-transfers";
    result.title = "Blocking writes and reads";
    result.rule = "A read, write or map enqueued with the blocking flag CL_TRUE (or a synchronous cudaMemcpy) keeps "
                  "the host thread waiting until the device has finished the copy and everything queued before it.";
    result.advice = "Enqueue with CL_FALSE (cudaMemcpyAsync from pinned memory) and wait on the event only where the "
                    "data is needed, so that the host prepares more work meanwhile.";
    result.severity = Severity::Advice;
    bool decidable = false;
    struct Group {
        uint64_t count = 0, blockedNs = 0, bytes = 0;
        const HostCall* first = nullptr;
        std::string why;
    };
    std::map<std::string, Group> groups;
    std::vector<std::string> order;
    for (size_t index : CallsInTimeOrder(input.timeline)) {
        const HostCall& host = input.timeline.calls[index];
        decidable = decidable || host.api == "ocl" || host.api == "cuda";
        std::optional<BlockingCall> blocking = BlockingTransfer(host.api, *host.call);
        if (!blocking || ClassifyCall(host.api, *host.call).failed) continue;
        Group& group = groups[host.call->name];
        if (group.count++ == 0) {
            group.first = &host;
            group.why = blocking->evidence;
            order.push_back(host.call->name);
        }
        group.blockedNs += host.duration();
        group.bytes += host.call->transferSize.value_or(0);
    }
    if (!decidable) {
        result.status = CheckStatus::NotDecidable;
        result.notes.push_back("the trace has no OpenCL or CUDA calls");
        return result;
    }
    uint64_t total = 0;
    for (const std::string& name : order) {
        const Group& group = groups[name];
        total += group.count;
        std::string text = name + ": " + std::to_string(group.count) + (group.count == 1 ? " call" : " calls") + " with " +
                           group.why + ", " + FormatBytes(group.bytes) + " in all, host blocked " +
                           FormatDuration(static_cast<double>(group.blockedNs)) + "; first at " + group.first->Where();
        result.Add(Evidence{group.first->api, group.first->threadId, group.first->index, text});
    }
    if (total) result.occurrences = total;
    return result;
}

}  // namespace gpaprof::report
