#include "tools/gpaprof/cuda/graph_programs.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace gpaprof::cuda {
namespace {

constexpr int kMaxChildDepth = 16;

std::string NodeTypeName(CUgraphNodeType type) {
    switch (type) {
        case CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL: return "an external semaphore signal node";
        case CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT: return "an external semaphore wait node";
        case CU_GRAPH_NODE_TYPE_MEM_ALLOC: return "a memory allocation node";
        case CU_GRAPH_NODE_TYPE_MEM_FREE: return "a memory free node";
        case CU_GRAPH_NODE_TYPE_BATCH_MEM_OP: return "a batched memory operation node";
        case CU_GRAPH_NODE_TYPE_CONDITIONAL: return "a conditional node";
        default: return "a node of type " + std::to_string(static_cast<int>(type));
    }
}

// Launch attributes a kernel node may carry that an eager launch must repeat to run the same way.
constexpr CUlaunchAttributeID kNodeAttributes[] = {CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION, CU_LAUNCH_ATTRIBUTE_COOPERATIVE,
                                                   CU_LAUNCH_ATTRIBUTE_PRIORITY};

bool AttributeMatters(CUlaunchAttributeID id, const CUlaunchAttributeValue& value) {
    switch (id) {
        case CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION:
            return value.clusterDim.x * value.clusterDim.y * value.clusterDim.z > 1;
        case CU_LAUNCH_ATTRIBUTE_COOPERATIVE: return value.cooperative != 0;
        case CU_LAUNCH_ATTRIBUTE_PRIORITY: return value.priority != 0;
        default: return false;
    }
}

}  // namespace

bool GraphPrograms::ReadKernel(CUgraphNode node, GraphStep* step, std::string* why) const {
    CUDA_KERNEL_NODE_PARAMS params{};
    if (!api_->cuGraphKernelNodeGetParams_v2 || api_->cuGraphKernelNodeGetParams_v2(node, &params) != CUDA_SUCCESS) {
        *why = "the driver did not give a kernel node's parameters";
        return false;
    }
    // The arguments' sizes come from a CUfunction; a node made from a CUkernel (the runtime's launches) has that.
    CUfunction function = params.func;
    if (!function && params.kern && api_->cuKernelGetFunction &&
        api_->cuKernelGetFunction(&function, params.kern) != CUDA_SUCCESS) {
        function = nullptr;
    }
    if (!KernelNodeLaunch(*api_, params, function, &step->launch, why)) return false;
    step->nodeFunction = params.func;
    step->kernel = params.kern;
    step->identity = params.kern ? reinterpret_cast<CUfunction>(params.kern) : params.func;
    step->function = function;
    if (const char* name = nullptr; function && api_->cuFuncGetName && api_->cuFuncGetName(&name, function) == CUDA_SUCCESS && name) {
        step->name = name;
    }
    // A kernel compiled with its cluster size (__cluster_dims__) has it without an attribute, and the node reports
    // it as one; launches may not set a compile-time cluster size again.
    int compiledCluster = 0;
    if (function && api_->cuFuncGetAttribute &&
        api_->cuFuncGetAttribute(&compiledCluster, CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH, function) != CUDA_SUCCESS) {
        compiledCluster = 0;
    }
    if (api_->cuGraphKernelNodeGetAttribute) {
        for (CUlaunchAttributeID id : kNodeAttributes) {
            if (id == CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION && compiledCluster > 0) continue;
            CUlaunchAttributeValue value{};
            if (api_->cuGraphKernelNodeGetAttribute(node, id, &value) == CUDA_SUCCESS && AttributeMatters(id, value)) {
                CUlaunchAttribute attribute{};
                attribute.id = id;
                attribute.value = value;
                step->launch.attributes.push_back(attribute);
            }
        }
    }
    if (!step->launch.attributes.empty()) {
        step->launch.config = CUlaunchConfig{};
        ShapeLaunchConfig(&step->launch);
    }
    return true;
}

