// Shapes of CUDA programs that change contexts or mix other work with launches: gpaprof must keep every
// dispatch and the application's results.
//
//   context_shapes --way W [--launches N] [--probe]
//     contexts     two contexts of device 0 (the primary one and one made with cuCtxCreate), N launches each,
//                  alternating between them (2 N launches)
//     reset        N launches, cudaDeviceReset() in the middle of the run, then N launches in the new context
//     host-func    N launches, each followed by a host function (cudaLaunchHostFunc) and an event record
//     cooperative  N cooperative launches (cudaLaunchCooperativeKernel)
//     thread-contexts  two threads, each with a context of its own on device 0 (cuCtxCreate), N launches each, the
//                  threads taking turns launch by launch (2 N launches)
// Checks every result and prints "context_shapes: <way> <launches> launches, results correct".
#include <cuda.h>

#include <atomic>
#include <cstring>
#include <string>
#include <thread>

#include "app_common.cuh"

#define CHECK_DRIVER(call)                                                                  \
    do {                                                                                    \
        const CUresult check_result_ = (call);                                              \
        if (check_result_ != CUDA_SUCCESS) {                                                \
            std::fprintf(stderr, "%s:%d: %s failed: %d\n", __FILE__, __LINE__, #call,       \
                         static_cast<int>(check_result_));                                  \
            std::exit(2);                                                                   \
        }                                                                                   \
    } while (0)

constexpr int kN = 1 << 14;

__global__ void bump(int* data, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) data[i] += 1;
}

namespace {

// The number of values of a device buffer that are not `expected`.
int Wrong(const int* device, int expected) {
    static int host[kN];
    CHECK(cudaMemcpy(host, device, sizeof host, cudaMemcpyDeviceToHost));
    int wrong = 0;
    for (int value : host) wrong += value != expected;
    return wrong;
}

int* NewZeroed() {
    int* data = nullptr;
    CHECK(cudaMalloc(&data, kN * sizeof(int)));
    CHECK(cudaMemset(data, 0, kN * sizeof(int)));
    return data;
}

void Bump(int* data, int count) {
    for (int l = 0; l < count; ++l) {
        bump<<<kN / 256, 256>>>(data, kN);
        CHECK_LAUNCH();
    }
}

int Contexts(int launches) {
    CHECK(cudaSetDevice(0));
    int* primary = NewZeroed();
    CUcontext primaryContext = nullptr, own = nullptr;
    CHECK_DRIVER(cuCtxGetCurrent(&primaryContext));
    CUdevice device = 0;
    CHECK_DRIVER(cuDeviceGet(&device, 0));
#if CUDA_VERSION >= 13000
    CHECK_DRIVER(cuCtxCreate(&own, nullptr, 0, device));
#else
    CHECK_DRIVER(cuCtxCreate(&own, 0, device));
#endif
    int* second = NewZeroed();  // in the new context, current now
    for (int l = 0; l < launches; ++l) {
        CHECK_DRIVER(cuCtxSetCurrent(primaryContext));
        Bump(primary, 1);
        CHECK_DRIVER(cuCtxSetCurrent(own));
        Bump(second, 1);
    }
    int wrong = Wrong(second, launches);
    CHECK(cudaFree(second));
    CHECK_DRIVER(cuCtxSetCurrent(primaryContext));
    wrong += Wrong(primary, launches);
    CHECK(cudaFree(primary));
    CHECK_DRIVER(cuCtxDestroy(own));
    return wrong;
}

int Reset(int launches) {
    int* before = NewZeroed();
    Bump(before, launches);
    int wrong = Wrong(before, launches);
    CHECK(cudaDeviceReset());  // frees `before` with the context
    int* after = NewZeroed();
    Bump(after, launches);
    wrong += Wrong(after, launches);
    CHECK(cudaFree(after));
    return wrong;
}

std::atomic<int> g_hostCalls{0};
void CUDART_CB CountHostCall(void*) { g_hostCalls.fetch_add(1); }

int HostFunctions(int launches) {
    int* data = NewZeroed();
    cudaStream_t stream;
    CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    cudaEvent_t event;
    CHECK(cudaEventCreate(&event));
    for (int l = 0; l < launches; ++l) {
        bump<<<kN / 256, 256, 0, stream>>>(data, kN);
        CHECK_LAUNCH();
        CHECK(cudaLaunchHostFunc(stream, CountHostCall, nullptr));
        CHECK(cudaEventRecord(event, stream));
    }
    CHECK(cudaEventSynchronize(event));
    CHECK(cudaStreamSynchronize(stream));
    int wrong = Wrong(data, launches) + (g_hostCalls.load() != launches);
    CHECK(cudaEventDestroy(event));
    CHECK(cudaStreamDestroy(stream));
    CHECK(cudaFree(data));
    return wrong;
}

int Cooperative(int launches) {
    int supported = 0;
    CHECK(cudaDeviceGetAttribute(&supported, cudaDevAttrCooperativeLaunch, 0));
    if (!supported) {
        std::printf("context_shapes: the device has no cooperative launches\n");
        std::exit(77);
    }
    int* data = NewZeroed();
    int n = kN;
    void* args[] = {&data, &n};
    for (int l = 0; l < launches; ++l) {
        CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<void*>(bump), dim3(kN / 256), dim3(256), args, 0, nullptr));
    }
    const int wrong = Wrong(data, launches);
    CHECK(cudaFree(data));
    return wrong;
}

