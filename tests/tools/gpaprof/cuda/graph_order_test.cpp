// The order gpaprof replays a CUDA graph's nodes in (graph_order.h): every edge respected, ties in the driver's
// node order, bad input kept rather than lost.
#include "tools/gpaprof/cuda/graph_order.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <utility>
#include <vector>

namespace gpaprof::cuda {
namespace {

size_t Position(const std::vector<size_t>& order, size_t node) {
    return static_cast<size_t>(std::find(order.begin(), order.end(), node) - order.begin());
}

TEST(GraphOrder, AChainRunsInItsOrderWhateverTheNodeOrder) {
    // 3 -> 1 -> 0 -> 2
    const std::vector<size_t> order = TopologicalOrder(4, {{3, 1}, {1, 0}, {0, 2}});
    EXPECT_EQ(order, (std::vector<size_t>{3, 1, 0, 2}));
}

TEST(GraphOrder, IndependentNodesKeepTheDriversOrder) {
    EXPECT_EQ(TopologicalOrder(4, {}), (std::vector<size_t>{0, 1, 2, 3}));
}

TEST(GraphOrder, ADiamondRespectsEveryEdgeAndBreaksTiesByIndex) {
    // 0 -> {2, 1} -> 3, and 4 alone
    const std::vector<std::pair<size_t, size_t>> edges = {{0, 2}, {0, 1}, {2, 3}, {1, 3}};
    const std::vector<size_t> order = TopologicalOrder(5, edges);
    ASSERT_EQ(order.size(), 5u);
    for (const auto& [from, to] : edges) EXPECT_LT(Position(order, from), Position(order, to));
    EXPECT_EQ(order, (std::vector<size_t>{0, 1, 2, 3, 4}));
}

TEST(GraphOrder, ANodeWaitsForAllItsDependencies) {
    // 2 depends on 0 and 3; 1 is free: 0, 1, 3, 2
    EXPECT_EQ(TopologicalOrder(4, {{0, 2}, {3, 2}}), (std::vector<size_t>{0, 1, 3, 2}));
}

TEST(GraphOrder, CyclesAndUnknownNodesLoseNoNode) {
    // 1 <-> 2 is a cycle (never in a valid graph); the edge to 9 names no node.
    const std::vector<size_t> order = TopologicalOrder(4, {{1, 2}, {2, 1}, {0, 9}});
    EXPECT_EQ(order, (std::vector<size_t>{0, 3, 1, 2}));
}

TEST(GraphOrder, NoNodes) { EXPECT_TRUE(TopologicalOrder(0, {{0, 1}}).empty()); }

}  // namespace
}  // namespace gpaprof::cuda
