// The files of a cross-rank report (gpaprof-report over several processes' .atp files, or a folder of them):
// which traces there are, which rank each belongs to, and reading them on several threads.
//
// A rank comes from, in this order:
//  1. the file's ProcessRank= header line: the launcher's rank variable in the profiled process (RANK,
//     OMPI_COMM_WORLD_RANK, ...; gpaprof writes it, docs/profiler_files.md);
//  2. the file name, as `-o run_%q{RANK}` made it: the number after "rank" when every name has one, else the
//     first number position whose values tell all the files apart (run_3.atp; resnet18_run_3.atp among
//     resnet18_run_*; run_3.4321.atp, a second process's name with its pid), else each name's last number
//     when no two names share it (run_0, run_1 and a launcher's run_unset-RANK);
//  3. none: the file is reported under its name, without a rank.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "tools/gpaprof/files/parse_result.h"
#include "tools/gpaprof/files/profile_model.h"
#include "tools/gpaprof/report/report_inputs.h"

namespace gpaprof::report {

// Whether the command line's inputs ask for the cross-rank report: a folder, or more than one trace (.atp by
// name, or by a first line "TraceFileVersion="; one path given twice counts once).
bool IsCrossRankInput(const std::vector<std::string>& inputs);

struct RankFileSet {
    std::vector<std::string> traces;      // the .atp files: as given, a folder's sorted by name
    std::vector<InputProblem> failures;   // inputs that could not be used at all, with the reason
    std::vector<std::string> leftOut;     // inputs not read, with why (.csv, .occupancy: the report reads traces)
};

// Folders stand for the .atp files directly in them.
RankFileSet FindRankFiles(const std::vector<std::string>& inputs);

// The rank each file name gives (rule 2 above), in the order of `paths`.
std::vector<std::optional<int64_t>> RanksFromFileNames(const std::vector<std::string>& paths);

// The rank a trace's ProcessRank= line gives, when its value is an integer.
std::optional<int64_t> RankFromHeader(const SessionInfo& session);

struct RankTraceRead {
    std::optional<AtpFile> atp;            // absent when the file could not be read at all
    std::vector<ParseProblem> problems;    // lines the reader could not take (the rest was read)
    std::string failure;                   // why the file could not be read at all
};

// Reads every trace, `workers` at a time; `use(index, read)` runs on the reading thread, once per path, and
// may move the file out of `read`.
void ReadRankTraces(const std::vector<std::string>& paths, size_t workers,
                    const std::function<void(size_t, RankTraceRead&)>& use);

}  // namespace gpaprof::report
