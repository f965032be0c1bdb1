#include "tools/gpaprof/report/html_chart_data.h"

#include <algorithm>
#include <map>

#include "tools/gpaprof/report/call_outcome.h"
#include "tools/gpaprof/report/lane_packing.h"
#include "tools/gpaprof/report/pm_sampling_chart.h"

namespace gpaprof::report::html_charts {
namespace {

// Item kinds of the timeline chart (CSS classes k0..k5 in html_assets.cpp).
enum TimelineKind { kApiCall = 0, kKernel = 1, kTransfer = 2, kCommand = 3, kMarker = 4, kFailedCall = 5 };

struct TimelineItem {
    size_t lane;
    uint64_t start, duration;
    size_t name;
    int kind;
};

}  // namespace

// ---- chart data

void BarChartData(JsonWriter* json, const std::string& id, const char* unit,
                  const std::vector<std::pair<std::string, double>>& bars) {
    json->Key(id).BeginObject().Key("kind").String("bar").Key("unit").String(unit).Key("bars").BeginArray();
    for (const auto& [label, value] : bars) {
        json->BeginObject().Key("label").String(label).Key("value").Number(value, 3).EndObject();
    }
    json->EndArray().EndObject();
}

void TimelineData(JsonWriter* json, const Report& report, const HtmlOptions& options, std::string* note) {
    const Timeline& timeline = report.timeline;
    std::vector<std::string> lanes;
    std::vector<TimelineItem> items;
    std::vector<std::string> names;
    std::map<std::string, size_t> nameIndex;
    auto nameOf = [&](const std::string& name) {
        auto found = nameIndex.find(name);
        if (found != nameIndex.end()) return found->second;
        names.push_back(name);
        nameIndex[name] = names.size() - 1;
        return names.size() - 1;
    };
    // The axis: the trace's first to last event, widened to the PM samples where there are some.
    const PmSamplingFile* samples =
        report.inputs && report.inputs->pmSampling && !report.inputs->pmSampling->rows.empty() ? &*report.inputs->pmSampling
                                                                                              : nullptr;
    const bool traceEmpty = timeline.calls.empty() && timeline.activities.empty() && timeline.markers.empty();
    uint64_t begin = timeline.begin, end = timeline.end;
    if (samples) {
        for (size_t i = 0; i < samples->rows.size(); ++i) {
            const PmSample& row = samples->rows[i];
            begin = (traceEmpty && i == 0) ? row.startNs : std::min(begin, row.startNs);
            end = (traceEmpty && i == 0) ? row.endNs : std::max(end, row.endNs);
        }
    }
    auto relative = [&](uint64_t time) { return time >= begin ? time - begin : 0; };
    // Adds one group of intervals on as many lanes as it needs (none overlap on a lane).
    auto addLanes = [&](const std::string& label, const std::vector<Interval>& intervals,
                        const std::vector<std::pair<std::string, int>>& what) {
        if (intervals.empty()) return;
        const std::vector<size_t> packed = PackLanes(intervals, false);
        const size_t first = lanes.size();
        const size_t count = *std::max_element(packed.begin(), packed.end()) + 1;
        for (size_t k = 0; k < count; ++k) lanes.push_back(k == 0 ? label : label + " (" + std::to_string(k + 1) + ")");
        for (size_t i = 0; i < intervals.size(); ++i) {
            items.push_back({first + packed[i], relative(intervals[i].start), intervals[i].end - intervals[i].start,
                             nameOf(what[i].first), what[i].second});
        }
    };

    std::vector<uint64_t> threads;
    for (const HostCall& call : timeline.calls) {
        if (std::find(threads.begin(), threads.end(), call.threadId) == threads.end()) threads.push_back(call.threadId);
    }
    for (const MarkerSpan& marker : timeline.markers) {
        if (std::find(threads.begin(), threads.end(), marker.threadId) == threads.end()) threads.push_back(marker.threadId);
    }
    for (uint64_t thread : threads) {
        std::vector<Interval> intervals;
        std::vector<std::pair<std::string, int>> what;
        for (const MarkerSpan& marker : timeline.markers) {
            if (marker.threadId != thread) continue;
            intervals.push_back({marker.start, marker.end});
            what.emplace_back(marker.name.empty() ? std::string("(marker)") : marker.name, kMarker);
        }
        addLanes("thread " + std::to_string(thread) + " markers", intervals, what);
        intervals.clear();
        what.clear();
        for (const HostCall& call : timeline.calls) {
            if (call.threadId != thread) continue;
            intervals.push_back({call.call->start, std::max(call.call->start, call.call->end)});
            what.emplace_back(call.call->name, ClassifyCall(call.api, *call.call).failed ? kFailedCall : kApiCall);
        }
        addLanes("thread " + std::to_string(thread), intervals, what);
    }
    std::vector<std::pair<std::string, std::string>> tracks;  // (device, queue)
    for (const DeviceActivity& activity : timeline.activities) {
        if (!activity.completed) continue;
        std::pair<std::string, std::string> key{activity.device, activity.queue};
        if (std::find(tracks.begin(), tracks.end(), key) == tracks.end()) tracks.push_back(key);
    }
    for (const auto& [device, queue] : tracks) {
        std::vector<Interval> intervals;
        std::vector<std::pair<std::string, int>> what;
        for (const DeviceActivity& activity : timeline.activities) {
            if (!activity.completed || activity.device != device || activity.queue != queue) continue;
            intervals.push_back({activity.start, activity.end});
            what.emplace_back(activity.name, activity.kind == ActivityKind::Kernel     ? kKernel
                                             : activity.kind == ActivityKind::Transfer ? kTransfer
                                                                                       : kCommand);
        }
        // The queue first: long device names are cut in the lane label (the full name is in its tooltip).
        addLanes(queue + " on " + (device.empty() ? std::string("the device") : device), intervals, what);
    }

    const size_t total = items.size();
    if (items.size() > options.maxTimelineItems) {
        std::stable_sort(items.begin(), items.end(),
                         [](const TimelineItem& a, const TimelineItem& b) { return a.duration > b.duration; });
        items.resize(options.maxTimelineItems);
        *note = "The chart shows the " + std::to_string(items.size()) + " longest of " + std::to_string(total) +
                " items; the Perfetto export (--perfetto) has them all.";
    }
    json->Key("timeline").BeginObject().Key("kind").String("timeline");
    const html_charts::PmChart pm = samples ? BuildPmSamplingChart(*samples, begin, end, options.maxSampleBarsPerLane)
                                            : html_charts::PmChart{};
    json->Key("span").Unsigned(end - begin);
    json->Key("lanes").BeginArray();
    for (const std::string& lane : lanes) json->BeginObject().Key("name").String(lane).EndObject();
    // Sample lanes: taller, with the value a full bar stands for.
    for (const PmChartLane& lane : pm.lanes) {
        json->BeginObject().Key("name").String(lane.name).Key("top").Number(lane.top, 6);
        json->Key("unit").String(lane.percent ? "percent" : "").Key("height").Unsigned(32).EndObject();
    }
    json->EndArray();
    json->Key("names").BeginArray();
    for (const std::string& name : names) json->String(name);
    json->EndArray();
    json->Key("items").BeginArray();
    for (const TimelineItem& item : items) {
        json->BeginArray().Unsigned(item.lane).Unsigned(item.start).Unsigned(item.duration).Unsigned(item.name);
        json->Unsigned(static_cast<uint64_t>(item.kind)).EndArray();
    }
    // Sample bars: [lane, start, duration, samples, kind, value].
    for (const PmChartBar& bar : pm.bars) {
        json->BeginArray().Unsigned(lanes.size() + bar.lane).Unsigned(bar.start).Unsigned(bar.duration);
        json->Unsigned(bar.samples).Unsigned(static_cast<uint64_t>(bar.kind)).Number(bar.value, 6).EndArray();
    }
    json->EndArray();
    json->Key("total").Unsigned(total).EndObject();
}

}  // namespace gpaprof::report::html_charts
