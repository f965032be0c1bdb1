#include "tools/gpaprof/report/rank_timeline_export.h"

#include <algorithm>
#include <filesystem>

#include "tools/gpaprof/files/file_io.h"
#include "tools/gpaprof/report/rank_files.h"
#include "tools/gpaprof/report/trace_event_export.h"

namespace gpaprof::report {
namespace {

// The earliest time of any rank after its shift: the file's time base.
uint64_t EarliestShifted(const CrossRankReport& report) {
    bool any = false;
    int64_t earliest = 0;
    for (size_t r = 0; r < report.rows.size(); ++r) {
        const RankRow& row = report.rows[r];
        if (!row.begin && !row.end) continue;
        const int64_t begin = static_cast<int64_t>(row.begin) + report.clocks.shiftNs[r];
        earliest = any ? std::min(earliest, begin) : begin;
        any = true;
    }
    return any && earliest > 0 ? static_cast<uint64_t>(earliest) : 0;
}

std::string ProcessName(const RankRow& row) {
    std::string name = row.Label() + " (" + std::filesystem::path(row.path).filename().string();
    if (!row.host.empty()) name += ", " + row.host;
    return name + ")";
}

void WriteOtherData(const CrossRankReport& report, JsonWriter& json) {
    json.Key("ranks").BeginArray();
    for (size_t r = 0; r < report.rows.size(); ++r) {
        const RankRow& row = report.rows[r];
        json.BeginObject().Key("pid").Unsigned(r + 1);
        json.Key("rank");
        if (row.rank) json.Signed(*row.rank);
        else json.Null();
        json.Key("file").String(row.path).Key("rankFrom").String(row.rankFrom);
        json.Key("host").String(row.host).Key("clockId").String(row.clockId);
        json.Key("shiftNs").Signed(report.clocks.shiftNs[r]).EndObject();
    }
    json.EndArray();
    json.Key("clockAlignment").BeginArray();
    for (const std::string& note : report.clocks.notes) json.String(note);
    json.EndArray();
}

}  // namespace

void WriteRankTraceEvents(const CrossRankReport& report, size_t workers, const std::function<void(std::string_view)>& sink,
                          std::vector<InputProblem>* problems) {
    TraceEventWriter out(EarliestShifted(report));
    uint64_t flowId = 1;
    workers = RankReadingWorkers(workers);
    for (size_t first = 0; first < report.rows.size(); first += workers) {
        // A batch of ranks read together, then written in rank order.
        const size_t count = std::min(workers, report.rows.size() - first);
        std::vector<std::string> paths;
        for (size_t r = first; r < first + count; ++r) paths.push_back(report.rows[r].path);
        std::vector<RankTraceRead> batch(count);
        ReadRankTraces(paths, workers, [&](size_t index, RankTraceRead& read) { batch[index] = std::move(read); });
        for (size_t k = 0; k < count; ++k) {
            const size_t r = first + k;
            const RankRow& row = report.rows[r];
            TimelineTracks tracks;
            tracks.rankPid = r + 1;
            tracks.processName = ProcessName(row);
            tracks.processSortIndex = r;
            out.SetShift(report.clocks.shiftNs[r]);
            if (!batch[k].atp) {
                problems->push_back({row.path, 0, "could not be read again for the timeline: " + batch[k].failure});
                out.Metadata("process_name", r + 1, std::nullopt, tracks.processName);
                continue;
            }
            const Timeline timeline = BuildTimeline(*batch[k].atp);
            AppendTimelineEvents(timeline, row.Label(), tracks, &out, &flowId);
            batch[k].atp.reset();
            sink(out.TakePiece());
        }
    }
    out.SetShift(0);
    sink(out.Finish([&](JsonWriter& json) { WriteOtherData(report, json); }));
}

std::string RankTraceEventsText(const CrossRankReport& report, std::vector<InputProblem>* problems) {
    std::string text;
    WriteRankTraceEvents(report, 0, [&](std::string_view piece) { text.append(piece); }, problems);
    return text;
}

bool WriteRankTraceEventsFile(const CrossRankReport& report, const std::string& path, size_t workers,
                              std::vector<InputProblem>* problems, std::string* error) {
    AtomicFile file;
    if (!file.Open(path, error)) return false;
    WriteRankTraceEvents(report, workers, [&](std::string_view piece) { file.Write(piece); }, problems);
    return file.Commit(error);
}

}  // namespace gpaprof::report
