// The CUPTI correlation ids that lead to one command of device work: the runtime call's and the driver call's
// it made, rarely more. Kept inline, so that registering a launch for its activity record allocates nothing for
// them (two registrations per traced launch, docs/benchmarks.md, launch-bound tracing); more than fit inline go
// to the heap.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace gpaprof::cuda {

class CorrelationIds {
public:
    void push_back(uint32_t id) {
        if (inline_ < kInline) {
            first_[inline_++] = id;
        } else {
            more_.push_back(id);
        }
    }
    bool empty() const { return inline_ == 0; }

    template <typename Visit>
    void ForEach(Visit&& visit) const {
        for (size_t i = 0; i < inline_; ++i) visit(first_[i]);
        for (uint32_t id : more_) visit(id);
    }

private:
    static constexpr size_t kInline = 3;
    std::array<uint32_t, kInline> first_{};
    uint32_t inline_ = 0;  // (four bytes: an OpenCall's second cache line holds this, its dispatch and its gate)
    std::vector<uint32_t> more_;
};
static_assert(sizeof(CorrelationIds) == 40);

}  // namespace gpaprof::cuda
