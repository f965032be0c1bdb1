// Reads CUPTI's completed activity buffers on a thread of gpaprof's own ("gpaprof-activity"), so that CUPTI's
// completion callback returns at once: reading a buffer of 8 MiB (about 25,000 kernel records) takes tens of
// milliseconds, and CUPTI's thread, and whatever CUPTI holds while it calls back, was busy for all of it
// (docs/benchmarks.md, 2026-11-27).
//
// Nothing is lost on any path: a flush (Drain) reads on the flushing thread everything completed so far and
// waits for a buffer the reader's thread is in the middle of; where no thread of the reader's runs (none could
// start, a forked child, after ReadInline) and on the thread that drains, buffers are read as they complete.
#pragma once

#include <pthread.h>
#include <sys/types.h>

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

namespace gpaprof::cuda {

class ActivityReader {
public:
    // Reads one completed buffer (validSize bytes of records) and frees it.
    using ReadFunction = std::function<void(uint8_t* buffer, size_t validSize)>;

    explicit ActivityReader(ReadFunction read) : read_(std::move(read)) {}
    // Reads what is queued and ends the thread. gpaprof's reader lives as long as the process (CudaPart is never
    // destroyed): its thread is never joined at exit, where it could wait for a lock the exiting thread holds.
    ~ActivityReader();
    ActivityReader(const ActivityReader&) = delete;
    ActivityReader& operator=(const ActivityReader&) = delete;

    // From CUPTI's completion callback: queued for the reader's thread (started at the first buffer), or read at
    // once (see above).
    void Completed(uint8_t* buffer, size_t validSize);
    // Every buffer completed before the call is read when it returns. CUPTI's forced flush calls back on the
    // flushing thread: Drain's caller brackets that flush with a DrainScope so those buffers are read at once.
    void Drain();
    // From now on, buffers are read as they complete (exit mode: no thread is waited for any more than needed).
    void ReadInline();

    // While one lives, buffers completed on this thread are read on it.
    class DrainScope {
    public:
        DrainScope() { ++t_draining; }
        ~DrainScope() { --t_draining; }
        DrainScope(const DrainScope&) = delete;
        DrainScope& operator=(const DrainScope&) = delete;
    };

    struct Statistics {
        uint64_t queued = 0;        // read on the reader's thread
        uint64_t readAtOnce = 0;    // read where they completed (no thread, draining, exit mode)
        uint64_t readByDrain = 0;   // queued, then read by a flush before the thread came to them
    };
    Statistics statistics() const;

private:
    bool StartThread();  // with mutex_ held
    void Run();
    void ReadAndCount(uint8_t* buffer, size_t validSize, std::atomic<uint64_t>* counter);

    static thread_local int t_draining;

    ReadFunction read_;
    std::mutex mutex_;
    std::condition_variable wake_;     // a buffer queued
    std::condition_variable idle_;     // the thread finished a buffer
    std::deque<std::pair<uint8_t*, size_t>> queue_;
    uint64_t takenByThread_ = 0;       // buffers the thread took from the queue
    uint64_t doneByThread_ = 0;        // ... and has read
    bool threadStarted_ = false;
    bool threadFailed_ = false;
    bool inline_ = false;              // exit mode: no more queueing (under mutex_)
    bool stop_ = false;                // the destructor's: the thread ends once the queue is empty
    std::thread thread_;
    std::atomic<pid_t> threadPid_{0};
    std::atomic<pthread_t> readerThread_{};  // the process the thread runs in (a forked child has none)
    std::atomic<uint64_t> queued_{0}, readAtOnce_{0}, readByDrain_{0};
};

}  // namespace gpaprof::cuda
