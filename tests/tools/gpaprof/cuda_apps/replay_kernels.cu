// Kernels whose results change when they run more than once, for gpaprof's replay: with a counter set of
// several passes every launch is replayed, and the program checks on the host that its results are exactly
// those of one execution per launch (integers only, so "exactly" is exact).
//
//   replay_kernels [--iterations N] [--default-stream] [--async] [--managed] [--pinned] [--writer-thread]
//                  [--shared-limits] [--cluster-limits] [--probe]
//
// Per iteration:
//   scale          in place: x[i] = 3 * x[i] + 1
//   count          atomicAdd on a counter in device memory, once per thread
//   globals        __device__ variables: an atomic total and an array, written in place
//   prefix         one thread: an in-place running sum over its own output (reads what it wrote)
//   scale_ex       the in-place scale again, launched with cudaLaunchKernelEx (cuLaunchKernelEx)
// --default-stream everything on stream 0 (the per-thread default stream in replay_kernels_ptds, built with
//                 --default-stream=per-thread) instead of a stream of its own
// --async         the buffers come from cudaMallocAsync (a stream-ordered pool) and go back with cudaFreeAsync
// --managed       plus a kernel incrementing managed memory (gpaprof falls back to CUPTI's kernel replay)
// --pinned        plus a kernel incrementing mapped pinned host memory (falls back as well)
// --writer-thread another thread copies new values into its own device buffer and reads them back, while the
//                 kernels are replayed: a restore must never overwrite what it wrote
// --shared-limits plus, as cuDNN does, a kernel whose dynamic shared memory limit is raised to 96 KiB for one
//                 launch and lowered to 16 KiB for the next (in place through shared memory: +2, then +3)
// --cluster-limits plus a kernel launched in clusters of 16 blocks (non-portable: allowed for that launch by
//                 its function's attribute, then no longer) and then of 8 (in place: +2, then +3); exits 77 where
//                 the device cannot run clusters of 16
#include <atomic>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "app_common.cuh"

constexpr int kN = 1 << 16;
constexpr int kPrefix = 4096;

__device__ unsigned int g_total;
__device__ unsigned int g_array[256];

__global__ void scale(unsigned int* x, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = 3u * x[i] + 1u;
}

__global__ void count(unsigned int* counter) { atomicAdd(counter, 1u); }

__global__ void globals() {
    atomicAdd(&g_total, 1u);
    if (blockIdx.x == 0) g_array[threadIdx.x] = g_array[threadIdx.x] * 2u + threadIdx.x;
}

__global__ void prefix(unsigned int* data, int n) {
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        for (int i = 1; i < n; ++i) data[i] += data[i - 1];
    }
}

__global__ void shared_add(unsigned int* x, int n, unsigned int add) {
    extern __shared__ unsigned int tile[];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) tile[threadIdx.x] = x[i];
    __syncthreads();
    if (i < n) x[i] = tile[threadIdx.x] + add;
}

__global__ void cluster_add(unsigned int* x, int n, unsigned int add) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] += add;
}

// cluster_add in clusters of `size` blocks, through cudaLaunchKernelEx (cuLaunchKernelEx).
cudaError_t LaunchInClusters(unsigned int* x, unsigned int add, unsigned int size, int blocks, cudaStream_t stream) {
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3(blocks);
    config.blockDim = dim3(256);
    config.stream = stream;
    cudaLaunchAttribute attribute;
    attribute.id = cudaLaunchAttributeClusterDimension;
    attribute.val.clusterDim.x = size;
    attribute.val.clusterDim.y = 1;
    attribute.val.clusterDim.z = 1;
    config.attrs = &attribute;
    config.numAttrs = 1;
    return cudaLaunchKernelEx(&config, cluster_add, x, kN, add);
}

__global__ void increment(unsigned int* value) {
    if (blockIdx.x == 0 && threadIdx.x == 0) *value += 1u;
}

