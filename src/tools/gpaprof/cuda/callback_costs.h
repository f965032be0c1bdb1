// Where gpaprof's CUDA callbacks spend their time (GPAPROF_CUDA_STATS=1): per kind of callback and per step
// of writing a call's record, in CPU timestamp-counter ticks converted to nanoseconds at the end. For the
// trace-overhead benchmark (docs/benchmarks.md): off, it costs one predictable branch per callback.
#pragma once

#include <x86intrin.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <string>

#include "tools/gpaprof/agent/agent.h"

namespace gpaprof::cuda {

enum class CostSite : uint32_t {
    EnterTraced,    // entry of a call of the application
    EnterNested,    // entry of a call made inside another (the runtime's driver calls)
    EnterRuntimeOwn,  // entry of a driver call outside any call that the runtime made (told by CalledByRuntime)
    ExitTraced,     // exit of a call of the application, its record included
    ExitNested,
    Arguments,      // of ExitTraced: formatting the arguments
    Encode,         // of ExitTraced: encoding the record
    Append,         // of ExitTraced: appending it to the spool
    Enqueue,        // registering a launch, copy or set for its activity record
    ActivityBuffer, // CUPTI's activity thread: one completed buffer
    Resource,       // context, stream and module callbacks
    StackWalk,      // of EnterRuntimeOwn and EnterTraced: asking the stack who made a driver call (CalledByRuntime)
    Count
};

class CallbackCosts {
public:
    bool enabled() const { return enabled_; }
    void Enable() {
        enabled_ = true;
        startTicks_ = __rdtsc();
        startNs_ = agent::Agent::Now();
    }
    static uint64_t Ticks() { return __rdtsc(); }
    void Add(CostSite site, uint64_t startTicks) {
        Site& s = sites_[static_cast<uint32_t>(site)];
        s.count.fetch_add(1, std::memory_order_relaxed);
        s.ticks.fetch_add(__rdtsc() - startTicks, std::memory_order_relaxed);
    }
    // One line: calls and mean nanoseconds per site.
    std::string Summary() const {
        static const char* const kNames[] = {"enter(app)", "enter(nested)", "enter(runtime's)", "exit(app)",
                                             "exit(nested)", "arguments", "encode", "append", "enqueue",
                                             "activity-buffer", "resource", "stack-walk"};
        static_assert(sizeof kNames / sizeof kNames[0] == static_cast<size_t>(CostSite::Count));
        const double nsPerTick = static_cast<double>(agent::Agent::Now() - startNs_) /
                                 static_cast<double>(__rdtsc() - startTicks_ + 1);
        std::string line;
        for (uint32_t i = 0; i < static_cast<uint32_t>(CostSite::Count); ++i) {
            const uint64_t count = sites_[i].count.load();
            if (count == 0) continue;
            const double meanNs = static_cast<double>(sites_[i].ticks.load()) * nsPerTick / static_cast<double>(count);
            char item[96];
            std::snprintf(item, sizeof item, "%s%s %llu x %.0f ns", line.empty() ? "" : ", ", kNames[i],
                          static_cast<unsigned long long>(count), meanNs);
            line += item;
        }
        return line;
    }

private:
    struct Site {
        std::atomic<uint64_t> count{0};
        std::atomic<uint64_t> ticks{0};
    };
    bool enabled_ = false;
    uint64_t startTicks_ = 0, startNs_ = 0;
    std::array<Site, static_cast<size_t>(CostSite::Count)> sites_{};
};

// Adds the time of a scope to a site when costs are collected.
class CostScope {
public:
    CostScope(CallbackCosts& costs, CostSite site) : costs_(costs), site_(site), start_(costs.enabled() ? CallbackCosts::Ticks() : 0) {}
    ~CostScope() {
        if (start_) costs_.Add(site_, start_);
    }
    void Retarget(CostSite site) { site_ = site; }
    CostScope(const CostScope&) = delete;
    CostScope& operator=(const CostScope&) = delete;

private:
    CallbackCosts& costs_;
    CostSite site_;
    uint64_t start_;
};

}  // namespace gpaprof::cuda
