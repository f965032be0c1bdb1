// CorrelationIds: the ids of one command of device work, inline up to three, on the heap past that.
#include "tools/gpaprof/cuda/correlation_ids.h"

#include <gtest/gtest.h>

#include <vector>

namespace gpaprof::cuda {
namespace {

std::vector<uint32_t> Visited(const CorrelationIds& ids) {
    std::vector<uint32_t> seen;
    ids.ForEach([&](uint32_t id) { seen.push_back(id); });
    return seen;
}

TEST(CorrelationIds, EveryIdIsVisitedInOrderInlineAndPastIt) {
    CorrelationIds ids;
    EXPECT_TRUE(ids.empty());
    EXPECT_TRUE(Visited(ids).empty());
    ids.push_back(7);
    EXPECT_FALSE(ids.empty());
    EXPECT_EQ(Visited(ids), (std::vector<uint32_t>{7}));
    for (uint32_t id : {8u, 9u, 10u, 11u}) ids.push_back(id);  // the fourth and fifth go past the inline ones
    EXPECT_EQ(Visited(ids), (std::vector<uint32_t>{7, 8, 9, 10, 11}));
}

TEST(CorrelationIds, CopiesAndMovesKeepTheIds) {
    CorrelationIds ids;
    for (uint32_t id = 1; id <= 5; ++id) ids.push_back(id);
    const CorrelationIds copy = ids;
    CorrelationIds moved = std::move(ids);
    EXPECT_EQ(Visited(copy), (std::vector<uint32_t>{1, 2, 3, 4, 5}));
    EXPECT_EQ(Visited(moved), (std::vector<uint32_t>{1, 2, 3, 4, 5}));
}

}  // namespace
}  // namespace gpaprof::cuda
