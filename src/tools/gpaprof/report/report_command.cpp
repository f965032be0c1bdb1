#include "tools/gpaprof/report/report_command.h"

#include <string>

#include "tools/gpaprof/files/file_io.h"
#include "tools/gpaprof/report/html_report.h"
#include "tools/gpaprof/report/rank_files.h"
#include "tools/gpaprof/report/rank_report.h"
#include "tools/gpaprof/report/rank_text_report.h"
#include "tools/gpaprof/report/rank_timeline_export.h"
#include "tools/gpaprof/report/report.h"
#include "tools/gpaprof/report/report_inputs.h"
#include "tools/gpaprof/report/text_report.h"
#include "tools/gpaprof/report/trace_event_export.h"

namespace gpaprof::report {

namespace {

bool Write(const std::string& path, const std::string& text, const char* what, std::FILE* errors) {
    std::string error;
    if (!WriteTextFile(path, text, &error)) {
        std::fprintf(errors, "gpaprof-report: cannot write the %s: %s\n", what, error.c_str());
        return false;
    }
    std::fprintf(errors, "gpaprof-report: wrote the %s to %s\n", what, path.c_str());
    return true;
}

// Reader problems of many files would bury the rest: the first few of each file, then how many more.
constexpr size_t kProblemsShownPerFile = 10;

int RunCrossRankCommand(const ReportOptions& options, std::FILE* out, std::FILE* errors) {
    if (options.htmlPath) {
        std::fprintf(errors, "gpaprof-report: --html is for one session's files; over several ranks use --text "
                             "and --perfetto\n");
        return kExitUsage;
    }
    CrossRankOptions rankOptions;
    if (options.stragglerSharePercent) rankOptions.stragglerSharePercent = *options.stragglerSharePercent;
    if (options.topKernels) rankOptions.topKernels = *options.topKernels;
    if (options.alignment) rankOptions.alignment = *ParseClockAlignment(*options.alignment);
    const CrossRankReport report = BuildCrossRankReport(options.inputs, rankOptions);

    size_t shown = 0;
    std::string file;
    for (size_t i = 0; i < report.problems.size(); ++i) {
        const InputProblem& problem = report.problems[i];
        if (problem.path != file) {
            file = problem.path;
            shown = 0;
        }
        if (shown++ < kProblemsShownPerFile) {
            std::fprintf(errors, "%s\n", FormatProblem(problem).c_str());
        } else if (i + 1 == report.problems.size() || report.problems[i + 1].path != file) {
            std::fprintf(errors, "%s: %zu more problems not shown\n", file.c_str(), shown - kProblemsShownPerFile);
        }
    }
    for (const InputProblem& failure : report.unreadable) {
        std::fprintf(errors, "gpaprof-report: cannot read %s\n", FormatProblem(failure).c_str());
    }
    if (report.rows.empty()) {
        std::fprintf(errors, "gpaprof-report: no trace could be read\n");
        return kExitFailure;
    }
    int status = kExitOk;
    if (options.perfettoPath) {
        std::vector<InputProblem> again;
        std::string error;
        if (WriteRankTraceEventsFile(report, *options.perfettoPath, rankOptions.workers, &again, &error)) {
            std::fprintf(errors, "gpaprof-report: wrote the Perfetto trace to %s\n", options.perfettoPath->c_str());
        } else {
            std::fprintf(errors, "gpaprof-report: cannot write the Perfetto trace: %s\n", error.c_str());
            status = kExitFailure;
        }
        for (const InputProblem& problem : again) std::fprintf(errors, "%s\n", FormatProblem(problem).c_str());
    }
    if (options.text) {
        std::fputs(WriteRankTextSummary(report).c_str(), out);
    } else {
        for (const std::string& note : report.notes) std::fprintf(errors, "gpaprof-report: note: %s\n", note.c_str());
    }
    return status;
}

}  // namespace

int RunReportCommand(const ReportOptions& options, std::FILE* out, std::FILE* errors) {
    if (IsCrossRankInput(options.inputs)) return RunCrossRankCommand(options, out, errors);
    if (options.stragglerSharePercent || options.alignment || options.topKernels) {
        std::fprintf(errors, "gpaprof-report: note: --straggler-share, --align and --top are for several ranks' "
                             "files; ignored for one session\n");
    }
    const ReportInputs inputs = LoadReportInputs(options.inputs);
    for (const std::string& path : inputs.besideAtp) {
        std::fprintf(errors, "gpaprof-report: also read %s (beside the .atp; name the files to choose)\n", path.c_str());
    }
    for (const InputProblem& failure : inputs.failures) std::fprintf(errors, "%s\n", FormatProblem(failure).c_str());
    for (const InputProblem& problem : inputs.problems) std::fprintf(errors, "%s\n", FormatProblem(problem).c_str());
    if (!inputs.any()) {
        std::fprintf(errors, "gpaprof-report: no input file could be read\n");
        return kExitFailure;
    }

    const Report report = BuildReport(inputs);
    int status = inputs.failures.empty() ? (inputs.problems.empty() ? kExitOk : kExitInputProblems) : kExitFailure;
    auto write = [&](const std::string& path, const std::string& text, const char* what) {
        if (!Write(path, text, what, errors)) status = kExitFailure;
    };
    if (options.htmlPath) write(*options.htmlPath, WriteHtmlReport(report), "HTML report");
    if (options.perfettoPath) {
        if (!inputs.atp && !inputs.pmSampling) {
            std::fprintf(errors, "gpaprof-report: --perfetto needs a trace (.atp) or PM samples (.pmsampling.csv)\n");
            status = kExitFailure;
        } else {
            write(*options.perfettoPath, WriteTraceEvents(report), "Perfetto trace");
        }
    }
    if (options.text) std::fputs(WriteTextSummary(report).c_str(), out);
    return status;
}

}  // namespace gpaprof::report
