// --ranks: which processes of a launcher's job are profiled, by the rank the launcher gave each (torchrun's RANK,
// mpirun's OMPI_COMM_WORLD_RANK, ...). Profiling a few ranks of a large job costs the others nothing, and ranks that
// share one GPU can take turns with its counters, which serve one process at a time (docs/gpaprof.md, "Ranks").
// A process left out runs unprofiled and leaves a line in the spool directory, so that gpaprof can say so.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tools/gpaprof/spool/output_template.h"  // EnvironmentLookup

namespace gpaprof {

class RankSelection {
public:
    // "0", "0,8,16", "0-3,8": ranks and inclusive ranges, comma-separated; nullopt with the reason otherwise.
    static std::optional<RankSelection> Parse(std::string_view text, std::string* error);
    bool Contains(uint64_t rank) const;

private:
    std::vector<std::pair<uint64_t, uint64_t>> ranges_;
};

// The variable that holds a process's rank and its value: the first of RANK, OMPI_COMM_WORLD_RANK, PMI_RANK,
// PMIX_RANK, SLURM_PROCID and MV2_COMM_WORLD_RANK that is set and not empty.
struct ProcessRank {
    std::string variable;
    std::string value;
};
std::optional<ProcessRank> FindProcessRank(const EnvironmentLookup& lookup);

// Whether a process of this rank (none: a launcher, or a process started outside the job) is profiled.
bool RankSelected(const RankSelection& selection, const std::optional<ProcessRank>& rank);

// The spool directory's record of a process left out: "<pid>.left-out", holding "VARIABLE=value" or nothing.
std::string LeftOutFileName(long pid);
// One line on the processes of a run that --ranks left out, or empty when there were none.
std::string DescribeLeftOutProcesses(const std::string& spoolDirectory, const std::string& ranksOption);

}  // namespace gpaprof
