// The report as one self-contained HTML page: inline style and script, no network, no other files.
// Tables are written as HTML (readable without JavaScript); the charts (timeline per thread and queue,
// top kernels, API time per function) are drawn by the inline script from JSON embedded in the page.
// Every text that comes from the trace is escaped: HTML-escaped in the page, script-safe in the JSON.
#pragma once

#include <cstddef>
#include <string>

#include "tools/gpaprof/report/report.h"

namespace gpaprof::report {

struct HtmlOptions {
    size_t maxTimelineItems = 20000;  // the longest items are kept; the Perfetto export has them all
    size_t maxTableRows = 2000;       // kernel list, counter and occupancy tables
    size_t maxSampleBarsPerLane = 2000;  // PM samples: more are drawn as means of neighbours (pm_sampling_chart.h)
};

std::string WriteHtmlReport(const Report& report, const HtmlOptions& options = {});

}  // namespace gpaprof::report
