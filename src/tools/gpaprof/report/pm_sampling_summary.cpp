#include "tools/gpaprof/report/pm_sampling_summary.h"

#include <algorithm>

#include "tools/gpaprof/report/format_units.h"
#include "tools/gpaprof/report/text_report.h"

namespace gpaprof::report {
namespace {

bool EndsWith(const std::string& text, const std::string& suffix) {
    return text.size() >= suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

std::vector<PmDeviceSummary> SummarizePmSampling(const PmSamplingFile& file) {
    std::vector<PmDeviceSummary> devices;
    for (const PmSamplingDevice& device : file.devices) {
        PmDeviceSummary summary;
        summary.device = device;
        std::vector<double> weighted(file.metrics.size(), 0.0), plain(file.metrics.size(), 0.0);
        for (size_t m = 0; m < file.metrics.size(); ++m) {
            PmMetricSummary metric;
            metric.metric = file.metrics[m];
            metric.percent = IsPercentMetric(metric.metric);
            metric.sum = EndsWith(metric.metric, ".sum");
            summary.metrics.push_back(metric);
        }
        bool first = true;
        for (const PmSample& row : file.rows) {
            if (row.device != device.index) continue;
            ++summary.samples;
            if (first || row.startNs < summary.firstNs) summary.firstNs = row.startNs;
            summary.lastNs = std::max(summary.lastNs, row.endNs);
            first = false;
            if (row.droppedBefore) ++summary.droppedBefore;
            if (row.replay) {
                ++summary.replaySamples;
                continue;
            }
            const uint64_t length = row.endNs - row.startNs;
            for (size_t m = 0; m < summary.metrics.size(); ++m) {
                PmMetricSummary& metric = summary.metrics[m];
                const std::optional<double> value = m < row.values.size() ? row.values[m] : std::nullopt;
                if (!value) {
                    ++metric.missing;
                    continue;
                }
                ++metric.samples;
                metric.sampledNs += length;
                weighted[m] += *value * static_cast<double>(length);
                plain[m] += *value;
                metric.max = metric.max ? std::max(*metric.max, *value) : *value;
                if (metric.sum) metric.total = metric.total.value_or(0.0) + *value;
                if (metric.percent) metric.above50Ns = metric.above50Ns.value_or(0) + (*value > 50.0 ? length : 0);
            }
        }
        for (size_t m = 0; m < summary.metrics.size(); ++m) {
            PmMetricSummary& metric = summary.metrics[m];
            if (!metric.samples) continue;
            metric.mean = metric.sampledNs ? weighted[m] / static_cast<double>(metric.sampledNs)
                                           : plain[m] / static_cast<double>(metric.samples);
        }
        devices.push_back(std::move(summary));
    }
    return devices;
}

std::string FormatMetricValue(double value, bool percent) {
    if (percent) return FormatDecimal(value, 1) + " %";
    return FormatDecimal(value, value >= 1000.0 || value <= -1000.0 ? 0 : 3);
}

std::string WritePmSamplingText(const PmSamplingFile& file, const std::vector<PmDeviceSummary>& devices) {
    std::string text = "\nPM sampling (" + std::to_string(file.rows.size()) + " samples, interval " +
                       FormatDuration(static_cast<double>(file.intervalNs)) + ")\n";
    text += "  samples flagged replay (gpaprof -p replaying kernels) are left out of the numbers; NA is not 0\n";
    for (const PmSamplingLeftOut& left : file.leftOut) text += "  not sampled: " + left.metric + ": " + left.reason + "\n";
    for (const PmDeviceSummary& device : devices) {
        text += "\n  device " + std::to_string(device.device.index) + ": " + device.device.name + " (" +
                device.device.chip + "): " + std::to_string(device.samples) + " samples";
        if (device.samples) {
            text += " over " + FormatDuration(static_cast<double>(device.lastNs - device.firstNs));
        }
        text += ", " + std::to_string(device.replaySamples) + " in replay windows, " +
                std::to_string(device.droppedBefore) + " after lost samples\n";
        std::vector<std::vector<std::string>> rows = {
            {"metric", "samples", "NA", "mean", "max", "above 50 %", "total", "rate (per s)"}};
        for (const PmMetricSummary& metric : device.metrics) {
            std::string above = "-";
            if (metric.above50Ns && metric.sampledNs) {
                above = FormatDuration(static_cast<double>(*metric.above50Ns)) + " (" +
                        FormatDecimal(100.0 * static_cast<double>(*metric.above50Ns) / static_cast<double>(metric.sampledNs), 1) +
                        " %)";
            }
            std::string rate = "-";
            if (metric.total && metric.sampledNs) {
                rate = FormatDecimal(*metric.total / static_cast<double>(metric.sampledNs), 3) + " G";
            }
            rows.push_back({metric.metric, std::to_string(metric.samples), std::to_string(metric.missing),
                            metric.mean ? FormatMetricValue(*metric.mean, metric.percent) : "NA",
                            metric.max ? FormatMetricValue(*metric.max, metric.percent) : "NA", above,
                            metric.total ? FormatMetricValue(*metric.total, false) : "-", rate});
        }
        text += FormatColumns(rows);
    }
    return text;
}

}  // namespace gpaprof::report
