// GL's GPU timestamps (GL_TIMESTAMP, nanoseconds on the GPU's clock) put on the CPU's CLOCK_MONOTONIC, where the PM
// samples of the device are (pm_sampling/device_sampling.h). A calibration reads the GPU's time
// (glGetInteger64v(GL_TIMESTAMP)) between two CPU readings; the tightest of a few tries gives the offset, and half its
// bracket the uncertainty. Two calibrations (a session's begin and the reading of its results) also give the drift
// between the clocks, which conversion interpolates. Pure arithmetic: the GL calls are the caller's.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace gpa::gl {

struct ClockReading {
    uint64_t cpuBeforeNs = 0;  // CLOCK_MONOTONIC just before asking the GPU's time
    uint64_t gpuNs = 0;        // the GPU's time
    uint64_t cpuAfterNs = 0;   // CLOCK_MONOTONIC just after
};

struct ClockCalibration {
    uint64_t cpuNs = 0;          // the CPU time the GPU time is paired with (the bracket's middle)
    uint64_t gpuNs = 0;
    uint64_t uncertaintyNs = 0;  // half the bracket
};

// The reading with the narrowest bracket; nullopt when there is none (or every bracket is inverted).
std::optional<ClockCalibration> BestCalibration(const std::vector<ClockReading>& readings);

// A GPU time on CLOCK_MONOTONIC: by the offset of `first`, and where `second` is given and lies at least
// `minSpanNs` away on both clocks, by the line through both (the clocks' rates may differ by some parts per
// million). Times before 0 clamp to 0.
uint64_t GpuToCpuNs(uint64_t gpuNs, const ClockCalibration& first, const std::optional<ClockCalibration>& second = {},
                    uint64_t minSpanNs = 1000000);

}  // namespace gpa::gl
