#include "tools/gpaprof/cuda/staged_launches.h"

#include <chrono>
#include <thread>

namespace gpaprof::cuda {
namespace {

std::atomic<uint64_t> g_serials{0};

// The stage this thread found last, and whose it is, for Stage without a cache of the caller's. Trivially
// destructible: still there in the callbacks a thread's teardown makes.
thread_local StagedLaunches::ThreadCache t_stage;

}  // namespace

StagedLaunches::StagedLaunches()
    : serial_(++g_serials), threads_(std::make_unique<std::unique_ptr<ThreadStage>[]>(kMaxThreads)) {}

StagedLaunches::~StagedLaunches() = default;

void StagedLaunches::Stage(const StagedLaunch& launch) { Stage(launch, t_stage); }

void StagedLaunches::Stage(const StagedLaunch& launch, ThreadCache& cache) {
    ThreadStage& stage = CurrentStage(cache);
    if (!stage.shared && !stage.pending.load(std::memory_order_acquire)) {
        const uint64_t tail = stage.tail.load(std::memory_order_relaxed);
        if (tail - stage.cachedHead >= kRingSlots) stage.cachedHead = stage.head.load(std::memory_order_acquire);
        if (tail - stage.cachedHead < kRingSlots) {
            stage.ring[tail % kRingSlots] = launch;
            stage.tail.store(tail + 1, std::memory_order_release);
            return;
        }
    }
    std::lock_guard<std::mutex> lock(stage.mutex);
    stage.launches.push_back(launch);
    stage.pending.store(true, std::memory_order_release);
}

StagedLaunches::ThreadStage& StagedLaunches::CurrentStage(ThreadCache& cache) {
    if (cache.serial == serial_) return *static_cast<ThreadStage*>(cache.stage);
    std::lock_guard<std::mutex> lock(registryMutex_);
    // This thread's stage, if it has one (another instance's stage was cached), or the stage of an ended thread
    // whose id it was given: its list is the same to everyone.
    const std::thread::id self = std::this_thread::get_id();
    const size_t count = threadCount_.load(std::memory_order_relaxed);
    ThreadStage* stage = nullptr;
    for (size_t i = 0; i < count && !stage; ++i) {
        if (threads_[i]->owner == self) stage = threads_[i].get();
    }
    if (!stage) stage = overflow_;
    if (!stage) {
        threads_[count] = std::make_unique<ThreadStage>();
        threads_[count]->owner = self;
        stage = threads_[count].get();
        if (count == kMaxThreads - 1) {
            overflow_ = stage;
            stage->shared = true;  // set before any other thread can find it (registryMutex_)
        }
        threadCount_.store(count + 1, std::memory_order_release);  // a drain sees the stage once it is made
    }
    cache = {serial_, stage};
    return *stage;
}

bool StagedLaunches::LockForDrain(ThreadStage& stage) {
    // The list's own thread draining: a crash handler that interrupted it, maybe inside Stage with the lock held. It
    // cannot wait for itself.
    if (stage.owner == std::this_thread::get_id()) return stage.mutex.try_lock();
    // Another thread holds the lock for a push_back, and is soon done unless the machine is busy and it lost its
    // core: a drain that gave up after a few thousand tries left that thread's launches out while the records
    // that need them were read (63 kernels without their launch in a stand-in run under load, 2026-11-29). So
    // it waits, up to kLockWaitMs, and only a thread stopped for good (a crash elsewhere) is left for later.
    for (int attempt = 0; attempt < 256; ++attempt) {
        if (stage.mutex.try_lock()) return true;
        if (attempt >= 64) std::this_thread::yield();
    }
    for (int waited = 0; waited < kLockWaitMs; ++waited) {
        if (stage.mutex.try_lock()) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return false;
}

}  // namespace gpaprof::cuda
