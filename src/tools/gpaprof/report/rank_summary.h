// The cross-rank tables: one row per rank (its device, kernel time, communication kernels' time, host gaps,
// API time, dispatches), the stragglers, and the kernels with the most time over all ranks with their spread
// from rank to rank. docs/gpaprof_report.md, "Several ranks".
//
// Definitions (all times from the rank's own .atp):
//  - kernel time: device time of its completed kernels; communication: the part of it in NCCL kernels
//    (communication_kernels.h); compute: the rest;
//  - host gaps: the time between the rank's first and last device work in which none of its queues or streams
//    ran anything (kernels, transfers, other commands): the device waiting for the host;
//  - API time: host time inside the traced API calls, every thread;
//  - own work: compute + host gaps, what the rank spends on its own share of a step. Its communication time is
//    left out: the other ranks spend theirs waiting in NCCL kernels for the slowest one, so that a straggler
//    has the most own work and the least communication;
//  - a straggler: a rank whose own work is more than `stragglerSharePercent` above the median of the ranks
//    that ran device work.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "tools/gpaprof/report/timeline.h"

namespace gpaprof::report {

inline constexpr double kDefaultStragglerSharePercent = 10.0;
inline constexpr size_t kDefaultTopKernels = 10;

struct RankKernelTotal {
    uint64_t dispatches = 0;
    uint64_t ns = 0;
};

struct RankRow {
    std::string path;
    std::optional<int64_t> rank;
    std::string rankFrom;                 // "ProcessRank RANK=3", "file name", "none"
    std::string host;                     // HostName=, when the file says
    std::string clockId;                  // ClockId=, when the file says
    std::vector<std::string> devices;     // devices its work ran on, in order of first use
    uint64_t dispatches = 0;              // completed kernel dispatches
    uint64_t incomplete = 0;              // kernel dispatches without device times
    uint64_t communicationDispatches = 0;
    uint64_t kernelNs = 0, communicationNs = 0;
    uint64_t hostGapNs = 0;
    uint64_t apiCalls = 0, apiNs = 0;
    uint64_t begin = 0, end = 0;          // first and last time of the trace, its own clock
    uint64_t deviceBegin = 0, deviceEnd = 0;  // first device start and last device end (0, 0 without device work)
    std::optional<uint64_t> firstCommunicationEnd;  // end of its earliest-starting communication kernel
    std::map<std::string, RankKernelTotal> kernels;  // by kernel name
    size_t problems = 0;                  // lines of the file the reader could not take

    uint64_t computeNs() const { return kernelNs - communicationNs; }
    uint64_t ownWorkNs() const { return computeNs() + hostGapNs; }
    bool hasDeviceWork() const { return deviceEnd > deviceBegin; }
    // "rank 3", or the file name for a file without a rank.
    std::string Label() const;
};

// One rank's row from its timeline (path, rank and problems are the caller's).
RankRow SummarizeRank(const Timeline& timeline, const SessionInfo& session);

struct RankStanding {
    double ownWorkNs = 0.0;
    double aboveMedianPercent = 0.0;  // own work against the median, in percent (negative below it)
    bool straggler = false;
};

struct StragglerVerdict {
    double sharePercent = kDefaultStragglerSharePercent;
    double medianOwnWorkNs = 0.0;
    size_t ranksCompared = 0;              // ranks with device work
    std::vector<RankStanding> standing;    // per row (rows without device work: not compared, not stragglers)
    std::vector<size_t> stragglers;        // rows, most above the median first
};

StragglerVerdict FindStragglers(const std::vector<RankRow>& rows, double sharePercent);

struct KernelSpread {
    std::string name;
    bool communication = false;
    size_t ranks = 0;                      // ranks that ran it
    uint64_t dispatches = 0, totalNs = 0;  // over all ranks
    // Per-rank totals over the ranks that ran it; the rows with the least and the most.
    uint64_t minNs = 0, maxNs = 0;
    double medianNs = 0.0;
    size_t minRow = 0, maxRow = 0;
};

// The `count` kernels (by name) with the most device time over all rows, most first.
std::vector<KernelSpread> SpreadKernels(const std::vector<RankRow>& rows, size_t count);

double Median(std::vector<double> values);

}  // namespace gpaprof::report
