// gpaprof -p on CUDA graphs: what a launch of an executable graph runs, as steps gpaprof can run again one by
// one (its kernel nodes as ordinary launches, its copies and sets), so that each kernel node gets its counters
// (counter_collector.h, ProfileGraphLaunch). An executable graph is a copy of its graph made when it is
// instantiated: later changes to the graph do not reach it, only the cuGraphExec* calls do. So the program is
// read from the graph at the instantiation's exit and changed by the exits of those calls (GraphPrograms).
//
// Steps are in a topological order of the graph (ties in the order cuGraphGetNodes lists the nodes), child
// graphs expanded in place. Host nodes are not run again (the application's graph runs them once); event,
// empty nodes need nothing once the context is idle. Nodes gpaprof cannot run outside the graph (conditional,
// memory allocation and free, external semaphores, batched memory operations) make the program unreplayable,
// with the reason: its kernels then have NA counters.
#pragma once

#include <cuda.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "tools/gpaprof/cuda/cupti_tracing_api.h"
#include "tools/gpaprof/cuda/graph_order.h"
#include "tools/gpaprof/cuda/launch_replayer.h"

namespace gpaprof::cuda {

enum class GraphStepKind { Kernel, Memcpy, Memset, Skip };

struct GraphStep {
    GraphStepKind kind = GraphStepKind::Skip;
    CUgraphNode node = nullptr;  // in the graph it was read from (inside a child graph for a child's nodes)
    size_t topNode = 0;          // the node of the executable graph's own graph it belongs to (GraphProgram::topNodes)
    // CUPTI's id of the node's clone in the executable graph (what the kernel's activity record carries), or of
    // `node` where the clone is unknown; 0 when CUPTI cannot say.
    uint64_t cuptiNodeId = 0;
    bool enabled = true;         // cuGraphNodeSetEnabled: a disabled node runs as an empty one
    // Kernel: the launch, by value (arguments copied). `identity` is the handle an eager launch of the same kernel
    // names (the CUkernel where the node has one), so that rows of both get the same kernel id.
    LaunchCopy launch;
    CUfunction identity = nullptr;
    CUfunction function = nullptr;  // the CUfunction in the node's context (its module, attributes, name)
    std::string name;  // the kernel's name as the driver gives it
    CUfunction nodeFunction = nullptr;  // the node's own handles (either may be null): its CUfunction, its CUkernel
    CUkernel kernel = nullptr;
    // Memcpy, Memset.
    CUDA_MEMCPY3D copy{};
    CUDA_MEMSET_NODE_PARAMS set{};
};

struct GraphProgram {
    std::vector<GraphStep> steps;
    std::vector<CUgraphNode> topNodes;  // the nodes of the graph it was instantiated from (or updated with)
    std::string unreplayable;           // why its steps cannot be run outside the graph; empty when they can
    bool hostNodes = false;             // a host node runs application code: never run again by gpaprof
    size_t Kernels() const;             // enabled kernel steps
    // Every 8-byte-aligned 64-bit word of the enabled kernels' arguments and the sets' destinations: what may point
    // into host memory mapped for the device (DeviceMemoryMap::Plan).
    std::vector<uint64_t> ArgumentWords() const;
};

// Pure: the launch of a kernel node's parameters (v2 and v3 share these fields), its arguments copied;
// `function` is the CUfunction the arguments' sizes come from. False with the reason.
template <typename KernelNodeParams>
bool KernelNodeLaunch(const TracingApi& api, const KernelNodeParams& params, CUfunction function, LaunchCopy* launch,
                      std::string* why) {
    *launch = LaunchCopy{};
    launch->function = params.func ? params.func : reinterpret_cast<CUfunction>(params.kern);
    launch->grid[0] = params.gridDimX;
    launch->grid[1] = params.gridDimY;
    launch->grid[2] = params.gridDimZ;
    launch->block[0] = params.blockDimX;
    launch->block[1] = params.blockDimY;
    launch->block[2] = params.blockDimZ;
    launch->sharedBytes = params.sharedMemBytes;
    return CopyKernelArguments(api, function, params.kernelParams, params.extra, launch, why);
}

// Pure: one line saying what a step runs, for notes and GPAPROF_CUDA_DEBUG=graphs ("kernel node 17179869186
// _Z3sumPKfiPf: grid 64x1x1, block 256x1x1, 0 B shared").
std::string DescribeStep(const GraphStep& step);

// Pure: a kernel node's parameters of any version (v1 without `kern`/`ctx`, v3 of cuGraphExecNodeSetParams) as the
// v2 struct the rest reads.
template <typename KernelNodeParams>
CUDA_KERNEL_NODE_PARAMS AsKernelNodeParams(const KernelNodeParams& from) {
    CUDA_KERNEL_NODE_PARAMS params{};
    params.func = from.func;
    params.gridDimX = from.gridDimX;
    params.gridDimY = from.gridDimY;
    params.gridDimZ = from.gridDimZ;
    params.blockDimX = from.blockDimX;
    params.blockDimY = from.blockDimY;
    params.blockDimZ = from.blockDimZ;
    params.sharedMemBytes = from.sharedMemBytes;
    params.kernelParams = from.kernelParams;
    params.extra = from.extra;
    if constexpr (requires { from.kern; }) params.kern = from.kern;
    if constexpr (requires { from.ctx; }) params.ctx = from.ctx;
    return params;
}

// What each executable graph of the process runs, kept from the calls that make and change them. Any thread.
class GraphPrograms {
public:
    explicit GraphPrograms(const TracingApi* api) : api_(api) {}

