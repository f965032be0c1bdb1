// gpaprof-report: summary pages (HTML, text) and a Perfetto trace from gpaprof's .atp/.csv/.occupancy.
#include <cstdio>
#include <string>
#include <vector>

#include "tools/gpaprof/report/report_command.h"
#include "tools/gpaprof/report/report_options.h"

int main(int argc, char** argv) {
    using namespace gpaprof::report;
    const std::vector<std::string> args(argv + 1, argv + argc);
    std::string error;
    const std::optional<ReportOptions> options = ParseReportOptions(args, &error);
    if (!options) {
        std::fprintf(stderr, "gpaprof-report: %s\n\n%s", error.c_str(), ReportUsage().c_str());
        return kExitUsage;
    }
    if (options->help) {
        std::fputs(ReportUsage().c_str(), stdout);
        return kExitOk;
    }
    return RunReportCommand(*options, stdout, stderr);
}
