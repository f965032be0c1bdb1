#include "backends/gl/gpu_clock_calibration.h"

#include <cmath>
#include <cstdint>

namespace gpa::gl {

std::optional<ClockCalibration> BestCalibration(const std::vector<ClockReading>& readings) {
    std::optional<ClockCalibration> best;
    for (const ClockReading& reading : readings) {
        if (reading.cpuAfterNs < reading.cpuBeforeNs) continue;
        const uint64_t bracket = reading.cpuAfterNs - reading.cpuBeforeNs;
        if (best && bracket / 2 >= best->uncertaintyNs) continue;
        best = ClockCalibration{reading.cpuBeforeNs + bracket / 2, reading.gpuNs, bracket / 2};
    }
    return best;
}

uint64_t GpuToCpuNs(uint64_t gpuNs, const ClockCalibration& first, const std::optional<ClockCalibration>& second,
                    uint64_t minSpanNs) {
    // Differences as doubles: the clocks' epochs are far apart (boot vs. the GPU's own), their spans are not.
    double slope = 1.0;
    if (second) {
        const double gpuSpan = static_cast<double>(second->gpuNs) - static_cast<double>(first.gpuNs);
        const double cpuSpan = static_cast<double>(second->cpuNs) - static_cast<double>(first.cpuNs);
        if (std::fabs(gpuSpan) >= static_cast<double>(minSpanNs) && std::fabs(cpuSpan) >= static_cast<double>(minSpanNs)) {
            slope = cpuSpan / gpuSpan;
        }
    }
    const double sinceFirst = gpuNs >= first.gpuNs ? static_cast<double>(gpuNs - first.gpuNs)
                                                    : -static_cast<double>(first.gpuNs - gpuNs);
    const int64_t shift = std::llround(sinceFirst * slope);
    if (shift < 0 && static_cast<uint64_t>(-shift) > first.cpuNs) return 0;
    return first.cpuNs + static_cast<uint64_t>(shift);
}

}  // namespace gpa::gl
