#include "tools/gpaprof/report/report_options.h"

#include <cmath>
#include <cstdlib>

#include "tools/gpaprof/report/rank_clock_alignment.h"
#include "tools/gpaprof/report/rank_summary.h"

namespace gpaprof::report {

std::optional<ReportOptions> ParseReportOptions(const std::vector<std::string>& args, std::string* error) {
    ReportOptions options;
    bool onlyFiles = false;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& arg = args[i];
        if (onlyFiles || arg.empty() || arg[0] != '-' || arg == "-") {
            options.inputs.push_back(arg);
            continue;
        }
        auto value = [&](const char* name, std::optional<std::string>* slot) {
            std::string given;
            const std::string prefix = std::string(name) + "=";
            if (arg.compare(0, prefix.size(), prefix) == 0) {
                given = arg.substr(prefix.size());
            } else if (i + 1 < args.size()) {
                given = args[++i];
            } else {
                *error = std::string(name) + " needs a file name";
                return false;
            }
            if (given.empty()) {
                *error = std::string(name) + " needs a file name";
                return false;
            }
            if (*slot) {
                *error = std::string(name) + " given twice";
                return false;
            }
            *slot = given;
            return true;
        };
        if (arg == "--") {
            onlyFiles = true;
        } else if (arg == "-h" || arg == "--help") {
            options.help = true;
        } else if (arg == "--text") {
            options.text = true;
        } else if (arg == "--html" || arg.rfind("--html=", 0) == 0) {
            if (!value("--html", &options.htmlPath)) return std::nullopt;
        } else if (arg == "--perfetto" || arg.rfind("--perfetto=", 0) == 0) {
            if (!value("--perfetto", &options.perfettoPath)) return std::nullopt;
        } else if (arg == "--align" || arg.rfind("--align=", 0) == 0) {
            if (!value("--align", &options.alignment)) return std::nullopt;
            if (!ParseClockAlignment(*options.alignment)) {
                *error = "--align takes auto, none or start, not '" + *options.alignment + "'";
                return std::nullopt;
            }
        } else if (arg == "--straggler-share" || arg.rfind("--straggler-share=", 0) == 0) {
            std::optional<std::string> text;
            if (!value("--straggler-share", &text)) return std::nullopt;
            char* end = nullptr;
            const double share = std::strtod(text->c_str(), &end);
            if (end == text->c_str() || *end != '\0' || !std::isfinite(share) || share < 0) {
                *error = "--straggler-share takes a percentage of 0 or more (10 for 10 %), not '" + *text + "'";
                return std::nullopt;
            }
            options.stragglerSharePercent = share;
        } else if (arg == "--top" || arg.rfind("--top=", 0) == 0) {
            std::optional<std::string> text;
            if (!value("--top", &text)) return std::nullopt;
            char* end = nullptr;
            const unsigned long long count = std::strtoull(text->c_str(), &end, 10);
            if (end == text->c_str() || *end != '\0' || (*text)[0] == '-' || count == 0 || count > 100000) {
                *error = "--top takes a number of kernels from 1 to 100000, not '" + *text + "'";
                return std::nullopt;
            }
            options.topKernels = static_cast<size_t>(count);
        } else {
            *error = "unknown option " + arg;
            return std::nullopt;
        }
    }
    if (options.help) return options;
    if (options.inputs.empty()) {
        *error = "no input file: give the session's .atp (and optionally its .csv and .occupancy), or several ranks' "
                 ".atp files or a folder of them";
        return std::nullopt;
    }
    if (!options.htmlPath && !options.perfettoPath) options.text = true;
    return options;
}

namespace {

std::string FormatDecimalPercent(double value) {
    std::string text = std::to_string(static_cast<long long>(std::llround(value)));
    return text + " %";
}

}  // namespace

