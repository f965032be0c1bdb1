#include "tools/gpaprof/cuda/activity_buffer_pool.h"

#include <sys/mman.h>

#include <cstring>

namespace gpaprof::cuda {

ActivityBufferPool::~ActivityBufferPool() {
    for (std::atomic<uint8_t*>& slot : kept_) {
        if (uint8_t* buffer = slot.exchange(nullptr)) munmap(buffer, bufferBytes_);
    }
}

uint8_t* ActivityBufferPool::Take() {
    for (std::atomic<uint8_t*>& slot : kept_) {
        if (slot.load(std::memory_order_relaxed) == nullptr) continue;
        if (uint8_t* buffer = slot.exchange(nullptr, std::memory_order_acquire)) return buffer;
    }
    void* memory = mmap(nullptr, bufferBytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (memory == MAP_FAILED) return nullptr;
    mapped_.fetch_add(1, std::memory_order_relaxed);
    return static_cast<uint8_t*>(memory);
}

void ActivityBufferPool::Give(uint8_t* buffer) {
    if (!buffer) return;
    std::memset(buffer, 0, bufferBytes_);
    for (std::atomic<uint8_t*>& slot : kept_) {
        uint8_t* empty = nullptr;
        if (slot.compare_exchange_strong(empty, buffer, std::memory_order_release, std::memory_order_relaxed)) return;
    }
    munmap(buffer, bufferBytes_);
    mapped_.fetch_sub(1, std::memory_order_relaxed);
}

size_t ActivityBufferPool::kept() const {
    size_t count = 0;
    for (const std::atomic<uint8_t*>& slot : kept_) count += slot.load(std::memory_order_relaxed) != nullptr;
    return count;
}

}  // namespace gpaprof::cuda
