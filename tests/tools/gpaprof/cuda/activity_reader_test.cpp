// The thread that reads CUPTI's activity buffers (src/tools/gpaprof/cuda/activity_reader.h): every buffer read
// once, off the completing thread; a flush returns only when everything completed before it is read, the buffer
// the thread is in the middle of included; read at once while draining, in exit mode and in a forked child.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

#include "tools/gpaprof/cuda/activity_reader.h"

namespace gpaprof::cuda {
namespace {

// What the read function saw: each buffer, and the thread that read it.
struct Reads {
    std::mutex mutex;
    std::vector<std::pair<uint8_t*, std::thread::id>> reads;
    std::chrono::microseconds delay{0};  // how long a read takes

    ActivityReader::ReadFunction Function() {
        return [this](uint8_t* buffer, size_t) {
            if (delay.count() > 0) std::this_thread::sleep_for(delay);
            std::lock_guard<std::mutex> lock(mutex);
            reads.emplace_back(buffer, std::this_thread::get_id());
        };
    }
    size_t count() {
        std::lock_guard<std::mutex> lock(mutex);
        return reads.size();
    }
};

uint8_t* Buffer(uintptr_t n) { return reinterpret_cast<uint8_t*>(n * 64); }

TEST(ActivityReader, ReadsEachBufferOnceOffTheCompletingThread) {
    Reads reads;
    ActivityReader reader(reads.Function());
    for (uintptr_t i = 1; i <= 100; ++i) reader.Completed(Buffer(i), 8);
    reader.Drain();
    ASSERT_EQ(reads.count(), 100u);
    std::vector<uint8_t*> seen;
    size_t onThisThread = 0;
    for (const auto& [buffer, thread] : reads.reads) {
        seen.push_back(buffer);
        onThisThread += thread == std::this_thread::get_id();
    }
    std::sort(seen.begin(), seen.end());
    EXPECT_EQ(std::unique(seen.begin(), seen.end()), seen.end());
    // Drain reads what the thread has not come to yet on the draining thread; the rest went to the thread.
    const ActivityReader::Statistics s = reader.statistics();
    EXPECT_EQ(s.queued, 100u);
    EXPECT_EQ(s.readAtOnce, 0u);
    EXPECT_EQ(onThisThread, s.readByDrain);
}

TEST(ActivityReader, CompletingReturnsBeforeTheBufferIsRead) {
    Reads reads;
    reads.delay = std::chrono::milliseconds(50);
    ActivityReader reader(reads.Function());
    const auto start = std::chrono::steady_clock::now();
    reader.Completed(Buffer(1), 8);
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(40));
    reader.Drain();
    EXPECT_EQ(reads.count(), 1u);
}

TEST(ActivityReader, DrainWaitsForTheBufferTheThreadIsReading) {
    std::mutex mutex;
    std::condition_variable changed;
    bool reading = false, release = false, read = false;
    ActivityReader reader([&](uint8_t*, size_t) {
        std::unique_lock<std::mutex> lock(mutex);
        reading = true;
        changed.notify_all();
        changed.wait(lock, [&] { return release; });
        read = true;
    });
    reader.Completed(Buffer(1), 8);
    {
        std::unique_lock<std::mutex> lock(mutex);
        changed.wait(lock, [&] { return reading; });  // the thread has it
    }
    std::thread releaser([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        std::lock_guard<std::mutex> lock(mutex);
        release = true;
        changed.notify_all();
    });
    reader.Drain();
    {
        std::lock_guard<std::mutex> lock(mutex);
        EXPECT_TRUE(read);  // Drain came back only after the thread's read ended
    }
    releaser.join();
    EXPECT_EQ(reader.statistics().queued, 1u);
    EXPECT_EQ(reader.statistics().readByDrain, 0u);
}

TEST(ActivityReader, BuffersCompletedWhileDrainingAreReadAtOnceOnThatThread) {
    Reads reads;
    ActivityReader reader(reads.Function());
    {
        ActivityReader::DrainScope draining;
        reader.Completed(Buffer(1), 8);
        ASSERT_EQ(reads.count(), 1u);  // read before Completed returned
    }
    EXPECT_EQ(reads.reads[0].second, std::this_thread::get_id());
    EXPECT_EQ(reader.statistics().readAtOnce, 1u);
    EXPECT_EQ(reader.statistics().queued, 0u);
}

TEST(ActivityReader, InExitModeBuffersAreReadAsTheyComplete) {
    Reads reads;
    ActivityReader reader(reads.Function());
    reader.Completed(Buffer(1), 8);
    reader.ReadInline();
    reader.Drain();  // the queued one
    reader.Completed(Buffer(2), 8);
    ASSERT_EQ(reads.count(), 2u);
    EXPECT_EQ(reads.reads[1].first, Buffer(2));
    EXPECT_EQ(reads.reads[1].second, std::this_thread::get_id());
    EXPECT_EQ(reader.statistics().readAtOnce, 1u);
}

TEST(ActivityReader, BuffersFromManyThreadsAreAllRead) {
    Reads reads;
    reads.delay = std::chrono::microseconds(20);
    ActivityReader reader(reads.Function());
    std::vector<std::thread> threads;
    for (uintptr_t t = 0; t < 4; ++t) {
        threads.emplace_back([&reader, t] {
            for (uintptr_t i = 1; i <= 50; ++i) reader.Completed(Buffer(t * 1000 + i), 8);
        });
    }
    std::thread drainer([&reader] {
        for (int i = 0; i < 20; ++i) reader.Drain();
    });
    for (std::thread& thread : threads) thread.join();
    drainer.join();
    reader.Drain();
    EXPECT_EQ(reads.count(), 200u);
    const ActivityReader::Statistics s = reader.statistics();
    EXPECT_EQ(s.queued + s.readAtOnce, 200u);
}

TEST(ActivityReader, AForkedChildReadsAtOnceAndLeavesTheParentsQueueAlone) {
    // Counted without a lock: the child must not take a lock a parent's thread may have held at the fork.
    std::atomic<int> count{0};
    std::atomic<uint8_t*> last{nullptr};
    ActivityReader reader([&](uint8_t* buffer, size_t) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        last = buffer;
        ++count;
    });
    reader.Completed(Buffer(1), 8);  // starts the thread
    reader.Completed(Buffer(2), 8);
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        // No reader thread here: read at once; the parent's queued buffers are not the child's to read.
        const int before = count.load();
        reader.Completed(Buffer(3), 8);
        reader.Drain();
        _exit(count.load() == before + 1 && last.load() == Buffer(3) ? 0 : 1);
    }
    int status = 0;
    ASSERT_EQ(waitpid(child, &status, 0), child);
    EXPECT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0);
    reader.Drain();
    EXPECT_EQ(count.load(), 2);
}

}  // namespace
}  // namespace gpaprof::cuda
