// CudaPart and CUDA graphs under -p and -O (cuda_part.h): what each executable graph runs, kept from the calls
// that make and change it (GraphPrograms), and the launches of graphs, whose kernel nodes become dispatches
// (node mode, the default) or whose whole graph becomes one (--graph-profiling graph). The measuring is the
// collector's (graph_launch_collector.cpp).
#include <cupti_driver_cbid.h>

#include <cstdio>
#include <memory>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <string>
#include <utility>
#include <vector>

#include "tools/gpaprof/cuda/arg_format.h"
#include "tools/gpaprof/cuda/cuda_part.h"

namespace gpaprof::cuda::injection {
namespace {

// The parameter structs CUPTI passes for these calls (generated_cuda_meta.h's layouts; that header needs the driver's
// internal names). Every instantiation's starts with phGraphExec, hGraph (cuGraphInstantiate, _v2, WithFlags,
// WithParams); both updates' with hGraphExec, hGraph.
struct InstantiateHead {
    CUgraphExec* phGraphExec;
    CUgraph hGraph;
};
struct UpdateHead {
    CUgraphExec hGraphExec;
    CUgraph hGraph;
};
template <typename Params>
struct NodeCall {
    CUgraphExec hGraphExec;
    CUgraphNode hNode;
    Params params;
};
struct LaunchParams {
    CUgraphExec hGraph;
    CUstream hStream;
};

// CUPTI's id of each node cloned on this thread since its last instantiation ended -> its clone's. An instantiation
// clones every node of its graph into the executable graph, on the instantiating thread, before it returns; the
// kernels' activity records (the .atp's graphNode=) carry the clones' ids.
thread_local std::unordered_map<uint64_t, uint64_t> t_clonedNodes;


}  // namespace

bool IsGraphCall(uint32_t driverCbid) {
    switch (driverCbid) {
        case CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiate:
        case CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiate_v2:
        case CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiateWithFlags:
        case CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiateWithParams:
        case CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiateWithParams_ptsz:
        case CUPTI_DRIVER_TRACE_CBID_cuGraphExecUpdate:
        case CUPTI_DRIVER_TRACE_CBID_cuGraphExecUpdate_v2:
        case CUPTI_DRIVER_TRACE_CBID_cuGraphExecKernelNodeSetParams:
        case CUPTI_DRIVER_TRACE_CBID_cuGraphExecKernelNodeSetParams_v2:
        case CUPTI_DRIVER_TRACE_CBID_cuGraphExecMemcpyNodeSetParams:
        case CUPTI_DRIVER_TRACE_CBID_cuGraphExecMemsetNodeSetParams:
        case CUPTI_DRIVER_TRACE_CBID_cuGraphExecChildGraphNodeSetParams:
        case CUPTI_DRIVER_TRACE_CBID_cuGraphExecNodeSetParams:
        case CUPTI_DRIVER_TRACE_CBID_cuGraphNodeSetEnabled:
        case CUPTI_DRIVER_TRACE_CBID_cuGraphExecDestroy:
            return true;
        default:
            return false;
    }
}

void CudaPart::OnGraphNodeCloned(const CUpti_GraphData* data) {
    if (!data || !data->node || !data->originalNode || !api_->cuptiGetGraphNodeId) return;
    uint64_t original = 0, clone = 0;
    if (api_->cuptiGetGraphNodeId(data->originalNode, &original) == CUPTI_SUCCESS &&
        api_->cuptiGetGraphNodeId(data->node, &clone) == CUPTI_SUCCESS) {
        // Clones outside instantiations (cuGraphClone, child graphs) are forgotten at the next one; a thread that
        // only ever clones keeps a bounded map.
        if (t_clonedNodes.size() >= (1u << 20)) t_clonedNodes.clear();
        t_clonedNodes[original] = clone;
        if (debugGraphs_) std::fprintf(stderr, "gpaprof debug: graph node %llu cloned as %llu\n",
                                       static_cast<unsigned long long>(original), static_cast<unsigned long long>(clone));
    }
}

void CudaPart::DebugGraph(CUgraphExec exec) const {
    const auto program = graphs_->Find(exec);
    if (!program) return;
    std::fprintf(stderr, "gpaprof debug: executable graph %p: %zu steps%s%s\n", static_cast<void*>(exec),
                 program->steps.size(), program->unreplayable.empty() ? "" : ", not replayable: ",
                 program->unreplayable.c_str());
    for (size_t i = 0; i < program->steps.size(); ++i) {
        std::fprintf(stderr, "gpaprof debug:   step %zu: %s\n", i, DescribeStep(program->steps[i]).c_str());
    }
}

void CudaPart::OnGraphCallExit(uint32_t cbid, const void* params) {
    if (!graphs_ || !params) return;
    Internal internal;  // reading a graph calls the driver
    switch (cbid) {
        case CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiate:
        case CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiate_v2:
        case CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiateWithFlags:
        case CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiateWithParams:
        case CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiateWithParams_ptsz: {
            const auto* p = static_cast<const InstantiateHead*>(params);
            if (p->phGraphExec && *p->phGraphExec) {
                graphs_->Instantiated(*p->phGraphExec, p->hGraph, t_clonedNodes);
                if (debugGraphs_) DebugGraph(*p->phGraphExec);
            }
            t_clonedNodes.clear();
            return;
        }
        case CUPTI_DRIVER_TRACE_CBID_cuGraphExecUpdate:
        case CUPTI_DRIVER_TRACE_CBID_cuGraphExecUpdate_v2: {
            const auto* p = static_cast<const UpdateHead*>(params);
            return graphs_->Updated(p->hGraphExec, p->hGraph);
        }
        case CUPTI_DRIVER_TRACE_CBID_cuGraphExecKernelNodeSetParams: {
            const auto* p = static_cast<const NodeCall<const CUDA_KERNEL_NODE_PARAMS_v1*>*>(params);
            if (p->params) graphs_->KernelParamsSet(p->hGraphExec, p->hNode, AsKernelNodeParams(*p->params));
            return;
        }
        case CUPTI_DRIVER_TRACE_CBID_cuGraphExecKernelNodeSetParams_v2: {
            const auto* p = static_cast<const NodeCall<const CUDA_KERNEL_NODE_PARAMS_v2*>*>(params);
            if (p->params) graphs_->KernelParamsSet(p->hGraphExec, p->hNode, *p->params);
            return;
        }
        case CUPTI_DRIVER_TRACE_CBID_cuGraphExecMemcpyNodeSetParams: {
            const auto* p = static_cast<const NodeCall<const CUDA_MEMCPY3D*>*>(params);
            if (p->params) graphs_->MemcpyParamsSet(p->hGraphExec, p->hNode, *p->params);
            return;
        }
        case CUPTI_DRIVER_TRACE_CBID_cuGraphExecMemsetNodeSetParams: {
            const auto* p = static_cast<const NodeCall<const CUDA_MEMSET_NODE_PARAMS*>*>(params);
            if (p->params) graphs_->MemsetParamsSet(p->hGraphExec, p->hNode, *p->params);
            return;
        }
        case CUPTI_DRIVER_TRACE_CBID_cuGraphExecChildGraphNodeSetParams: {
            const auto* p = static_cast<const NodeCall<CUgraph>*>(params);
            return graphs_->ChildGraphSet(p->hGraphExec, p->hNode, p->params);
        }
        case CUPTI_DRIVER_TRACE_CBID_cuGraphExecNodeSetParams: {
            const auto* p = static_cast<const NodeCall<CUgraphNodeParams*>*>(params);
            if (p->params) graphs_->NodeParamsSet(p->hGraphExec, p->hNode, *p->params);
            return;
        }
        case CUPTI_DRIVER_TRACE_CBID_cuGraphNodeSetEnabled: {
            const auto* p = static_cast<const NodeCall<unsigned int>*>(params);
            return graphs_->NodeEnabled(p->hGraphExec, p->hNode, p->params != 0);
        }
        case CUPTI_DRIVER_TRACE_CBID_cuGraphExecDestroy: {
            return graphs_->Destroyed(*static_cast<const CUgraphExec*>(params));
        }
        default:
            return;
    }
}

DispatchRow CudaPart::WholeGraphRow(CUgraphExec exec, CUcontext context, uint64_t executionOrder) {
    uint32_t id = 0;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        auto [it, inserted] = graphKernelIds_.try_emplace(exec, 0);
        if (inserted) it->second = nextKernelId_++;
        id = it->second;
    }
    const std::string name = GraphName(exec);
    DispatchRow row;
    DeviceInfo* device = DeviceOf(context);
    row.method = device ? MethodFor(name, id, device->name, device->ordinal) : MethodFor(name, id, "CUDA", 0);
    row.executionOrder = executionOrder;
    row.threadId = Agent::ThreadId();
    if (OpenCall* owner = InnermostTraced()) row.callIndex = owner->index;
    return row;  // no work sizes: a graph has none of its own
}

