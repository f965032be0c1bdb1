#include "tools/gpaprof/agent/trace_clock.h"

#include <pthread.h>
#include <time.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>

namespace gpaprof::agent {
namespace {

// Where clock_gettime itself reads the TSC and the TSC keeps one rate through frequency changes and sleep states.
bool KernelKeepsTimeWithTsc() {
#if defined(__x86_64__)
    if (const char* choice = std::getenv("GPAPROF_TRACE_CLOCK"); choice && std::string(choice) == "monotonic") return false;
    std::ifstream source("/sys/devices/system/clocksource/clocksource0/current_clocksource");
    std::string name;
    if (!(source >> name) || name != "tsc") return false;
    std::ifstream cpuinfo("/proc/cpuinfo");
    std::string line;
    while (std::getline(cpuinfo, line)) {
        if (line.rfind("flags", 0) != 0) continue;
        return line.find(" constant_tsc") != std::string::npos && line.find(" nonstop_tsc") != std::string::npos;
    }
#endif
    return false;
}

// The first line's rate is measured over this long; later lines over everything since.
constexpr uint64_t kFirstMeasureNs = 500'000;
constexpr uint64_t kMinPeriodNs = 1'000'000;
// A line this many periods old is not steered back but replaced by a fresh reading (after a long quiet spell
// the old line may have drifted by more than it could be steered back in a period).
constexpr uint64_t kStalePeriods = 4;

}  // namespace

void TraceClockAfterFork() {
    // A thread of the parent may have been drawing a line when the process forked: in the child nobody is.
    TraceClock::Process().drawing_.store(false, std::memory_order_relaxed);
}

TraceClock& TraceClock::Process() {
    static TraceClock* clock = [] {
        auto* made = new TraceClock(&ReadTicks, &ReadMonotonic, KernelKeepsTimeWithTsc());  // never freed: used at exit
        pthread_atfork(nullptr, nullptr, [] { TraceClockAfterFork(); });
        return made;
    }();
    return *clock;
}

uint64_t TraceClock::ReadMonotonic() {
    timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return static_cast<uint64_t>(now.tv_sec) * 1000000000ull + static_cast<uint64_t>(now.tv_nsec);
}

TraceClock::TraceClock(Source ticks, Source reference, bool useTicks) : ticks_(ticks), tsc_(ticks == &ReadTicks), reference_(reference), useTicks_(useTicks) {
    if (useTicks_.load(std::memory_order_relaxed)) Calibrate();
}

void TraceClock::ReadPair(uint64_t* ticks, uint64_t* ns) const {
    // The tightest of a few tries: the reference between two counter reads, the counter taken at the middle.
    uint64_t bestWidth = ~0ull;
    for (int attempt = 0; attempt < 4; ++attempt) {
        const uint64_t before = ticks_();
        const uint64_t reference = reference_();
        const uint64_t after = ticks_();
        if (after - before < bestWidth) {
            bestWidth = after - before;
            *ticks = before + (after - before) / 2;
            *ns = reference;
        }
    }
}

void TraceClock::Publish(uint64_t baseTicks, uint64_t baseNs, uint64_t slope, uint64_t periodTicks) {
    const uint32_t sequence = sequence_.load(std::memory_order_relaxed);
    sequence_.store(sequence + 1, std::memory_order_relaxed);
    std::atomic_thread_fence(std::memory_order_release);
    baseTicks_.store(baseTicks, std::memory_order_relaxed);
    baseNs_.store(baseNs, std::memory_order_relaxed);
    slope_.store(slope, std::memory_order_relaxed);
    periodTicks_.store(periodTicks, std::memory_order_relaxed);
    sequence_.store(sequence + 2, std::memory_order_release);
}

uint64_t TraceClock::Map(uint64_t ticks) const {
    const uint64_t baseTicks = baseTicks_.load(std::memory_order_relaxed);
    const uint64_t elapsed = ticks > baseTicks ? ticks - baseTicks : 0;
    return baseNs_.load(std::memory_order_relaxed) +
           static_cast<uint64_t>((static_cast<Wide>(elapsed) * slope_.load(std::memory_order_relaxed)) >> kSlopeShift);
}

void TraceClock::Calibrate() {
    ReadPair(&originTicks_, &originNs_);
    uint64_t ticks = 0, ns = 0;
    do {
        ReadPair(&ticks, &ns);
    } while (ns - originNs_ < kFirstMeasureNs);
    if (ticks <= originTicks_) {  // a counter that does not count: the reference alone
        useTicks_.store(false, std::memory_order_relaxed);
        return;
    }
    const uint64_t slope = static_cast<uint64_t>((static_cast<Wide>(ns - originNs_) << kSlopeShift) / (ticks - originTicks_));
    const uint64_t periodTicks = std::max<uint64_t>(1, static_cast<uint64_t>((static_cast<Wide>(kMinPeriodNs) << kSlopeShift) /
                                                                              std::max<uint64_t>(slope, 1)));
    Publish(ticks, ns, slope, periodTicks);
}

bool TraceClock::Recalibrate(uint64_t elapsed) {
    if (drawing_.exchange(true, std::memory_order_acquire)) return false;
    uint64_t ticks = 0, ns = 0;
    ReadPair(&ticks, &ns);
    if (ticks <= originTicks_ || ns <= originNs_) {  // a counter that went back (not a usable TSC): start over
        Calibrate();
        drawing_.store(false, std::memory_order_release);
        return true;
    }
    // The rate over the last kHistory lines (a few hundred milliseconds once the process has run that long):
    // long enough that the pairs' jitter hardly counts, short enough to follow a change of NTP's slew.
    const Pair oldest = historyCount_ < kHistory ? Pair{originTicks_, originNs_} : history_[historyNext_];
    history_[historyNext_] = Pair{ticks, ns};
    historyNext_ = (historyNext_ + 1) % kHistory;
    historyCount_ = std::min(historyCount_ + 1, kHistory);
    const uint64_t rate = ticks > oldest.ticks && ns > oldest.ns
                              ? static_cast<uint64_t>((static_cast<Wide>(ns - oldest.ns) << kSlopeShift) / (ticks - oldest.ticks))
                              : slope_.load(std::memory_order_relaxed);
    const uint64_t periodNs = std::clamp<uint64_t>((ns - originNs_) / 8, kMinPeriodNs, kMaxPeriodNs);
    const uint64_t periodTicks = std::max<uint64_t>(1, static_cast<uint64_t>((static_cast<Wide>(periodNs) << kSlopeShift) /
                                                                              std::max<uint64_t>(rate, 1)));
    const uint64_t mapped = Map(ticks);
    if (elapsed > kStalePeriods * periodTicks_.load(std::memory_order_relaxed)) {
        // Nothing was read from the line for a long time: start the new one at the reference itself.
        Publish(ticks, ns, rate, periodTicks);
    } else {
        // Continue from where the line is now and meet the reference one period later; the slope stays within
        // half the rate either way, so the mapping always runs forward.
        const uint64_t target = ns + periodNs;
        const Wide gap = target > mapped ? target - mapped : 0;
        uint64_t slope = static_cast<uint64_t>((gap << kSlopeShift) / periodTicks);
        slope = std::clamp<uint64_t>(slope, rate / 2, rate + rate / 2);
        Publish(ticks, mapped, slope, periodTicks);
    }
    drawing_.store(false, std::memory_order_release);
    return true;
}

}  // namespace gpaprof::agent
