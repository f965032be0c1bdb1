// The counter set-up of the first device's chip, made on a thread of its own from the process's first CUDA call
// on, while the application goes on starting (its context, its memory, its modules), so that its first profiled
// launch finds the plan made: CUPTI's planning of the GPA compute set took 1.1-1.4 s on an H100 machine at that
// launch, before this (docs/benchmarks.md).
//
// The thread only calls CUPTI's host API (no driver, no CUPTI call on a context): the chip is asked for before it
// starts, on the application's thread. So a launch that waits for the thread (Take, inside CUPTI's launch
// callback) cannot wait on a lock the launch holds. The thread is cancelled and joined when the process ends
// (Stop, from gpaprof's exit hooks), before CUPTI's libraries are torn down.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "tools/gpaprof/cuda/counter_setup.h"

namespace gpaprof::cuda {

class CounterSetupAhead {
public:
    // Makes the set-up on the thread; it should give up when `cancel` becomes true.
    using Maker = std::function<std::unique_ptr<CounterSetup>(const std::atomic<bool>& cancel)>;

    CounterSetupAhead() = default;
    ~CounterSetupAhead();  // Stop
    CounterSetupAhead(const CounterSetupAhead&) = delete;
    CounterSetupAhead& operator=(const CounterSetupAhead&) = delete;

    // Starts the thread that makes the set-up of `chip` (the first call only).
    void Start(const std::string& chip, Maker make);
    bool started() const { return started_.load(std::memory_order_acquire); }
    // The set-up, once, if it is for `chip`: waits for the thread to finish it. nullptr when none was started,
    // when it is for another chip, or when it was taken already. *waitedNs: how long this call waited.
    std::unique_ptr<CounterSetup> Take(const std::string& chip, uint64_t* waitedNs);
    // Cancels what is still being made and joins the thread.
    void Stop();
    // The counter availability image of the first context on the set-up's device, offered when the context is
    // created: the thread binds the set-up to it once made (BindToAvailability), so that the launch need not.
    void OfferAvailability(std::vector<uint8_t> availability);
    std::optional<std::vector<uint8_t>> OfferedAvailability();
    // For the maker, once it has made the set-up: the availability offered, waiting for it while nobody asks for
    // the set-up (Take) and nothing cancels it; nullopt when it is asked for or cancelled first. (The context is
    // usually created before the first launch: the binding then happens in between, off the launch's path.)
    std::optional<std::vector<uint8_t>> AwaitAvailability();

private:
    std::atomic<bool> started_{false};
    std::atomic<bool> cancel_{false};
    std::mutex stopMutex_;  // Start and Stop, from any thread
    std::mutex mutex_;      // guards what follows
    std::condition_variable finished_;
    std::condition_variable changed_;  // availability offered, the set-up asked for, or cancelled
    bool done_ = false;
    bool asked_ = false;
    std::string chip_;
    int process_ = 0;  // the process that started the thread
    std::unique_ptr<CounterSetup> setup_;
    std::optional<std::vector<uint8_t>> availability_;
    std::thread thread_;
};

}  // namespace gpaprof::cuda
