// Kernels launched through CUDA graphs between ordinary launches, from one or more host threads: gpaprof must
// trace every kernel a graph runs, keep every ordinary launch's row and say which launches it did not count.
//
//   cuda_graphs [--threads T] [--replays R] [--probe]
//
// Each thread, on a stream of its own: a graph captured from the stream (3 kernels and a device-to-device
// copy) and a graph built node by node (2 kernel nodes and a child graph of 1 kernel), each launched R times,
// with one ordinary launch after each pair: 6 R graph kernels, R ordinary launches, 2 R graph launches. The
// program checks every value against the same steps on the host (unsigned arithmetic: exact, wrapping).
#include <thread>
#include <vector>

#include "app_common.cuh"

constexpr int kN = 1 << 16;
constexpr int kBlock = 256;

__global__ void add(unsigned* data, unsigned value, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) data[i] += value;
}

__global__ void multiply(unsigned* data, unsigned factor, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) data[i] *= factor;
}

namespace {

cudaGraphNode_t AddKernelNode(cudaGraph_t graph, const cudaGraphNode_t* dependencies, size_t count, void* kernel,
                              unsigned* data, unsigned value) {
    int n = kN;
    void* args[] = {&data, &value, &n};
    cudaKernelNodeParams params = {};
    params.func = kernel;
    params.gridDim = dim3(kN / kBlock);
    params.blockDim = dim3(kBlock);
    params.kernelParams = args;
    cudaGraphNode_t node = nullptr;
    CHECK(cudaGraphAddKernelNode(&node, graph, dependencies, count, &params));
    return node;
}

// One thread's work; returns the number of wrong values.
int RunThread(int replays) {
    cudaStream_t stream;
    CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    unsigned *captured, *copied, *built, *ordinary;
    for (unsigned** buffer : {&captured, &copied, &built, &ordinary}) {
        CHECK(cudaMalloc(buffer, kN * sizeof(unsigned)));
        CHECK(cudaMemsetAsync(*buffer, 0, kN * sizeof(unsigned), stream));
    }

    // Captured: captured = (captured + 1) * 3; copied = captured; copied += 5.
    cudaGraph_t capturedGraph;
    CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
    add<<<kN / kBlock, kBlock, 0, stream>>>(captured, 1, kN);
    multiply<<<kN / kBlock, kBlock, 0, stream>>>(captured, 3, kN);
    CHECK(cudaMemcpyAsync(copied, captured, kN * sizeof(unsigned), cudaMemcpyDeviceToDevice, stream));
    add<<<kN / kBlock, kBlock, 0, stream>>>(copied, 5, kN);
    CHECK(cudaStreamEndCapture(stream, &capturedGraph));

    // Built: built = (built + 2) * 5, then the child graph: built += 7.
    cudaGraph_t builtGraph, child;
    CHECK(cudaGraphCreate(&builtGraph, 0));
    CHECK(cudaGraphCreate(&child, 0));
    AddKernelNode(child, nullptr, 0, reinterpret_cast<void*>(add), built, 7);
    const cudaGraphNode_t first = AddKernelNode(builtGraph, nullptr, 0, reinterpret_cast<void*>(add), built, 2);
    const cudaGraphNode_t second = AddKernelNode(builtGraph, &first, 1, reinterpret_cast<void*>(multiply), built, 5);
    cudaGraphNode_t childNode;
    CHECK(cudaGraphAddChildGraphNode(&childNode, builtGraph, &second, 1, child));

    cudaGraphExec_t capturedExec, builtExec;
    CHECK(cudaGraphInstantiate(&capturedExec, capturedGraph, 0));
    CHECK(cudaGraphInstantiate(&builtExec, builtGraph, 0));
    for (int r = 0; r < replays; ++r) {
        CHECK(cudaGraphLaunch(capturedExec, stream));
        CHECK(cudaGraphLaunch(builtExec, stream));
        add<<<kN / kBlock, kBlock, 0, stream>>>(ordinary, 1, kN);  // ordinary = replays
        CHECK_LAUNCH();
    }
    std::vector<unsigned> host[4];
    unsigned* buffers[4] = {captured, copied, built, ordinary};
    for (int b = 0; b < 4; ++b) {
        host[b].resize(kN);
        CHECK(cudaMemcpyAsync(host[b].data(), buffers[b], kN * sizeof(unsigned), cudaMemcpyDeviceToHost, stream));
    }
    CHECK(cudaStreamSynchronize(stream));

    unsigned expectCaptured = 0, expectBuilt = 0;
    for (int r = 0; r < replays; ++r) {
        expectCaptured = (expectCaptured + 1) * 3;
        expectBuilt = (expectBuilt + 2) * 5 + 7;
    }
    const unsigned expected[4] = {expectCaptured, expectCaptured + 5, expectBuilt, static_cast<unsigned>(replays)};
    int wrong = 0;
    for (int b = 0; b < 4; ++b) {
        for (unsigned value : host[b]) wrong += value != expected[b];
    }
    CHECK(cudaGraphExecDestroy(capturedExec));
    CHECK(cudaGraphExecDestroy(builtExec));
    CHECK(cudaGraphDestroy(capturedGraph));
    CHECK(cudaGraphDestroy(builtGraph));
    CHECK(cudaGraphDestroy(child));
    for (unsigned* buffer : buffers) CHECK(cudaFree(buffer));
    CHECK(cudaStreamDestroy(stream));
    return wrong;
}

}  // namespace

int main(int argc, char** argv) {
    ProbeIfAsked(argc, argv);
    const int threads = IntArgument(argc, argv, "--threads", 1);
    const int replays = IntArgument(argc, argv, "--replays", 10);
    CHECK(cudaSetDevice(0));
    std::vector<int> wrong(threads, 0);
    std::vector<std::thread> workers;
    for (int t = 0; t < threads; ++t) {
        workers.emplace_back([&, t] {
            CHECK(cudaSetDevice(0));
            wrong[t] = RunThread(replays);
        });
    }
    for (std::thread& worker : workers) worker.join();
    int total = 0;
    for (int w : wrong) total += w;
    if (total) {
        std::fprintf(stderr, "cuda_graphs: %d wrong values\n", total);
        return 1;
    }
    std::printf("cuda_graphs: %d threads, %d graph launches, %d graph kernels, %d ordinary launches, results correct\n",
                threads, 2 * replays * threads, 6 * replays * threads, replays * threads);
    return 0;
}
