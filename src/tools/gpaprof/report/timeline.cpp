#include "tools/gpaprof/report/timeline.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace gpaprof::report {
namespace {

// Timestamp lines write device names with '_' for spaces; give back the header's spelling when one matches.
std::string DisplayDevice(const std::string& written, const std::vector<DeviceHeader>& devices) {
    for (const DeviceHeader& device : devices) {
        std::string underscored = device.name;
        std::replace(underscored.begin(), underscored.end(), ' ', '_');
        if (underscored == written) return device.name;
    }
    return written;
}

std::string Labelled(const std::string& word, uint64_t id, const std::string& handle) {
    std::string label = word + " " + std::to_string(id);
    if (!handle.empty() && handle != "NA" && handle != "NULL") label += " (" + handle + ")";
    return label;
}

void AddMarkers(const ThreadBlock<PerfMarker>& block, uint64_t traceEnd, Timeline* timeline) {
    std::vector<MarkerSpan> open;
    std::vector<MarkerSpan> spans;
    for (const PerfMarker& marker : block.entries) {
        if (marker.kind == PerfMarker::Kind::Begin) {
            MarkerSpan span;
            span.threadId = block.threadId;
            span.name = marker.name;
            span.group = marker.group;
            span.start = marker.timestamp;
            span.depth = open.size();
            open.push_back(span);
            continue;
        }
        if (open.empty()) {
            timeline->notes.push_back("thread " + std::to_string(block.threadId) + ": end marker at " +
                                      std::to_string(marker.timestamp) + " ns has no begin marker; left out");
            continue;
        }
        MarkerSpan span = open.back();
        open.pop_back();
        span.end = std::max(marker.timestamp, span.start);
        if (marker.kind == PerfMarker::Kind::EndEx) {
            if (!marker.name.empty()) span.name = marker.name;
            if (!marker.group.empty()) span.group = marker.group;
        }
        spans.push_back(span);
    }
    while (!open.empty()) {
        MarkerSpan span = open.back();
        open.pop_back();
        span.end = std::max(traceEnd, span.start);
        span.closed = false;
        timeline->notes.push_back("thread " + std::to_string(block.threadId) + ": marker '" + span.name +
                                  "' has no end marker; shown up to the end of the trace");
        spans.push_back(span);
    }
    std::sort(spans.begin(), spans.end(), [](const MarkerSpan& a, const MarkerSpan& b) {
        return a.start != b.start ? a.start < b.start : a.depth < b.depth;
    });
    timeline->markers.insert(timeline->markers.end(), spans.begin(), spans.end());
}

}  // namespace

std::string HostCall::Where() const {
    return "thread " + std::to_string(threadId) + " call #" + std::to_string(index);
}

std::string ApiDisplayName(std::string_view api) {
    if (api == "ocl") return "OpenCL";
    if (api == "cuda") return "CUDA";
    if (api == "hsa") return "HSA";
    return std::string(api);
}

std::string QueueWord(std::string_view api) { return api == "cuda" ? "stream" : "queue"; }

const char* ActivityKindName(ActivityKind kind) {
    switch (kind) {
        case ActivityKind::Kernel: return "kernel";
        case ActivityKind::Transfer: return "transfer";
        case ActivityKind::Command: return "command";
    }
    return "command";
}

Timeline BuildTimeline(const AtpFile& file) {
    Timeline timeline;
    const std::vector<DeviceHeader>& devices = file.session.devices;
    for (const ApiTracePart& part : file.parts) {
        // Kernels the API calls carry (name, start, end; 0, 0 without device times), each matching one line of
        // the kernel timestamp section at most.
        std::map<std::tuple<std::string, uint64_t, uint64_t>, size_t> callKernels;
        for (const ThreadBlock<ApiCall>& thread : part.threads) {
            for (size_t i = 0; i < thread.entries.size(); ++i) {
                const ApiCall& call = thread.entries[i];
                timeline.calls.push_back(HostCall{part.api, thread.threadId, i, &call});
                if (!call.command) continue;
                const CommandTimes& command = *call.command;
                DeviceActivity activity;
                activity.api = part.api;
                activity.kind = call.kernel ? ActivityKind::Kernel
                                : call.transferSize ? ActivityKind::Transfer
                                                    : ActivityKind::Command;
                activity.command = command.commandName;
                activity.name = call.kernel ? call.kernel->kernelName : command.commandName;
                activity.device = DisplayDevice(command.deviceName, devices);
                activity.queue = Labelled(QueueWord(part.api), command.queueId, command.queueHandle);
                activity.context = Labelled("context", command.contextId, command.contextHandle);
                activity.queued = command.queued;
                activity.submit = command.submit;
                activity.start = command.start;
                activity.end = command.end;
                activity.completed = !(command.start == 0 && command.end == 0) && command.end >= command.start;
                activity.bytes = call.transferSize;
                if (call.kernel) {
                    activity.globalSize = call.kernel->globalSize;
                    activity.localSize = call.kernel->localSize;
                    ++callKernels[{activity.name, activity.start, activity.end}];
                }
                activity.hostCall = timeline.calls.size() - 1;
                timeline.activities.push_back(std::move(activity));
            }
        }
        for (const KernelTimestamp& entry : part.kernelTimestamps) {
            auto carried = callKernels.find({entry.kernelName, entry.start, entry.end});
            if (carried != callKernels.end() && carried->second > 0) {
                --carried->second;
                continue;
            }
            DeviceActivity activity;
            activity.kind = ActivityKind::Kernel;
            activity.api = part.api;
            activity.name = entry.kernelName;
            activity.command = entry.packetType;
            activity.device = DisplayDevice(entry.agentName, devices);
            activity.queue = QueueWord(part.api) + " " + std::to_string(entry.queueIndex);
            activity.start = entry.start;
            activity.end = entry.end;
            activity.completed = !(entry.start == 0 && entry.end == 0) && entry.end >= entry.start;
            timeline.activities.push_back(std::move(activity));
        }
    }
    std::stable_sort(timeline.activities.begin(), timeline.activities.end(),
                     [](const DeviceActivity& a, const DeviceActivity& b) {
                         if (a.completed != b.completed) return a.completed;
                         return a.completed && a.start < b.start;
                     });

    bool any = false;
    auto include = [&](uint64_t start, uint64_t end) {
        if (start == 0 && end == 0) return;
        if (!any) {
            timeline.begin = start;
            timeline.end = end;
            any = true;
        }
        timeline.begin = std::min(timeline.begin, start);
        timeline.end = std::max(timeline.end, end);
    };
    for (const HostCall& call : timeline.calls) include(call.call->start, std::max(call.call->start, call.call->end));
    for (const DeviceActivity& activity : timeline.activities) {
        if (activity.completed) include(activity.start, activity.end);
    }
    for (const ThreadBlock<PerfMarker>& block : file.markerThreads) {
        for (const PerfMarker& marker : block.entries) include(marker.timestamp, marker.timestamp);
    }
    for (const ThreadBlock<PerfMarker>& block : file.markerThreads) AddMarkers(block, timeline.end, &timeline);
    return timeline;
}

}  // namespace gpaprof::report
