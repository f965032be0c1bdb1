// Launches staged by the threads that made them (src/tools/gpaprof/cuda/staged_launches.h): every launch
// drained exactly once, in its thread's order, with threads launching while another drains.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

#include "tools/gpaprof/cuda/staged_launches.h"

namespace gpaprof::cuda {

struct StagedLaunchesTestAccess {
    static std::mutex& ListMutex(StagedLaunches& staged, size_t thread) { return staged.threads_[thread]->mutex; }
    static constexpr size_t kRingSlots = StagedLaunches::kRingSlots;
};

namespace {

StagedLaunch Launch(uint64_t thread, uint64_t index) {
    StagedLaunch launch;
    launch.ids = {static_cast<uint32_t>(thread * 1000000 + index), 0};
    launch.idCount = 1;
    launch.threadId = thread;
    launch.index = index;
    launch.kernel = 0xfeed;
    return launch;
}

std::vector<StagedLaunch> DrainAll(StagedLaunches& staged) {
    std::vector<StagedLaunch> out;
    staged.Drain([&](const StagedLaunch& launch) { out.push_back(launch); });
    return out;
}

TEST(StagedLaunches, DrainHandsOverWhatWasStagedOnceInOrder) {
    StagedLaunches staged;
    EXPECT_TRUE(DrainAll(staged).empty());
    for (uint64_t i = 0; i < 5; ++i) staged.Stage(Launch(1, i));
    const std::vector<StagedLaunch> first = DrainAll(staged);
    ASSERT_EQ(first.size(), 5u);
    for (uint64_t i = 0; i < 5; ++i) {
        EXPECT_EQ(first[i].index, i);
        EXPECT_EQ(first[i].kernel, 0xfeedu);
    }
    EXPECT_TRUE(DrainAll(staged).empty());  // drained launches are forgotten
    staged.Stage(Launch(1, 5));
    const std::vector<StagedLaunch> second = DrainAll(staged);
    ASSERT_EQ(second.size(), 1u);
    EXPECT_EQ(second[0].index, 5u);
    EXPECT_EQ(staged.threads(), 1u);  // one thread, one stage
}

TEST(StagedLaunches, TwoInstancesOnOneThreadKeepTheirLaunchesApart) {
    StagedLaunches a, b;
    a.Stage(Launch(1, 0));
    b.Stage(Launch(1, 1));
    a.Stage(Launch(1, 2));
    const std::vector<StagedLaunch> fromA = DrainAll(a);
    const std::vector<StagedLaunch> fromB = DrainAll(b);
    ASSERT_EQ(fromA.size(), 2u);
    ASSERT_EQ(fromB.size(), 1u);
    EXPECT_EQ(fromA[1].index, 2u);
    EXPECT_EQ(fromB[0].index, 1u);
    EXPECT_EQ(a.threads(), 1u);  // the thread found its stage again after the other instance's
}

// A caller's own cache of its thread's stage (CudaPart keeps one per thread): the same stage as without one, and a
// cache of another instance's stage is not taken for this one's.
TEST(StagedLaunches, ACallersCacheFindsTheThreadsOwnStage) {
    StagedLaunches a, b;
    StagedLaunches::ThreadCache cache;
    a.Stage(Launch(1, 0), cache);
    a.Stage(Launch(1, 1));  // without the cache: the same thread, the same stage
    b.Stage(Launch(1, 2), cache);  // the cache held a's stage: b finds its own
    a.Stage(Launch(1, 3), cache);
    const std::vector<StagedLaunch> fromA = DrainAll(a);
    const std::vector<StagedLaunch> fromB = DrainAll(b);
    ASSERT_EQ(fromA.size(), 3u);
    ASSERT_EQ(fromB.size(), 1u);
    EXPECT_EQ(fromA[0].index, 0u);
    EXPECT_EQ(fromA[1].index, 1u);
    EXPECT_EQ(fromA[2].index, 3u);
    EXPECT_EQ(fromB[0].index, 2u);
    EXPECT_EQ(a.threads(), 1u);
    EXPECT_EQ(b.threads(), 1u);
}

TEST(StagedLaunches, EveryLaunchOfThreadsLaunchingWhileAnotherDrainsArrivesOnce) {
    StagedLaunches staged;
    constexpr uint64_t kThreads = 6, kLaunches = 20000;
    std::atomic<int> running{static_cast<int>(kThreads)};
    std::map<uint64_t, std::vector<uint64_t>> seen;  // thread -> indices, in drain order
    auto drain = [&] {
        staged.Drain([&](const StagedLaunch& launch) { seen[launch.threadId].push_back(launch.index); });
    };
    std::vector<std::thread> threads;
    for (uint64_t t = 1; t <= kThreads; ++t) {
        threads.emplace_back([&, t] {
            for (uint64_t i = 0; i < kLaunches; ++i) staged.Stage(Launch(t, i));
            --running;
        });
    }
    while (running > 0) drain();
    for (std::thread& thread : threads) thread.join();
    drain();
    ASSERT_EQ(seen.size(), kThreads);
    for (const auto& [thread, indices] : seen) {
        ASSERT_EQ(indices.size(), kLaunches) << "thread " << thread;
        for (uint64_t i = 0; i < kLaunches; ++i) ASSERT_EQ(indices[i], i) << "thread " << thread;
    }
}

TEST(StagedLaunches, ThreadsThatEndedKeepTheirLaunchesUntilDrained) {
    StagedLaunches staged;
    for (uint64_t t = 1; t <= 3; ++t) std::thread([&, t] { staged.Stage(Launch(t, 7)); }).join();
    const std::vector<StagedLaunch> drained = DrainAll(staged);
    ASSERT_EQ(drained.size(), 3u);
    for (const StagedLaunch& launch : drained) EXPECT_EQ(launch.index, 7u);
}

TEST(StagedLaunches, ADrainSkipsTheListOfTheThreadItInterruptedAndTakesItLater) {
    // As from a crash handler that interrupted the launching thread inside Stage: its list stays locked, and the
    // drain runs on that very thread. The ring needs no lock and is drained all the same; the list, which a full ring
    // sent the last launch to, waits.
    constexpr size_t kRing = StagedLaunchesTestAccess::kRingSlots;
    StagedLaunches staged;
    staged.Stage(Launch(1, 0));
    size_t skipped = 0;
    std::vector<StagedLaunch> drained;
    std::thread([&] {
        for (uint64_t i = 0; i <= kRing; ++i) staged.Stage(Launch(2, i));
        std::mutex& own = StagedLaunchesTestAccess::ListMutex(staged, 1);
        own.lock();
        const auto began = std::chrono::steady_clock::now();
        staged.Drain([&](const StagedLaunch& launch) { drained.push_back(launch); }, &skipped);
        EXPECT_LT(std::chrono::steady_clock::now() - began, std::chrono::milliseconds(500)) << "no wait for itself";
        own.unlock();
    }).join();
    EXPECT_EQ(skipped, 1u);
    ASSERT_EQ(drained.size(), 1 + kRing) << "thread 1's launch and thread 2's ring";
    EXPECT_EQ(drained[0].threadId, 1u);
    EXPECT_EQ(drained.back().index, kRing - 1);
    drained.clear();
    staged.Drain([&](const StagedLaunch& launch) { drained.push_back(launch); }, &skipped);
    ASSERT_EQ(drained.size(), 1u);
    EXPECT_EQ(drained[0].threadId, 2u);
    EXPECT_EQ(drained[0].index, kRing);
}

TEST(StagedLaunches, ADrainWaitsForAListAnotherThreadHoldsAndLosesNothing) {
    // The list's thread lost its core while it held the lock (a busy machine): the drain waits for it rather than
    // leave its launches out while the records that need them are read.
    constexpr size_t kRing = StagedLaunchesTestAccess::kRingSlots;
    StagedLaunches staged;
    std::thread([&] {
        for (uint64_t i = 0; i <= kRing; ++i) staged.Stage(Launch(2, i));
    }).join();
    std::mutex& list = StagedLaunchesTestAccess::ListMutex(staged, 0);
    list.lock();
    std::thread holder([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(300));  // longer than the old drain's few thousand tries
        list.unlock();
    });
    size_t skipped = 0;
    std::vector<StagedLaunch> drained;
    staged.Drain([&](const StagedLaunch& launch) { drained.push_back(launch); }, &skipped);
    holder.join();
    EXPECT_EQ(skipped, 0u);
    ASSERT_EQ(drained.size(), kRing + 1) << "the ring and the list";
    EXPECT_EQ(drained.back().index, kRing);
}

// A ring that fills sends the launches after it to the list, and they stay after the ring's in the drain's order,
// also when the ring has room again before the drain.
TEST(StagedLaunches, LaunchesPastAFullRingKeepTheirOrder) {
    constexpr size_t kRing = StagedLaunchesTestAccess::kRingSlots;
    StagedLaunches staged;
    std::vector<uint64_t> order;
    for (uint64_t i = 0; i < kRing + 10; ++i) staged.Stage(Launch(1, i));
    staged.Drain([&](const StagedLaunch& launch) { order.push_back(launch.index); });
    for (uint64_t i = kRing + 10; i < 3 * kRing; ++i) staged.Stage(Launch(1, i));
    staged.Drain([&](const StagedLaunch& launch) { order.push_back(launch.index); });
    ASSERT_EQ(order.size(), 3 * kRing);
    for (uint64_t i = 0; i < order.size(); ++i) ASSERT_EQ(order[i], i);
}

}  // namespace
}  // namespace gpaprof::cuda
