// perf events (perf_event_open) counted on every thread of the process: CPU time, and where the CPU has a
// performance monitoring unit that the kernel lets this process use, cycles, instructions and cache misses.
// Counters are user-space only. New threads get counters at the next reading; those of exited threads close.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include <sys/types.h>

namespace gpa::cl_layer {

class ThreadCounters {
public:
    enum Event { kTaskClock, kCycles, kInstructions, kCacheMisses, kEventCount };
    using Counts = std::array<uint64_t, kEventCount>;
    using Reading = std::map<pid_t, Counts>;  // per thread id

    // Probes each event on the calling thread; null when none can be opened (whyNot[e] says why for each).
    static std::unique_ptr<ThreadCounters> Open(std::array<std::string, kEventCount>* whyNot);
    ~ThreadCounters();
    ThreadCounters(const ThreadCounters&) = delete;
    ThreadCounters& operator=(const ThreadCounters&) = delete;

    bool Offers(Event event) const { return offered_[event]; }
    // Every thread's counts now (opening counters for threads not seen before).
    Reading Read();
    // Per event: the sum over threads present in both readings and not `excluded` of later - earlier.
    static Counts Between(const Reading& earlier, const Reading& later, const std::set<pid_t>& excluded);

private:
    ThreadCounters() = default;
    void Track(pid_t thread);

    std::array<bool, kEventCount> offered_{};
    std::mutex mutex_;
    std::map<pid_t, std::array<int, kEventCount>> files_;  // -1 where an event is not offered
};

// The calling thread's id (gettid).
pid_t CurrentThreadId();

}  // namespace gpa::cl_layer
