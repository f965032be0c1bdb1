#include "layers/vulkan/pm_test_source.h"

#include <time.h>

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <thread>
#include <utility>

#include "pm_sampling/device_sampling.h"

namespace ogpa::vklayer {

namespace {

using namespace gpa::pm_sampling;

uint64_t MonotonicNs() {
    timespec t{};
    clock_gettime(CLOCK_MONOTONIC, &t);
    return uint64_t(t.tv_sec) * 1000000000ull + uint64_t(t.tv_nsec);
}

class FakeSampling final : public DeviceSampling {
public:
    static constexpr uint64_t kInterval = 100000;

    explicit FakeSampling(bool holes)
        : history_(GraphicsMetrics(), kInterval, 10000000000ull), nextNs_(MonotonicNs() / kInterval * kInterval), holes_(holes) {}

    const std::vector<std::string>& metrics() const override { return history_.metrics(); }
    uint64_t intervalNs() const override { return kInterval; }
    std::string chip() const override { return "test source"; }
    int cudaOrdinal() const override { return -1; }
    uint32_t gpuClockKHz() const override { return 1000000; }  // 1 GHz: a requested cycle is a nanosecond

    WindowResult Window(uint64_t beginNs, uint64_t endNs, std::chrono::milliseconds timeout, const WindowRules& rules) override {
        std::lock_guard<std::mutex> lock(mutex_);
        Reach(endNs, timeout);
        return history_.Window(beginNs, endNs, rules);
    }

    std::vector<WindowSample> Samples(uint64_t beginNs, uint64_t endNs, std::chrono::milliseconds timeout,
                                      bool* complete) override {
        std::lock_guard<std::mutex> lock(mutex_);
        const bool reached = Reach(endNs, timeout);
        if (complete) *complete = reached && history_.Window(beginNs, endNs).quality != WindowQuality::Refused;
        return history_.Samples(beginNs, endNs);
    }

private:
    // Samples made up to now, waiting (at most `timeout`) for the clock to pass endNs by an interval.
    bool Reach(uint64_t endNs, std::chrono::milliseconds timeout) {
        const uint64_t deadline = MonotonicNs() + uint64_t(timeout.count()) * 1000000ull;
        while (MonotonicNs() < endNs + kInterval && MonotonicNs() < deadline) std::this_thread::sleep_for(std::chrono::microseconds(100));
        const uint64_t now = MonotonicNs();
        std::vector<WindowSample> samples;
        for (; nextNs_ + kInterval <= now; nextNs_ += kInterval) {
            // "holes": every fourth sample missing, the one after it saying so, as when the hardware skips one.
            const bool skipped = holes_ && (nextNs_ / kInterval) % 4 == 3;
            if (skipped) {
                droppedBefore_ = true;
                continue;
            }
            WindowSample sample;
            sample.droppedBefore = std::exchange(droppedBefore_, false);
            sample.startNs = nextNs_;
            sample.endNs = nextNs_ + kInterval;
            for (size_t m = 0; m < metrics().size(); ++m) {
                const bool count = IntegrationOf(metrics()[m]) == Integration::Sum;
                sample.values.push_back(count ? double(m + 1) * double(kInterval) : 25.0 + double(m));
            }
            samples.push_back(std::move(sample));
        }
        history_.Append(std::move(samples));
        return history_.NewestEndNs() >= endNs;
    }

    std::mutex mutex_;
    SampleHistory history_;
    uint64_t nextNs_;
    const bool holes_;
    bool droppedBefore_ = false;
};

}  // namespace

std::shared_ptr<gpa::pm_sampling::DeviceSampling> PmTestSource() {
    const char* value = std::getenv(kPmFakeVariable);
    if (value == nullptr || (std::strcmp(value, "1") != 0 && std::strcmp(value, "holes") != 0)) return nullptr;
    static const std::shared_ptr<DeviceSampling> fake = std::make_shared<FakeSampling>(std::strcmp(value, "holes") == 0);
    return fake;
}

}  // namespace ogpa::vklayer
