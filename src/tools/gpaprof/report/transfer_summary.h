// Data transfers: totals per direction and the ten largest and the ten longest transfers, each with its
// bandwidth (bytes per device nanosecond, i.e. GB/s).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tools/gpaprof/report/timeline.h"

namespace gpaprof::report {

struct TransferRecord {
    std::string api;
    std::string call;              // the API function: clEnqueueWriteBuffer, cudaMemcpyAsync, ...
    std::string command;           // CL_COMMAND_WRITE_BUFFER, ...
    std::string direction;         // "host to device", "device to host", "device to device", "fill", "map", ...
    std::string device;
    std::string queue;
    uint64_t bytes = 0;
    uint64_t start = 0, durationNs = 0;
    double bandwidthGBps = 0.0;    // 0 when the duration is 0
    std::optional<uint64_t> threadId;
    std::optional<uint64_t> callIndex;
};

struct DirectionTotals {
    std::string direction;
    uint64_t transfers = 0;
    uint64_t bytes = 0;
    uint64_t durationNs = 0;
};

struct TransferSummary {
    uint64_t transfers = 0;        // completed transfers
    uint64_t incomplete = 0;
    uint64_t bytes = 0;
    uint64_t durationNs = 0;
    std::vector<DirectionTotals> directions;  // by bytes, most first
    std::vector<TransferRecord> largest;      // top by bytes (ties: longer first, then earlier)
    std::vector<TransferRecord> longest;      // top by duration (ties: larger first, then earlier)
};

TransferSummary SummarizeTransfers(const Timeline& timeline, size_t top = 10);

// The direction of a transfer from its command or API name.
std::string TransferDirection(const std::string& command, const std::string& call);

}  // namespace gpaprof::report
