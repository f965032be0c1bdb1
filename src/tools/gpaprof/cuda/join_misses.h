// Kernel records whose correlation id names no registered launch, counted under GPAPROF_CUDA_STATS=1: a launch
// call of the application then has no kernel in the .atp. The ids tell how: many records of one id is CUPTI
// reporting one call's id for a thread's later kernels (what unsubscribing from a call in progress did).
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace gpaprof::cuda::injection {

class JoinMisses {
public:
    void KernelWithoutLaunch(uint32_t correlationId) {
        std::lock_guard<std::mutex> lock(mutex_);
        ++kernels_;
        ++kernelIds_[correlationId];
    }
    // "kernel records without their launch: N (K correlation ids: id xcount, ...)", the most frequent ids first.
    std::string Summary() {
        std::lock_guard<std::mutex> lock(mutex_);
        std::string text = "kernel records without their launch: " + std::to_string(kernels_) + " (" +
                           std::to_string(kernelIds_.size()) + " correlation ids";
        std::vector<std::pair<uint64_t, uint32_t>> byCount;
        for (const auto& [id, count] : kernelIds_) byCount.emplace_back(count, id);
        std::sort(byCount.rbegin(), byCount.rend());
        for (size_t i = 0; i < byCount.size() && i < kShown; ++i) {
            text += (i ? ", " : ": ") + std::to_string(byCount[i].second) + " x" + std::to_string(byCount[i].first);
        }
        return text + ")";
    }

private:
    static constexpr size_t kShown = 8;
    std::mutex mutex_;
    uint64_t kernels_ = 0;
    std::map<uint32_t, uint64_t> kernelIds_;
};

}  // namespace gpaprof::cuda::injection
