#include "tools/gpaprof/cuda/raw_call_rings.h"

#include <pthread.h>
#include <signal.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <new>
#include <system_error>
#include <vector>

namespace gpaprof::cuda {

// One call: the header fields and the parameter bytes, two cache lines.
struct alignas(64) RawCallRings::Slot {
    uint64_t threadId;
    uint64_t index;
    uint32_t apiType;
    int32_t returnCode;
    uint64_t start;
    uint64_t end;
    uint32_t paramsSize;
    unsigned char params[kSlotParamsBytes];
};
static_assert(sizeof(RawCallRings::Slot) == 128, "a slot is two cache lines");

// A single-producer, single-consumer ring: its thread writes slots and publishes them through `tail`; the consumer
// (whoever holds drainMutex_) reads up to `tail` and hands the slots back through `head`. Each index on a line of
// its own, so that the owner's stores and the consumer's do not share one.
struct RawCallRings::Ring {
    alignas(64) std::atomic<uint64_t> tail{0};
    uint64_t cachedHead = 0;  // the owner's last reading of head
    std::atomic<uint64_t> pushed{0};  // written by the owner only (a load and a store, no read-modify-write)
    alignas(64) std::atomic<uint64_t> head{0};
    std::atomic<bool> ownerGone{false};  // its thread ended: another may claim it once it is drained
    ThreadCache* ownerCache = nullptr;    // where its thread keeps it (emptied when the thread ends)
    Slot slots[kSlots];
};

namespace {

// The calling thread's ring for Push without a cache of the caller's (trivially destructible: valid until the
// thread's memory goes, after every destructor).
thread_local RawCallRings::ThreadCache t_ring;

std::atomic<uint64_t> g_nextSerial{1};
pthread_key_t g_threadEndKey;
pthread_once_t g_once = PTHREAD_ONCE_INIT;
// Every instance, for the fork handlers (one in a profiled process; tests make more).
std::mutex* g_instancesMutex = nullptr;
std::vector<RawCallRings*>* g_instances = nullptr;

}  // namespace

RawCallRings::RawCallRings(std::function<void(std::string_view)> write, std::function<void()> everyRound)
    : write_(std::move(write)), everyRound_(std::move(everyRound)), serial_(g_nextSerial.fetch_add(1)), rings_(new Ring*[kMaxRings]()) {
    pthread_once(&g_once, [] {
        pthread_key_create(&g_threadEndKey, &RawCallRings::ThreadEnded);
        g_instancesMutex = new std::mutex;
        g_instances = new std::vector<RawCallRings*>;
        pthread_atfork(&RawCallRings::PrepareFork, &RawCallRings::ParentAfterFork, &RawCallRings::ChildAfterFork);
    });
    std::lock_guard<std::mutex> lock(*g_instancesMutex);
    g_instances->push_back(this);
}

RawCallRings::~RawCallRings() {
    StopWriter();
    Drain();
    {
        std::lock_guard<std::mutex> lock(*g_instancesMutex);
        g_instances->erase(std::remove(g_instances->begin(), g_instances->end(), this), g_instances->end());
    }
    for (size_t i = 0; i < ringCount_.load(); ++i) delete rings_[i];
}

bool RawCallRings::Push(const RawCallFields& call) { return Push(call, t_ring); }

bool RawCallRings::Push(const RawCallFields& call, ThreadCache& cache) {
    if (writerState_.load(std::memory_order_relaxed) != 1) {
        if (writerState_.load(std::memory_order_relaxed) == 0) StartWriter();
        if (writerState_.load(std::memory_order_acquire) != 1) {
            refused_.fetch_add(1, std::memory_order_relaxed);
            return false;
        }
    }
    if (call.paramsSize > kSlotParamsBytes || (call.paramsSize > 0 && !call.params)) {
        refused_.fetch_add(1, std::memory_order_relaxed);
        return false;
    }
    Ring* ring = CurrentRing(cache);
    if (!ring) {
        refused_.fetch_add(1, std::memory_order_relaxed);
        return false;
    }
    const uint64_t tail = ring->tail.load(std::memory_order_relaxed);
    if (tail - ring->cachedHead >= kSlots) {
        ring->cachedHead = ring->head.load(std::memory_order_acquire);
        if (tail - ring->cachedHead >= kSlots) {
            refused_.fetch_add(1, std::memory_order_relaxed);
            if (!wakeAsked_.exchange(true, std::memory_order_relaxed)) wake_.notify_one();
            return false;
        }
    }
    Slot& slot = ring->slots[tail % kSlots];
    slot.threadId = call.threadId;
    slot.index = call.index;
    slot.apiType = call.apiType;
    slot.returnCode = call.returnCode;
    slot.start = call.start;
    slot.end = call.end;
    slot.paramsSize = static_cast<uint32_t>(call.paramsSize);
    if (call.paramsSize > 0) std::memcpy(slot.params, call.params, call.paramsSize);
    ring->tail.store(tail + 1, std::memory_order_release);
    ring->pushed.store(ring->pushed.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    // Half full by the owner's last reading: read again, and wake the writer if it is still behind.
    if (tail + 1 - ring->cachedHead >= kSlots / 2) {
        ring->cachedHead = ring->head.load(std::memory_order_acquire);
        if (tail + 1 - ring->cachedHead >= kSlots / 2 && !wakeAsked_.exchange(true, std::memory_order_relaxed)) {
            wake_.notify_one();
        }
    }
    return true;
}

RawCallRings::Ring* RawCallRings::CurrentRing(ThreadCache& cache) {
    if (cache.serial == serial_) return static_cast<Ring*>(cache.ring);
    Ring* ring = ClaimRing();
    if (ring) {
        cache = {serial_, ring};
        ring->ownerCache = &cache;
        pthread_setspecific(g_threadEndKey, ring);  // ThreadEnded gives it back when the thread ends
    }
    return ring;
}

RawCallRings::Ring* RawCallRings::ClaimRing() {
    std::lock_guard<std::mutex> lock(claimMutex_);
    const size_t count = ringCount_.load(std::memory_order_relaxed);
    // The ring of an ended thread, once the writer has taken everything it held.
    for (size_t i = 0; i < count; ++i) {
        Ring* ring = rings_[i];
        if (ring->ownerGone.load(std::memory_order_acquire) &&
            ring->head.load(std::memory_order_acquire) == ring->tail.load(std::memory_order_relaxed)) {
            ring->ownerGone.store(false, std::memory_order_relaxed);
            ring->cachedHead = ring->head.load(std::memory_order_relaxed);
            return ring;
        }
    }
    if (count == kMaxRings) return nullptr;
    Ring* ring = new (std::nothrow) Ring();
    if (!ring) return nullptr;
    rings_[count] = ring;
    ringCount_.store(count + 1, std::memory_order_release);  // the writer sees the ring once it is made
    return ring;
}

void RawCallRings::ThreadEnded(void* ring) {
    // On the ending thread, after its thread_local objects are destroyed (their memory is still there): a call it
    // still makes (a later key destructor calling CUDA) claims a ring again.
    Ring* ended = static_cast<Ring*>(ring);
    if (ended->ownerCache) *ended->ownerCache = {};
    ended->ownerCache = nullptr;
    ended->ownerGone.store(true, std::memory_order_release);
}

void RawCallRings::StartWriter() {
    std::lock_guard<std::mutex> lock(claimMutex_);
    if (writerState_.load(std::memory_order_relaxed) != 0) return;
    // All signals blocked: the application's signals go to its own threads, never to this one.
    sigset_t all, previous;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &previous);
    try {
        {
            std::lock_guard<std::mutex> wakeLock(wakeMutex_);
            stop_ = false;
        }
        writer_ = new std::thread([this] { WriterLoop(); });
        pthread_setname_np(writer_->native_handle(), "gpaprof-calls");
        writerState_.store(1, std::memory_order_release);
    } catch (const std::system_error&) {
        writerState_.store(2, std::memory_order_release);  // callers write their calls themselves
    }
    pthread_sigmask(SIG_SETMASK, &previous, nullptr);
}

void RawCallRings::WriterLoop() {
    std::unique_lock<std::mutex> lock(wakeMutex_);
    while (!stop_) {
        wake_.wait_for(lock, std::chrono::milliseconds(kWriteIntervalMs),
                       [this] { return stop_ || wakeAsked_.load(std::memory_order_relaxed); });
        wakeAsked_.store(false, std::memory_order_relaxed);
        lock.unlock();
        {
            std::lock_guard<std::timed_mutex> drain(drainMutex_);
            DrainLocked();
        }
        if (everyRound_) everyRound_();
        lock.lock();
    }
}

void RawCallRings::StopWriter() {
    std::thread* writer = nullptr;
    {
        std::lock_guard<std::mutex> claim(claimMutex_);
        if (writerState_.load(std::memory_order_relaxed) != 1) {
            writerState_.store(2, std::memory_order_release);
            return;
        }
        writerState_.store(2, std::memory_order_release);
        writer = writer_;
        writer_ = nullptr;
    }
    {
        std::lock_guard<std::mutex> lock(wakeMutex_);
        stop_ = true;
    }
    wake_.notify_one();
    if (writer && writer->joinable()) writer->join();
    delete writer;
}

uint64_t RawCallRings::pushed() const {
    uint64_t total = 0;
    const size_t count = ringCount_.load(std::memory_order_acquire);
    for (size_t i = 0; i < count; ++i) total += rings_[i]->pushed.load(std::memory_order_relaxed);
    return total;
}

void RawCallRings::Drain() {
    std::lock_guard<std::timed_mutex> lock(drainMutex_);
    DrainLocked();
}

bool RawCallRings::DrainForCrash() {
    if (!drainMutex_.try_lock_for(std::chrono::milliseconds(200))) return false;
    DrainLocked();
    drainMutex_.unlock();
    return true;
}

void RawCallRings::DrainLocked() {
    constexpr size_t kWriteBytes = size_t{1} << 20;  // one append per megabyte of lines at most
    lines_.clear();
    const size_t count = ringCount_.load(std::memory_order_acquire);
    for (size_t i = 0; i < count; ++i) {
        Ring& ring = *rings_[i];
        uint64_t head = ring.head.load(std::memory_order_relaxed);
        const uint64_t tail = ring.tail.load(std::memory_order_acquire);
        for (; head < tail; ++head) {
            const Slot& slot = ring.slots[head % kSlots];
            RawCallFields fields;
            fields.threadId = slot.threadId;
            fields.index = slot.index;
            fields.apiType = slot.apiType;
            fields.returnCode = slot.returnCode;
            fields.start = slot.start;
            fields.end = slot.end;
            fields.params = slot.paramsSize > 0 ? slot.params : nullptr;
            fields.paramsSize = slot.paramsSize;
            EncodeRawCallLine(fields, &lines_);
            if (lines_.size() >= kWriteBytes) {
                ring.head.store(head + 1, std::memory_order_release);
                write_(lines_);
                lines_.clear();
            }
        }
        ring.head.store(tail, std::memory_order_release);
    }
    if (!lines_.empty()) write_(lines_);
    lines_.clear();
}

void RawCallRings::PrepareFork() {
    // No round in progress and no ring being claimed while the process is copied.
    g_instancesMutex->lock();
    for (RawCallRings* rings : *g_instances) {
        rings->drainMutex_.lock();
        rings->claimMutex_.lock();
        rings->wakeMutex_.lock();
    }
}

void RawCallRings::ParentAfterFork() {
    for (RawCallRings* rings : *g_instances) {
        rings->wakeMutex_.unlock();
        rings->claimMutex_.unlock();
        rings->drainMutex_.unlock();
    }
    g_instancesMutex->unlock();
}

void RawCallRings::ChildAfterFork() {
    // The child has one thread, this one, and no writer: what the rings hold is the parent's to write. The child
    // writes its own calls itself (Push refuses them): its parts are not the parent's, nothing would drain its
    // rings when it ends (the agent forgets the parent's finalizers at fork), and a child that goes on with CUDA
    // after a fork is rare.
    for (RawCallRings* rings : *g_instances) {
        const size_t count = rings->ringCount_.load(std::memory_order_relaxed);
        for (size_t i = 0; i < count; ++i) {
            Ring& ring = *rings->rings_[i];
            ring.head.store(ring.tail.load(std::memory_order_relaxed), std::memory_order_relaxed);
            ring.cachedHead = ring.head.load(std::memory_order_relaxed);
        }
        rings->writer_ = nullptr;  // the parent's thread: not here, never joined (or destroyed) in the child
        rings->writerState_.store(2, std::memory_order_relaxed);
        rings->wakeAsked_.store(false, std::memory_order_relaxed);
        // The parent's writer may have been waiting on it: a fresh one (the old one is left as it is).
        new (&rings->wake_) std::condition_variable();
        rings->wakeMutex_.unlock();
        rings->claimMutex_.unlock();
        rings->drainMutex_.unlock();
    }
    g_instancesMutex->unlock();
}

}  // namespace gpaprof::cuda
