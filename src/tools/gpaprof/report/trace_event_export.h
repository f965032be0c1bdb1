// The timeline as a Chrome trace-event JSON file (the "JSON trace format" that ui.perfetto.dev and
// chrome://tracing open):
//  - process "host": one track per host thread (tid = the OS thread id) with each API call as a complete
//    event ("ph":"X") and the perf markers as slices around the calls they enclose;
//  - one process per device, one track per queue or stream, with kernels, transfers and other commands;
//  - a flow arrow from each enqueue call to the device work it started;
//  - with a .pmsampling.csv, counter tracks ("ph":"C") per device and metric in the device's process, and a
//    track of the samples' flags (pm_sampling_tracks.h).
// Times are microseconds since the earliest time in the trace (otherData.timeBaseNs says which CPU-clock
// nanosecond that is), written with three decimals so that nothing is lost. Intervals that would overlap
// on a track without nesting (out-of-order queues) go to an extra track named "... (overlap N)".
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tools/gpaprof/report/json_writer.h"
#include "tools/gpaprof/report/report.h"

namespace gpaprof::report {

std::string WriteTraceEvents(const Report& report);

// A trace-event JSON file being built, for writers that put several timelines in one file (the merged
// timeline of several ranks): metadata, complete events and flow arrows, each time written relative to the
// base after the current shift was added to it.
class TraceEventWriter {
public:
    explicit TraceEventWriter(uint64_t baseNs);

    // Added to every time written from now on: the offset of the clock of the timeline being written.
    void SetShift(int64_t shiftNs) { shift_ = shiftNs; }

    void Metadata(const char* what, uint64_t pid, std::optional<uint64_t> tid, const std::string& name);
    void SortIndex(const char* what, uint64_t pid, std::optional<uint64_t> tid, uint64_t index);
    // Opens a complete event; the caller adds args with Arg* and ends it with End().
    void Begin(const std::string& name, const std::string& category, uint64_t pid, uint64_t tid, uint64_t start,
               uint64_t end);
    void Arg(const char* key, const std::string& value) { json_.Key(key).String(value); }
    void ArgNumber(const char* key, uint64_t value) { json_.Key(key).Unsigned(value); }
    void ArgReal(const char* key, double value) { json_.Key(key).Number(value, 3); }
    void End() { json_.EndObject().EndObject(); }
    void Flow(bool start, uint64_t id, uint64_t pid, uint64_t tid, uint64_t time);
    // A counter event: the counter `name` of process `pid` has `value` from `time` on.
    void Counter(const std::string& name, const std::string& category, uint64_t pid, uint64_t time, double value);

    // The JSON written so far, for writing the file piece by piece (Finish then gives the rest).
    std::string TakePiece() { return json_.TakePiece(); }

    // Ends the event list and writes "displayTimeUnit" and "otherData": "generator", the keys `otherData` adds,
    // then "timeBaseNs".
    std::string Finish(const std::function<void(JsonWriter&)>& otherData);

private:
    uint64_t Relative(uint64_t time) const;

    JsonWriter json_;
    uint64_t base_;
    int64_t shift_ = 0;
};

// Where a timeline's tracks go in the file.
struct TimelineTracks {
    // One session (WriteTraceEvents): the host threads in process 1 ("host: <title>"), each device in a process
    // of its own after it. One rank of several: everything in process `rankPid`, named `processName`, the host
    // threads first, then one track per queue or stream ("<device>: <queue>").
    std::optional<uint64_t> rankPid;
    std::string processName;
    uint64_t processSortIndex = 0;
};

// The devices that get a process of their own in one session's file, as (API part, device name), in process order:
// the i-th is process 2 + i (process 1 is the host).
std::vector<std::pair<std::string, std::string>> TimelineDeviceProcesses(const Timeline& timeline);

// Writes a timeline's calls, markers, device work and flow arrows. `title` names the host process of a session.
// `nextFlowId` numbers the flow arrows; it is advanced past the ones written, so that timelines sharing a file
// keep them apart.
void AppendTimelineEvents(const Timeline& timeline, const std::string& title, const TimelineTracks& tracks,
                          TraceEventWriter* out, uint64_t* nextFlowId);

}  // namespace gpaprof::report
