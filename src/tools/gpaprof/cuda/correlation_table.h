// The launches, copies and sets waiting for their activity records, by CUPTI correlation id. CUPTI numbers the
// calls of a process one after the other, and a command's record comes within a buffer's worth of calls, so
// the table is an array indexed by the id's low bits: a registration, a lookup and a removal are an array access
// (the unordered map before it took about 0.3-0.5 us a registration on the application's thread,
// docs/benchmarks.md). An id whose place is taken (more than kSlots calls between a registration and its record:
// larger activity buffers, a stream that waits long) goes to an overflow map. Not synchronised: the caller locks.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <unordered_map>

namespace gpaprof::cuda {

template <typename T>
class CorrelationTable {
public:
    static constexpr size_t kSlots = size_t{1} << 18;

    // The value registered under `id`, or null.
    T* Find(uint32_t id) const {
        const Slot& slot = slots_.get()[id & kMask];
        if (slot.value && slot.id == id) return slot.value;
        if (overflow_.empty()) return nullptr;
        auto found = overflow_.find(id);
        return found == overflow_.end() ? nullptr : found->second;
    }
    // False (and nothing changed) when `id` is registered already.
    bool Insert(uint32_t id, T* value) {
        if (Find(id)) return false;
        Slot& slot = slots_.get()[id & kMask];
        if (!slot.value) {
            slot = {id, value};
        } else {
            overflow_.emplace(id, value);
        }
        ++size_;
        return true;
    }
    // The value that was registered under `id` (now not), or null.
    T* Erase(uint32_t id) {
        Slot& slot = slots_.get()[id & kMask];
        T* value = nullptr;
        if (slot.value && slot.id == id) {
            value = slot.value;
            slot = Slot{0, nullptr};
        } else if (auto found = overflow_.find(id); found != overflow_.end()) {
            value = found->second;
            overflow_.erase(found);
        }
        if (value) --size_;
        return value;
    }
    size_t size() const { return size_; }
    size_t overflowed() const { return overflow_.size(); }
    template <typename Visit>
    void ForEach(Visit&& visit) const {  // every (id, value); walks the whole array
        for (size_t i = 0; i < kSlots; ++i) {
            if (const Slot& slot = slots_.get()[i]; slot.value) visit(slot.id, slot.value);
        }
        for (const auto& [id, value] : overflow_) visit(id, value);
    }

private:
    static constexpr uint32_t kMask = static_cast<uint32_t>(kSlots - 1);
    struct Slot {  // trivial: the array is zeroed memory
        uint32_t id;
        T* value;
    };
    struct Free {
        void operator()(Slot* slots) const { std::free(slots); }
    };
    // Written through once here: the pages are made now, not one every 57 launches on the application's thread.
    static Slot* Allocate() {
        void* memory = std::malloc(kSlots * sizeof(Slot));
        if (!memory) throw std::bad_alloc();
        std::memset(memory, 0, kSlots * sizeof(Slot));
        return static_cast<Slot*>(memory);
    }
    std::unique_ptr<Slot, Free> slots_{Allocate()};  // 4 MiB
    std::unordered_map<uint32_t, T*> overflow_;
    size_t size_ = 0;
};

}  // namespace gpaprof::cuda
