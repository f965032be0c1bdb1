#include "counters/consolidated_pass_planner.h"

#include <algorithm>
#include <numeric>
#include <string>
#include <unordered_set>

namespace gpa {

std::optional<std::pair<uint32_t, uint32_t>> PassPlan::Locate(uint32_t hardwareCounter) const {
    for (uint32_t p = 0; p < passes.size(); ++p) {
        auto it = std::find(passes[p].begin(), passes[p].end(), hardwareCounter);
        if (it != passes[p].end()) return std::make_pair(p, static_cast<uint32_t>(it - passes[p].begin()));
    }
    return std::nullopt;
}

Outcome ConsolidatedPassPlanner::Plan(const std::vector<std::vector<uint32_t>>& counterInputs, PassPlan* plan) {
    *plan = PassPlan{};
    // Largest counters first: they are the hardest to place (stable, so equal sizes keep enable order).
    std::vector<size_t> order(counterInputs.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return counterInputs[a].size() > counterInputs[b].size(); });

    std::unordered_set<uint32_t> scheduled;
    for (size_t index : order) {
        // The inputs not yet scheduled, split into chunks that each fit in one pass on their own.
        std::vector<std::vector<uint32_t>> chunks(1);
        std::unordered_set<uint32_t> chunked;  // inputs already in one of this counter's chunks
        for (uint32_t hw : counterInputs[index]) {
            if (scheduled.count(hw) != 0 || !chunked.insert(hw).second) continue;
            const uint32_t single[] = {hw};
            if (!fits_(single)) {
                return Fail(GPA_STATUS_ERROR_FAILED,
                            "hardware counter " + std::to_string(hw) + " cannot be collected in any pass");
            }
            std::vector<uint32_t> candidate = chunks.back();
            candidate.push_back(hw);
            if (fits_(candidate)) chunks.back() = std::move(candidate);
            else chunks.push_back({hw});
        }
        for (std::vector<uint32_t>& chunk : chunks) {
            if (chunk.empty()) continue;
            bool placed = false;
            for (std::vector<uint32_t>& pass : plan->passes) {
                std::vector<uint32_t> candidate = pass;
                candidate.insert(candidate.end(), chunk.begin(), chunk.end());
                if (fits_(candidate)) {
                    pass = std::move(candidate);
                    placed = true;
                    break;
                }
            }
            if (!placed) plan->passes.push_back(chunk);
            for (uint32_t hw : chunk) {
                scheduled.insert(hw);
                plan->hardwareCounters.push_back(hw);
            }
        }
    }
    plan->passCount = static_cast<uint32_t>(plan->passes.size());
    if (plan->passCount == 0 && !counterInputs.empty()) {
        // Counters with no hardware inputs (constants) still need one pass to produce samples.
        plan->passes.emplace_back();
        plan->passCount = 1;
    }
    return Outcome::Ok();
}

ConsolidatedPassPlanner::FitsInOnePass BlockLimits(std::vector<uint32_t> blockOfCounter,
                                                   std::vector<uint32_t> maxPerBlock) {
    return [blockOfCounter = std::move(blockOfCounter), maxPerBlock = std::move(maxPerBlock)](
               std::span<const uint32_t> counters) {
        std::vector<uint32_t> used(maxPerBlock.size(), 0);
        for (uint32_t hw : counters) {
            if (hw >= blockOfCounter.size()) return false;
            const uint32_t block = blockOfCounter[hw];
            if (block >= maxPerBlock.size() || ++used[block] > maxPerBlock[block]) return false;
        }
        return true;
    };
}

}  // namespace gpa
