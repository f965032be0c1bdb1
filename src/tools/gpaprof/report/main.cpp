// gpaprof-report: summary pages (HTML, text) and a Perfetto trace from gpaprof's .atp/.csv/.occupancy.
#include <cstdio>
#include <string>
#include <vector>

#include "tools/gpaprof/files/file_io.h"
#include "tools/gpaprof/report/html_report.h"
#include "tools/gpaprof/report/report.h"
#include "tools/gpaprof/report/report_inputs.h"
#include "tools/gpaprof/report/report_options.h"
#include "tools/gpaprof/report/text_report.h"
#include "tools/gpaprof/report/trace_event_export.h"

int main(int argc, char** argv) {
    using namespace gpaprof::report;
    std::vector<std::string> args(argv + 1, argv + argc);
    std::string error;
    std::optional<ReportOptions> options = ParseReportOptions(args, &error);
    if (!options) {
        std::fprintf(stderr, "gpaprof-report: %s\n\n%s", error.c_str(), ReportUsage().c_str());
        return kExitUsage;
    }
    if (options->help) {
        std::fputs(ReportUsage().c_str(), stdout);
        return kExitOk;
    }

    const ReportInputs inputs = LoadReportInputs(options->inputs);
    for (const InputProblem& failure : inputs.failures) std::fprintf(stderr, "%s\n", FormatProblem(failure).c_str());
    for (const InputProblem& problem : inputs.problems) std::fprintf(stderr, "%s\n", FormatProblem(problem).c_str());
    if (!inputs.any()) {
        std::fprintf(stderr, "gpaprof-report: no input file could be read\n");
        return kExitFailure;
    }

    const Report report = BuildReport(inputs);
    int status = inputs.failures.empty() ? (inputs.problems.empty() ? kExitOk : kExitInputProblems) : kExitFailure;
    auto write = [&](const std::string& path, const std::string& text, const char* what) {
        std::string writeError;
        if (!gpaprof::WriteTextFile(path, text, &writeError)) {
            std::fprintf(stderr, "gpaprof-report: cannot write the %s: %s\n", what, writeError.c_str());
            status = kExitFailure;
            return;
        }
        std::fprintf(stderr, "gpaprof-report: wrote the %s to %s\n", what, path.c_str());
    };
    if (options->htmlPath) write(*options->htmlPath, WriteHtmlReport(report), "HTML report");
    if (options->perfettoPath) {
        if (!inputs.atp) {
            std::fprintf(stderr, "gpaprof-report: --perfetto needs a trace (.atp)\n");
            status = kExitFailure;
        } else {
            write(*options->perfettoPath, WriteTraceEvents(report), "Perfetto trace");
        }
    }
    if (options->text) std::fputs(WriteTextSummary(report).c_str(), stdout);
    return status;
}
