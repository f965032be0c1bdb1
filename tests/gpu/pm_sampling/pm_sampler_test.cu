// The PM-sampling engine on a GPU: a kernel that writes known bytes, sampled every 100 us. The DRAM bytes written
// summed over the samples must be the kernel's (within 5%), and the samples that saw them must lie inside the
// kernel's own start and end on the GPU's timer (read by the kernel from %globaltimer), give or take 2 intervals.
// Prints "FIGURE pm_sampling ..." lines for docs/pm_sampling.md.
#include <gtest/gtest.h>

#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <thread>

#include "pm_sampling/pm_sampler.h"

namespace {

__device__ unsigned long long g_first = ~0ull, g_last = 0;

__device__ unsigned long long GlobalTimer() {
    unsigned long long t;
    asm volatile("mov.u64 %0, %globaltimer;" : "=l"(t));
    return t;
}

// Writes `words` 16-byte words `repeats` times over; records when its first block began and its last block ended.
__global__ void Write(uint4* data, size_t words, int repeats) {
    if (threadIdx.x == 0) atomicMin(&g_first, GlobalTimer());
    for (int r = 0; r < repeats; ++r) {
        for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < words; i += size_t(gridDim.x) * blockDim.x) {
            data[i] = make_uint4(r, r, r, r);
        }
    }
    __syncthreads();
    if (threadIdx.x == 0) atomicMax(&g_last, GlobalTimer());
}

TEST(PmSampler, KnownDramWritesAtTheRightTime) {
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) GTEST_SKIP() << "no CUDA device";
    ASSERT_EQ(cudaSetDevice(0), cudaSuccess);
    ASSERT_EQ(cudaFree(nullptr), cudaSuccess);  // the driver and a context first
    const gpa::cuda::CuptiApi* api = nullptr;
    const gpa::Outcome loaded = gpa::cuda::LoadCupti(&api);
    ASSERT_TRUE(loaded.ok()) << loaded.reason();
    const size_t bytes = 1ull << 30;  // 1 GiB, four times the L2 and more
    const int repeats = 40;           // 40 GiB written: about 10 ms at H200's bandwidth
    uint4* data = nullptr;
    ASSERT_EQ(cudaMalloc(&data, bytes), cudaSuccess);
    ASSERT_EQ(cudaMemset(data, 0, bytes), cudaSuccess);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);

    std::unique_ptr<gpa::pm_sampling::Sampler> sampler;
    gpa::pm_sampling::SamplerOptions options;  // 100 us
    const gpa::Outcome started = gpa::pm_sampling::Sampler::Start(*api, 0, gpa::pm_sampling::DefaultMetrics(), options, &sampler);
    ASSERT_TRUE(started.ok()) << started.reason();
    for (const std::string& why : sampler->plan().leftOut) std::printf("left out: %s\n", why.c_str());
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    Write<<<1056, 512>>>(data, bytes / sizeof(uint4), repeats);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    const gpa::Outcome stopped = sampler->Stop();
    ASSERT_TRUE(stopped.ok()) << stopped.reason();
    unsigned long long first = 0, last = 0;
    ASSERT_EQ(cudaMemcpyFromSymbol(&first, g_first, sizeof first), cudaSuccess);
    ASSERT_EQ(cudaMemcpyFromSymbol(&last, g_last, sizeof last), cudaSuccess);
    cudaFree(data);

    const auto& metrics = sampler->plan().metrics;
    const size_t write = std::find(metrics.begin(), metrics.end(), "dram__bytes_write.sum") - metrics.begin();
    ASSERT_LT(write, metrics.size());
    const auto& samples = sampler->samples();
    ASSERT_GT(samples.size(), 50u);
    double total = 0, inside = 0;
    size_t dropped = 0;
    std::vector<uint64_t> lengths;
    uint64_t busyFirst = ~0ull, busyLast = 0;  // samples with more than a tenth of the peak sample's writes
    double peak = 0;
    for (const auto& sample : samples) peak = std::max(peak, sample.values[write]);
    for (const auto& sample : samples) {
        total += sample.values[write];
        if (sample.gpuEndNs > first && sample.gpuStartNs < last) inside += sample.values[write];
        dropped += sample.droppedBefore ? 1 : 0;
        lengths.push_back(sample.gpuEndNs - sample.gpuStartNs);
        if (sample.values[write] > peak / 10) {
            busyFirst = std::min(busyFirst, sample.gpuStartNs);
            busyLast = std::max(busyLast, sample.gpuEndNs);
        }
    }
    std::sort(lengths.begin(), lengths.end());
    const double expected = double(bytes) * repeats;
    const uint64_t interval = lengths[lengths.size() / 2];
    std::printf("FIGURE pm_sampling samples=%zu median_interval_ns=%llu dropped=%zu dram_write_sum=%.0f expected=%.0f "
                "ratio=%.4f inside_kernel=%.0f kernel_ns=%llu busy_from=%lld busy_to=%lld (ns from the kernel's start/end)\n",
                samples.size(), (unsigned long long)interval, dropped, total, expected, total / expected, inside,
                last - first, (long long)(busyFirst - first), (long long)(busyLast - last));
    for (size_t m = 0; m < metrics.size(); ++m) {
        double sum = 0, most = 0;
        for (const auto& sample : samples) {
            sum += sample.values[m];
            most = std::max(most, sample.values[m]);
        }
        std::printf("FIGURE pm_sampling metric=%s sum=%.4g max=%.4g\n", metrics[m].c_str(), sum, most);
    }
    EXPECT_EQ(dropped, 0u);
    EXPECT_NEAR(double(interval), 100000.0, 10000.0);
    EXPECT_NEAR(total / expected, 1.0, 0.05);
    EXPECT_NEAR(inside / expected, 1.0, 0.05);
    EXPECT_LE(std::llabs((long long)(busyFirst - first)), 2 * (long long)interval);
    EXPECT_LE(std::llabs((long long)(busyLast - last)), 2 * (long long)interval);
}

}  // namespace
