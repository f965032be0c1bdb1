// The generic pass planner for backends that can say whether a set of hardware counters fits in one
// pass. It follows GPA's "consolidated" splitter: each counter's inputs are split alone into pass-sized
// chunks, counters are placed largest first into the earliest pass that takes them, and a hardware
// counter shared by several derived counters is scheduled once.
#pragma once

#include <functional>
#include <span>

#include "counters/pass_plan.h"

namespace gpa {

class ConsolidatedPassPlanner : public PassPlanner {
public:
    using FitsInOnePass = std::function<bool(std::span<const uint32_t> hardwareCounters)>;

    explicit ConsolidatedPassPlanner(FitsInOnePass fits) : fits_(std::move(fits)) {}

    Outcome Plan(const std::vector<std::vector<uint32_t>>& counterInputs, PassPlan* plan) override;

private:
    FitsInOnePass fits_;
};

// A common constraint: each hardware counter belongs to a block that can count at most N at once.
ConsolidatedPassPlanner::FitsInOnePass BlockLimits(std::vector<uint32_t> blockOfCounter,
                                                   std::vector<uint32_t> maxPerBlock);

}  // namespace gpa