std::string ReportUsage() {
    return "Usage: gpaprof-report [--html OUT.html] [--perfetto OUT.json] [--text] SESSION.atp [SESSION.csv] "
           "[SESSION.occupancy]\n"
           "                      [SESSION.pmsampling.csv]\n"
           "       gpaprof-report [--perfetto OUT.json] [--text] [--straggler-share P] [--align auto|none|start]\n"
           "                      [--top N] RANK.atp RANK.atp... | FOLDER...\n"
           "\n"
           "Summary pages from gpaprof's files: API summary per API, context summary, top-10 kernels, kernel\n"
           "summary and list, top-10 data transfers with bandwidth, performance counters, occupancy, and\n"
           "best-practice checks (leaks, failed calls, deprecated calls, redundant synchronisation, blocking\n"
           "transfers, work-group sizes), each check with its rule and the calls that show it.\n"
           "\n"
           "Inputs (any of them, at least one; the kind comes from the file name, else from the first line):\n"
           "  SESSION.atp         the application trace (gpaprof -t): timeline, API, transfers, checks\n"
           "  SESSION.csv         the performance counters (gpaprof -p): counter table, kernel times without a trace\n"
           "  SESSION.occupancy   the occupancy file (gpaprof -O): occupancy columns, preferred work-group multiples\n"
           "  SESSION.pmsampling.csv  NVIDIA metrics sampled over time (--pm-sampling, docs/profiler_files.md):\n"
           "                      counter tracks in --perfetto, sample lanes in the --html timeline, a summary\n"
           "                      per device and metric in --text\n"
           "  Given SESSION.atp alone, the .csv, .occupancy and .pmsampling.csv beside it under its name are read\n"
           "  too (said on stderr); naming a file of a kind reads only that one of the kind.\n"
           "\n"
           "Several processes (ranks): more than one .atp, or a folder (its .atp files), e.g.\n"
           "gpaprof-report out/run_*.atp, after gpaprof -t -o out/run_%q{RANK} -- torchrun ...: a table with one row\n"
           "per rank (device, dispatches, kernel time, communication = NCCL kernels, compute, host gaps = the device\n"
           "idle between its first and last work, API time, own work = compute + host gaps), the stragglers, and the\n"
           "top kernels over all ranks with the least, median and most time a rank spent in each. A rank comes from\n"
           "the file's ProcessRank= line (the process's RANK, OMPI_COMM_WORLD_RANK, ...), else from its name.\n"
           "Files that cannot be read are named with the reason; the others are still reported. .csv and\n"
           ".occupancy files are left out there.\n"
           "  --straggler-share P a rank is a straggler when its own work is more than P % above the median\n"
           "                      (default " + FormatDecimalPercent(kDefaultStragglerSharePercent) + ")\n"
           "  --align auto|none|start\n"
           "                      how the ranks' clocks are put on one axis in the --perfetto file and its\n"
           "                      notes: auto (default) keeps the times of files of one machine (one ClockId=) and\n"
           "                      shifts other machines so that their first NCCL kernel ends meet; none: times as\n"
           "                      recorded; start: every rank from its first recorded time\n"
           "  --top N             kernels in the top-kernels table (default " + std::to_string(kDefaultTopKernels) + ")\n"
           "\n"
           "Outputs:\n"
           "  --html OUT.html     one self-contained HTML page (inline style and script, no network): open it\n"
           "                      in any browser (one session's files only)\n"
           "  --perfetto OUT.json the timeline as Chrome trace-event JSON: open it in ui.perfetto.dev (Open trace\n"
           "                      file) or chrome://tracing (Load); over several ranks one process per rank\n"
           "  --text              the summary as text on standard output (the default without --html/--perfetto)\n"
           "  -h, --help          this text\n"
           "\n"
           "Problems in an input file are printed as FILE:LINE: MESSAGE on standard error; the outputs are still\n"
           "made from what could be read.\n"
           "\n"
           "Exit status: 0 success; 1 outputs written but an input file had problems; 2 bad command line;\n"
           "3 an input could not be used at all or an output could not be written. Over several ranks: 0 when at\n"
           "least one trace could be read and the outputs were written (unreadable files are named on standard\n"
           "error and in the text), 3 when none could be read or an output could not be written.\n";
}

}  // namespace gpaprof::report
