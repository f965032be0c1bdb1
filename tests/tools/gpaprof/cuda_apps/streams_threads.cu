// Several host threads, each with two streams, launching kernels and asynchronous copies concurrently:
// every dispatch from every thread and stream must appear in gpaprof's files.
//
//   streams_threads [--threads T] [--launches L] [--probe]     (T threads x 2 streams x L launches each)
#include <thread>
#include <vector>

#include "app_common.cuh"

constexpr int kN = 1 << 16;

__global__ void scale_add(float* data, float scale, float add, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) data[i] = data[i] * scale + add;
}

int main(int argc, char** argv) {
    ProbeIfAsked(argc, argv);
    const int threads = IntArgument(argc, argv, "--threads", 2);
    const int launches = IntArgument(argc, argv, "--launches", 8);
    CHECK(cudaSetDevice(0));
    std::vector<int> failures(threads, 0);
    std::vector<std::thread> workers;
    for (int t = 0; t < threads; ++t) {
        workers.emplace_back([&, t] {
            CHECK(cudaSetDevice(0));
            cudaStream_t streams[2];
            float* device[2];
            float* host[2];
            for (int s = 0; s < 2; ++s) {
                CHECK(cudaStreamCreateWithFlags(&streams[s], cudaStreamNonBlocking));
                CHECK(cudaMalloc(&device[s], kN * sizeof(float)));
                CHECK(cudaMallocHost(&host[s], kN * sizeof(float)));
                for (int i = 0; i < kN; ++i) host[s][i] = 1.0f;
                CHECK(cudaMemcpyAsync(device[s], host[s], kN * sizeof(float), cudaMemcpyHostToDevice, streams[s]));
            }
            for (int l = 0; l < launches; ++l) {
                for (int s = 0; s < 2; ++s) {
                    scale_add<<<kN / 128, 128, 0, streams[s]>>>(device[s], 1.0f, 1.0f, kN);
                    CHECK_LAUNCH();
                }
            }
            for (int s = 0; s < 2; ++s) {
                CHECK(cudaMemcpyAsync(host[s], device[s], kN * sizeof(float), cudaMemcpyDeviceToHost, streams[s]));
                CHECK(cudaStreamSynchronize(streams[s]));
                for (int i = 0; i < kN; ++i) failures[t] += host[s][i] != 1.0f + launches;
                CHECK(cudaFreeHost(host[s]));
                CHECK(cudaFree(device[s]));
                CHECK(cudaStreamDestroy(streams[s]));
            }
        });
    }
    for (std::thread& worker : workers) worker.join();
    int wrong = 0;
    for (int f : failures) wrong += f;
    if (wrong) {
        std::fprintf(stderr, "streams_threads: %d wrong results\n", wrong);
        return 1;
    }
    std::printf("streams_threads: %d threads, %d streams, %d kernel launches, results correct\n", threads, 2 * threads,
                2 * threads * launches);
    return 0;
}
