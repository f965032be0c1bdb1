// The call records' clock (agent/trace_clock.h): a counter mapped onto a reference clock by lines that are drawn
// again every few milliseconds. Simulated counters and references show what the mapping does where the reference
// runs evenly, is slewed, or is not read for an hour; the process's own clock is checked against clock_gettime
// from several threads.
#include "tools/gpaprof/agent/trace_clock.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <thread>
#include <vector>

namespace gpaprof::agent {
namespace {

// One simulated machine: true time moves on by a few nanoseconds at every read; the counter runs at 3 ticks a
// nanosecond of true time, the reference at `referenceRate` nanoseconds a nanosecond (1 + the slew).
struct Simulated {
    double trueNs = 1e12;
    double referenceNs = 5e11;
    double referenceRate = 1.0;
    bool counterStopped = false;
    void Advance(double ns) {
        trueNs += ns;
        referenceNs += ns * referenceRate;
    }
};
Simulated g_sim;

uint64_t SimulatedTicks() {
    g_sim.Advance(7);
    return g_sim.counterStopped ? 42 : static_cast<uint64_t>(g_sim.trueNs * 3.0);
}
uint64_t SimulatedReference() {
    g_sim.Advance(5);
    return static_cast<uint64_t>(g_sim.referenceNs);
}

class TraceClockSimulated : public ::testing::Test {
protected:
    void SetUp() override { g_sim = Simulated{}; }

    // Reads the clock every `stepNs` of true time for `spanNs`; returns the largest distance from the reference
    // (read right after) and fails if a reading is below the one before.
    static double Follow(TraceClock& clock, double spanNs, double stepNs, uint64_t* last) {
        double worst = 0;
        for (double passed = 0; passed < spanNs; passed += stepNs) {
            g_sim.Advance(stepNs);
            const uint64_t now = clock.Now();
            const double reference = g_sim.referenceNs;
            worst = std::max(worst, std::fabs(static_cast<double>(now) - reference));
            EXPECT_GE(now, *last) << "the clock ran backwards after " << passed << " ns";
            *last = now;
        }
        return worst;
    }
};

TEST_F(TraceClockSimulated, FollowsAnEvenReferenceWithinNanoseconds) {
    TraceClock clock(&SimulatedTicks, &SimulatedReference, true);
    ASSERT_TRUE(clock.usesTicks());
    uint64_t last = 0;
    EXPECT_LT(Follow(clock, 2e9, 37'000, &last), 120.0);  // (a redrawing moves the simulated time on by ~80 ns)
}

TEST_F(TraceClockSimulated, StaysNearAReferenceThatIsSlewed) {
    TraceClock clock(&SimulatedTicks, &SimulatedReference, true);
    uint64_t last = 0;
    Follow(clock, 1e9, 50'000, &last);
    // NTP's largest slew, 500 ppm: the line is off by at most that times a period or two before it is redrawn.
    g_sim.referenceRate = 1.0005;
    EXPECT_LT(Follow(clock, 2e9, 50'000, &last), 2 * 500e-6 * TraceClock::kMaxPeriodNs + 100);
    // A slew of 10 ppm, more usual: well under a microsecond.
    g_sim.referenceRate = 1.00001;
    Follow(clock, 0.5e9, 50'000, &last);  // settles
    EXPECT_LT(Follow(clock, 2e9, 50'000, &last), 500.0);
    // And back to even.
    g_sim.referenceRate = 1.0;
    Follow(clock, 0.5e9, 50'000, &last);
    EXPECT_LT(Follow(clock, 1e9, 50'000, &last), 100.0);
}

TEST_F(TraceClockSimulated, AfterAnHourUnreadItIsOnTheReferenceAtOnce) {
    TraceClock clock(&SimulatedTicks, &SimulatedReference, true);
    uint64_t last = 0;
    Follow(clock, 1e8, 50'000, &last);
    g_sim.referenceRate = 1.00002;  // 72 ms over the hour, had the old line been extended
    g_sim.Advance(3600e9);
    const uint64_t now = clock.Now();
    EXPECT_LT(std::fabs(static_cast<double>(now) - g_sim.referenceNs), 100.0);
    EXPECT_GE(now, last);
}

TEST_F(TraceClockSimulated, WithoutTheCounterItReadsTheReference) {
    TraceClock clock(&SimulatedTicks, &SimulatedReference, false);
    EXPECT_FALSE(clock.usesTicks());
    for (int i = 0; i < 3; ++i) {
        const uint64_t now = clock.Now();  // (read first: reading moves the simulated time on)
        EXPECT_EQ(now, static_cast<uint64_t>(g_sim.referenceNs));
    }
}

TEST_F(TraceClockSimulated, ACounterThatDoesNotCountIsNotUsed) {
    g_sim.counterStopped = true;
    TraceClock clock(&SimulatedTicks, &SimulatedReference, true);
    EXPECT_FALSE(clock.usesTicks());
    const uint64_t now = clock.Now();
    EXPECT_EQ(now, static_cast<uint64_t>(g_sim.referenceNs));
}

// The process's clock, read by four threads at once: every thread's readings run forward and lie between
// clock_gettime's readings around them (give or take the line's error and the reading's own time).
TEST(TraceClockProcess, AgreesWithClockGettimeFromSeveralThreads) {
    TraceClock& clock = TraceClock::Process();
    std::printf("the process's trace clock reads %s\n", clock.usesTicks() ? "the TSC" : "clock_gettime");
    constexpr int kThreads = 4;
    constexpr int kReads = 200'000;
    std::vector<uint64_t> backwards(kThreads), outside(kThreads), worst(kThreads);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([&, t] {
            uint64_t last = 0;
            for (int i = 0; i < kReads; ++i) {
                const uint64_t before = TraceClock::ReadMonotonic();
                const uint64_t now = clock.Now();
                const uint64_t after = TraceClock::ReadMonotonic();
                if (now < last) ++backwards[t];
                last = now;
                // 5 µs: the line's error on a machine whose clock is being slewed, with room to spare.
                const uint64_t distance = now + 5'000 < before ? before - now : (now > after + 5'000 ? now - after : 0);
                if (distance) ++outside[t];
                worst[t] = std::max(worst[t], distance);
            }
        });
    }
    for (std::thread& thread : threads) thread.join();
    for (int t = 0; t < kThreads; ++t) {
        EXPECT_EQ(backwards[t], 0u) << "thread " << t;
        EXPECT_EQ(outside[t], 0u) << "thread " << t << ": farthest " << worst[t] << " ns outside clock_gettime's readings";
    }
}

}  // namespace
}  // namespace gpaprof::agent
