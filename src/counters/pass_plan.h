// How the hardware counters behind a set of enabled counters are spread over replay passes.
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "core/outcome.h"

namespace gpa {

struct PassPlan {
    uint32_t passCount = 0;
    // Union of the hardware counters needed, without duplicates, in the order they were scheduled.
    std::vector<uint32_t> hardwareCounters;
    // Hardware counters collected in each pass. Backends whose vendor library assigns counters to passes
    // itself (CUPTI) leave this empty and keep only passCount.
    std::vector<std::vector<uint32_t>> passes;

    // (pass, offset within that pass) of a hardware counter, when the plan lists passes.
    std::optional<std::pair<uint32_t, uint32_t>> Locate(uint32_t hardwareCounter) const;
};

// Decides passes for a backend. `counterInputs` holds, per enabled counter, the hardware counters it needs.
class PassPlanner {
public:
    virtual ~PassPlanner() = default;
    virtual Outcome Plan(const std::vector<std::vector<uint32_t>>& counterInputs, PassPlan* plan) = 0;
};

}  // namespace gpa
