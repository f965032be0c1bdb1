#include "tools/gpaprof/report/report_inputs.h"

#include "tools/gpaprof/files/atp_file.h"
#include "tools/gpaprof/files/csv_file.h"
#include "tools/gpaprof/files/file_io.h"
#include "tools/gpaprof/files/occupancy_file.h"
#include "tools/gpaprof/files/pm_sampling_file.h"
#include "tools/gpaprof/files/text_fields.h"

namespace gpaprof::report {
namespace {

bool EndsWith(const std::string& text, const std::string& suffix) {
    return text.size() >= suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

const char* KindName(InputKind kind) {
    switch (kind) {
        case InputKind::Atp: return ".atp";
        case InputKind::Csv: return ".csv";
        case InputKind::Occupancy: return ".occupancy";
        case InputKind::PmSampling: return kPmSamplingSuffix;
    }
    return "";
}

template <typename File>
void Keep(const std::string& path, Parsed<File> parsed, std::optional<File>* slot, std::vector<InputProblem>* problems) {
    for (const ParseProblem& problem : parsed.problems) problems->push_back({path, problem.line, problem.message});
    *slot = std::move(parsed.file);
}

void AddFile(const std::string& path, const std::string& text, ReportInputs* inputs) {
    std::optional<InputKind> kind = DetectInputKind(path, text);
    if (!kind) {
        inputs->failures.push_back({path, 0, "not a profiler file: expected a .atp, .csv, .occupancy or .pmsampling.csv file"});
        return;
    }
    const bool taken = (*kind == InputKind::Atp && inputs->atpPath) || (*kind == InputKind::Csv && inputs->csvPath) ||
                       (*kind == InputKind::Occupancy && inputs->occupancyPath) ||
                       (*kind == InputKind::PmSampling && inputs->pmSamplingPath);
    if (taken) {
        inputs->failures.push_back({path, 0, std::string("a second ") + KindName(*kind) +
                                                 " file; a report is made from one session's files"});
        return;
    }
    switch (*kind) {
        case InputKind::Atp:
            inputs->atpPath = path;
            Keep(path, ParseAtp(text), &inputs->atp, &inputs->problems);
            break;
        case InputKind::Csv:
            inputs->csvPath = path;
            Keep(path, ParseCsv(text), &inputs->csv, &inputs->problems);
            break;
        case InputKind::Occupancy:
            inputs->occupancyPath = path;
            Keep(path, ParseOccupancy(text), &inputs->occupancy, &inputs->problems);
            break;
        case InputKind::PmSampling:
            inputs->pmSamplingPath = path;
            Keep(path, ParsePmSampling(text), &inputs->pmSampling, &inputs->problems);
            break;
    }
}

}  // namespace

std::optional<InputKind> DetectInputKind(const std::string& path, const std::string& text) {
    if (EndsWith(path, ".atp")) return InputKind::Atp;
    if (EndsWith(path, kPmSamplingSuffix)) return InputKind::PmSampling;  // before .csv, which it ends with
    if (EndsWith(path, ".csv")) return InputKind::Csv;
    if (EndsWith(path, ".occupancy")) return InputKind::Occupancy;
    std::string_view first = text;
    first = first.substr(0, first.find('\n'));
    if (StartsWith(first, "TraceFileVersion=")) return InputKind::Atp;
    if (StartsWith(first, "#ProfileFileVersion=")) return InputKind::Csv;
    if (StartsWith(first, "# ProfilerVersion=")) return InputKind::Occupancy;
    if (StartsWith(first, "# PmSamplingFileVersion=")) return InputKind::PmSampling;
    return std::nullopt;
}

ReportInputs ParseReportInputs(const std::vector<std::pair<std::string, std::string>>& files) {
    ReportInputs inputs;
    for (const auto& [path, text] : files) AddFile(path, text, &inputs);
    return inputs;
}

ReportInputs LoadReportInputs(const std::vector<std::string>& paths) {
    ReportInputs inputs;
    for (const std::string& path : paths) {
        std::string error;
        std::optional<std::string> text = ReadTextFile(path, &error);
        if (!text) {
            inputs.failures.push_back({path, 0, error});
            continue;
        }
        AddFile(path, *text, &inputs);
    }
    if (inputs.atpPath && EndsWith(*inputs.atpPath, ".atp")) {
        const std::string stem = inputs.atpPath->substr(0, inputs.atpPath->size() - 4);
        const std::pair<std::optional<std::string>*, std::string> siblings[] = {
            {&inputs.csvPath, stem + ".csv"},
            {&inputs.occupancyPath, stem + ".occupancy"},
            {&inputs.pmSamplingPath, stem + kPmSamplingSuffix}};
        for (const auto& [slot, path] : siblings) {
            if (*slot) continue;  // a file of this kind was named
            std::string error;
            std::optional<std::string> text = ReadTextFile(path, &error);
            if (!text) continue;  // not there: the run did not write one
            AddFile(path, *text, &inputs);
            inputs.besideAtp.push_back(path);
        }
    }
    return inputs;
}

std::string FormatProblem(const InputProblem& problem) {
    if (problem.line == 0) return problem.path + ": " + problem.message;
    return problem.path + ":" + std::to_string(problem.line) + ": " + problem.message;
}

}  // namespace gpaprof::report
