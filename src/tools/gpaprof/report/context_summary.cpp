#include "tools/gpaprof/report/context_summary.h"

#include <algorithm>

namespace gpaprof::report {

std::vector<ContextStats> SummarizeContexts(const Timeline& timeline) {
    std::vector<ContextStats> contexts;
    for (const DeviceActivity& activity : timeline.activities) {
        const std::string context = activity.context.empty() ? std::string("-") : activity.context;
        auto found = std::find_if(contexts.begin(), contexts.end(), [&](const ContextStats& stats) {
            return stats.api == activity.api && stats.context == context && stats.device == activity.device;
        });
        if (found == contexts.end()) {
            contexts.push_back(ContextStats{});
            contexts.back().api = activity.api;
            contexts.back().context = context;
            contexts.back().device = activity.device;
            found = contexts.end() - 1;
        }
        ContextStats& stats = *found;
        if (std::find(stats.queues.begin(), stats.queues.end(), activity.queue) == stats.queues.end()) {
            stats.queues.push_back(activity.queue);
        }
        if (!activity.completed) {
            ++stats.incomplete;
            continue;
        }
        switch (activity.kind) {
            case ActivityKind::Kernel:
                ++stats.kernels;
                stats.kernelNs += activity.duration();
                break;
            case ActivityKind::Transfer:
                ++stats.transfers;
                stats.transferBytes += activity.bytes.value_or(0);
                stats.transferNs += activity.duration();
                break;
            case ActivityKind::Command:
                ++stats.otherCommands;
                break;
        }
    }
    return contexts;
}

}  // namespace gpaprof::report
