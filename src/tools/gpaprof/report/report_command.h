// What `gpaprof-report` does, as a function that gpaprof itself can call after a run (its -T/--summary and
// --perfetto options): read the inputs, print their problems as FILE:LINE: MESSAGE on `errors`, write the
// outputs the options ask for, print the text summary on `out`. Returns the exit status of
// report_options.h (kExitOk, kExitInputProblems, kExitFailure; kExitUsage for --html over several ranks).
// Several traces, or a folder, make the cross-rank report (rank_report.h) instead.
#pragma once

#include <cstdio>

#include "tools/gpaprof/report/report_options.h"

namespace gpaprof::report {

int RunReportCommand(const ReportOptions& options, std::FILE* out, std::FILE* errors);

}  // namespace gpaprof::report
