// What gpaprof tells the in-process agent: written by the command line into <spool>/config, found by the
// agent through the GPAPROF_CONFIG environment variable. One "key=value" per line; repeated keys for lists.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpaprof {

// Environment variables between gpaprof and the processes it profiles.
inline constexpr const char* kConfigEnv = "GPAPROF_CONFIG";          // path of the config file
inline constexpr const char* kAgentLibEnv = "GPAPROF_AGENT_LIB";     // path of libgpaprof_agent.so (markers)

struct AgentConfig {
    bool trace = false;
    bool counters = false;
    bool occupancy = false;
    bool sourceSymbols = false;          // --sym
    std::vector<std::string> counterNames;  // empty with counters: the default set
    std::vector<std::string> kernels;    // -K: profile only these kernels
    std::string kernelRegex;             // --kernel-regex
    uint64_t launchSkip = 0;
    std::optional<uint64_t> launchCount;
    uint64_t maxApiCalls = 1000000;      // per thread and API
    std::vector<std::string> excludedApis;
    // --cuda-trace-all-apis: the CUDA part also listens to cuKernelGetName, which the runtime calls before
    // every launch (left out by default: docs/benchmarks.md, launch-bound tracing).
    bool cudaTraceAllApis = false;
    bool startDisabled = false;
    uint64_t startDelayMs = 0;
    uint64_t durationMs = 0;             // 0: no limit
    bool forceSinglePass = false;
    // --graph-profiling: "node" (every kernel node of a CUDA graph launch is a dispatch) or "graph" (one row per
    // graph launch, its counters over the whole graph).
    std::string graphProfiling = "node";
    uint32_t forcePasses = 0;            // testing aid: replay each profiled dispatch into this many passes
    uint64_t pmSamplingIntervalNs = 0;   // --pm-sampling: 0 = off
    std::vector<std::string> pmMetrics;   // --pm-metrics; empty: the default set
    bool progress = true;
    std::string spoolDirectory;
    std::string outputTemplate;          // absolute, without extension; %p and %q{VAR} resolved by each process
    uint64_t launchTimeNs = 0;           // CLOCK_MONOTONIC when gpaprof started the application
    std::string ranks;                   // --ranks as given (rank_selection.h); empty: every process is profiled
    char listSeparator = ',';

    std::string Serialize() const;
    // Reads what Serialize wrote; unknown keys are ignored (a newer gpaprof), bad values are errors.
    static std::optional<AgentConfig> Parse(const std::string& text, std::string* error);
};

}  // namespace gpaprof
