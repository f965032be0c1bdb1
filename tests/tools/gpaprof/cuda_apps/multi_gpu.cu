// Programs that use two GPUs from one process (issue 12): gpaprof must keep every dispatch of every device with
// that device's name and index, copies between devices as transfers, and must never deadlock kernels that wait
// for another device.
//
//   multi_gpu --way W [--launches N] [--probe]
//     threads     one host thread per device, each with its own stream, N launches of `scale` with a size of its
//                 own (device d: (d + 1) * 64 Ki elements), results checked (2 N launches)
//     one-thread  one thread taking turns between the devices (cudaSetDevice) launch by launch (2 N launches)
//     peer        peer access both ways; N rounds of: cudaMemcpyPeerAsync 0 -> 1, a kernel on device 1 that reads
//                 device 0's memory directly and writes its own, cudaMemcpyPeer 1 -> 0 (2 N copies, N launches)
//     wait        N rounds of two kernels that meet across the devices, as a collective does: `wait_flag` on
//                 device 1 spins until `set_flag`, launched after it by the same thread on device 0, writes a flag
//                 into device 1's memory. A profiler that holds the thread in the first launch until its kernel
//                 ends deadlocks here: the waiter gives up after 10 s and the program exits with status 3.
// `--probe` exits 0 with two CUDA devices or more, 77 (skip) with fewer. Prints
// "multi_gpu: <way> <launches> launches, results correct".
#include <atomic>
#include <cstdint>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "app_common.cuh"

__global__ void scale(float* data, int n, float factor) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) data[i] = data[i] * factor + 1.0f;
}

// Reads a peer device's memory directly (peer access) and writes its own: out[i] = in[i] + 1.
__global__ void read_peer(const float* in, float* out, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i] + 1.0f;
}

// Spins until *flag == round, at most ~10 s of the GPU's global timer; writes 1 to *timedOut if it gave up.
__global__ void wait_flag(volatile int* flag, int round, int* timedOut) {
    uint64_t start = 0, now = 0;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
    while (*flag < round) {
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
        if (now - start > 10ull * 1000 * 1000 * 1000) {
            *timedOut = 1;
            return;
        }
    }
}

__global__ void set_flag(volatile int* flag, int round) {
    __threadfence_system();
    *flag = round;
    __threadfence_system();
}

