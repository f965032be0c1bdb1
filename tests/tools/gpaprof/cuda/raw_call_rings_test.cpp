// Raw call records kept per thread (src/tools/gpaprof/cuda/raw_call_rings.h): every call pushed is written once, as
// the very line the thread would have written itself, by the writer thread or by Drain; what does not fit is
// refused and left to the caller; rings of ended threads are reused; a forked child writes none of its parent's.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "tools/gpaprof/cuda/raw_call_line.h"
#include "tools/gpaprof/cuda/raw_call_rings.h"

namespace gpaprof::cuda {
namespace {

// The lines written, split, in the order written.
class Written {
public:
    std::function<void(std::string_view)> Sink() {
        return [this](std::string_view lines) {
            std::lock_guard<std::mutex> lock(mutex_);
            ++writes_;
            size_t begin = 0;
            for (size_t end = lines.find('\n'); end != std::string_view::npos; end = lines.find('\n', begin)) {
                lines_.emplace_back(lines.substr(begin, end + 1 - begin));
                begin = end + 1;
            }
            EXPECT_EQ(begin, lines.size()) << "every write is whole lines";
        };
    }
    std::vector<std::string> Lines() {
        std::lock_guard<std::mutex> lock(mutex_);
        return lines_;
    }
    void Clear() {
        std::lock_guard<std::mutex> lock(mutex_);
        lines_.clear();
    }

private:
    std::mutex mutex_;
    std::vector<std::string> lines_;
    size_t writes_ = 0;
};

// A call of thread `thread` with `size` parameter bytes that depend on its index.
struct TestCall {
    RawCallFields fields;
    std::vector<unsigned char> params;
};
TestCall MakeCall(uint64_t thread, uint64_t index, size_t size) {
    TestCall call;
    call.params.resize(size);
    for (size_t i = 0; i < size; ++i) call.params[i] = static_cast<unsigned char>(index * 7 + i);
    call.fields.threadId = thread;
    call.fields.index = index;
    call.fields.apiType = static_cast<uint32_t>(index % 300);
    call.fields.returnCode = static_cast<int32_t>(index % 3) - 1;
    call.fields.start = 1000 + index;
    call.fields.end = 2000 + 2 * index;
    call.fields.params = size ? call.params.data() : nullptr;
    call.fields.paramsSize = size;
    return call;
}
std::string LineOf(const TestCall& call) {
    std::string line;
    EncodeRawCallLine(call.fields, &line);
    return line;
}

TEST(RawCallRings, EveryCallOfEveryThreadIsWrittenOnceAsItsLine) {
    Written written;
    RawCallRings rings(written.Sink());
    constexpr uint64_t kThreads = 4, kCalls = 20000;  // many times a ring: the writer drains while they push
    std::atomic<uint64_t> refusedByCaller{0};
    std::vector<std::thread> threads;
    std::mutex expectedMutex;
    std::map<std::string, int> expected;
    for (uint64_t t = 0; t < kThreads; ++t) {
        threads.emplace_back([&, t] {
            std::vector<std::string> mine;
            for (uint64_t i = 0; i < kCalls; ++i) {
                const TestCall call = MakeCall(t + 1, i, i % 81);  // 0 to 80 bytes
                if (rings.Push(call.fields)) {
                    mine.push_back(LineOf(call));
                } else {
                    refusedByCaller.fetch_add(1);  // a full ring: the caller would write it itself
                }
            }
            std::lock_guard<std::mutex> lock(expectedMutex);
            for (std::string& line : mine) ++expected[line];
        });
    }
    for (std::thread& thread : threads) thread.join();
    rings.Drain();
    std::map<std::string, int> got;
    for (const std::string& line : written.Lines()) ++got[line];
    EXPECT_EQ(got.size(), expected.size());
    EXPECT_TRUE(got == expected) << "each call pushed is written once, as its line";
    EXPECT_EQ(rings.pushed() + refusedByCaller.load(), kThreads * kCalls);
    EXPECT_EQ(rings.refused(), refusedByCaller.load());
    EXPECT_LE(rings.rings(), kThreads) << "one ring a thread at most (an ended thread's may be reused)";
}

TEST(RawCallRings, TheWriterThreadWritesWithoutBeingAsked) {
    Written written;
    RawCallRings rings(written.Sink());
    const TestCall call = MakeCall(9, 1, 56);
    ASSERT_TRUE(rings.Push(call.fields));
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (written.Lines().empty() && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    EXPECT_EQ(written.Lines(), std::vector<std::string>{LineOf(call)});
}

TEST(RawCallRings, WhatDoesNotFitIsRefused) {
    Written written;
    RawCallRings rings(written.Sink());
    const TestCall large = MakeCall(1, 1, RawCallRings::kSlotParamsBytes + 1);
    EXPECT_FALSE(rings.Push(large.fields)) << "parameters larger than a slot";
    RawCallFields missing = MakeCall(1, 2, 8).fields;
    missing.params = nullptr;
    EXPECT_FALSE(rings.Push(missing)) << "a size without its bytes";
    EXPECT_EQ(rings.refused(), 2u);
    // After the writer stopped (the process ends), callers write their calls themselves.
    rings.StopWriter();
    EXPECT_FALSE(rings.Push(MakeCall(1, 3, 0).fields));
    rings.Drain();
    EXPECT_TRUE(written.Lines().empty());
}

// A writer held inside its write: the ring fills, the next call is refused, and nothing pushed is lost.
TEST(RawCallRings, AFullRingRefusesAndLosesNothing) {
    std::mutex gateMutex;
    std::condition_variable gate;
    bool held = false, release = false;
    std::vector<std::string> lines;
    RawCallRings rings([&](std::string_view text) {
        std::unique_lock<std::mutex> lock(gateMutex);
        lines.emplace_back(text);
        held = true;
        gate.notify_all();
        gate.wait(lock, [&] { return release; });
    });
    const TestCall first = MakeCall(1, 0, 8);
    ASSERT_TRUE(rings.Push(first.fields));
    {
        std::unique_lock<std::mutex> lock(gateMutex);
        ASSERT_TRUE(gate.wait_for(lock, std::chrono::seconds(5), [&] { return held; })) << "the writer took the first call";
    }
    size_t accepted = 0;
    for (uint64_t i = 1; i <= RawCallRings::kSlots; ++i) accepted += rings.Push(MakeCall(1, i, 8).fields) ? 1 : 0;
    EXPECT_EQ(accepted, RawCallRings::kSlots) << "a whole ring while the writer is busy";
    EXPECT_FALSE(rings.Push(MakeCall(1, RawCallRings::kSlots + 1, 8).fields)) << "and then no more";
    EXPECT_EQ(rings.refused(), 1u);
    {
        std::lock_guard<std::mutex> lock(gateMutex);
        release = true;
    }
    gate.notify_all();
    rings.StopWriter();
    rings.Drain();
    std::string all;
    for (const std::string& text : lines) all += text;
    for (uint64_t i = 0; i <= RawCallRings::kSlots; ++i) {
        EXPECT_NE(all.find(LineOf(MakeCall(1, i, 8))), std::string::npos) << "call " << i;
    }
}

TEST(RawCallRings, AnEndedThreadsRingIsReused) {
    Written written;
    RawCallRings rings(written.Sink());
    for (uint64_t t = 0; t < 3; ++t) {
        std::thread([&, t] { ASSERT_TRUE(rings.Push(MakeCall(t, 0, 16).fields)); }).join();
        rings.Drain();  // an ended thread's ring is reused once it is empty
    }
    EXPECT_EQ(rings.rings(), 1u);
    EXPECT_EQ(written.Lines().size(), 3u);
}

// A caller's own cache of its thread's ring (CudaPart keeps one per thread): filled by the first push, emptied when
// the thread ends (so that a call it still makes from a later key destructor claims a ring again), and the ended
// thread's ring goes to the next thread.
TEST(RawCallRings, ACallersCacheHoldsItsThreadsRingUntilTheThreadEnds) {
    Written written;
    RawCallRings rings(written.Sink());
    RawCallRings::ThreadCache first;  // the test's memory, used by one thread only, so that it can be read after
    void* firstRing = nullptr;
    std::thread([&] {
        ASSERT_TRUE(rings.Push(MakeCall(1, 0, 16).fields, first));
        ASSERT_TRUE(rings.Push(MakeCall(1, 1, 16).fields, first));
        firstRing = first.ring;
        EXPECT_NE(first.serial, 0u) << "the first push filled the cache";
    }).join();
    EXPECT_NE(firstRing, nullptr);
    EXPECT_EQ(first.ring, nullptr) << "emptied when its thread ended";
    EXPECT_EQ(first.serial, 0u);
    rings.Drain();
    EXPECT_EQ(written.Lines().size(), 2u);
    RawCallRings::ThreadCache second;
    void* secondRing = nullptr;
    std::thread([&] {
        ASSERT_TRUE(rings.Push(MakeCall(2, 0, 16).fields, second));
        secondRing = second.ring;
    }).join();
    EXPECT_EQ(secondRing, firstRing) << "the ended thread's ring, drained, went to the next thread";
    EXPECT_EQ(rings.rings(), 1u);
    rings.Drain();
    EXPECT_EQ(written.Lines().size(), 3u);
}

TEST(RawCallRings, AForkedChildWritesNoneOfItsParentsAndLeavesItsOwnToItsThreads) {
    Written written;
    RawCallRings rings(written.Sink());
    for (uint64_t i = 0; i < 100; ++i) ASSERT_TRUE(rings.Push(MakeCall(1, i, 24).fields));
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        written.Clear();  // what the parent wrote before the fork
        const bool refused = !rings.Push(MakeCall(2, 0, 24).fields);  // the child's call: its thread writes it
        rings.Drain();
        _exit(refused && written.Lines().empty() ? 0 : 1);
    }
    int status = 0;
    ASSERT_EQ(waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0) << "the child took no call into a ring and wrote none of the parent's";
    rings.Drain();
    EXPECT_EQ(written.Lines().size(), 100u) << "the parent writes its own";
    EXPECT_TRUE(rings.Push(MakeCall(1, 100, 24).fields)) << "and goes on keeping calls";
}

}  // namespace
}  // namespace gpaprof::cuda
