// The cross-rank report, computed once from the inputs: the rank files read (as many at a time as there are
// processors), one row per rank, the stragglers, the kernels with their spread over the ranks, the clocks put
// on one axis, and what could not be read and why. Only the rows are kept, not the traces, so that memory does
// not grow with the ranks; the merged Perfetto timeline reads the files again (rank_timeline_export.h).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "tools/gpaprof/report/rank_clock_alignment.h"
#include "tools/gpaprof/report/rank_summary.h"
#include "tools/gpaprof/report/report_inputs.h"
#include "tools/gpaprof/report/timeline.h"

namespace gpaprof::report {

struct CrossRankOptions {
    double stragglerSharePercent = kDefaultStragglerSharePercent;
    size_t topKernels = kDefaultTopKernels;
    ClockAlignment alignment = ClockAlignment::Auto;
    size_t workers = 0;       // threads reading files; 0: one per processor
};

struct CrossRankReport {
    size_t filesFound = 0;                 // traces found among the inputs
    std::vector<RankRow> rows;             // files read, by rank; files without a rank last, by name
    StragglerVerdict stragglers;
    std::vector<KernelSpread> topKernels;
    RankClocks clocks;
    std::vector<InputProblem> unreadable;  // inputs and files that could not be read at all, with the reason
    std::vector<InputProblem> problems;    // lines of files that were read that the reader could not take
    std::vector<std::string> notes;        // inputs left out, files without a rank, ranks given twice
};

CrossRankReport BuildCrossRankReport(const std::vector<std::string>& inputs, const CrossRankOptions& options);

// The threads that read files: `requested`, or one per processor.
size_t RankReadingWorkers(size_t requested);

}  // namespace gpaprof::report
