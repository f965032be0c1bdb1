// The buffers CUPTI writes activity records into, handed over already zeroed.
//
// CUPTI wants its activity buffers zeroed, and zeroes each one itself in the thread that asked for it (most
// often the application's, in the middle of a launch: several milliseconds for an 8 MiB buffer) unless told
// that buffers come zeroed (CUPTI_ACTIVITY_ATTR_ZEROED_OUT_ACTIVITY_BUFFER). A buffer comes back once gpaprof
// has read its records, on CUPTI's thread: it is zeroed there and kept for the next request. A request with
// none kept gets fresh pages, which the kernel gives zeroed. Lock-free: buffers also come back from the
// crash handler's flush.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace gpaprof::cuda {

class ActivityBufferPool {
public:
    explicit ActivityBufferPool(size_t bufferBytes) : bufferBytes_(bufferBytes) {}
    ~ActivityBufferPool();
    ActivityBufferPool(const ActivityBufferPool&) = delete;
    ActivityBufferPool& operator=(const ActivityBufferPool&) = delete;

    size_t bufferBytes() const { return bufferBytes_; }
    // A zeroed buffer of bufferBytes(), or null when the system has no memory left.
    uint8_t* Take();
    // A buffer Take gave, back: zeroed and kept, or unmapped when enough are kept already.
    void Give(uint8_t* buffer);
    size_t kept() const;
    size_t mapped() const { return mapped_.load(std::memory_order_relaxed); }

    static constexpr size_t kKept = 4;

private:
    const size_t bufferBytes_;
    std::atomic<uint8_t*> kept_[kKept] = {};
    std::atomic<size_t> mapped_{0};  // buffers mapped and not unmapped
};

}  // namespace gpaprof::cuda
