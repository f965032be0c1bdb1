// Maps a device's timestamps onto the CPU clock. Every sample says that the device read `deviceTime`
// somewhere between the CPU times `cpuBefore` and `cpuAfter` (an enqueue call and its CL_PROFILING_COMMAND_QUEUED
// stamp, or clGetDeviceAndHostTimer between two CPU readings), so the offset lies in
// [cpuBefore - deviceTime, cpuAfter - deviceTime]. The estimate is the middle of the intersection of all
// samples; when the samples disagree (clock drift), the median of their middles.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace gpaprof {

class ClockCalibration {
public:
    void AddSample(uint64_t cpuBefore, uint64_t cpuAfter, uint64_t deviceTime);
    bool calibrated() const { return !samples_.empty(); }
    int64_t Offset() const;
    // 0 stays 0 (a time that was never taken).
    uint64_t Map(uint64_t deviceTime) const;

private:
    struct Sample {
        int64_t low, high;
    };
    std::vector<Sample> samples_;
    mutable std::optional<int64_t> offset_;  // computed once after the last sample
};

}  // namespace gpaprof
