// Context summary: per API part, context and device, the queues (streams) used and the device work:
// kernels, transfers (count, bytes, time) and other commands.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tools/gpaprof/report/timeline.h"

namespace gpaprof::report {

struct ContextStats {
    std::string api;
    std::string context;           // "context 1 (0x...)"; "-" when the trace does not say
    std::string device;
    std::vector<std::string> queues;  // in order of first use
    uint64_t kernels = 0, kernelNs = 0;
    uint64_t transfers = 0, transferBytes = 0, transferNs = 0;
    uint64_t otherCommands = 0;
    uint64_t incomplete = 0;       // commands that never completed
};

// In order of each context's first command.
std::vector<ContextStats> SummarizeContexts(const Timeline& timeline);

}  // namespace gpaprof::report
