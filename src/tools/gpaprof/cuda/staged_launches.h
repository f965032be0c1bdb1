// Kernel launches waiting for their activity records, staged by the thread that launched them.
//
// The trace joins each kernel's activity record to the API call that launched it by CUPTI correlation id. The
// join table is shared with CUPTI's thread, which reads it for every record under a lock; registering each
// launch there from the application's thread took about 0.25 us of a ~4 us launch (docs/benchmarks.md,
// launch-bound tracing), most of it the lock and cache lines last written by the other thread. A thread stages
// its launches here instead, in a list of its own, and whoever holds the join table's lock moves the staged
// launches into it before it looks anything up (Drain). A kernel's record can only come after its launch
// was staged (the launch is staged before the driver launches it), so a record never misses its launch.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace gpaprof::cuda {

struct StagedLaunch {
    std::array<uint32_t, 2> ids{};  // the correlation ids that lead to the launch (the driver call's, the outer call's)
    uint32_t idCount = 0;
    uint64_t threadId = 0;
    uint64_t index = 0;             // the launching call's index on its thread
    uint64_t stream = 0;
    uint64_t context = 0;
    uint64_t kernel = 0;            // CUfunction
    uint32_t callClass = 0;         // the launching call's CudaApiClass (a launch, or a call that launches inside)
};

class StagedLaunches {
public:
    StagedLaunches();
    ~StagedLaunches();
    StagedLaunches(const StagedLaunches&) = delete;
    StagedLaunches& operator=(const StagedLaunches&) = delete;

    // The calling thread's stage, found once: a caller on a hot path keeps one of these per thread and passes it
    // to Stage (a thread_local of this library is one more TLS look-up a launch).
    struct ThreadCache {
        uint64_t serial = 0;  // of the instance whose stage it is
        void* stage = nullptr;
    };
    // On the launching thread.
    void Stage(const StagedLaunch& launch);
    // The same through the caller's cache of this thread's stage (one per thread, never shared between threads).
    void Stage(const StagedLaunch& launch, ThreadCache& cache);

    // Hands every staged launch to `take`, in each thread's order, and forgets it. Callers serialise their
    // drains (they hold the join table's lock). A thread's ring needs no lock; its overflow list does: a drain waits
    // for another thread's lock (up to kLockWaitMs), but a list locked by the draining thread itself (a crash
    // handler that interrupted it inside Stage) is left for later (`skipped` counts them).
    template <typename Take>
    void Drain(Take&& take, size_t* skipped = nullptr) {
        std::vector<StagedLaunch>& batch = drained_;
        const size_t count = threadCount_.load(std::memory_order_acquire);
        for (size_t i = 0; i < count; ++i) {
            ThreadStage& stage = *threads_[i];
            TakeRing(stage, take);
            if (!stage.pending.load(std::memory_order_acquire)) continue;
            if (!LockForDrain(stage)) {
                if (skipped) ++*skipped;
                continue;
            }
            // What the ring got before the thread turned to its list is older than anything in the list.
            TakeRing(stage, take);
            batch.swap(stage.launches);
            stage.pending.store(false, std::memory_order_release);
            stage.mutex.unlock();
            for (const StagedLaunch& launch : batch) take(launch);
            batch.clear();  // keeps its capacity for the next swap
        }
    }

    size_t threads() const { return threadCount_.load(std::memory_order_acquire); }

    // Threads at most: one stage each, never freed while the process runs (a thread's launches outlive it until
    // their records come). A thread past this many stages through `overflow_`, shared and locked.
    static constexpr size_t kMaxThreads = 4096;
    // How long a drain waits for another thread's list (LockForDrain).
    static constexpr int kLockWaitMs = 2000;

private:
    friend struct StagedLaunchesTestAccess;
    // A thread's launches go into its ring (single producer, single consumer: no lock, and the same 64 KiB
    // written over and over, which stay in the core's cache); when the ring is full, and for the stage that
    // threads past kMaxThreads share, into the list under the lock, until a drain empties it (so that the order
    // holds: while the list has launches, the ring takes none).
    static constexpr size_t kRingSlots = 1024;
    struct ThreadStage {
        alignas(64) std::atomic<uint64_t> tail{0};  // written by the owner
        uint64_t cachedHead = 0;                     // the owner's last reading of head
        bool shared = false;                         // several threads stage here: the list only
        alignas(64) std::atomic<uint64_t> head{0};  // written by the drain
        std::unique_ptr<StagedLaunch[]> ring{new StagedLaunch[kRingSlots]};
        std::mutex mutex;
        std::vector<StagedLaunch> launches;
        std::atomic<bool> pending{false};  // the list has launches: the owner adds to it, not to the ring
        std::thread::id owner;
    };
    template <typename Take>
    static void TakeRing(ThreadStage& stage, Take& take) {
        uint64_t head = stage.head.load(std::memory_order_relaxed);
        const uint64_t tail = stage.tail.load(std::memory_order_acquire);
        if (head == tail) return;
        for (; head < tail; ++head) take(stage.ring[head % kRingSlots]);
        stage.head.store(tail, std::memory_order_release);
    }
    ThreadStage& CurrentStage(ThreadCache& cache);
    static bool LockForDrain(ThreadStage& stage);

    const uint64_t serial_;  // tells this instance from an earlier one at the same address (tests make several)
    std::mutex registryMutex_;
    std::unique_ptr<std::unique_ptr<ThreadStage>[]> threads_;
    std::atomic<size_t> threadCount_{0};
    ThreadStage* overflow_ = nullptr;  // threads_[kMaxThreads - 1] once the table is full
    std::vector<StagedLaunch> drained_;
};

}  // namespace gpaprof::cuda
