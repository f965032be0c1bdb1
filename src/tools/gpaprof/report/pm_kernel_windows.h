// The kernels of a trace as the PM samples saw them: each kernel's device window (the .atp kernel timestamp
// section, CPU-clock ns) integrated over the .pmsampling.csv samples of its device (the kernel line's device index
// is the file's Device<N>) by pm_sampling::IntegrateWindow (docs/pm_sampling.md): counts added up by each sample's
// share inside the window, rates averaged over its time; a window under 4 intervals is approximate, one with
// samples missing inside it is refused. Samples flagged replay are gpaprof's work, not the kernel's: a window
// that meets one is refused, never filled from them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "pm_sampling/sample_window.h"
#include "tools/gpaprof/files/pm_sampling_file.h"
#include "tools/gpaprof/files/profile_model.h"

namespace gpaprof::report {

// A metric of the file that can be integrated (IntegrationOf is not None), or one derived from such metrics
// (pm_sampling::WindowDerivedMetrics: the largest of its parts' window values).
struct PmWindowMetric {
    size_t column = 0;    // index in PmSamplingFile::metrics; for a derived one, unused
    std::string metric;
    bool rate = false;    // a Sum metric: shown as its count over the window's length, per second
    bool percent = false;  // IsPercentMetric
    std::vector<size_t> largestOf;  // a derived metric: the indices in PmKernelWindows::metrics of its parts
};

struct PmKernelWindow {
    std::string name;
    std::string device;          // the trace's device name
    uint32_t deviceIndex = 0;
    uint64_t startNs = 0, endNs = 0;  // CPU-clock ns
    gpa::pm_sampling::WindowQuality quality = gpa::pm_sampling::WindowQuality::Refused;
    std::string why;             // for approximate and refused windows
    std::vector<std::optional<double>> values;  // per PmKernelWindows::metrics: per second for rates; nullopt: NA
    std::vector<std::string> valueWhy;          // why a value is missing, else empty

    uint64_t duration() const { return endNs - startNs; }
};

struct PmKernelWindows {
    std::vector<PmWindowMetric> metrics;
    std::vector<std::string> notIntegrated;  // "metric: why" for the file's metrics left out
    std::vector<PmKernelWindow> kernels;     // the longest `top`, longest first (ties: earlier first)
    size_t others = 0;                       // completed kernels not shown
};

// Nullopt when the trace has no completed kernel in a kernel timestamp section.
std::optional<PmKernelWindows> IntegrateKernelWindows(const AtpFile& atp, const PmSamplingFile& samples,
                                                      size_t top = 20);

const char* WindowQualityName(gpa::pm_sampling::WindowQuality quality);

}  // namespace gpaprof::report
