#include "backends/cuda/large_buffer.h"

#include <sys/mman.h>

#include <cstdlib>
#include <string>

namespace gpa::cuda {
namespace {

constexpr size_t kHugePage = size_t{2} << 20;
constexpr size_t kWorthAdvising = 4 * kHugePage;  // below that, few huge pages fit in the buffer

// Room for `size` bytes in `buffer`, advised into huge pages before any of it is touched. Where the buffer
// must grow, its contents are not kept (the callers overwrite them).
void Reserve(std::vector<uint8_t>* buffer, size_t size) {
    if (buffer->capacity() >= size) return;
    std::vector<uint8_t> fresh;
    fresh.reserve(size);  // large allocations come from mmap, untouched (advice on touched memory is harmless)
    if (size >= kWorthAdvising && LargeBuffersUseHugePages()) {
        const auto begin = reinterpret_cast<uintptr_t>(fresh.data());
        const uintptr_t first = (begin + kHugePage - 1) & ~(kHugePage - 1);
        const uintptr_t last = (begin + size) & ~(kHugePage - 1);
        if (last > first) madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);  // advice only
    }
    buffer->swap(fresh);
}

}  // namespace

bool LargeBuffersUseHugePages() {
    static const bool use = [] {
        const char* value = std::getenv("OPENGPA_CUDA_HUGE_PAGES");
        return value == nullptr || std::string(value) != "0";
    }();
    return use;
}

void AssignZeroed(std::vector<uint8_t>* buffer, size_t size) {
    Reserve(buffer, size);
    buffer->assign(size, 0);
}

void AssignCopy(std::vector<uint8_t>* buffer, const std::vector<uint8_t>& from) {
    if (buffer == &from) return;
    Reserve(buffer, from.size());
    buffer->assign(from.begin(), from.end());
}

}  // namespace gpa::cuda
