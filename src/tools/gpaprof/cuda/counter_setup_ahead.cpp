#include "tools/gpaprof/cuda/counter_setup_ahead.h"

#include <chrono>

#include <unistd.h>

namespace gpaprof::cuda {

CounterSetupAhead::~CounterSetupAhead() { Stop(); }

void CounterSetupAhead::Start(const std::string& chip, Maker make) {
    std::lock_guard<std::mutex> stopping(stopMutex_);
    if (started_.load() || cancel_.load()) return;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        chip_ = chip;
        process_ = ::getpid();
    }
    thread_ = std::thread([this, make = std::move(make)] {
        std::unique_ptr<CounterSetup> setup = make(cancel_);
        std::lock_guard<std::mutex> lock(mutex_);
        setup_ = std::move(setup);
        done_ = true;
        finished_.notify_all();
    });
    started_.store(true, std::memory_order_release);
}

std::unique_ptr<CounterSetup> CounterSetupAhead::Take(const std::string& chip, uint64_t* waitedNs) {
    *waitedNs = 0;
    if (!started()) return nullptr;
    const auto begun = std::chrono::steady_clock::now();
    std::unique_lock<std::mutex> lock(mutex_);
    if (chip != chip_ || process_ != ::getpid()) return nullptr;  // a forked child has no such thread
    asked_ = true;
    changed_.notify_all();
    finished_.wait(lock, [this] { return done_; });
    *waitedNs = static_cast<uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - begun).count());
    return std::move(setup_);
}

void CounterSetupAhead::OfferAvailability(std::vector<uint8_t> availability) {
    if (availability.empty()) return;  // CUPTI could not say: the launch asks again
    std::lock_guard<std::mutex> lock(mutex_);
    if (!availability_) availability_ = std::move(availability);
    changed_.notify_all();
}

std::optional<std::vector<uint8_t>> CounterSetupAhead::AwaitAvailability() {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [this] { return availability_.has_value() || asked_ || cancel_.load(); });
    return availability_;
}

std::optional<std::vector<uint8_t>> CounterSetupAhead::OfferedAvailability() {
    std::lock_guard<std::mutex> lock(mutex_);
    return availability_;
}

void CounterSetupAhead::Stop() {
    std::lock_guard<std::mutex> stopping(stopMutex_);
    {
        std::lock_guard<std::mutex> lock(mutex_);
        cancel_ = true;
        changed_.notify_all();
    }
    {
        // A child forked after the thread started (a data loader's worker, say) has no such thread: joining it
        // there is undefined (glibc happens to return at once), and Take there gives nothing.
        std::lock_guard<std::mutex> lock(mutex_);
        if (started() && process_ != ::getpid()) return;
    }
    if (thread_.joinable()) thread_.join();
}

}  // namespace gpaprof::cuda
