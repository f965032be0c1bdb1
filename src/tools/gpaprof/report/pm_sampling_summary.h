// The text report's view of a .pmsampling.csv: per device and metric, how many samples had a value, the mean
// (weighted by each sample's length), the maximum, for percent metrics the time above 50 %, and for .sum metrics
// the total and its rate. Samples flagged replay (gpaprof -p replaying kernels: gpaprof's work, not the
// application's) are counted apart and left out of the numbers; NA values are counted, never taken as 0.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tools/gpaprof/files/pm_sampling_file.h"

namespace gpaprof::report {

struct PmMetricSummary {
    std::string metric;
    bool percent = false;            // IsPercentMetric
    bool sum = false;                // a ".sum" metric: what happened within each sample
    size_t samples = 0;              // samples with a value (replay samples left out)
    size_t missing = 0;              // samples with NA (replay samples left out)
    uint64_t sampledNs = 0;          // the length of the samples with a value
    std::optional<double> mean;      // weighted by sample length; unweighted when every sample has length 0
    std::optional<double> max;
    std::optional<double> total;     // .sum metrics: the sum over the samples
    std::optional<uint64_t> above50Ns;  // percent metrics: the length of the samples above 50
};

struct PmDeviceSummary {
    PmSamplingDevice device;
    size_t samples = 0;              // all rows of the device
    size_t replaySamples = 0;        // of them flagged replay (left out of the metric numbers)
    size_t droppedBefore = 0;        // of them flagged dropped-before: samples were lost before each
    uint64_t firstNs = 0, lastNs = 0;  // the first sample's start, the last one's end
    std::vector<PmMetricSummary> metrics;  // in the file's order
};

std::vector<PmDeviceSummary> SummarizePmSampling(const PmSamplingFile& file);

// "12.5 %" for percent metrics, else the value with three decimals below 1000 and none from there.
std::string FormatMetricValue(double value, bool percent);

// The text report's section: a heading per device and one line per metric.
std::string WritePmSamplingText(const PmSamplingFile& file, const std::vector<PmDeviceSummary>& devices);

}  // namespace gpaprof::report