void GraphPrograms::ReadInto(CUgraph graph, size_t top, int depth, GraphProgram* program) const {
    auto unreplayable = [&](const std::string& why) {
        if (program->unreplayable.empty()) program->unreplayable = why;
    };
    if (depth > kMaxChildDepth) return unreplayable("its child graphs nest deeper than " + std::to_string(kMaxChildDepth));
    size_t count = 0;
    if (!api_->cuGraphGetNodes || api_->cuGraphGetNodes(graph, nullptr, &count) != CUDA_SUCCESS) {
        return unreplayable("the driver did not list the graph's nodes");
    }
    std::vector<CUgraphNode> nodes(count);
    if (count && api_->cuGraphGetNodes(graph, nodes.data(), &count) != CUDA_SUCCESS) {
        return unreplayable("the driver did not list the graph's nodes");
    }
    nodes.resize(count);
    size_t edgeCount = 0;
    if (!api_->cuGraphGetEdges_v2 || api_->cuGraphGetEdges_v2(graph, nullptr, nullptr, nullptr, &edgeCount) != CUDA_SUCCESS) {
        return unreplayable("the driver did not list the graph's edges");
    }
    // With the edges' data: asking without it fails (CUDA_ERROR_LOSSY_QUERY) where an edge is not a plain
    // dependency, as the programmatic edges of kernels launched with programmatic dependent launch (cuDNN's on
    // Hopper, in PyTorch's captured graphs). Run one by one, every edge is a full dependency.
    std::vector<CUgraphNode> from(edgeCount), to(edgeCount);
    std::vector<CUgraphEdgeData> edgeData(edgeCount);
    if (edgeCount) {
        if (const CUresult r = api_->cuGraphGetEdges_v2(graph, from.data(), to.data(), edgeData.data(), &edgeCount);
            r != CUDA_SUCCESS) {
            return unreplayable("the driver did not list the graph's edges (CUresult " + std::to_string(static_cast<int>(r)) + ")");
        }
    }
    std::unordered_map<CUgraphNode, size_t> index;
    for (size_t i = 0; i < nodes.size(); ++i) index[nodes[i]] = i;
    std::vector<std::pair<size_t, size_t>> edges;
    for (size_t e = 0; e < edgeCount && e < from.size(); ++e) {
        auto f = index.find(from[e]), t = index.find(to[e]);
        if (f != index.end() && t != index.end()) edges.emplace_back(f->second, t->second);
    }
    if (top == SIZE_MAX) program->topNodes = nodes;
    for (size_t position : TopologicalOrder(nodes.size(), edges)) {
        const CUgraphNode node = nodes[position];
        const size_t owner = top == SIZE_MAX ? position : top;
        CUgraphNodeType type = CU_GRAPH_NODE_TYPE_EMPTY;
        if (api_->cuGraphNodeGetType(node, &type) != CUDA_SUCCESS) {
            unreplayable("the driver did not say a node's type");
            continue;
        }
        GraphStep step;
        step.node = node;
        step.topNode = owner;
        if (api_->cuptiGetGraphNodeId && api_->cuptiGetGraphNodeId(node, &step.cuptiNodeId) != CUPTI_SUCCESS) step.cuptiNodeId = 0;
        switch (type) {
            case CU_GRAPH_NODE_TYPE_KERNEL: {
                std::string why;
                step.kind = GraphStepKind::Kernel;
                if (!ReadKernel(node, &step, &why)) unreplayable(why);
                break;
            }
            case CU_GRAPH_NODE_TYPE_MEMCPY:
                step.kind = GraphStepKind::Memcpy;
                if (!api_->cuGraphMemcpyNodeGetParams || api_->cuGraphMemcpyNodeGetParams(node, &step.copy) != CUDA_SUCCESS) {
                    unreplayable("the driver did not give a memcpy node's parameters");
                }
                break;
            case CU_GRAPH_NODE_TYPE_MEMSET:
                step.kind = GraphStepKind::Memset;
                if (!api_->cuGraphMemsetNodeGetParams || api_->cuGraphMemsetNodeGetParams(node, &step.set) != CUDA_SUCCESS) {
                    unreplayable("the driver did not give a memset node's parameters");
                }
                break;
            case CU_GRAPH_NODE_TYPE_GRAPH: {
                CUgraph child = nullptr;
                if (!api_->cuGraphChildGraphNodeGetGraph || api_->cuGraphChildGraphNodeGetGraph(node, &child) != CUDA_SUCCESS) {
                    unreplayable("the driver did not give a child graph");
                } else {
                    ReadInto(child, owner, depth + 1, program);
                }
                continue;
            }
            case CU_GRAPH_NODE_TYPE_HOST:
                program->hostNodes = true;
                break;
            case CU_GRAPH_NODE_TYPE_EMPTY:
            case CU_GRAPH_NODE_TYPE_WAIT_EVENT:
            case CU_GRAPH_NODE_TYPE_EVENT_RECORD:
                break;  // nothing to run again once the context is idle
            default:
                unreplayable("the graph has " + NodeTypeName(type) + ", which gpaprof cannot run outside the graph");
                break;
        }
        program->steps.push_back(std::move(step));
    }
}

