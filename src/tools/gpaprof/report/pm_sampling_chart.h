// A .pmsampling.csv in the HTML report's timeline chart: one lane per device and metric under the kernel lanes,
// on the same time axis (zoom and pan move them together), each sample a bar as high as its value against the
// lane's top (100 for percent metrics, the lane's largest value otherwise). A page holds at most `maxBarsPerLane`
// bars per lane: where the samples are more, neighbouring ones are drawn as one bar of their mean weighted by
// length (the tooltip says of how many). NA samples draw nothing and end a bar; samples flagged replay are drawn
// grey, samples after lost ones red, each merged only with samples of the same flag.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "tools/gpaprof/files/pm_sampling_file.h"

namespace gpaprof::report::html_charts {

// Item kinds of the sample bars (CSS classes k6..k8 in html_assets.cpp; k0..k5 are the timeline's own).
enum PmBarKind { kPmSample = 6, kPmReplay = 7, kPmAfterLost = 8 };

struct PmChartLane {
    std::string name;    // "device <N>: <metric>"
    double top = 0;      // the value a full-height bar stands for
    bool percent = false;
};

struct PmChartBar {
    size_t lane = 0;     // index in PmChart::lanes
    uint64_t start = 0;  // ns from `begin`
    uint64_t duration = 0;
    double value = 0;
    int kind = kPmSample;
    size_t samples = 1;  // how many samples the bar stands for
};

struct PmChart {
    std::vector<PmChartLane> lanes;
    std::vector<PmChartBar> bars;
};

// `begin`, `end`: the chart's time span (CPU-clock ns).
PmChart BuildPmSamplingChart(const PmSamplingFile& file, uint64_t begin, uint64_t end, size_t maxBarsPerLane);

}  // namespace gpaprof::report::html_charts