std::string CudaPart::GraphName(CUgraphExec exec) const {
    uint32_t id = 0;
    if (api_->cuptiGetGraphExecId && api_->cuptiGetGraphExecId(exec, &id) == CUPTI_SUCCESS) {
        return "cudaGraphExec_" + std::to_string(id);
    }
    return "cudaGraphExec_" + HexValue(reinterpret_cast<uintptr_t>(exec));
}

void CudaPart::GraphLaunchEnter(OpenCall* call, const CUpti_CallbackData* data) {
    const auto* params = static_cast<const LaunchParams*>(data->functionParams);  // _ptsz: the same fields
    if (!params || !data->context || !(counters_ || occupancy_)) return;
    if (IntoCapture(params->hStream)) return;  // it becomes a node of the graph being captured: no dispatch yet
    CounterCollector::GraphLaunch launch;
    launch.context = data->context;
    launch.stream = params->hStream;
    launch.exec = params->hGraph;
    launch.program = graphs_ ? graphs_->Find(params->hGraph) : nullptr;
    launch.wholeGraph = wholeGraphs_;
    const uint64_t number = graphLaunches_.fetch_add(1, std::memory_order_relaxed) + 1;
    if (!launch.program && !launch.wholeGraph) {
        // Nothing says what its kernels are: no rows (-t still has their kernel lines).
        if (!unknownGraphNoted_.exchange(true)) {
            agent_->Note("a CUDA graph instantiated before gpaprof attached was launched: its kernels have no .csv or "
                         ".occupancy rows (with -t they are in the .atp)");
        }
        if (collector_) {
            auto lock = collector_->Lock();
            collector_->Flush(data->context);
        }
        return;
    }
    if (launch.program && launch.program->Kernels() == 0 && !launch.program->unreplayable.empty() &&
        !unreadableGraphNoted_.exchange(true)) {
        // Its kernels are unknown, so they cannot even have NA rows: say so rather than leave them out silently.
        agent_->Note("a CUDA graph's nodes could not be read (" + launch.program->unreplayable +
                     "): its kernels have no .csv or .occupancy rows (with -t they are in the .atp)");
    }
    if (launch.program) {
        launch.uses.assign(launch.program->steps.size(), CounterCollector::GraphLaunch::Use::RunOnly);
        for (size_t i = 0; i < launch.program->steps.size(); ++i) {
            const GraphStep& step = launch.program->steps[i];
            if (step.kind != GraphStepKind::Kernel || !step.enabled) continue;
            const CUfunction handle = step.identity ? step.identity : step.function;
            const FunctionInfo kernel = FunctionFor(handle, step.name.empty() ? nullptr : step.name.c_str());
            if (kernel.waits) launch.uses[i] = CounterCollector::GraphLaunch::Use::NotRun;  // never run again: it waits
            if (launch.wholeGraph && !occupancy_) continue;
            if (!launch.wholeGraph && !agent_->ShouldProfileDispatch(kernel.name)) continue;
            const uint64_t grid[3] = {step.launch.grid[0], step.launch.grid[1], step.launch.grid[2]};
            const uint64_t block[3] = {step.launch.block[0], step.launch.block[1], step.launch.block[2]};
            // Graph mode: -O still has a row per kernel node; the .csv has the graph's.
            const uint64_t order = agent_->NextExecutionOrder();
            std::optional<DispatchRow> row =
                DescribeDispatch(kernel, handle, grid, block, step.launch.sharedBytes, data->context, order);
            if (!row || launch.wholeGraph) continue;
            row->graphLaunch = number;
            if (step.cuptiNodeId) row->graphNode = step.cuptiNodeId;
            if (kernel.waits) {
                if (!collector_) continue;
                auto lock = collector_->Lock();
                collector_->Unprofiled(data->context, std::move(*row),
                                       "kernels that wait for other devices or processes (NCCL's) in CUDA graphs are not "
                                       "run again by gpaprof: their rows are NA");
                continue;
            }
            launch.uses[i] = CounterCollector::GraphLaunch::Use::Measure;
            launch.rows.push_back(std::move(*row));
        }
    }
    if (!collector_) return;
    if (launch.wholeGraph) {
        const std::string name = GraphName(params->hGraph);
        if (!agent_->ShouldProfileDispatch(name)) {
            auto lock = collector_->Lock();
            collector_->Flush(data->context);
            return;
        }
        DispatchRow row = WholeGraphRow(params->hGraph, data->context, agent_->NextExecutionOrder());
        row.graphLaunch = number;
        launch.rows.push_back(std::move(row));
    }
    if (ThreadHoldsGate()) {
        launch.unprofiled = "CUDA graphs launched inside another CUDA call that writes memory have NA counters";
    } else if (SeveralDevices()) {
        auto lock = collector_->Lock();
        launch.unprofiled = collector_->UnprofiledReason(data->context, false, true);
    }
    std::unique_lock<std::mutex> counterLock = collector_->Lock();
    if (collector_->BeforeGraphLaunch(std::move(launch))) {
        // Graph mode: the application's launch is measured; AfterGraphLaunch at its exit.
        call->dispatch = std::make_unique<ProfiledLaunch>();
        call->dispatch->context = data->context;
        call->dispatch->graph = true;
        call->dispatch->counterLock = std::move(counterLock);
        t_callbackThread.profilingLaunch = true;
    }
}

}  // namespace gpaprof::cuda::injection
