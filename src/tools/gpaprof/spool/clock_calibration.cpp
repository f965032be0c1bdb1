#include "tools/gpaprof/spool/clock_calibration.h"

#include <algorithm>

namespace gpaprof {

void ClockCalibration::AddSample(uint64_t cpuBefore, uint64_t cpuAfter, uint64_t deviceTime) {
    if (cpuAfter < cpuBefore || deviceTime == 0) return;
    offset_.reset();
    samples_.push_back({static_cast<int64_t>(cpuBefore - deviceTime), static_cast<int64_t>(cpuAfter - deviceTime)});
}

int64_t ClockCalibration::Offset() const {
    if (samples_.empty()) return 0;
    if (offset_) return *offset_;
    int64_t low = samples_[0].low, high = samples_[0].high;
    for (const Sample& sample : samples_) {
        low = std::max(low, sample.low);
        high = std::min(high, sample.high);
    }
    if (low <= high) {
        offset_ = low + (high - low) / 2;
        return *offset_;
    }
    std::vector<int64_t> middles;
    for (const Sample& sample : samples_) middles.push_back(sample.low + (sample.high - sample.low) / 2);
    std::nth_element(middles.begin(), middles.begin() + static_cast<long>(middles.size() / 2), middles.end());
    offset_ = middles[middles.size() / 2];
    return *offset_;
}

uint64_t ClockCalibration::Map(uint64_t deviceTime) const {
    if (deviceTime == 0) return 0;
    return static_cast<uint64_t>(static_cast<int64_t>(deviceTime) + Offset());
}

}  // namespace gpaprof
