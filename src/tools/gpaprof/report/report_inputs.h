// The files a report is made from: one .atp (trace), one .csv (counters), one .occupancy and one .pmsampling.csv
// (metrics sampled over time), any of them optional but at least one. Each is read with the gpaprof readers; every problem they report is kept with
// its file and line, and the report is made from what could be read.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "tools/gpaprof/files/pm_sampling_file.h"
#include "tools/gpaprof/files/profile_model.h"

namespace gpaprof::report {

enum class InputKind { Atp, Csv, Occupancy, PmSampling };

struct InputProblem {
    std::string path;
    size_t line = 0;  // 1-based; 0 for the whole file
    std::string message;
};

struct ReportInputs {
    std::optional<std::string> atpPath, csvPath, occupancyPath, pmSamplingPath;
    std::optional<AtpFile> atp;
    std::optional<CsvFile> csv;
    std::optional<OccupancyFile> occupancy;
    std::optional<PmSamplingFile> pmSampling;
    std::vector<InputProblem> problems;  // problems in files that were read (the report still shows them)
    std::vector<InputProblem> failures;  // files that could not be used at all (unreadable, unknown kind, twice)
    std::vector<std::string> besideAtp;  // files read because they lie beside the .atp under its name (not named)

    bool any() const { return atp || csv || occupancy || pmSampling; }
};

// The kind from the file name (.atp, .pmsampling.csv, .csv, .occupancy), else from the first line of `text`.
std::optional<InputKind> DetectInputKind(const std::string& path, const std::string& text);

// Reads `paths`; where they hold a .atp and name no .csv, .occupancy or .pmsampling.csv, the files of those kinds
// beside it under its name (what one gpaprof run wrote: run.atp, run.csv, ...) are read too, and listed in
// besideAtp. Naming any file of a kind reads only the named ones of it.
ReportInputs LoadReportInputs(const std::vector<std::string>& paths);
// Reads from texts already in memory (tests): pairs of path and content.
ReportInputs ParseReportInputs(const std::vector<std::pair<std::string, std::string>>& files);

// "path:line: message" ("path: message" for line 0), as compilers write them.
std::string FormatProblem(const InputProblem& problem);

}  // namespace gpaprof::report
