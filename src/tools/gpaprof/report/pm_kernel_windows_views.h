// The report's views of the kernels as the PM samples saw them (pm_kernel_windows.h): a section of the text
// summary and one of the HTML page. Both show a kernel's start relative to the trace's start, rates in G/s
// (10^9 per second, as the PM sampling summary does), percent metrics in %, and why a window was refused.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tools/gpaprof/report/pm_kernel_windows.h"

namespace gpaprof::report {

// One cell per kernel: NA for a value a sample did not know, "-" for a refused window.
std::string PmKernelValueText(const PmKernelWindows& windows, const PmKernelWindow& kernel, size_t metric);
// The column heading: the metric, with "/s" for rates.
std::string PmKernelMetricHeading(const PmWindowMetric& metric);
// Kernel names run to hundreds of characters (mangled templates): the tables keep their start.
std::string ShortKernelName(const std::string& name);

// `traceBegin`: the trace's first time (Timeline::begin), the zero of the start column.
std::string WritePmKernelWindowsText(const PmKernelWindows& windows, uint64_t traceBegin);
// A <section id="pm-kernels"> with a sortable table; refused windows say why in their quality cell's title.
std::string WritePmKernelWindowsHtml(const PmKernelWindows& windows, uint64_t traceBegin);

}  // namespace gpaprof::report
