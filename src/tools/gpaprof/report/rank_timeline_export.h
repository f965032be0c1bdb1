// The merged timeline of several ranks as one Chrome trace-event JSON file (ui.perfetto.dev, chrome://tracing):
// one process per rank ("rank 3 (run_3.atp, node01)", in rank order) holding its host threads, then its queues
// and streams ("NVIDIA H200 (CUDA device): stream 7"), with its calls, markers, device work and flow arrows as
// the one-session export writes them (trace_event_export.h). Times are put on one axis as the report's clock
// alignment says (rank_clock_alignment.h): each rank's shift is added to its times, and ts counts from the
// earliest shifted time; otherData lists each rank's file, rank, host, ClockId and shift, and the alignment.
//
// The report keeps no traces: each rank's file is read again here, a few ranks at a time (as many as there are
// reading threads) and written in rank order, so that memory holds a few traces and the output goes to the
// file as it is made, whatever the number of ranks.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "tools/gpaprof/report/rank_report.h"

namespace gpaprof::report {

// Hands the JSON to `sink` piece by piece. A rank whose file cannot be read again gets its process name
// only, and a problem in `problems`.
void WriteRankTraceEvents(const CrossRankReport& report, size_t workers, const std::function<void(std::string_view)>& sink,
                          std::vector<InputProblem>* problems);

// The whole JSON as one text.
std::string RankTraceEventsText(const CrossRankReport& report, std::vector<InputProblem>* problems);

// Written through a temporary file renamed at the end; false with the reason when it cannot be written.
bool WriteRankTraceEventsFile(const CrossRankReport& report, const std::string& path, size_t workers,
                              std::vector<InputProblem>* problems, std::string* error);

}  // namespace gpaprof::report
