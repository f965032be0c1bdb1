// gpaprof's command line: rcprof's option names where rcprof had the option, the rest named like the
// tools users know (nsys, ncu). `gpaprof --help` prints the text of HelpText().
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpaprof::cli {

struct Options {
    bool trace = false;                  // -t
    bool counters = false;               // -p
    bool occupancy = false;              // -O
    bool sourceSymbols = false;          // -y / --sym
    std::string output;                  // -o
    std::string sessionName;             // -N
    std::vector<std::string> counterNames;   // --counters and -c files, in order
    std::vector<std::string> counterFiles;   // -c
    std::string kernelListFile;          // -K
    std::vector<std::string> kernels;    // from -K
    std::string kernelRegex;             // -k / --kernel-regex
    uint64_t launchSkip = 0;             // --launch-skip
    std::string ranks;                   // --ranks (spool/rank_selection.h); empty: every process
    std::optional<uint64_t> launchCount; // -x / --maxkernels / --launch-count
    std::optional<char> separator;       // -s
    std::string apiFilterFile;           // -F
    std::vector<std::string> excludedApis;
    uint64_t maxApiCalls = 1000000;      // -M
    bool cudaTraceAllApis = false;       // --cuda-trace-all-apis: also the calls left out by default (cuKernelGetName)
    bool startDisabled = false;          // --startdisabled
    uint64_t startDelayMs = 0;           // -d
    uint64_t durationMs = 0;             // -D
    std::vector<std::string> environment;  // -e NAME=VALUE, and -E file lines
    std::string environmentFile;         // -E
    bool fullEnvironment = false;        // -f
    std::string workingDirectory;        // -w
    bool listCounters = false;           // -l
    bool forceSinglePass = false;        // --singlepass
    uint32_t forcePasses = 0;            // --force-passes (testing aid)
    std::string graphProfiling = "node"; // --graph-profiling node|graph (CUDA graphs; ncu's name)
    uint64_t pmSamplingIntervalNs = 0;   // --pm-sampling[=INTERVAL]; 0: off
    std::vector<std::string> pmMetrics;  // --pm-metrics, in order, each once; empty: the default set
    bool keepTemporary = false;          // --keep-temp
    bool progress = true;                // --no-progress turns it off
    bool quiet = false;                  // -q
    std::vector<std::string> apis;       // --api opencl,cuda (default: every part that is built)
    bool check = false;                  // --check: validate files instead of running an application
    bool summary = false;                // -T / --summary: <out>.html summary pages from the trace
    bool perfetto = false;               // --perfetto: <out>.json timeline (Chrome trace-event format)
    bool help = false;
    bool version = false;
    std::vector<std::string> command;    // the application and its arguments
};

inline constexpr uint64_t kDefaultPmSamplingIntervalNs = 100000;  // 100 us
// At 10 us and less an H200's sampler skipped whole spans under load (a kernel writing 40 GiB seen as a 47 ms
// sample of 0 bytes); 20 us gave the known bytes within 0.2% (docs/pm_sampling.md, 2026-11-28).
inline constexpr uint64_t kSmallestPmSamplingIntervalNs = 20000;

// Parses argv; false with the reason in *error. Reads the -c, -K, -F and -E files.
bool ParseOptions(int argc, char** argv, Options* options, std::string* error);

std::string HelpText();

// One line for each option given that the modes given leave without effect (--counters without -p, a kernel filter
// without -p or -O, --sym without -t): a run must not silently ignore what the user asked for. Empty when every
// option given has an effect. (Called once the modes are settled.)
std::vector<std::string> OptionsWithoutEffect(const Options& options);

}  // namespace gpaprof::cli
