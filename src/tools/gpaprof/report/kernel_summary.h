// Kernel summary: per kernel (name and device), dispatches and device time (total, average, minimum,
// maximum, share of all kernel time), with the average theoretical occupancy when a .occupancy file is
// given. Device times come from the trace; without a trace, from the .csv Time column.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tools/gpaprof/files/profile_model.h"
#include "tools/gpaprof/report/timeline.h"

namespace gpaprof::report {

struct KernelStats {
    std::string name;
    std::string device;
    std::string api;                    // part name; "" when the times come from a .csv
    uint64_t calls = 0;
    uint64_t totalNs = 0, minNs = 0, maxNs = 0;
    double averageNs = 0.0;
    double sharePercent = 0.0;          // of all kernels' device time
    std::optional<double> occupancyPercent;  // average over the kernel's .occupancy rows
};

struct KernelSummary {
    enum class Source { None, Trace, CounterFile };
    Source source = Source::None;
    uint64_t dispatches = 0;            // completed dispatches counted in the table
    uint64_t incomplete = 0;            // dispatches without device times (never completed)
    uint64_t totalNs = 0;
    std::vector<KernelStats> kernels;   // by total time, longest first; ties by name
};

// Any of the inputs may be null.
KernelSummary SummarizeKernels(const Timeline* timeline, const CsvFile* csv, const OccupancyFile* occupancy);

// The first `count` kernels of the summary (it is sorted by total time).
std::vector<KernelStats> TopKernels(const KernelSummary& summary, size_t count = 10);

}  // namespace gpaprof::report
