// Kernels whose counters are known exactly, launched through a CUDA graph (or one by one, or from a captured
// graph), for gpaprof's counters of graph kernels (issue 33): each kernel node of each graph launch must get the
// counters the same kernel gets when launched on its own, and gpaprof's replays must leave the program's data as
// one execution of each launch leaves it (the program checks that on the host and exits 1 otherwise).
//
//   graph_known_answers [--mode graph|eager|capture] [--launches R] [--update setparams|execupdate|none]
//                       [--update-after K] [--disable-node] [--host-node] [--alloc-node] [--elements N] [--probe]
//
// The graph (graph_known_answers.h has the numbers):
//   fill      <<<4096, 256>>>  a[i] = i % 8 (reads nothing)
//   memcpy    b = a (device to device, all N floats)
//   sum       <<<1024, 256>>>  reads b (N floats), writes one partial sum per block
//   child graph: combine <<<3, 80>>> (9 warps): one thread adds the partial sums, records the total in
//             history[c] and increments *counter (not idempotent: a launch run twice records twice)
//   [host node: a host function counts the launches (--host-node; gpaprof must not run it again)]
//   empty node
// in a chain, instantiated once and launched R times (default 10) on a stream the program creates. After K
// launches (default R / 2) fill's node gets another grid (1536 blocks) on the executable graph:
// cudaGraphExecKernelNodeSetParams (--update setparams, the default), or the graph's node changed and
// cudaGraphExecUpdate (--update execupdate); --update none keeps the grid. Every float is a small integer, so
// every sum is exact.
//   --mode eager     the same kernels and copy launched one by one, in the same order, with the same arguments
//                    and grids (and cudaLaunchHostFunc for the host node): the rows the graph's rows must equal
//   --mode capture   the same graph made by stream capture (the child graph and the empty node added to the
//                    capture with cudaStreamGetCaptureInfo / cudaStreamUpdateCaptureDependencies)
//   --disable-node   fill's node disabled on the executable graph before the first launch (cudaGraphNodeSetEnabled;
//                    in eager mode fill is not launched): a stays 0, so every total is 0
//   --alloc-node     sum's partial sums live in memory the graph allocates and frees itself (memory alloc and free
//                    nodes; with capture, cudaMallocAsync / cudaFreeAsync): gpaprof cannot run such a graph's
//                    steps outside it, so the rows of its kernels must be NA
//   --elements N     floats per buffer (a multiple of 8; default 2^26, 256 MiB)
// Prints "graph_known_answers: ... results correct" and exits 0 when every launch's total, the counter, both
// buffers and the host count are those of one execution per launch; exits 1 otherwise, 2 when a CUDA call fails.
#include <atomic>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "app_common.cuh"
#include "graph_known_answers.h"

using namespace graph_known_answers;

// Reads nothing: even one word read by every thread (to vary the values from launch to launch) made the L2's read
// sectors vary from run to run (34 to 38 through the L1, about 6000 of 22528 warps' requests past it).
__global__ void fill(float* a, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        a[i] = static_cast<float>(i % 8);
    }
}

__global__ void sum(const float* b, int n, float* partials) {
    __shared__ float block[kBlock];
    float mine = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) mine += b[i];
    block[threadIdx.x] = mine;
    __syncthreads();
    for (int half = blockDim.x / 2; half > 0; half /= 2) {
        if (static_cast<int>(threadIdx.x) < half) block[threadIdx.x] += block[threadIdx.x + half];
        __syncthreads();
    }
    if (threadIdx.x == 0) partials[blockIdx.x] = block[0];
}

__global__ void combine(const float* partials, int count, unsigned long long* history, unsigned* counter, int capacity) {
    if (blockIdx.x != 0 || threadIdx.x != 0) return;
    unsigned long long total = 0;
    for (int p = 0; p < count; ++p) total += static_cast<unsigned long long>(partials[p]);
    const unsigned launch = *counter;
    if (static_cast<int>(launch) < capacity) history[launch] = total;
    *counter = launch + 1;
}

