#include "tools/gpaprof/report/report_options.h"

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
        } else {
            *error = "unknown option " + arg;
            return std::nullopt;
        }
    }
    if (options.help) return options;
    if (options.inputs.empty()) {
        *error = "no input file: give the session's .atp (and optionally its .csv and .occupancy)";
        return std::nullopt;
    }
    if (!options.htmlPath && !options.perfettoPath) options.text = true;
    return options;
}

std::string ReportUsage() {
    return "Usage: gpaprof-report [--html OUT.html] [--perfetto OUT.json] [--text] SESSION.atp [SESSION.csv] "
           "[SESSION.occupancy]\n"
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
           "\n"
           "Outputs:\n"
           "  --html OUT.html     one self-contained HTML page (inline style and script, no network): open it\n"
           "                      in any browser\n"
           "  --perfetto OUT.json the timeline as Chrome trace-event JSON: open it in ui.perfetto.dev (Open trace\n"
           "                      file) or chrome://tracing (Load)\n"
           "  --text              the summary as text on standard output (the default without --html/--perfetto)\n"
           "  -h, --help          this text\n"
           "\n"
           "Problems in an input file are printed as FILE:LINE: MESSAGE on standard error; the outputs are still\n"
           "made from what could be read.\n"
           "\n"
           "Exit status: 0 success; 1 outputs written but an input file had problems; 2 bad command line;\n"
           "3 an input could not be used at all or an output could not be written.\n";
}

}  // namespace gpaprof::report