GraphProgram GraphPrograms::Read(CUgraph graph) const {
    GraphProgram program;
    ReadInto(graph, SIZE_MAX, 0, &program);
    return program;
}

namespace {

// The executable graph's nodes keep their ids through updates: `fresh`'s steps take `old`'s ids, step by step
// within each top node (the topology is the same).
void KeepNodeIds(const GraphProgram& old, GraphProgram* fresh) {
    std::unordered_map<size_t, std::vector<uint64_t>> ids;
    for (const GraphStep& step : old.steps) ids[step.topNode].push_back(step.cuptiNodeId);
    std::unordered_map<size_t, size_t> next;
    for (GraphStep& step : fresh->steps) {
        const std::vector<uint64_t>& known = ids[step.topNode];
        const size_t at = next[step.topNode]++;
        if (at < known.size()) step.cuptiNodeId = known[at];
    }
}

}  // namespace

void GraphPrograms::Instantiated(CUgraphExec exec, CUgraph graph, const std::unordered_map<uint64_t, uint64_t>& clones) {
    auto program = std::make_shared<GraphProgram>(Read(graph));
    for (GraphStep& step : program->steps) {
        if (auto clone = clones.find(step.cuptiNodeId); clone != clones.end()) step.cuptiNodeId = clone->second;
    }
    Known known;
    for (size_t i = 0; i < program->topNodes.size(); ++i) known.nodes[program->topNodes[i]] = i;
    known.program = std::move(program);
    std::lock_guard<std::mutex> lock(mutex_);
    execs_[exec] = std::move(known);
}

void GraphPrograms::Updated(CUgraphExec exec, CUgraph graph) {
    auto program = std::make_shared<GraphProgram>(Read(graph));
    std::lock_guard<std::mutex> lock(mutex_);
    auto found = execs_.find(exec);
    if (found == execs_.end()) return;
    // The update pairs the graphs' nodes (their topology must be the same): later calls may name either's nodes.
    if (program->topNodes.size() != found->second.program->topNodes.size()) {
        found->second.nodes.clear();
        if (program->unreplayable.empty()) program->unreplayable = "the update changed the graph's shape";
    }
    // Disabled nodes stay disabled across an update.
    for (const GraphStep& old : found->second.program->steps) {
        if (old.enabled) continue;
        for (GraphStep& step : program->steps) {
            if (step.topNode == old.topNode) step.enabled = false;
        }
    }
    if (program->topNodes.size() == found->second.program->topNodes.size()) KeepNodeIds(*found->second.program, program.get());
    for (size_t i = 0; i < program->topNodes.size(); ++i) found->second.nodes[program->topNodes[i]] = i;
    found->second.program = std::move(program);
}

template <typename Change>
void GraphPrograms::ChangeSteps(CUgraphExec exec, CUgraphNode node, Change change) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto found = execs_.find(exec);
    if (found == execs_.end()) return;
    auto top = found->second.nodes.find(node);
    if (top == found->second.nodes.end()) return;
    auto program = std::make_shared<GraphProgram>(*found->second.program);
    change(top->second, program.get());
    found->second.program = std::move(program);
}

