#include "tools/gpaprof/cuda/graph_order.h"

#include <functional>
#include <queue>

namespace gpaprof::cuda {

std::vector<size_t> TopologicalOrder(size_t count, const std::vector<std::pair<size_t, size_t>>& edges) {
    std::vector<size_t> waitingFor(count, 0);
    std::vector<std::vector<size_t>> next(count);
    for (const auto& [from, to] : edges) {
        if (from >= count || to >= count) continue;
        next[from].push_back(to);
        ++waitingFor[to];
    }
    // The ready node of the smallest index first: the order cuGraphGetNodes gives where the graph leaves it open.
    std::priority_queue<size_t, std::vector<size_t>, std::greater<size_t>> ready;
    for (size_t i = 0; i < count; ++i) {
        if (waitingFor[i] == 0) ready.push(i);
    }
    std::vector<size_t> order;
    std::vector<bool> placed(count, false);
    while (!ready.empty()) {
        const size_t node = ready.top();
        ready.pop();
        order.push_back(node);
        placed[node] = true;
        for (size_t to : next[node]) {
            if (--waitingFor[to] == 0) ready.push(to);
        }
    }
    for (size_t i = 0; i < count; ++i) {
        if (!placed[i]) order.push_back(i);
    }
    return order;
}

}  // namespace gpaprof::cuda
