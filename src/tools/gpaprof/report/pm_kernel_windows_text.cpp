#include <algorithm>

#include "tools/gpaprof/report/format_units.h"
#include "tools/gpaprof/report/pm_kernel_windows_views.h"
#include "tools/gpaprof/report/pm_sampling_summary.h"
#include "tools/gpaprof/report/text_report.h"

namespace gpaprof::report {

using gpa::pm_sampling::WindowQuality;

std::string ShortKernelName(const std::string& name) {
    constexpr size_t kLimit = 72;
    return name.size() <= kLimit ? name : name.substr(0, kLimit - 3) + "...";
}

std::string PmKernelMetricHeading(const PmWindowMetric& metric) { return metric.metric + (metric.rate ? "/s" : ""); }

std::string PmKernelValueText(const PmKernelWindows& windows, const PmKernelWindow& kernel, size_t metric) {
    if (kernel.quality == WindowQuality::Refused) return "-";
    const std::optional<double>& value = kernel.values[metric];
    if (!value) return "NA";
    if (windows.metrics[metric].rate) return FormatDecimal(*value * 1e-9, 3) + " G";
    return FormatMetricValue(*value, windows.metrics[metric].percent);
}

std::string WritePmKernelWindowsText(const PmKernelWindows& windows, uint64_t traceBegin) {
    const size_t shown = windows.kernels.size();
    std::string text = "\nKernels as the PM samples saw them (" +
                       (windows.others ? "the " + std::to_string(shown) + " longest of " : std::string()) +
                       std::to_string(shown + windows.others) + (shown + windows.others == 1 ? " kernel)\n" : " kernels)\n");
    text += "  each kernel's window integrated over its device's samples (docs/pm_sampling.md): .sum metrics per "
            "second of the window (G = 10^9), rates averaged over it; replay samples are never used\n";
    for (const std::string& left : windows.notIntegrated) text += "  not integrated: " + left + "\n";
    std::vector<std::string> header = {"kernel", "device", "start", "duration", "quality"};
    for (const PmWindowMetric& metric : windows.metrics) header.push_back(PmKernelMetricHeading(metric));
    std::vector<std::vector<std::string>> rows = {header};
    std::vector<std::string> reasons;  // footnotes, each reason once
    for (const PmKernelWindow& kernel : windows.kernels) {
        std::string quality = WindowQualityName(kernel.quality);
        if (kernel.quality == WindowQuality::Refused) {
            auto found = std::find(reasons.begin(), reasons.end(), kernel.why);
            if (found == reasons.end()) found = reasons.insert(reasons.end(), kernel.why);
            quality += " [" + std::to_string(found - reasons.begin() + 1) + "]";
        }
        std::vector<std::string> row = {ShortKernelName(kernel.name), std::to_string(kernel.deviceIndex) + ": " + kernel.device,
                                        FormatDuration(static_cast<double>(kernel.startNs - std::min(traceBegin, kernel.startNs))),
                                        FormatDuration(static_cast<double>(kernel.duration())), quality};
        for (size_t m = 0; m < windows.metrics.size(); ++m) row.push_back(PmKernelValueText(windows, kernel, m));
        rows.push_back(std::move(row));
    }
    text += FormatColumns(rows);
    for (size_t i = 0; i < reasons.size(); ++i) text += "  [" + std::to_string(i + 1) + "] " + reasons[i] + "\n";
    if (windows.others) {
        text += "  and " + std::to_string(windows.others) + (windows.others == 1 ? " other kernel" : " other kernels") +
                ", shorter, not shown\n";
    }
    return text;
}

}  // namespace gpaprof::report
