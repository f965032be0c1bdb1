// ConsolidatedPassPlanner (GPA's consolidated splitter) with BlockLimits, and PassPlan::Locate.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "counters/consolidated_pass_planner.h"

namespace gpa {
namespace {

using Inputs = std::vector<std::vector<uint32_t>>;
using Passes = std::vector<std::vector<uint32_t>>;

PassPlan PlanOk(ConsolidatedPassPlanner& planner, const Inputs& inputs) {
    PassPlan plan;
    const Outcome outcome = planner.Plan(inputs, &plan);
    EXPECT_TRUE(outcome.ok()) << outcome.reason();
    EXPECT_EQ(plan.passCount, plan.passes.size());
    return plan;
}

// Eight hardware counters: 0-3 in block 0 (one at a time), 4-5 in block 1 (two at a time),
// 6-7 in block 2 (three at a time).
ConsolidatedPassPlanner Planner() { return ConsolidatedPassPlanner(BlockLimits({0, 0, 0, 0, 1, 1, 2, 2}, {1, 2, 3})); }

TEST(ConsolidatedPassPlanner, NothingEnabledNeedsNoPass) {
    ConsolidatedPassPlanner planner = Planner();
    const PassPlan plan = PlanOk(planner, {});
    EXPECT_EQ(plan.passCount, 0u);
    EXPECT_TRUE(plan.hardwareCounters.empty());
}

TEST(ConsolidatedPassPlanner, CountersThatFitTogetherShareOnePass) {
    ConsolidatedPassPlanner planner = Planner();
    const PassPlan plan = PlanOk(planner, {{4}, {5}, {6, 7}, {0}});
    EXPECT_EQ(plan.passCount, 1u);
    ASSERT_EQ(plan.passes.size(), 1u);
    EXPECT_EQ(std::set<uint32_t>(plan.passes[0].begin(), plan.passes[0].end()), (std::set<uint32_t>{0, 4, 5, 6, 7}));
}

TEST(ConsolidatedPassPlanner, BlockLimitsSplitPasses) {
    ConsolidatedPassPlanner planner = Planner();
    // Block 0 counts one at a time: three counters of block 0 need three passes.
    EXPECT_EQ(PlanOk(planner, {{0}, {1}, {2}}).passCount, 3u);
    // Block 1 counts two at a time.
    EXPECT_EQ(PlanOk(planner, {{4}, {5}}).passCount, 1u);
    // Unrelated blocks do not interfere: one pass per block-0 counter, the rest fill those passes.
    const PassPlan plan = PlanOk(planner, {{0}, {1}, {4}, {5}, {6}, {7}});
    EXPECT_EQ(plan.passCount, 2u);
}

TEST(ConsolidatedPassPlanner, SharedHardwareCounterIsScheduledOnce) {
    ConsolidatedPassPlanner planner = Planner();
    const PassPlan plan = PlanOk(planner, {{0, 4}, {0, 5}, {4, 0, 6}});
    EXPECT_EQ(plan.passCount, 1u);
    std::vector<uint32_t> sorted = plan.hardwareCounters;
    std::sort(sorted.begin(), sorted.end());
    EXPECT_EQ(sorted, (std::vector<uint32_t>{0, 4, 5, 6}));
    EXPECT_EQ(plan.passes[0].size(), 4u);
}

TEST(ConsolidatedPassPlanner, SharedCounterOfABlockThatCountsOneAtATimeTakesNoExtraPass) {
    ConsolidatedPassPlanner planner = Planner();
    // Both derived counters need hardware counter 0 (block 0, one at a time): still one pass.
    EXPECT_EQ(PlanOk(planner, {{0, 6}, {0, 7}}).passCount, 1u);
}

TEST(ConsolidatedPassPlanner, LargestCounterIsPlacedFirst) {
    // One block that counts three at a time.
    ConsolidatedPassPlanner planner(BlockLimits({0, 0, 0, 0, 0}, {3}));
    const PassPlan plan = PlanOk(planner, {{0}, {1, 2, 3}, {4}});
    ASSERT_EQ(plan.passCount, 2u);
    EXPECT_EQ(plan.passes[0], (std::vector<uint32_t>{1, 2, 3}));
    EXPECT_EQ(plan.passes[1], (std::vector<uint32_t>{0, 4}));
    EXPECT_EQ(plan.hardwareCounters, (std::vector<uint32_t>{1, 2, 3, 0, 4}));
}

TEST(ConsolidatedPassPlanner, EqualSizesKeepTheOrderTheyWereEnabledIn) {
    ConsolidatedPassPlanner planner(BlockLimits({0, 0, 0}, {1}));
    const PassPlan plan = PlanOk(planner, {{2}, {0}, {1}});
    EXPECT_EQ(plan.passes, (Passes{{2}, {0}, {1}}));
}

TEST(ConsolidatedPassPlanner, CounterWhoseInputsNeedSeveralPasses) {
    ConsolidatedPassPlanner planner = Planner();
    // Busy-like: two inputs of block 0, which counts one at a time.
    const PassPlan plan = PlanOk(planner, {{1, 0}});
    EXPECT_EQ(plan.passCount, 2u);
    EXPECT_EQ(plan.passes, (Passes{{1}, {0}}));
    // A later small counter fills the earliest pass with room.
    const PassPlan more = PlanOk(planner, {{1, 0}, {4}, {2}});
    EXPECT_EQ(more.passCount, 3u);
    EXPECT_EQ(more.passes, (Passes{{1, 4}, {0}, {2}}));
}

TEST(ConsolidatedPassPlanner, CounterNoPassCanCollectIsAnError) {
    ConsolidatedPassPlanner zeroLimit(BlockLimits({0, 1}, {1, 0}));  // block 1 never counts
    PassPlan plan;
    Outcome outcome = zeroLimit.Plan({{0}, {0, 1}}, &plan);
    EXPECT_EQ(outcome.status(), GPA_STATUS_ERROR_FAILED);
    EXPECT_EQ(outcome.reason(), "hardware counter 1 cannot be collected in any pass");

    ConsolidatedPassPlanner unknown(BlockLimits({0}, {1}));  // counter 5 belongs to no block
    outcome = unknown.Plan({{5}}, &plan);
    EXPECT_EQ(outcome.status(), GPA_STATUS_ERROR_FAILED);
    EXPECT_NE(outcome.reason().find("hardware counter 5"), std::string::npos);
}

TEST(ConsolidatedPassPlanner, CounterWithoutHardwareInputsStillGetsAPass) {
    ConsolidatedPassPlanner planner = Planner();
    const PassPlan plan = PlanOk(planner, {{}});
    EXPECT_EQ(plan.passCount, 1u);
    EXPECT_TRUE(plan.hardwareCounters.empty());
    EXPECT_EQ(PlanOk(planner, {{}, {6}}).passCount, 1u);
}

TEST(ConsolidatedPassPlanner, RepeatedInputOfOneCounterIsScheduledOnce) {
    ConsolidatedPassPlanner planner = Planner();
    // Inputs 0 and 1 cannot share a pass; 0 is listed twice.
    const PassPlan plan = PlanOk(planner, {{0, 1, 0}});
    EXPECT_EQ(plan.passCount, 2u);
    EXPECT_EQ(plan.hardwareCounters, (std::vector<uint32_t>{0, 1}));
}

TEST(ConsolidatedPassPlanner, PlanReplacesWhateverThePlanHeld) {
    ConsolidatedPassPlanner planner = Planner();
    PassPlan plan;
    plan.passCount = 9;
    plan.hardwareCounters = {7, 7};
    plan.passes = {{1}, {2}};
    ASSERT_TRUE(planner.Plan({{4}}, &plan).ok());
    EXPECT_EQ(plan.passCount, 1u);
    EXPECT_EQ(plan.hardwareCounters, (std::vector<uint32_t>{4}));
    EXPECT_EQ(plan.passes, (Passes{{4}}));
}

TEST(ConsolidatedPassPlanner, ManyCountersGiveAValidPlan) {
    // Sixteen hardware counters in four blocks of limits 1..4; pseudo-random derived counters.
    std::vector<uint32_t> blockOf(16);
    for (uint32_t i = 0; i < 16; ++i) blockOf[i] = i % 4;
    const std::vector<uint32_t> limits = {1, 2, 3, 4};
    const auto fits = BlockLimits(blockOf, limits);
    ConsolidatedPassPlanner planner(fits);
    uint32_t seed = 12345;
    auto next = [&] { return (seed = seed * 1103515245u + 12345u) >> 16; };
    for (int round = 0; round < 50; ++round) {
        Inputs inputs(1 + next() % 12);
        std::set<uint32_t> wanted;
        for (auto& counter : inputs) {
            const uint32_t n = next() % 5;
            for (uint32_t k = 0; k < n; ++k) {
                const uint32_t hw = next() % 16;
                if (std::find(counter.begin(), counter.end(), hw) == counter.end()) counter.push_back(hw);
                wanted.insert(hw);
            }
        }
        const PassPlan plan = PlanOk(planner, inputs);
        // Every needed hardware counter is collected exactly once, in a pass that fits.
        std::multiset<uint32_t> collected;
        for (const auto& pass : plan.passes) {
            EXPECT_TRUE(fits(pass)) << "round " << round;
            collected.insert(pass.begin(), pass.end());
        }
        EXPECT_EQ(std::set<uint32_t>(collected.begin(), collected.end()), wanted) << "round " << round;
        EXPECT_EQ(collected.size(), wanted.size()) << "round " << round;
        EXPECT_EQ(plan.hardwareCounters.size(), wanted.size()) << "round " << round;
        for (uint32_t hw : wanted) EXPECT_TRUE(plan.Locate(hw).has_value()) << hw;
        // Never more passes than one per hardware counter of the most constrained block would need.
        std::map<uint32_t, uint32_t> perBlock;
        for (uint32_t hw : wanted) ++perBlock[blockOf[hw]];
        uint32_t lowerBound = inputs.empty() ? 0 : 1;
        for (const auto& [block, count] : perBlock) lowerBound = std::max(lowerBound, (count + limits[block] - 1) / limits[block]);
        EXPECT_GE(plan.passCount, lowerBound) << "round " << round;
        EXPECT_LE(plan.passCount, std::max<uint32_t>(1, static_cast<uint32_t>(wanted.size()))) << "round " << round;
    }
}

// ---- BlockLimits -------------------------------------------------------------------------------------------

TEST(BlockLimits, CountsPerBlock) {
    const auto fits = BlockLimits({0, 0, 1, 1, 1}, {1, 2});
    const uint32_t none[] = {0};
    EXPECT_TRUE(fits(std::span<const uint32_t>(none, 0)));
    EXPECT_TRUE(fits(std::vector<uint32_t>{0}));
    EXPECT_FALSE(fits(std::vector<uint32_t>{0, 1}));
    EXPECT_TRUE(fits(std::vector<uint32_t>{0, 2, 3}));
    EXPECT_FALSE(fits(std::vector<uint32_t>{2, 3, 4}));
    EXPECT_FALSE(fits(std::vector<uint32_t>{5}));  // no such hardware counter
}

// ---- PassPlan::Locate --------------------------------------------------------------------------------------

TEST(PassPlanLocate, GivesPassAndOffset) {
    PassPlan plan;
    plan.passes = {{3, 1}, {0, 2, 5}};
    plan.passCount = 2;
    EXPECT_EQ(plan.Locate(3), (std::pair<uint32_t, uint32_t>{0, 0}));
    EXPECT_EQ(plan.Locate(1), (std::pair<uint32_t, uint32_t>{0, 1}));
    EXPECT_EQ(plan.Locate(0), (std::pair<uint32_t, uint32_t>{1, 0}));
    EXPECT_EQ(plan.Locate(5), (std::pair<uint32_t, uint32_t>{1, 2}));
    EXPECT_FALSE(plan.Locate(4).has_value());
}

TEST(PassPlanLocate, PlansWithoutPassListsLocateNothing) {
    PassPlan plan;  // what a backend whose vendor library plans passes (CUPTI) returns
    plan.passCount = 3;
    plan.hardwareCounters = {0, 1};
    EXPECT_FALSE(plan.Locate(0).has_value());
}

TEST(PassPlanLocate, LocatesEveryCounterOfAPlannedSession) {
    ConsolidatedPassPlanner planner = Planner();
    const PassPlan plan = PlanOk(planner, {{1, 0}, {4, 6}, {2}});
    for (uint32_t hw : plan.hardwareCounters) {
        const auto location = plan.Locate(hw);
        ASSERT_TRUE(location.has_value()) << hw;
        EXPECT_EQ(plan.passes[location->first][location->second], hw);
    }
    EXPECT_FALSE(plan.Locate(7).has_value());
}

}  // namespace
}  // namespace gpa
