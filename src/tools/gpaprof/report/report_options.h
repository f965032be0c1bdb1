// The command line of gpaprof-report:
//   gpaprof-report [--html OUT.html] [--perfetto OUT.json] [--text] SESSION.atp [SESSION.csv] [SESSION.occupancy]
//   gpaprof-report [--perfetto OUT.json] [--text] [--straggler-share P] [--align auto|none|start] [--top N]
//                  RANK.atp RANK.atp... | FOLDER...          (several processes' traces: the cross-rank report)
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace gpaprof::report {

struct ReportOptions {
    std::optional<std::string> htmlPath;
    std::optional<std::string> perfettoPath;
    bool text = false;          // print the text summary (the default when no output file is asked for)
    bool help = false;
    std::vector<std::string> inputs;
    // The cross-rank report's (ignored, with a note, for one session's files).
    std::optional<double> stragglerSharePercent;  // --straggler-share, percent above the median
    std::optional<std::string> alignment;         // --align: auto, none, start
    std::optional<size_t> topKernels;             // --top
};

// Exit codes.
inline constexpr int kExitOk = 0;
inline constexpr int kExitInputProblems = 1;   // outputs written, but the input files had problems
inline constexpr int kExitUsage = 2;           // bad command line
inline constexpr int kExitFailure = 3;         // an input could not be read at all, or an output not written

// nullopt with `error` set when the command line is wrong.
std::optional<ReportOptions> ParseReportOptions(const std::vector<std::string>& args, std::string* error);

std::string ReportUsage();

}  // namespace gpaprof::report