void GraphPrograms::KernelParamsSet(CUgraphExec exec, CUgraphNode node, const CUDA_KERNEL_NODE_PARAMS& params) {
    // Copied now: the application's arguments may be gone by the launch.
    CUfunction function = params.func;
    if (!function && params.kern && api_->cuKernelGetFunction && api_->cuKernelGetFunction(&function, params.kern) != CUDA_SUCCESS) {
        function = nullptr;
    }
    LaunchCopy launch;
    std::string why;
    const bool copied = KernelNodeLaunch(*api_, params, function, &launch, &why);
    ChangeSteps(exec, node, [&](size_t top, GraphProgram* program) {
        for (GraphStep& step : program->steps) {
            if (step.topNode != top || step.kind != GraphStepKind::Kernel) continue;
            if (!copied) {
                program->unreplayable = why;
                continue;
            }
            launch.hasConfig = step.launch.hasConfig;
            launch.attributes = step.launch.attributes;
            launch.config = step.launch.config;
            if (launch.hasConfig) ShapeLaunchConfig(&launch);
            step.launch = launch;
            step.identity = params.kern ? reinterpret_cast<CUfunction>(params.kern) : params.func;
            step.function = function;
            if (const char* name = nullptr; function && api_->cuFuncGetName && api_->cuFuncGetName(&name, function) == CUDA_SUCCESS && name) {
                step.name = name;
            }
        }
    });
}

void GraphPrograms::MemcpyParamsSet(CUgraphExec exec, CUgraphNode node, const CUDA_MEMCPY3D& copy) {
    ChangeSteps(exec, node, [&](size_t top, GraphProgram* program) {
        for (GraphStep& step : program->steps) {
            if (step.topNode == top && step.kind == GraphStepKind::Memcpy) step.copy = copy;
        }
    });
}

void GraphPrograms::MemsetParamsSet(CUgraphExec exec, CUgraphNode node, const CUDA_MEMSET_NODE_PARAMS& set) {
    ChangeSteps(exec, node, [&](size_t top, GraphProgram* program) {
        for (GraphStep& step : program->steps) {
            if (step.topNode == top && step.kind == GraphStepKind::Memset) step.set = set;
        }
    });
}

void GraphPrograms::NodeParamsSet(CUgraphExec exec, CUgraphNode node, const CUgraphNodeParams& params) {
    switch (params.type) {
        case CU_GRAPH_NODE_TYPE_KERNEL: return KernelParamsSet(exec, node, AsKernelNodeParams(params.kernel));
        case CU_GRAPH_NODE_TYPE_MEMCPY: return MemcpyParamsSet(exec, node, params.memcpy.copyParams);
        case CU_GRAPH_NODE_TYPE_MEMSET: {
            CUDA_MEMSET_NODE_PARAMS set{};
            set.dst = params.memset.dst;
            set.pitch = params.memset.pitch;
            set.value = params.memset.value;
            set.elementSize = params.memset.elementSize;
            set.width = params.memset.width;
            set.height = params.memset.height;
            return MemsetParamsSet(exec, node, set);
        }
        case CU_GRAPH_NODE_TYPE_GRAPH: return ChildGraphSet(exec, node, params.graph.graph);
        default: return;  // events, host nodes: nothing gpaprof runs
    }
}

void GraphPrograms::ChildGraphSet(CUgraphExec exec, CUgraphNode node, CUgraph child) {
    ChangeSteps(exec, node, [&](size_t top, GraphProgram* program) {
        GraphProgram replacement;
        ReadInto(child, top, 1, &replacement);
        KeepNodeIds(*program, &replacement);
        // The child's steps take the place of the old ones (the topology is the same, their order too).
        std::vector<GraphStep> steps;
        bool inserted = false;
        for (GraphStep& step : program->steps) {
            if (step.topNode != top) {
                steps.push_back(std::move(step));
            } else if (!inserted) {
                for (GraphStep& fresh : replacement.steps) steps.push_back(std::move(fresh));
                inserted = true;
            }
        }
        program->steps = std::move(steps);
        program->hostNodes = program->hostNodes || replacement.hostNodes;
        if (program->unreplayable.empty()) program->unreplayable = replacement.unreplayable;
    });
}

void GraphPrograms::NodeEnabled(CUgraphExec exec, CUgraphNode node, bool enabled) {
    ChangeSteps(exec, node, [&](size_t top, GraphProgram* program) {
        for (GraphStep& step : program->steps) {
            if (step.topNode == top) step.enabled = enabled;
        }
    });
}

void GraphPrograms::Destroyed(CUgraphExec exec) {
    std::lock_guard<std::mutex> lock(mutex_);
    execs_.erase(exec);
}

std::shared_ptr<const GraphProgram> GraphPrograms::Find(CUgraphExec exec) const {
    std::lock_guard<std::mutex> lock(mutex_);
    auto found = execs_.find(exec);
    return found == execs_.end() ? nullptr : found->second.program;
}

}  // namespace gpaprof::cuda
