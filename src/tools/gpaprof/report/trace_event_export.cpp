#include "tools/gpaprof/report/trace_event_export.h"

#include <algorithm>
#include <cstdint>
#include <map>

#include "tools/gpaprof/report/call_outcome.h"
#include "tools/gpaprof/report/format_units.h"
#include "tools/gpaprof/report/json_writer.h"
#include "tools/gpaprof/report/lane_packing.h"
#include "tools/gpaprof/report/pm_sampling_tracks.h"

namespace gpaprof::report {
namespace {

constexpr uint64_t kHostPid = 1;
// Extra tracks of a host thread get ids far from real thread ids; so do a rank's queue tracks, which share
// its process with its threads.
constexpr uint64_t kOverlapTidBase = 4000000000ULL;
constexpr uint64_t kRankQueueTidBase = 3000000000ULL;
constexpr uint64_t kRankQueueSortBase = 1000000ULL;

std::string SizeList(const std::vector<uint64_t>& sizes) {
    if (sizes.empty()) return "NULL";
    std::string text = "{";
    for (size_t i = 0; i < sizes.size(); ++i) text += (i ? "," : "") + std::to_string(sizes[i]);
    return text + "}";
}

}  // namespace

TraceEventWriter::TraceEventWriter(uint64_t baseNs) : base_(baseNs) {
    json_.BeginObject().Key("traceEvents").BeginArray();
}

uint64_t TraceEventWriter::Relative(uint64_t time) const {
    uint64_t shifted = time;  // time + shift_, held within 0 .. 2^64-1
    if (shift_ > 0) {
        const uint64_t add = static_cast<uint64_t>(shift_);
        shifted = time > UINT64_MAX - add ? UINT64_MAX : time + add;
    } else if (shift_ < 0) {
        const uint64_t subtract = static_cast<uint64_t>(-(shift_ + 1)) + 1;
        shifted = time > subtract ? time - subtract : 0;
    }
    return shifted >= base_ ? shifted - base_ : 0;
}

void TraceEventWriter::Metadata(const char* what, uint64_t pid, std::optional<uint64_t> tid, const std::string& name) {
    json_.BeginObject().Key("ph").String("M").Key("name").String(what).Key("pid").Unsigned(pid);
    if (tid) json_.Key("tid").Unsigned(*tid);
    json_.Key("args").BeginObject().Key("name").String(name).EndObject().EndObject();
}

void TraceEventWriter::SortIndex(const char* what, uint64_t pid, std::optional<uint64_t> tid, uint64_t index) {
    json_.BeginObject().Key("ph").String("M").Key("name").String(what).Key("pid").Unsigned(pid);
    if (tid) json_.Key("tid").Unsigned(*tid);
    json_.Key("args").BeginObject().Key("sort_index").Unsigned(index).EndObject().EndObject();
}

void TraceEventWriter::Begin(const std::string& name, const std::string& category, uint64_t pid, uint64_t tid,
                             uint64_t start, uint64_t end) {
    json_.BeginObject().Key("ph").String("X").Key("name").String(name).Key("cat").String(category);
    json_.Key("pid").Unsigned(pid).Key("tid").Unsigned(tid);
    json_.Key("ts").MicrosecondsFromNs(Relative(start));
    json_.Key("dur").MicrosecondsFromNs(end >= start ? end - start : 0);
    json_.Key("args").BeginObject();
}

void TraceEventWriter::Flow(bool start, uint64_t id, uint64_t pid, uint64_t tid, uint64_t time) {
    json_.BeginObject().Key("ph").String(start ? "s" : "f").Key("id").Unsigned(id);
    json_.Key("name").String("enqueue").Key("cat").String("flow");
    json_.Key("pid").Unsigned(pid).Key("tid").Unsigned(tid).Key("ts").MicrosecondsFromNs(Relative(time));
    if (!start) json_.Key("bp").String("e");
    json_.EndObject();
}

void TraceEventWriter::Counter(const std::string& name, const std::string& category, uint64_t pid, uint64_t time,
                               double value) {
    json_.BeginObject().Key("ph").String("C").Key("name").String(name).Key("cat").String(category);
    json_.Key("pid").Unsigned(pid).Key("ts").MicrosecondsFromNs(Relative(time));
    json_.Key("args").BeginObject().Key("value").Number(value, 6).EndObject().EndObject();
}

std::string TraceEventWriter::Finish(const std::function<void(JsonWriter&)>& otherData) {
    json_.EndArray();
    json_.Key("displayTimeUnit").String("ns");
    json_.Key("otherData").BeginObject();
    json_.Key("generator").String("gpaprof-report");
    otherData(json_);
    json_.Key("timeBaseNs").Unsigned(base_);
    json_.EndObject();
    json_.EndObject();
    std::string text = json_.Take();
    text += '\n';
    return text;
}

std::vector<std::pair<std::string, std::string>> TimelineDeviceProcesses(const Timeline& timeline) {
    std::vector<std::pair<std::string, std::string>> devices;  // (api, device)
    for (const DeviceActivity& activity : timeline.activities) {
        if (!activity.completed) continue;
        std::pair<std::string, std::string> key{activity.api, activity.device};
        if (std::find(devices.begin(), devices.end(), key) == devices.end()) devices.push_back(key);
    }
    return devices;
}

std::string WriteTraceEvents(const Report& report) {
    const PmSamplingFile* samples = report.inputs && report.inputs->pmSampling ? &*report.inputs->pmSampling : nullptr;
    // Times start at the earliest of the trace and the samples.
    const Timeline& timeline = report.timeline;
    const bool traceEmpty = timeline.calls.empty() && timeline.activities.empty() && timeline.markers.empty();
    uint64_t base = report.timeline.begin;
    if (samples && !samples->rows.empty()) {
        uint64_t first = samples->rows.front().startNs;
        for (const PmSample& row : samples->rows) first = std::min(first, row.startNs);
        base = traceEmpty ? first : std::min(base, first);
    }
    TraceEventWriter out(base);
    uint64_t flowId = 1;
    AppendTimelineEvents(report.timeline, report.title, TimelineTracks{}, &out, &flowId);
    if (samples) AppendPmSamplingTracks(*samples, TimelineDeviceProcesses(report.timeline), &out);
    return out.Finish([&](JsonWriter& json) {
        json.Key("session").String(report.title);
        json.Key("application").String(report.session.application);
        json.Key("applicationArgs").String(report.session.applicationArgs);
    });
}

void AppendTimelineEvents(const Timeline& timeline, const std::string& title, const TimelineTracks& tracks,
                          TraceEventWriter* writer, uint64_t* nextFlowId) {
    TraceEventWriter& out = *writer;
    const bool rank = tracks.rankPid.has_value();
    const uint64_t hostPid = rank ? *tracks.rankPid : kHostPid;

    // ---- host: calls and markers per thread, packed so that slices on a track nest
    if (rank) {
        out.Metadata("process_name", hostPid, std::nullopt, tracks.processName);
        out.SortIndex("process_sort_index", hostPid, std::nullopt, tracks.processSortIndex);
    } else {
        out.Metadata("process_name", kHostPid, std::nullopt, "host: " + title);
        out.SortIndex("process_sort_index", kHostPid, std::nullopt, 0);
    }
    std::vector<uint64_t> threads;
    for (const HostCall& call : timeline.calls) {
        if (std::find(threads.begin(), threads.end(), call.threadId) == threads.end()) threads.push_back(call.threadId);
    }
    for (const MarkerSpan& marker : timeline.markers) {
        if (std::find(threads.begin(), threads.end(), marker.threadId) == threads.end()) threads.push_back(marker.threadId);
    }
    std::map<size_t, uint64_t> callTid;  // timeline call index -> track
    uint64_t overlapTracks = 0;
    for (size_t t = 0; t < threads.size(); ++t) {
        const uint64_t thread = threads[t];
        std::vector<Interval> intervals;
        std::vector<std::pair<bool, size_t>> owners;  // (is marker, index)
        for (size_t i = 0; i < timeline.markers.size(); ++i) {
            if (timeline.markers[i].threadId != thread) continue;
            intervals.push_back({timeline.markers[i].start, timeline.markers[i].end});
            owners.emplace_back(true, i);
        }
        for (size_t i = 0; i < timeline.calls.size(); ++i) {
            const HostCall& call = timeline.calls[i];
            if (call.threadId != thread) continue;
            intervals.push_back({call.call->start, std::max(call.call->start, call.call->end)});
            owners.emplace_back(false, i);
        }
        const std::vector<size_t> lanes = PackLanes(intervals, true);
        std::map<size_t, uint64_t> laneTid;
        for (size_t lane : lanes) {
            if (laneTid.count(lane)) continue;
            const uint64_t tid = lane == 0 ? thread : kOverlapTidBase + overlapTracks++;
            laneTid[lane] = tid;
            out.Metadata("thread_name", hostPid, tid,
                         lane == 0 ? "thread " + std::to_string(thread)
                                   : "thread " + std::to_string(thread) + " (overlap " + std::to_string(lane) + ")");
            out.SortIndex("thread_sort_index", hostPid, tid, t * 64 + std::min<size_t>(lane, 63));
        }
        for (size_t k = 0; k < owners.size(); ++k) {
            const uint64_t tid = laneTid[lanes[k]];
            if (owners[k].first) {
                const MarkerSpan& marker = timeline.markers[owners[k].second];
                out.Begin(marker.name.empty() ? std::string("(marker)") : marker.name, "marker", hostPid, tid,
                          marker.start, marker.end);
                if (!marker.group.empty()) out.Arg("group", marker.group);
                if (!marker.closed) out.Arg("end", "no end marker: shown up to the end of the trace");
                out.End();
                continue;
            }
            const HostCall& host = timeline.calls[owners[k].second];
            callTid[owners[k].second] = tid;
            const ApiCall& call = *host.call;
            out.Begin(call.name, host.api + ",api", hostPid, tid, call.start, std::max(call.start, call.end));
            if (call.returnValue) out.Arg("return", *call.returnValue);
            std::string arguments;
            for (size_t a = 0; a < call.args.size(); ++a) arguments += (a ? ";" : "") + call.args[a];
            out.Arg("arguments", arguments);
            out.ArgNumber("call index", host.index);
            const CallOutcome outcome = ClassifyCall(host.api, call);
            if (outcome.failed) out.Arg("error", outcome.error);
            out.End();
        }
    }

    // ---- devices: one process per (API, device), one track per queue (plus overlap tracks)
    const std::vector<std::pair<std::string, std::string>> devices = TimelineDeviceProcesses(timeline);  // (api, device)
    uint64_t& flowId = *nextFlowId;
    uint64_t rankQueueTracks = 0;
    for (size_t d = 0; d < devices.size(); ++d) {
        const uint64_t pid = rank ? hostPid : hostPid + 1 + d;
        const auto& [api, device] = devices[d];
        const std::string deviceName =
            (device.empty() ? std::string("device") : device) + " (" + ApiDisplayName(api) + " device)";
        if (!rank) {
            out.Metadata("process_name", pid, std::nullopt, deviceName);
            out.SortIndex("process_sort_index", pid, std::nullopt, 1 + d);
        }
        std::vector<std::string> queues;
        for (const DeviceActivity& activity : timeline.activities) {
            if (!activity.completed || activity.api != api || activity.device != device) continue;
            if (std::find(queues.begin(), queues.end(), activity.queue) == queues.end()) queues.push_back(activity.queue);
        }
        uint64_t nextTid = 1;
        for (const std::string& queue : queues) {
            std::vector<const DeviceActivity*> items;
            std::vector<Interval> intervals;
            for (const DeviceActivity& activity : timeline.activities) {
                if (!activity.completed || activity.api != api || activity.device != device || activity.queue != queue) {
                    continue;
                }
                items.push_back(&activity);
                intervals.push_back({activity.start, activity.end});
            }
            const std::vector<size_t> lanes = PackLanes(intervals, false);
            std::map<size_t, uint64_t> laneTid;
            for (size_t lane : lanes) {
                if (laneTid.count(lane)) continue;
                const std::string track = lane == 0 ? queue : queue + " (overlap " + std::to_string(lane) + ")";
                if (rank) {
                    // In the rank's process, after its host threads: "<device>: <queue>".
                    const uint64_t tid = kRankQueueTidBase + rankQueueTracks;
                    laneTid[lane] = tid;
                    out.Metadata("thread_name", pid, tid, deviceName + ": " + track);
                    out.SortIndex("thread_sort_index", pid, tid, kRankQueueSortBase + rankQueueTracks++);
                    continue;
                }
                const uint64_t tid = nextTid++;
                laneTid[lane] = tid;
                out.Metadata("thread_name", pid, tid, track);
                out.SortIndex("thread_sort_index", pid, tid, tid);
            }
            for (size_t k = 0; k < items.size(); ++k) {
                const DeviceActivity& activity = *items[k];
                const uint64_t tid = laneTid[lanes[k]];
                out.Begin(activity.name, ActivityKindName(activity.kind), pid, tid, activity.start, activity.end);
                if (!activity.command.empty()) out.Arg("command", activity.command);
                out.Arg("queue", activity.queue);
                if (!activity.context.empty()) out.Arg("context", activity.context);
                if (activity.queued) out.ArgNumber("queued (ns)", activity.queued);
                if (activity.submit) out.ArgNumber("submitted (ns)", activity.submit);
                if (activity.kind == ActivityKind::Kernel && !activity.globalSize.empty()) {
                    out.Arg("global size", SizeList(activity.globalSize));
                    out.Arg("work-group size", SizeList(activity.localSize));
                }
                if (activity.bytes) {
                    out.ArgNumber("bytes", *activity.bytes);
                    out.ArgReal("bandwidth (GB/s)", BandwidthGBps(*activity.bytes, activity.duration()));
                }
                if (activity.hostCall) out.Arg("enqueued by", timeline.calls[*activity.hostCall].Where());
                out.End();
                if (activity.hostCall && callTid.count(*activity.hostCall)) {
                    const HostCall& host = timeline.calls[*activity.hostCall];
                    out.Flow(true, flowId, hostPid, callTid[*activity.hostCall], host.call->start);
                    out.Flow(false, flowId, pid, tid, activity.start);
                    ++flowId;
                }
            }
        }
    }
}

}  // namespace gpaprof::report
