// The clock of the API call records on a hot path: CLOCK_MONOTONIC nanoseconds, read from the CPU's timestamp
// counter where the kernel itself keeps time with it.
//
// A launch-bound loop makes two traced calls a launch, four clock reads; clock_gettime took 35–52 ns each on the
// H200 guest (perf, docs/benchmarks.md, 2026-11-29), about 0.2 µs of a 4–6 µs launch. A plain rdtsc and a
// multiply take a few nanoseconds. The ticks are mapped onto CLOCK_MONOTONIC by a line (a base and a slope)
// that is measured again every few milliseconds against clock_gettime; each new line starts where the old one
// ended and is steered to meet CLOCK_MONOTONIC a period later, so the mapping never jumps and never runs
// backwards, and stays within a fraction of a microsecond of CLOCK_MONOTONIC even while NTP slews it.
//
// Used only where the kernel's clock source is the TSC and the CPU says its TSC runs at a constant rate through
// sleep states (constant_tsc, nonstop_tsc): there clock_gettime reads the same counter. Elsewhere, or with
// GPAPROF_TRACE_CLOCK=monotonic, Now() is clock_gettime(CLOCK_MONOTONIC).
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>

#if defined(__x86_64__)
#include <x86intrin.h>
#endif

#define GPAPROF_TRACE_CLOCK_API __attribute__((visibility("default")))

namespace gpaprof::agent {

// Products of a tick count and a 32.32 slope.
__extension__ typedef unsigned __int128 Wide;

class GPAPROF_TRACE_CLOCK_API TraceClock {
public:
    using Source = uint64_t (*)();

    // The process's clock (made on first use).
    static TraceClock& Process();

    // `ticks` and `reference` are the counter and the clock it is mapped onto (tests give their own);
    // `useTicks` false: Now() is reference().
    TraceClock(Source ticks, Source reference, bool useTicks);
    TraceClock(const TraceClock&) = delete;
    TraceClock& operator=(const TraceClock&) = delete;

    bool usesTicks() const { return useTicks_.load(std::memory_order_relaxed); }

    uint64_t Now() {
        if (!useTicks_.load(std::memory_order_relaxed)) return reference_();
        const uint64_t ticks = tsc_ ? ReadTicks() : ticks_();  // (the TSC read inline, not through the pointer)
        for (;;) {
            const uint32_t before = sequence_.load(std::memory_order_acquire);
            const uint64_t baseTicks = baseTicks_.load(std::memory_order_relaxed);
            const uint64_t baseNs = baseNs_.load(std::memory_order_relaxed);
            const uint64_t slope = slope_.load(std::memory_order_relaxed);
            std::atomic_thread_fence(std::memory_order_acquire);
            if ((before & 1u) || sequence_.load(std::memory_order_relaxed) != before) continue;  // being rewritten
            // A counter read just before another thread moved the base can be behind it: clamped to the base.
            const uint64_t elapsed = ticks > baseTicks ? ticks - baseTicks : 0;
            // Past the line's period: a new line, read again if this thread drew it (else the old one, a little
            // longer, while the other thread draws).
            if (elapsed > periodTicks_.load(std::memory_order_relaxed) && Recalibrate(elapsed)) continue;
            return baseNs + static_cast<uint64_t>((static_cast<Wide>(elapsed) * slope) >> kSlopeShift);
        }
    }

    // The line is measured again once this many nanoseconds have passed since the last time (more often while
    // the process is young and the rate less certain).
    static constexpr uint64_t kMaxPeriodNs = 20'000'000;

    static uint64_t ReadTicks() {
#if defined(__x86_64__)
        return __rdtsc();
#else
        return 0;
#endif
    }
    static uint64_t ReadMonotonic();

private:
    static constexpr uint32_t kSlopeShift = 32;  // slope: nanoseconds a tick, 32.32 fixed point

    void Calibrate();  // the first line, at construction
    // A new line from now on, unless another thread is drawing one (then false). `elapsed`: ticks since the
    // current line's base.
    bool Recalibrate(uint64_t elapsed);
    // A (ticks, ns) pair read as close together as the reference allows.
    void ReadPair(uint64_t* ticks, uint64_t* ns) const;
    void Publish(uint64_t baseTicks, uint64_t baseNs, uint64_t slope, uint64_t periodTicks);
    uint64_t Map(uint64_t ticks) const;  // on the current line (by the thread that draws)

    Source ticks_;
    bool tsc_;  // ticks_ is ReadTicks
    Source reference_;
    std::atomic<bool> useTicks_;  // false where the counter cannot be used (or stopped counting)
    // The line (seqlock: odd while being written).
    std::atomic<uint32_t> sequence_{0};
    std::atomic<uint64_t> baseTicks_{0};
    std::atomic<uint64_t> baseNs_{0};
    std::atomic<uint64_t> slope_{0};
    std::atomic<uint64_t> periodTicks_{~0ull};
    // Who draws the next line; where the counter and the clock were first read together.
    std::atomic<bool> drawing_{false};
    uint64_t originTicks_ = 0;
    uint64_t originNs_ = 0;
    // The last lines' starting pairs (by the thread that draws), the rate is measured over.
    struct Pair {
        uint64_t ticks = 0, ns = 0;
    };
    static constexpr size_t kHistory = 16;
    std::array<Pair, kHistory> history_{};
    size_t historyCount_ = 0, historyNext_ = 0;

    friend void TraceClockAfterFork();
};

}  // namespace gpaprof::agent