    // At the exits of the calls that succeeded (the calling thread is internal: gpaprof's driver calls are not
    // the application's).
    // `clones`: CUPTI's id of each node cloned while it was instantiated -> its clone's (the executable graph's).
    void Instantiated(CUgraphExec exec, CUgraph graph, const std::unordered_map<uint64_t, uint64_t>& clones = {});
    void Updated(CUgraphExec exec, CUgraph graph);  // cuGraphExecUpdate: the exec now runs `graph`'s parameters
    void KernelParamsSet(CUgraphExec exec, CUgraphNode node, const CUDA_KERNEL_NODE_PARAMS& params);
    void MemcpyParamsSet(CUgraphExec exec, CUgraphNode node, const CUDA_MEMCPY3D& copy);
    void MemsetParamsSet(CUgraphExec exec, CUgraphNode node, const CUDA_MEMSET_NODE_PARAMS& set);
    void NodeParamsSet(CUgraphExec exec, CUgraphNode node, const CUgraphNodeParams& params);  // cuGraphExecNodeSetParams
    void ChildGraphSet(CUgraphExec exec, CUgraphNode node, CUgraph child);
    void NodeEnabled(CUgraphExec exec, CUgraphNode node, bool enabled);
    void Destroyed(CUgraphExec exec);

    // What a launch of `exec` runs now; nullptr for an exec gpaprof did not see made (made before it attached).
    std::shared_ptr<const GraphProgram> Find(CUgraphExec exec) const;

    // Reads a graph into a program (exposed for the updates and the tests on a GPU).
    GraphProgram Read(CUgraph graph) const;

private:
    struct Known {
        std::shared_ptr<const GraphProgram> program;
        // A node handle (of the graph it was instantiated from, or of a graph it was updated with) -> its topNode.
        std::unordered_map<CUgraphNode, size_t> nodes;
    };
    // Reads `graph`'s nodes into `program`, expanded in place; `top`: the topNode of a child graph's steps, or
    // SIZE_MAX at the top level.
    void ReadInto(CUgraph graph, size_t top, int depth, GraphProgram* program) const;
    bool ReadKernel(CUgraphNode node, GraphStep* step, std::string* why) const;
    // Changes the steps of `exec`'s top node `node` (copy on write: a launch in progress keeps its program).
    template <typename Change>
    void ChangeSteps(CUgraphExec exec, CUgraphNode node, Change change);

    const TracingApi* api_;
    mutable std::mutex mutex_;
    std::unordered_map<CUgraphExec, Known> execs_;
};

}  // namespace gpaprof::cuda
