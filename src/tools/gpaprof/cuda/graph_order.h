// The order gpaprof runs a CUDA graph's nodes in when it replays them one by one (graph_programs.h).
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

namespace gpaprof::cuda {

// An order of `count` nodes in which every edge (from, to) has `from` first; among nodes that are ready together,
// the smaller index first (cuGraphGetNodes' order, where the graph leaves the order open). Nodes on a cycle (never
// in a valid graph) come last, in index order; edges naming nodes past `count` are ignored.
std::vector<size_t> TopologicalOrder(size_t count, const std::vector<std::pair<size_t, size_t>>& edges);

}  // namespace gpaprof::cuda
