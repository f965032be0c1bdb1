// <out>.pmsampling.csv: NVIDIA metrics sampled over time per device (gpaprof --pm-sampling, issue 35), in the
// layout of docs/profiler_files.md: "# Key=Value" header lines (the session's fields, the interval, one line per
// device, the metrics asked for but not sampled), a column row "Device,StartNs,EndNs,Flags,<metric>..." and one
// row per sample, fields joined by the list separator without spaces. Times are CPU-clock nanoseconds, the
// .atp's clock. A value that is not known is NA, never 0. gpaprof writes it from the spool's PM-sampling records
// (spool/spool_pm_sampling.cpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tools/gpaprof/files/parse_result.h"
#include "tools/gpaprof/files/profile_model.h"

namespace gpaprof {

// "# Device<index>=<name> (<chip>)": index is the CUDA device index the sampler was started on.
struct PmSamplingDevice {
    uint32_t index = 0;
    std::string name;   // "NVIDIA H100 80GB HBM3"
    std::string chip;   // "GH100"
    bool operator==(const PmSamplingDevice&) const = default;
};

// "# LeftOut=<metric>: <why>": asked for, not sampled.
struct PmSamplingLeftOut {
    std::string metric;
    std::string reason;
    bool operator==(const PmSamplingLeftOut&) const = default;
};

struct PmSample {
    uint32_t device = 0;             // PmSamplingDevice::index
    uint64_t startNs = 0, endNs = 0;  // CPU-clock ns, the .atp's clock
    bool droppedBefore = false;       // samples before this one were lost (the hardware buffer filled)
    bool replay = false;              // inside a window where gpaprof -p replayed kernels: gpaprof's work
    std::vector<std::optional<double>> values;  // one per metric, in PmSamplingFile::metrics order; empty: NA
    bool operator==(const PmSample&) const = default;
};

struct PmSamplingFile {
    SessionInfo session;              // ProfilerVersion ... ProcessRank, ListSeparator (no device groups)
    uint64_t intervalNs = 0;          // the sampling interval asked for
    std::vector<PmSamplingDevice> devices;
    std::vector<std::string> metrics;  // the metric columns, in order
    std::vector<PmSamplingLeftOut> leftOut;
    std::vector<PmSample> rows;       // in file order; per device by time
    bool operator==(const PmSamplingFile&) const = default;
};

inline constexpr const char* kPmSamplingSuffix = ".pmsampling.csv";
inline constexpr const char* kPmSamplingDroppedBefore = "dropped-before";
inline constexpr const char* kPmSamplingReplay = "replay";

// The separator the file is written with: the session's, unless it can occur inside a field (letters, digits,
// '.', '_', '-', '+' of metric names and numbers, '|' of the flags, '(' ')' ':'), then ','.
char PmSamplingSeparator(char requested);
// A metric whose name ends in "pct_of_peak_sustained_elapsed" or ".pct" (percent of a peak, 0..100).
bool IsPercentMetric(std::string_view metric);

std::string WritePmSampling(const PmSamplingFile& file);
// Strict in what a sample may be: a known device, numbers or NA, EndNs >= StartNs, and per device each sample
// starting at or after the previous one's end; a row that breaks one is reported and left out.
Parsed<PmSamplingFile> ParsePmSampling(std::string_view text, ReadOptions options = {});

bool WritePmSamplingFile(const std::string& path, const PmSamplingFile& file, std::string* error);
Parsed<PmSamplingFile> ReadPmSamplingFile(const std::string& path, ReadOptions options = {});

}  // namespace gpaprof