int main(int argc, char** argv) {
    ProbeIfAsked(argc, argv);
    const int iterations = IntArgument(argc, argv, "--iterations", 3);
    const bool async = HasArgument(argc, argv, "--async");
    const bool managed = HasArgument(argc, argv, "--managed");
    const bool pinned = HasArgument(argc, argv, "--pinned");
    const bool writer = HasArgument(argc, argv, "--writer-thread");
    const bool sharedLimits = HasArgument(argc, argv, "--shared-limits");
    const bool clusterLimits = HasArgument(argc, argv, "--cluster-limits");
    CHECK(cudaSetDevice(0));
    const bool defaultStream = HasArgument(argc, argv, "--default-stream");
    cudaStream_t stream = nullptr;
    if (!defaultStream) CHECK(cudaStreamCreate(&stream));

    std::vector<unsigned int> x(kN), data(kPrefix);
    for (int i = 0; i < kN; ++i) x[i] = static_cast<unsigned int>(i % 1000);
    for (int i = 0; i < kPrefix; ++i) data[i] = static_cast<unsigned int>(i % 7);
    unsigned int *dx = nullptr, *dcounter = nullptr, *ddata = nullptr;
    if (async) {
        CHECK(cudaMallocAsync(&dx, kN * sizeof(unsigned int), stream));
        CHECK(cudaMallocAsync(&dcounter, sizeof(unsigned int), stream));
        CHECK(cudaMallocAsync(&ddata, kPrefix * sizeof(unsigned int), stream));
    } else {
        CHECK(cudaMalloc(&dx, kN * sizeof(unsigned int)));
        CHECK(cudaMalloc(&dcounter, sizeof(unsigned int)));
        CHECK(cudaMalloc(&ddata, kPrefix * sizeof(unsigned int)));
    }
    CHECK(cudaMemcpyAsync(dx, x.data(), kN * sizeof(unsigned int), cudaMemcpyHostToDevice, stream));
    CHECK(cudaMemcpyAsync(ddata, data.data(), kPrefix * sizeof(unsigned int), cudaMemcpyHostToDevice, stream));
    CHECK(cudaMemsetAsync(dcounter, 0, sizeof(unsigned int), stream));
    std::vector<unsigned int> array(256);
    for (int i = 0; i < 256; ++i) array[i] = static_cast<unsigned int>(i);
    CHECK(cudaMemcpyToSymbol(g_array, array.data(), sizeof(unsigned int) * 256));
    const unsigned int zero = 0;
    CHECK(cudaMemcpyToSymbol(g_total, &zero, sizeof zero));
    unsigned int* dshared = nullptr;
    if (sharedLimits) {
        CHECK(cudaMalloc(&dshared, kN * sizeof(unsigned int)));
        CHECK(cudaMemcpyAsync(dshared, x.data(), kN * sizeof(unsigned int), cudaMemcpyHostToDevice, stream));
    }
    unsigned int* dcluster = nullptr;
    if (clusterLimits) {
        CHECK(cudaFuncSetAttribute(cluster_add, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
        cudaLaunchConfig_t config = {};
        config.gridDim = dim3(kN / 256);
        config.blockDim = dim3(256);
        int largest = 0;
        CHECK(cudaOccupancyMaxPotentialClusterSize(&largest, cluster_add, &config));
        if (largest < 16) {
            std::printf("replay_kernels: clusters of %d blocks at most here, not 16\n", largest);
            return 77;
        }
        CHECK(cudaMalloc(&dcluster, kN * sizeof(unsigned int)));
        CHECK(cudaMemcpyAsync(dcluster, x.data(), kN * sizeof(unsigned int), cudaMemcpyHostToDevice, stream));
    }
    unsigned int* dmanaged = nullptr;
    if (managed) {
        CHECK(cudaMallocManaged(&dmanaged, sizeof(unsigned int)));
        *dmanaged = 0;
    }
    unsigned int* hpinned = nullptr;
    unsigned int* dpinned = nullptr;
    if (pinned) {
        CHECK(cudaHostAlloc(&hpinned, sizeof(unsigned int), cudaHostAllocMapped));
        *hpinned = 0;
        CHECK(cudaHostGetDevicePointer(&dpinned, hpinned, 0));
    }
    CHECK(cudaStreamSynchronize(stream));

    // Another thread writing its own device memory all the time (cudaMemcpy from the host), checking each write.
    std::atomic<bool> stop{false};
    std::atomic<int> writerFailures{0}, writerRounds{0};
    std::thread writerThread;
    if (writer) {
        writerThread = std::thread([&] {
            CHECK(cudaSetDevice(0));
            constexpr int kWords = 1 << 14;
            unsigned int* mine = nullptr;
            CHECK(cudaMalloc(&mine, kWords * sizeof(unsigned int)));
            std::vector<unsigned int> out(kWords), back(kWords);
            for (unsigned int round = 1; !stop.load() || round < 4; ++round) {
                for (int i = 0; i < kWords; ++i) out[i] = round * 7919u + static_cast<unsigned int>(i);
                CHECK(cudaMemcpy(mine, out.data(), kWords * sizeof(unsigned int), cudaMemcpyHostToDevice));
                std::this_thread::yield();
                CHECK(cudaMemcpy(back.data(), mine, kWords * sizeof(unsigned int), cudaMemcpyDeviceToHost));
                if (back != out) ++writerFailures;
                ++writerRounds;
            }
            CHECK(cudaFree(mine));
        });
    }

    const int blocks = kN / 256;
    for (int iteration = 0; iteration < iterations; ++iteration) {
        scale<<<blocks, 256, 0, stream>>>(dx, kN);
        CHECK_LAUNCH();
        count<<<blocks, 256, 0, stream>>>(dcounter);
        CHECK_LAUNCH();
        globals<<<8, 256, 0, stream>>>();
        CHECK_LAUNCH();
        prefix<<<1, 32, 0, stream>>>(ddata, kPrefix);
        CHECK_LAUNCH();
        cudaLaunchConfig_t config = {};
        config.gridDim = dim3(blocks);
        config.blockDim = dim3(256);
        config.stream = stream;
        CHECK(cudaLaunchKernelEx(&config, scale, dx, kN));
        if (sharedLimits) {
            constexpr int kLarge = 96 * 1024, kSmall = 16 * 1024;
            CHECK(cudaFuncSetAttribute(shared_add, cudaFuncAttributeMaxDynamicSharedMemorySize, kLarge));
            shared_add<<<blocks, 256, kLarge, stream>>>(dshared, kN, 2u);
            CHECK_LAUNCH();
            CHECK(cudaFuncSetAttribute(shared_add, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmall));
            shared_add<<<blocks, 256, kSmall, stream>>>(dshared, kN, 3u);
            CHECK_LAUNCH();
        }
        if (clusterLimits) {
            // Clusters of 16 are allowed for the first launch only: a replay of it after the attribute went back
            // to 0 would fail.
            CHECK(cudaFuncSetAttribute(cluster_add, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
            CHECK(LaunchInClusters(dcluster, 2u, 16, blocks, stream));
            CHECK(cudaFuncSetAttribute(cluster_add, cudaFuncAttributeNonPortableClusterSizeAllowed, 0));
            CHECK(LaunchInClusters(dcluster, 3u, 8, blocks, stream));
        }
        if (managed) {
            increment<<<1, 32, 0, stream>>>(dmanaged);
            CHECK_LAUNCH();
        }
        if (pinned) {
            increment<<<1, 32, 0, stream>>>(dpinned);
            CHECK_LAUNCH();
        }
    }
    CHECK(cudaStreamSynchronize(stream));
    stop = true;
    if (writer) writerThread.join();

    // What one execution per launch gives.
    int wrong = 0;
    if (clusterLimits) {
        std::vector<unsigned int> gotCluster(kN);
        CHECK(cudaMemcpy(gotCluster.data(), dcluster, kN * sizeof(unsigned int), cudaMemcpyDeviceToHost));
        for (int i = 0; i < kN; ++i) wrong += gotCluster[i] != x[i] + 5u * static_cast<unsigned int>(iterations);
        CHECK(cudaFree(dcluster));
    }
    if (sharedLimits) {
        std::vector<unsigned int> gotShared(kN);
        CHECK(cudaMemcpy(gotShared.data(), dshared, kN * sizeof(unsigned int), cudaMemcpyDeviceToHost));
        for (int i = 0; i < kN; ++i) wrong += gotShared[i] != x[i] + 5u * static_cast<unsigned int>(iterations);
        CHECK(cudaFree(dshared));
    }
    std::vector<unsigned int> gotX(kN), gotData(kPrefix), gotArray(256);
    unsigned int gotCounter = 0, gotTotal = 0;
    CHECK(cudaMemcpy(gotX.data(), dx, kN * sizeof(unsigned int), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(gotData.data(), ddata, kPrefix * sizeof(unsigned int), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&gotCounter, dcounter, sizeof gotCounter, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpyFromSymbol(gotArray.data(), g_array, sizeof(unsigned int) * 256));
    CHECK(cudaMemcpyFromSymbol(&gotTotal, g_total, sizeof gotTotal));
    for (int iteration = 0; iteration < 2 * iterations; ++iteration) {
        for (int i = 0; i < kN; ++i) x[i] = 3u * x[i] + 1u;
    }
    for (int iteration = 0; iteration < iterations; ++iteration) {
        for (int i = 1; i < kPrefix; ++i) data[i] += data[i - 1];
        for (int i = 0; i < 256; ++i) array[i] = array[i] * 2u + static_cast<unsigned int>(i);
    }
    for (int i = 0; i < kN; ++i) wrong += gotX[i] != x[i];
    for (int i = 0; i < kPrefix; ++i) wrong += gotData[i] != data[i];
    for (int i = 0; i < 256; ++i) wrong += gotArray[i] != array[i];
    const unsigned int threads = static_cast<unsigned int>(blocks) * 256u * static_cast<unsigned int>(iterations);
    if (gotCounter != threads) {
        std::fprintf(stderr, "replay_kernels: counter %u, expected %u\n", gotCounter, threads);
        ++wrong;
    }
    if (gotTotal != 8u * 256u * static_cast<unsigned int>(iterations)) {
        std::fprintf(stderr, "replay_kernels: __device__ total %u, expected %u\n", gotTotal, 8u * 256u * iterations);
        ++wrong;
    }
    if (managed && *dmanaged != static_cast<unsigned int>(iterations)) {
        std::fprintf(stderr, "replay_kernels: managed value %u, expected %d\n", *dmanaged, iterations);
        ++wrong;
    }
    if (pinned && *hpinned != static_cast<unsigned int>(iterations)) {
        std::fprintf(stderr, "replay_kernels: pinned host value %u, expected %d\n", *hpinned, iterations);
        ++wrong;
    }
    if (writerFailures > 0) {
        std::fprintf(stderr, "replay_kernels: the writer thread read back other values %d times\n", writerFailures.load());
        ++wrong;
    }
    if (async) {
        CHECK(cudaFreeAsync(dx, stream));
        CHECK(cudaFreeAsync(dcounter, stream));
        CHECK(cudaFreeAsync(ddata, stream));
        CHECK(cudaStreamSynchronize(stream));
    } else {
        CHECK(cudaFree(dx));
        CHECK(cudaFree(dcounter));
        CHECK(cudaFree(ddata));
    }
    if (managed) CHECK(cudaFree(dmanaged));
    if (pinned) CHECK(cudaFreeHost(hpinned));
    if (!defaultStream) CHECK(cudaStreamDestroy(stream));
    if (wrong) {
        std::fprintf(stderr, "replay_kernels: %d wrong results\n", wrong);
        return 1;
    }
    std::printf("replay_kernels: %d iterations, results of one execution per launch%s\n", iterations,
                writer ? (", writer thread " + std::to_string(writerRounds.load()) + " rounds").c_str() : "");
    return 0;
}