namespace {

std::atomic<int> g_hostCalls{0};
void CountHostCall(void*) { g_hostCalls.fetch_add(1); }

struct Buffers {
    float *a = nullptr, *b = nullptr, *partials = nullptr;
    unsigned long long* history = nullptr;
    unsigned* counter = nullptr;
    int n = 0, capacity = 0;
};

// The kernels' parameters; the argument arrays point into this object, so it must outlive their use.
struct Arguments {
    float* a;
    float* b;
    float* partials;
    int n;
    int count;
    unsigned long long* history;
    unsigned* counter;
    int capacity;
    void* fill[2] = {&a, &n};
    void* sum[3] = {&b, &n, &partials};
    void* combine[5] = {&partials, &count, &history, &counter, &capacity};
};

cudaKernelNodeParams KernelParams(void* function, int blocks, int threads, void** args) {
    cudaKernelNodeParams params = {};
    params.func = function;
    params.gridDim = dim3(blocks);
    params.blockDim = dim3(threads);
    params.kernelParams = args;
    return params;
}

// A graph holding the one combine kernel.
cudaGraph_t ChildGraph(Arguments* args) {
    cudaGraph_t child;
    CHECK(cudaGraphCreate(&child, 0));
    cudaGraphNode_t node;
    const cudaKernelNodeParams params =
        KernelParams(reinterpret_cast<void*>(combine), kCombineBlocks, kCombineThreads, args->combine);
    CHECK(cudaGraphAddKernelNode(&node, child, nullptr, 0, &params));
    return child;
}

// The graph built node by node: [alloc] fill, memcpy, sum, child(combine), [host], [free], empty, in a chain.
cudaGraph_t BuildGraph(Arguments* args, size_t bytes, bool hostNode, bool allocNode, cudaGraphNode_t* fillNode,
                       cudaGraph_t* child) {
    cudaGraph_t graph;
    CHECK(cudaGraphCreate(&graph, 0));
    cudaGraphNode_t last = nullptr;  // the chain's end so far
    auto after = [&](cudaGraphNode_t node) { last = node; };
    auto depsOf = [&]() -> const cudaGraphNode_t* { return last ? &last : nullptr; };
    auto countOf = [&]() -> size_t { return last ? 1 : 0; };
    cudaGraphNode_t node;
    if (allocNode) {
        cudaMemAllocNodeParams alloc = {};
        alloc.poolProps.allocType = cudaMemAllocationTypePinned;
        alloc.poolProps.location.type = cudaMemLocationTypeDevice;
        alloc.poolProps.location.id = 0;
        alloc.bytesize = kSumBlocks * sizeof(float);
        CHECK(cudaGraphAddMemAllocNode(&node, graph, depsOf(), countOf(), &alloc));
        args->partials = static_cast<float*>(alloc.dptr);
        after(node);
    }
    cudaKernelNodeParams params = KernelParams(reinterpret_cast<void*>(fill), kFillBlocks, kBlock, args->fill);
    CHECK(cudaGraphAddKernelNode(&node, graph, depsOf(), countOf(), &params));
    *fillNode = node;
    after(node);
    CHECK(cudaGraphAddMemcpyNode1D(&node, graph, depsOf(), countOf(), args->b, args->a, bytes, cudaMemcpyDeviceToDevice));
    after(node);
    params = KernelParams(reinterpret_cast<void*>(sum), kSumBlocks, kBlock, args->sum);
    CHECK(cudaGraphAddKernelNode(&node, graph, depsOf(), countOf(), &params));
    after(node);
    *child = ChildGraph(args);
    CHECK(cudaGraphAddChildGraphNode(&node, graph, depsOf(), countOf(), *child));
    after(node);
    if (hostNode) {
        cudaHostNodeParams host = {};
        host.fn = CountHostCall;
        CHECK(cudaGraphAddHostNode(&node, graph, depsOf(), countOf(), &host));
        after(node);
    }
    if (allocNode) {
        CHECK(cudaGraphAddMemFreeNode(&node, graph, depsOf(), countOf(), args->partials));
        after(node);
    }
    CHECK(cudaGraphAddEmptyNode(&node, graph, depsOf(), countOf()));
    return graph;
}

// Adds `add`'s node to the graph `stream` is capturing, after what the capture has so far, and makes it the
// capture's only dependency.
template <typename Add>
void AddToCapture(cudaStream_t stream, Add add) {
    cudaStreamCaptureStatus status;
    cudaGraph_t graph;
    const cudaGraphNode_t* deps = nullptr;
    size_t count = 0;
#if CUDART_VERSION >= 13000
    CHECK(cudaStreamGetCaptureInfo(stream, &status, nullptr, &graph, &deps, nullptr, &count));
#else
    CHECK(cudaStreamGetCaptureInfo_v2(stream, &status, nullptr, &graph, &deps, &count));
#endif
    if (status != cudaStreamCaptureStatusActive) {
        std::fprintf(stderr, "graph_known_answers: the stream is not capturing\n");
        std::exit(2);
    }
    const std::vector<cudaGraphNode_t> dependencies(deps, deps + count);
    cudaGraphNode_t node = add(graph, dependencies.data(), dependencies.size());
#if CUDART_VERSION >= 13000
    CHECK(cudaStreamUpdateCaptureDependencies(stream, &node, nullptr, 1, cudaStreamSetCaptureDependencies));
#else
    CHECK(cudaStreamUpdateCaptureDependencies(stream, &node, 1, cudaStreamSetCaptureDependencies));
#endif
}

// The same graph by stream capture; fill's node found in it afterwards.
cudaGraph_t CaptureGraph(cudaStream_t stream, Arguments* args, size_t bytes, bool hostNode, bool allocNode,
                         cudaGraphNode_t* fillNode, cudaGraph_t* child) {
    CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
    if (allocNode) CHECK(cudaMallocAsync(reinterpret_cast<void**>(&args->partials), kSumBlocks * sizeof(float), stream));
    fill<<<kFillBlocks, kBlock, 0, stream>>>(args->a, args->n);
    CHECK_LAUNCH();
    CHECK(cudaMemcpyAsync(args->b, args->a, bytes, cudaMemcpyDeviceToDevice, stream));
    sum<<<kSumBlocks, kBlock, 0, stream>>>(args->b, args->n, args->partials);
    CHECK_LAUNCH();
    *child = ChildGraph(args);
    AddToCapture(stream, [&](cudaGraph_t graph, const cudaGraphNode_t* deps, size_t count) {
        cudaGraphNode_t node;
        CHECK(cudaGraphAddChildGraphNode(&node, graph, deps, count, *child));
        return node;
    });
    if (hostNode) CHECK(cudaLaunchHostFunc(stream, CountHostCall, nullptr));
    if (allocNode) CHECK(cudaFreeAsync(args->partials, stream));
    AddToCapture(stream, [&](cudaGraph_t graph, const cudaGraphNode_t* deps, size_t count) {
        cudaGraphNode_t node;
        CHECK(cudaGraphAddEmptyNode(&node, graph, deps, count));
        return node;
    });
    cudaGraph_t graph;
    CHECK(cudaStreamEndCapture(stream, &graph));
    size_t count = 0;
    CHECK(cudaGraphGetNodes(graph, nullptr, &count));
    std::vector<cudaGraphNode_t> nodes(count);
    CHECK(cudaGraphGetNodes(graph, nodes.data(), &count));
    *fillNode = nullptr;
    for (cudaGraphNode_t node : nodes) {
        cudaGraphNodeType type;
        CHECK(cudaGraphNodeGetType(node, &type));
        if (type != cudaGraphNodeTypeKernel) continue;
        cudaKernelNodeParams params = {};
        CHECK(cudaGraphKernelNodeGetParams(node, &params));
        if (params.func == reinterpret_cast<void*>(fill)) *fillNode = node;
    }
    if (!*fillNode) {
        std::fprintf(stderr, "graph_known_answers: the captured graph has no fill node\n");
        std::exit(2);
    }
    return graph;
}

int Run(int argc, char** argv) {
    const std::string mode = StringArgument(argc, argv, "--mode", "graph");
    const int launches = IntArgument(argc, argv, "--launches", kDefaultLaunches);
    const std::string update = StringArgument(argc, argv, "--update", "setparams");
    const int updateAfter =
        update == "none" ? launches : IntArgument(argc, argv, "--update-after", DefaultUpdateAfter(launches));
    const bool disable = HasArgument(argc, argv, "--disable-node");
    const bool hostNode = HasArgument(argc, argv, "--host-node");
    const bool allocNode = HasArgument(argc, argv, "--alloc-node");
    const int n = IntArgument(argc, argv, "--elements", kElements);
    if ((mode != "graph" && mode != "eager" && mode != "capture") ||
        (update != "setparams" && update != "execupdate" && update != "none") || launches < 1 || n < 8 || n % 8 ||
        (allocNode && mode == "eager")) {
        std::fprintf(stderr, "graph_known_answers: bad arguments (see the comment at the top of the source)\n");
        return 2;
    }
    const size_t bytes = static_cast<size_t>(n) * sizeof(float);
    CHECK(cudaSetDevice(0));
    cudaStream_t stream;
    CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    Buffers buffers;
    buffers.n = n;
    buffers.capacity = launches;
    CHECK(cudaMalloc(&buffers.a, bytes));
    CHECK(cudaMalloc(&buffers.b, bytes));
    CHECK(cudaMalloc(&buffers.partials, kSumBlocks * sizeof(float)));
    CHECK(cudaMalloc(&buffers.history, launches * sizeof(unsigned long long)));
    CHECK(cudaMalloc(&buffers.counter, sizeof(unsigned)));
    CHECK(cudaMemset(buffers.a, 0, bytes));
    CHECK(cudaMemset(buffers.b, 0, bytes));
    CHECK(cudaMemset(buffers.partials, 0, kSumBlocks * sizeof(float)));
    CHECK(cudaMemset(buffers.history, 0xff, launches * sizeof(unsigned long long)));
    CHECK(cudaMemset(buffers.counter, 0, sizeof(unsigned)));
    CHECK(cudaDeviceSynchronize());

    Arguments args{buffers.a, buffers.b, buffers.partials, n, kSumBlocks, buffers.history, buffers.counter, launches};
    if (mode == "eager") {
        for (int launch = 0; launch < launches; ++launch) {
            if (!disable) {
                fill<<<launch < updateAfter ? kFillBlocks : kFillBlocksUpdated, kBlock, 0, stream>>>(args.a, n);
                CHECK_LAUNCH();
            }
            CHECK(cudaMemcpyAsync(args.b, args.a, bytes, cudaMemcpyDeviceToDevice, stream));
            sum<<<kSumBlocks, kBlock, 0, stream>>>(args.b, n, args.partials);
            CHECK_LAUNCH();
            combine<<<kCombineBlocks, kCombineThreads, 0, stream>>>(args.partials, args.count, args.history, args.counter,
                                                                   args.capacity);
            CHECK_LAUNCH();
            if (hostNode) CHECK(cudaLaunchHostFunc(stream, CountHostCall, nullptr));
        }
    } else {
        cudaGraphNode_t fillNode = nullptr;
        cudaGraph_t child = nullptr;
        const cudaGraph_t graph = mode == "graph" ? BuildGraph(&args, bytes, hostNode, allocNode, &fillNode, &child)
                                                  : CaptureGraph(stream, &args, bytes, hostNode, allocNode, &fillNode, &child);
        cudaGraphExec_t exec;
        CHECK(cudaGraphInstantiate(&exec, graph, 0));
        if (disable) CHECK(cudaGraphNodeSetEnabled(exec, fillNode, 0));
        for (int launch = 0; launch < launches; ++launch) {
            if (launch == updateAfter) {
                cudaKernelNodeParams params =
                    KernelParams(reinterpret_cast<void*>(fill), kFillBlocksUpdated, kBlock, args.fill);
                if (update == "setparams") {
                    CHECK(cudaGraphExecKernelNodeSetParams(exec, fillNode, &params));
                } else {
                    CHECK(cudaGraphKernelNodeSetParams(fillNode, &params));
                    cudaGraphExecUpdateResultInfo info = {};
                    CHECK(cudaGraphExecUpdate(exec, graph, &info));
                    if (info.result != cudaGraphExecUpdateSuccess) {
                        std::fprintf(stderr, "graph_known_answers: cudaGraphExecUpdate result %d\n", static_cast<int>(info.result));
                        return 2;
                    }
                }
            }
            CHECK(cudaGraphLaunch(exec, stream));
        }
        CHECK(cudaStreamSynchronize(stream));
        CHECK(cudaGraphExecDestroy(exec));
        CHECK(cudaGraphDestroy(graph));
        CHECK(cudaGraphDestroy(child));
    }
    CHECK(cudaStreamSynchronize(stream));

    // What one execution per launch leaves.
    int wrong = 0;
    std::vector<unsigned long long> history(launches);
    unsigned counter = 0;
    CHECK(cudaMemcpy(history.data(), buffers.history, launches * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&counter, buffers.counter, sizeof counter, cudaMemcpyDeviceToHost));
    if (counter != static_cast<unsigned>(launches)) {
        std::fprintf(stderr, "graph_known_answers: combine ran %u times, expected %d\n", counter, launches);
        ++wrong;
    }
    for (int launch = 0; launch < launches; ++launch) {
        const unsigned long long expected = disable ? 0 : ExpectedTotal(n);
        if (history[launch] != expected) {
            if (wrong < 10) {
                std::fprintf(stderr, "graph_known_answers: launch %d: total %llu, expected %llu\n", launch + 1,
                             history[launch], expected);
            }
            ++wrong;
        }
    }
    std::vector<float> a(n), b(n);
    CHECK(cudaMemcpy(a.data(), buffers.a, bytes, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(b.data(), buffers.b, bytes, cudaMemcpyDeviceToHost));
    long long wrongElements = 0;
    for (int i = 0; i < n; ++i) {
        const float expected = disable ? 0.0f : static_cast<float>(i % 8);
        wrongElements += a[i] != expected;
        wrongElements += b[i] != expected;
    }
    if (wrongElements) {
        std::fprintf(stderr, "graph_known_answers: %lld wrong elements in the buffers\n", wrongElements);
        ++wrong;
    }
    if (hostNode && g_hostCalls.load() != launches) {
        std::fprintf(stderr, "graph_known_answers: the host function ran %d times, expected %d\n", g_hostCalls.load(),
                     launches);
        ++wrong;
    }
    CHECK(cudaFree(buffers.a));
    CHECK(cudaFree(buffers.b));
    CHECK(cudaFree(buffers.partials));
    CHECK(cudaFree(buffers.history));
    CHECK(cudaFree(buffers.counter));
    CHECK(cudaStreamDestroy(stream));
    const int kernels = kKernelsPerLaunch - (disable ? 1 : 0);
    std::printf("graph_known_answers: mode=%s launches=%d kernels_per_launch=%d update=%s update_after=%d disabled=%s "
                "host_node=%d alloc_node=%d elements=%d ",
                mode.c_str(), launches, kernels, update.c_str(), updateAfter, disable ? "fill" : "none", hostNode ? 1 : 0,
                allocNode ? 1 : 0, n);
    if (wrong) {
        std::printf("results WRONG\n");
        return 1;
    }
    std::printf("results correct\n");
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    ProbeIfAsked(argc, argv);
    return Run(argc, argv);
}
