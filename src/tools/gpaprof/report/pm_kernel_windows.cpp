#include "tools/gpaprof/report/pm_kernel_windows.h"

#include <algorithm>

#include "pm_sampling/metric_sets.h"

namespace gpaprof::report {
namespace {

using gpa::pm_sampling::Integration;
using gpa::pm_sampling::WindowQuality;
using gpa::pm_sampling::WindowResult;
using gpa::pm_sampling::WindowSample;

// Timestamp lines write device names with '_' for spaces: the trace header's spelling when one matches, else the
// sample file's name for the index (a CUDA trace has no device headers), else as written.
std::string DeviceName(const KernelTimestamp& entry, const std::vector<DeviceHeader>& devices,
                       const std::vector<PmSamplingDevice>& sampled) {
    for (const DeviceHeader& device : devices) {
        std::string underscored = device.name;
        std::replace(underscored.begin(), underscored.end(), ' ', '_');
        if (underscored == entry.agentName) return device.name;
    }
    for (const PmSamplingDevice& device : sampled) {
        if (device.index == entry.deviceIndex) return device.name;
    }
    return entry.agentName;
}

// The derived metrics whose parts are all integrated metrics of the file, after them.
void AddDerived(std::vector<PmWindowMetric>* metrics) {
    for (const gpa::pm_sampling::LargestOfParts& derived : gpa::pm_sampling::WindowDerivedMetrics()) {
        PmWindowMetric metric{0, derived.name, false, true, {}};
        for (const std::string& part : derived.parts) {
            const auto found = std::find_if(metrics->begin(), metrics->end(), [&](const PmWindowMetric& m) {
                return m.largestOf.empty() && m.metric == part;
            });
            if (found == metrics->end()) break;
            metric.largestOf.push_back(static_cast<size_t>(found - metrics->begin()));
            metric.percent = metric.percent && found->percent;
        }
        if (metric.largestOf.size() == derived.parts.size()) metrics->push_back(std::move(metric));
    }
}

// A derived metric's value: the largest of its parts', NA (saying which part) where one is NA.
void Derive(const std::vector<PmWindowMetric>& metrics, size_t m, PmKernelWindow* kernel) {
    std::optional<double> largest;
    for (const size_t part : metrics[m].largestOf) {
        if (!kernel->values[part]) {
            kernel->values[m] = std::nullopt;
            kernel->valueWhy[m] = metrics[part].metric + " is NA";
            return;
        }
        largest = std::max(largest.value_or(*kernel->values[part]), *kernel->values[part]);
    }
    kernel->values[m] = largest;
}

void Integrate(const PmSamplingFile& file, const std::vector<PmWindowMetric>& metrics, PmKernelWindow* kernel) {
    kernel->values.assign(metrics.size(), std::nullopt);
    kernel->valueWhy.assign(metrics.size(), std::string());
    const bool sampled = std::any_of(file.devices.begin(), file.devices.end(),
                                     [&](const PmSamplingDevice& d) { return d.index == kernel->deviceIndex; });
    if (!sampled) {
        kernel->why = "device " + std::to_string(kernel->deviceIndex) + " was not sampled";
        return;
    }
    // The file's metrics are integrated; the derived ones, after them, are made from those.
    const size_t integrated = static_cast<size_t>(std::count_if(
        metrics.begin(), metrics.end(), [](const PmWindowMetric& m) { return m.largestOf.empty(); }));
    std::vector<std::string> names;
    for (size_t m = 0; m < integrated; ++m) names.push_back(metrics[m].metric);
    std::vector<WindowSample> samples;
    for (const PmSample& row : file.rows) {
        if (row.device != kernel->deviceIndex) continue;
        const bool meets = row.endNs > kernel->startNs && row.startNs < kernel->endNs;
        // gpaprof's replay ran on the device then: its counts are not the kernel's, and leaving the sample out
        // would only show as a hole when it lies well inside.
        if (row.replay && meets) {
            kernel->why = "samples in the window are gpaprof's kernel replay (flagged replay)";
            return;
        }
        if (row.replay) continue;
        WindowSample sample{row.startNs, row.endNs, row.droppedBefore, {}};
        for (size_t m = 0; m < integrated; ++m) {
            const size_t column = metrics[m].column;
            sample.values.push_back(column < row.values.size() ? row.values[column] : std::nullopt);
        }
        samples.push_back(std::move(sample));
    }
    const WindowResult result =
        gpa::pm_sampling::IntegrateWindow(names, samples, kernel->startNs, kernel->endNs, file.intervalNs);
    kernel->quality = result.quality;
    kernel->why = result.why;
    for (size_t m = 0; m < integrated && m < result.valueWhy.size(); ++m) kernel->valueWhy[m] = result.valueWhy[m];
    const double seconds = static_cast<double>(kernel->duration()) * 1e-9;
    for (size_t m = 0; m < integrated; ++m) {
        if (!result.values[m]) continue;
        kernel->values[m] = metrics[m].rate ? *result.values[m] / seconds : *result.values[m];
    }
    for (size_t m = integrated; m < metrics.size(); ++m) Derive(metrics, m, kernel);
}

}  // namespace

const char* WindowQualityName(WindowQuality quality) {
    switch (quality) {
        case WindowQuality::Measured: return "measured";
        case WindowQuality::Approximate: return "approximate";
        case WindowQuality::Refused: return "refused";
    }
    return "refused";
}

std::optional<PmKernelWindows> IntegrateKernelWindows(const AtpFile& atp, const PmSamplingFile& samples, size_t top) {
    std::vector<PmKernelWindow> kernels;
    for (const ApiTracePart& part : atp.parts) {
        for (const KernelTimestamp& entry : part.kernelTimestamps) {
            // Zero times: the kernel never completed; a device index past 32 bits names no sampled device.
            if (entry.end <= entry.start || entry.deviceIndex > UINT32_MAX) continue;
            PmKernelWindow kernel;
            kernel.name = entry.kernelName;
            kernel.device = DeviceName(entry, atp.session.devices, samples.devices);
            kernel.deviceIndex = static_cast<uint32_t>(entry.deviceIndex);
            kernel.startNs = entry.start;
            kernel.endNs = entry.end;
            kernels.push_back(std::move(kernel));
        }
    }
    if (kernels.empty()) return std::nullopt;
    PmKernelWindows windows;
    for (size_t m = 0; m < samples.metrics.size(); ++m) {
        std::string why;
        const Integration how = gpa::pm_sampling::IntegrationOf(samples.metrics[m], &why);
        if (how == Integration::None) {
            windows.notIntegrated.push_back(samples.metrics[m] + ": " + why);
            continue;
        }
        windows.metrics.push_back({m, samples.metrics[m], how == Integration::Sum, IsPercentMetric(samples.metrics[m]), {}});
    }
    AddDerived(&windows.metrics);
    std::stable_sort(kernels.begin(), kernels.end(), [](const PmKernelWindow& a, const PmKernelWindow& b) {
        if (a.duration() != b.duration()) return a.duration() > b.duration();
        return a.startNs < b.startNs;
    });
    if (kernels.size() > top) {
        windows.others = kernels.size() - top;
        kernels.resize(top);
    }
    for (PmKernelWindow& kernel : kernels) Integrate(samples, windows.metrics, &kernel);
    windows.kernels = std::move(kernels);
    return windows;
}

}  // namespace gpaprof::report
