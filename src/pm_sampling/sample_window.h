// What a window of time held, from the PM samples around it: the counters of a GPA sample on a device sampled by
// the PM-sampling engine (the Vulkan layer's cumulative samples and the GL backend's NVIDIA counters, issue 35/36,
// integrate over the sample's GPU begin and end timestamps). Pure arithmetic on samples; no GPU.
//
// A sample that lies partly in the window counts by the share of its time inside (its rate taken as even within
// it): exact for the samples wholly inside, an estimate at the two edges. So a window of few intervals is mostly
// edge, and is said to be approximate; a window with samples missing inside it is refused, never filled in.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpa::pm_sampling {

// How a metric (ncu's name: base.rollup[.submetric]) adds up over time.
enum class Integration {
    Sum,       // a count (`.sum`, `.avg` without submetric): the samples' counts, by their share inside
    TimeMean,  // a rate against elapsed time (`.per_second`, `..._elapsed`): the mean over the window's time
    None,      // neither (`.max`/`.min` of instances, ratios over active cycles): no value, with the reason
};
Integration IntegrationOf(std::string_view metric, std::string* why = nullptr);

struct WindowSample {
    uint64_t startNs = 0, endNs = 0;           // one clock with the window's (CPU ns)
    bool droppedBefore = false;                // samples are missing before it
    std::vector<std::optional<double>> values;  // per metric; nullopt: not known
};

enum class WindowQuality {
    Measured,     // at least `minIntervals` intervals long, no sample missing inside
    Approximate,  // shorter: the edge samples' estimate weighs on the values (edgeShare says how much)
    Refused,      // samples missing inside the window, or none covers it: no values
};

struct WindowRules {
    uint32_t minIntervals = 4;  // a window shorter than this many intervals is Approximate
};

struct WindowResult {
    WindowQuality quality = WindowQuality::Refused;
    std::string why;                            // for Approximate and Refused
    std::vector<std::optional<double>> values;  // per metric; all nullopt when refused
    std::vector<std::string> valueWhy;          // per metric: why a value is missing, else empty
    double coverage = 0;   // share of the window's time inside samples
    double edgeShare = 0;  // share of the window's time inside samples that reach out of it
    uint32_t samples = 0;  // samples that met the window
};

// `samples` of one device in time order, `metrics` naming their values; [beginNs, endNs).
WindowResult IntegrateWindow(const std::vector<std::string>& metrics, const std::vector<WindowSample>& samples,
                             uint64_t beginNs, uint64_t endNs, uint64_t intervalNs, const WindowRules& rules = {});

}  // namespace gpa::pm_sampling
