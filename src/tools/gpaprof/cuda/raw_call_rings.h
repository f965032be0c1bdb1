// Raw call records kept per thread and written to the spool by a thread of gpaprof's (issue 34: the launching
// thread records binary and formats nothing).
//
// A traced call whose arguments are its parameter struct's bytes (raw_call_line.h) was encoded as a hex line and
// appended to the spool on the thread that made the call: the encoding, the atomic reservation in the shared spool
// and the copy into pages that no thread had touched cost a launch-bound loop about as much as all the rest of
// gpaprof's recording (docs/benchmarks.md, 2026-11-28, 23:20 UTC). Here the calling thread copies the call's fields
// and parameter bytes into the next slot of a ring of its own (a few cache lines that stay in its core's cache,
// no lock, no atomic read-modify-write) and publishes it with one release store. A writer thread wakes every
// kWriteIntervalMs, or sooner when a ring is half full, encodes what every ring holds into one run of 'B'
// lines and appends it to the spool at once. The lines are the same as before; their order in the spool is not
// (gpaprof orders calls by thread and call index when it assembles the trace).
//
// Nothing is lost where the process ends through exit, a return from main or a crash signal, or replaces itself
// by exec: the owner drains the rings there (Drain, DrainForCrash; the exec hooks of libgpaprof_exit.so). A
// process killed outright (SIGKILL) loses what its rings held, at most about kWriteIntervalMs of calls; before,
// each call was in the file as soon as it returned. A call that does not fit (parameters larger than
// kSlotParamsBytes, a full ring, more threads than kMaxRings, the writer stopped or not startable, a forked child)
// is not pushed: the caller writes it as before.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>

#include "tools/gpaprof/cuda/raw_call_line.h"

namespace gpaprof::cuda {

class RawCallRings {
public:
    // Where the lines go (the spool); called by the writer thread and by Drain, never by two at once. `everyRound`,
    // if given, runs on the writer thread after each of its rounds (the CUDA part moves staged launches then).
    explicit RawCallRings(std::function<void(std::string_view lines)> write, std::function<void()> everyRound = {});
    ~RawCallRings();
    RawCallRings(const RawCallRings&) = delete;
    RawCallRings& operator=(const RawCallRings&) = delete;

    static constexpr size_t kSlotParamsBytes = 80;  // a slot is 128 bytes; cudaLaunchKernel's struct is 56, cuLaunchKernel's 64
    static constexpr size_t kSlots = 1024;           // a ring: 128 KiB, about 2.5 ms of a launch-bound loop
    static constexpr size_t kMaxRings = 512;         // threads with a ring at once; rings of ended threads are reused
    static constexpr int kWriteIntervalMs = 5;

    // The calling thread's ring, found once: a caller on a hot path keeps one of these per thread and passes it to
    // Push (a thread_local of this library is one more TLS look-up a call). Reset when the thread ends.
    struct ThreadCache {
        uint64_t serial = 0;  // of the instance whose ring it is
        void* ring = nullptr;
    };
    // On the calling thread: false when the call is not taken (see above), and the caller writes it itself.
    bool Push(const RawCallFields& call);
    // The same through the caller's cache of this thread's ring (one per thread, never shared between threads).
    bool Push(const RawCallFields& call, ThreadCache& cache);
    // Writes what every ring holds now, on the calling thread (waits for the writer thread's round in progress).
    void Drain();
    // From a crash handler: as Drain, but gives up after a bounded wait for a round in progress (which may be the
    // interrupted thread's own); returns whether it drained.
    bool DrainForCrash();
    // Stops the writer thread after a last round (the process ends). Push goes on taking calls; Drain writes them.
    void StopWriter();

    // For tests and GPAPROF_CUDA_STATS.
    uint64_t pushed() const;
    uint64_t refused() const { return refused_.load(std::memory_order_relaxed); }
    size_t rings() const { return ringCount_.load(std::memory_order_acquire); }

private:
public:
    struct Slot;  // (public for the layout's static_assert)

private:
    struct Ring;
    Ring* CurrentRing(ThreadCache& cache);
    Ring* ClaimRing();
    void DrainLocked();
    void WriterLoop();
    void StartWriter();
    static void ThreadEnded(void* ring);
    static void PrepareFork();
    static void ParentAfterFork();
    static void ChildAfterFork();

    std::function<void(std::string_view)> write_;
    std::function<void()> everyRound_;
    uint64_t serial_;  // tells this instance's rings from another's in the per-thread cache
    std::unique_ptr<Ring*[]> rings_;
    std::atomic<size_t> ringCount_{0};
    std::mutex claimMutex_;
    std::timed_mutex drainMutex_;  // one consumer at a time: the writer thread, Drain, DrainForCrash
    std::string lines_;            // under drainMutex_
    std::atomic<uint64_t> refused_{0};

    std::mutex wakeMutex_;
    std::condition_variable wake_;
    std::atomic<bool> wakeAsked_{false};
    bool stop_ = false;                  // under wakeMutex_
    std::atomic<int> writerState_{0};    // 0 not started, 1 running, 2 stopped (or could not start)
    std::thread* writer_ = nullptr;      // left behind in a forked child, never joined there
};

}  // namespace gpaprof::cuda
