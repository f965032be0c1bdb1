#include "tools/gpaprof/report/report_command.h"

#include <string>

#include "tools/gpaprof/files/file_io.h"
#include "tools/gpaprof/report/html_report.h"
#include "tools/gpaprof/report/report.h"
#include "tools/gpaprof/report/report_inputs.h"
#include "tools/gpaprof/report/text_report.h"
#include "tools/gpaprof/report/trace_event_export.h"

namespace gpaprof::report {

int RunReportCommand(const ReportOptions& options, std::FILE* out, std::FILE* errors) {
    const ReportInputs inputs = LoadReportInputs(options.inputs);
    for (const InputProblem& failure : inputs.failures) std::fprintf(errors, "%s\n", FormatProblem(failure).c_str());
    for (const InputProblem& problem : inputs.problems) std::fprintf(errors, "%s\n", FormatProblem(problem).c_str());
    if (!inputs.any()) {
        std::fprintf(errors, "gpaprof-report: no input file could be read\n");
        return kExitFailure;
    }

    const Report report = BuildReport(inputs);
    int status = inputs.failures.empty() ? (inputs.problems.empty() ? kExitOk : kExitInputProblems) : kExitFailure;
    auto write = [&](const std::string& path, const std::string& text, const char* what) {
        std::string error;
        if (!WriteTextFile(path, text, &error)) {
            std::fprintf(errors, "gpaprof-report: cannot write the %s: %s\n", what, error.c_str());
            status = kExitFailure;
            return;
        }
        std::fprintf(errors, "gpaprof-report: wrote the %s to %s\n", what, path.c_str());
    };
    if (options.htmlPath) write(*options.htmlPath, WriteHtmlReport(report), "HTML report");
    if (options.perfettoPath) {
        if (!inputs.atp) {
            std::fprintf(errors, "gpaprof-report: --perfetto needs a trace (.atp)\n");
            status = kExitFailure;
        } else {
            write(*options.perfettoPath, WriteTraceEvents(report), "Perfetto trace");
        }
    }
    if (options.text) std::fputs(WriteTextSummary(report).c_str(), out);
    return status;
}

}  // namespace gpaprof::report
