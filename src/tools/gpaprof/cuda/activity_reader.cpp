#include "tools/gpaprof/cuda/activity_reader.h"

#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <system_error>
#include <thread>
#include <utility>

namespace gpaprof::cuda {

thread_local int ActivityReader::t_draining = 0;

ActivityReader::~ActivityReader() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stop_ = true;
    }
    wake_.notify_all();
    if (!thread_.joinable()) return;
    if (threadPid_.load() == getpid()) {
        thread_.join();
    } else {
        thread_.detach();  // a forked child's copy names a thread of its parent's
    }
}

void ActivityReader::Completed(uint8_t* buffer, size_t validSize) {
    // A forked child has no reader thread, and its copy of the lock may be held by a thread it does not have.
    const pid_t pid = threadPid_.load(std::memory_order_acquire);
    if (t_draining == 0 && !(pid != 0 && pid != getpid())) {
        std::lock_guard<std::mutex> lock(mutex_);
        if (!inline_ && (threadStarted_ || (!threadFailed_ && StartThread()))) {
            queue_.emplace_back(buffer, validSize);
            queued_.fetch_add(1, std::memory_order_relaxed);
            wake_.notify_one();
            return;
        }
    }
    ReadAndCount(buffer, validSize, &readAtOnce_);
}

void ActivityReader::Drain() {
    const pid_t pid = threadPid_.load(std::memory_order_acquire);
    if (pid != 0 && pid != getpid()) return;  // a forked child: what its copy of the queue holds is the parent's
    std::deque<std::pair<uint8_t*, size_t>> taken;
    uint64_t mustFinish = 0;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        taken.swap(queue_);
        mustFinish = takenByThread_;
    }
    for (const auto& [buffer, validSize] : taken) ReadAndCount(buffer, validSize, &readByDrain_);
    // The reader's own thread drains from the crash handler when it faults: it cannot wait for itself.
    if (pthread_equal(pthread_self(), readerThread_.load())) return;
    std::unique_lock<std::mutex> lock(mutex_);
    idle_.wait(lock, [&] { return doneByThread_ >= mustFinish; });
}

void ActivityReader::ReadInline() {
    std::lock_guard<std::mutex> lock(mutex_);
    inline_ = true;
}

ActivityReader::Statistics ActivityReader::statistics() const {
    Statistics s;
    s.queued = queued_.load();
    s.readAtOnce = readAtOnce_.load();
    s.readByDrain = readByDrain_.load();
    return s;
}

bool ActivityReader::StartThread() {
    // Asynchronous signals blocked in the thread: the application's signals go to its own threads (and to
    // gpaprof's crash handler there), never to this one. A fault of its own still reaches the crash handler.
    sigset_t all, previous;
    sigfillset(&all);
    for (int fault : {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT}) sigdelset(&all, fault);
    pthread_sigmask(SIG_SETMASK, &all, &previous);
    try {
        thread_ = std::thread([this] { Run(); });
        pthread_setname_np(thread_.native_handle(), "gpaprof-activity");
        readerThread_ = thread_.native_handle();
        threadStarted_ = true;
        threadPid_.store(getpid(), std::memory_order_release);
    } catch (const std::system_error&) {
        threadFailed_ = true;  // buffers are read where they complete, as before the thread
    }
    pthread_sigmask(SIG_SETMASK, &previous, nullptr);
    return threadStarted_;
}

void ActivityReader::Run() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
        wake_.wait(lock, [&] { return stop_ || !queue_.empty(); });
        if (queue_.empty()) return;  // stopped
        const auto [buffer, validSize] = queue_.front();
        queue_.pop_front();
        ++takenByThread_;
        lock.unlock();
        read_(buffer, validSize);
        lock.lock();
        ++doneByThread_;
        idle_.notify_all();
    }
}

void ActivityReader::ReadAndCount(uint8_t* buffer, size_t validSize, std::atomic<uint64_t>* counter) {
    counter->fetch_add(1, std::memory_order_relaxed);
    read_(buffer, validSize);
}

}  // namespace gpaprof::cuda