// One thread of ThreadContexts: its own context, `launches` launches, each when `turn` says it is this thread's.
int ContextThread(int index, int launches, std::atomic<int>* turn) {
    CUdevice device = 0;
    CHECK_DRIVER(cuDeviceGet(&device, 0));
    CUcontext own = nullptr;
#if CUDA_VERSION >= 13000
    CHECK_DRIVER(cuCtxCreate(&own, nullptr, 0, device));
#else
    CHECK_DRIVER(cuCtxCreate(&own, 0, device));
#endif
    int* data = NewZeroed();
    for (int l = 0; l < launches; ++l) {
        while (turn->load() % 2 != index) std::this_thread::yield();
        Bump(data, 1);
        turn->fetch_add(1);
    }
    const int wrong = Wrong(data, launches);
    CHECK(cudaFree(data));
    CHECK_DRIVER(cuCtxDestroy(own));
    return wrong;
}

int ThreadContexts(int launches) {
    CHECK_DRIVER(cuInit(0));
    std::atomic<int> turn{0};
    int wrong[2] = {0, 0};
    std::thread first([&] { wrong[0] = ContextThread(0, launches, &turn); });
    std::thread second([&] { wrong[1] = ContextThread(1, launches, &turn); });
    first.join();
    second.join();
    return wrong[0] + wrong[1];
}

}  // namespace

int main(int argc, char** argv) {
    ProbeIfAsked(argc, argv);
    const std::string way = StringArgument(argc, argv, "--way", "contexts");
    const int launches = IntArgument(argc, argv, "--launches", 10);
    int wrong = 0, total = launches;
    if (way == "contexts") {
        wrong = Contexts(launches);
        total = 2 * launches;
    } else if (way == "reset") {
        wrong = Reset(launches);
        total = 2 * launches;
    } else if (way == "host-func") {
        wrong = HostFunctions(launches);
    } else if (way == "cooperative") {
        wrong = Cooperative(launches);
    } else if (way == "thread-contexts") {
        wrong = ThreadContexts(launches);
        total = 2 * launches;
    } else {
        std::fprintf(stderr, "context_shapes: unknown way %s\n", way.c_str());
        return 2;
    }
    if (wrong) {
        std::fprintf(stderr, "context_shapes: %s: %d wrong values\n", way.c_str(), wrong);
        return 1;
    }
    std::printf("context_shapes: %s %d launches, results correct\n", way.c_str(), total);
    return 0;
}