namespace {

int ElementsOf(int device) { return (device + 1) << 16; }

// Fills a device buffer with 1.0, runs `launches` scale kernels and checks the result.
int ScaleOnDevice(int device, int launches, cudaStream_t stream) {
    const int n = ElementsOf(device);
    std::vector<float> host(n, 1.0f);
    float* data = nullptr;
    CHECK(cudaMalloc(&data, n * sizeof(float)));
    CHECK(cudaMemcpyAsync(data, host.data(), n * sizeof(float), cudaMemcpyHostToDevice, stream));
    float expected = 1.0f;
    for (int l = 0; l < launches; ++l) {
        scale<<<(n + 255) / 256, 256, 0, stream>>>(data, n, 2.0f);
        CHECK_LAUNCH();
        expected = expected * 2.0f + 1.0f;
    }
    CHECK(cudaMemcpyAsync(host.data(), data, n * sizeof(float), cudaMemcpyDeviceToHost, stream));
    CHECK(cudaStreamSynchronize(stream));
    CHECK(cudaFree(data));
    int wrong = 0;
    for (float value : host) wrong += value != expected;
    return wrong;
}

int Threads(int launches) {
    std::atomic<int> wrong{0};
    std::vector<std::thread> threads;
    for (int device = 0; device < 2; ++device) {
        threads.emplace_back([device, launches, &wrong] {
            CHECK(cudaSetDevice(device));
            cudaStream_t stream = nullptr;
            CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
            wrong += ScaleOnDevice(device, launches, stream);
            CHECK(cudaStreamDestroy(stream));
        });
    }
    for (std::thread& thread : threads) thread.join();
    return wrong;
}

int OneThread(int launches) {
    float* data[2] = {};
    std::vector<float> host[2];
    for (int device = 0; device < 2; ++device) {
        CHECK(cudaSetDevice(device));
        host[device].assign(ElementsOf(device), 1.0f);
        CHECK(cudaMalloc(&data[device], host[device].size() * sizeof(float)));
        CHECK(cudaMemcpy(data[device], host[device].data(), host[device].size() * sizeof(float), cudaMemcpyHostToDevice));
    }
    float expected = 1.0f;
    for (int l = 0; l < launches; ++l) {
        for (int device = 0; device < 2; ++device) {
            CHECK(cudaSetDevice(device));
            const int n = ElementsOf(device);
            scale<<<(n + 255) / 256, 256>>>(data[device], n, 2.0f);
            CHECK_LAUNCH();
        }
        expected = expected * 2.0f + 1.0f;
    }
    int wrong = 0;
    for (int device = 0; device < 2; ++device) {
        CHECK(cudaSetDevice(device));
        CHECK(cudaMemcpy(host[device].data(), data[device], host[device].size() * sizeof(float), cudaMemcpyDeviceToHost));
        for (float value : host[device]) wrong += value != expected;
        CHECK(cudaFree(data[device]));
    }
    return wrong;
}

void EnablePeerAccess() {
    int canAccess = 0;
    CHECK(cudaDeviceCanAccessPeer(&canAccess, 0, 1));
    if (!canAccess) {
        std::printf("multi_gpu: device 0 cannot access device 1's memory: no peer access on this machine\n");
        std::exit(77);
    }
    for (int device = 0; device < 2; ++device) {
        CHECK(cudaSetDevice(device));
        CHECK(cudaDeviceEnablePeerAccess(1 - device, 0));
    }
}

int Peer(int rounds) {
    EnablePeerAccess();
    const int n = 1 << 20;
    std::vector<float> host(n);
    for (int i = 0; i < n; ++i) host[i] = static_cast<float>(i % 1000);
    float *onZero = nullptr, *onOne = nullptr, *result = nullptr;
    CHECK(cudaSetDevice(0));
    CHECK(cudaMalloc(&onZero, n * sizeof(float)));
    CHECK(cudaMemcpy(onZero, host.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaSetDevice(1));
    CHECK(cudaMalloc(&onOne, n * sizeof(float)));
    CHECK(cudaMalloc(&result, n * sizeof(float)));
    cudaStream_t stream = nullptr;
    CHECK(cudaStreamCreate(&stream));
    for (int r = 0; r < rounds; ++r) {
        CHECK(cudaMemcpyPeerAsync(onOne, 1, onZero, 0, n * sizeof(float), stream));   // 0 -> 1
        read_peer<<<n / 256, 256, 0, stream>>>(onZero, result, n);                    // reads device 0 directly
        CHECK_LAUNCH();
        CHECK(cudaStreamSynchronize(stream));
        CHECK(cudaMemcpyPeer(onZero, 0, result, 1, n * sizeof(float)));               // 1 -> 0
    }
    std::vector<float> back(n);
    CHECK(cudaMemcpy(back.data(), onZero, n * sizeof(float), cudaMemcpyDefault));
    std::vector<float> copied(n);
    CHECK(cudaMemcpy(copied.data(), onOne, n * sizeof(float), cudaMemcpyDefault));
    int wrong = 0;
    for (int i = 0; i < n; ++i) {
        wrong += back[i] != host[i] + rounds;
        wrong += copied[i] != host[i] + rounds - 1;  // the last copy 0 -> 1 came before the last increment
    }
    CHECK(cudaStreamDestroy(stream));
    return wrong;
}

int Wait(int rounds) {
    EnablePeerAccess();
    int *flag = nullptr, *timedOut = nullptr;
    CHECK(cudaSetDevice(1));
    CHECK(cudaMalloc(&flag, sizeof(int)));
    CHECK(cudaMemset(flag, 0, sizeof(int)));
    CHECK(cudaMalloc(&timedOut, sizeof(int)));
    CHECK(cudaMemset(timedOut, 0, sizeof(int)));
    CHECK(cudaDeviceSynchronize());
    cudaStream_t streams[2] = {};
    for (int device = 0; device < 2; ++device) {
        CHECK(cudaSetDevice(device));
        CHECK(cudaStreamCreateWithFlags(&streams[device], cudaStreamNonBlocking));
    }
    for (int r = 1; r <= rounds; ++r) {
        CHECK(cudaSetDevice(1));
        wait_flag<<<1, 1, 0, streams[1]>>>(flag, r, timedOut);  // first: waits for device 0
        CHECK_LAUNCH();
        CHECK(cudaSetDevice(0));
        set_flag<<<1, 1, 0, streams[0]>>>(flag, r);  // writes device 1's memory through peer access
        CHECK_LAUNCH();
        CHECK(cudaStreamSynchronize(streams[0]));
        CHECK(cudaStreamSynchronize(streams[1]));
    }
    int gaveUp = 0;
    CHECK(cudaSetDevice(1));
    CHECK(cudaMemcpy(&gaveUp, timedOut, sizeof gaveUp, cudaMemcpyDeviceToHost));
    if (gaveUp) {
        std::printf("multi_gpu: wait: a waiting kernel gave up after 10 s: its peer kernel did not run meanwhile\n");
        std::exit(3);
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    if (HasArgument(argc, argv, "--probe")) {
        int count = 0;
        if (cudaGetDeviceCount(&count) != cudaSuccess || count < 2) {
            std::printf("multi_gpu needs 2 CUDA devices, found %d\n", count);
            return 77;
        }
        return 0;
    }
    const std::string way = StringArgument(argc, argv, "--way", "threads");
    const int launches = IntArgument(argc, argv, "--launches", 5);
    int count = 0;
    CHECK(cudaGetDeviceCount(&count));
    if (count < 2) {
        std::printf("multi_gpu needs 2 CUDA devices, found %d\n", count);
        return 77;
    }
    int wrong = 0;
    if (way == "threads") {
        wrong = Threads(launches);
    } else if (way == "one-thread") {
        wrong = OneThread(launches);
    } else if (way == "peer") {
        wrong = Peer(launches);
    } else if (way == "wait") {
        wrong = Wait(launches);
    } else {
        std::fprintf(stderr, "multi_gpu: unknown --way %s (threads, one-thread, peer, wait)\n", way.c_str());
        return 2;
    }
    if (wrong != 0) {
        std::printf("multi_gpu: %s: %d wrong values\n", way.c_str(), wrong);
        return 1;
    }
    std::printf("multi_gpu: %s %d launches, results correct\n", way.c_str(), launches);
    return 0;
}
