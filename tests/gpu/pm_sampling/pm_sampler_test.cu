// The PM-sampling engine on a GPU: a kernel that writes known bytes, sampled every 100 us. The DRAM bytes written
// summed over the samples must be the kernel's (within 5%), and the samples that saw them must lie inside the
// kernel's own start and end on the GPU's timer (read by the kernel from %globaltimer), give or take 2 intervals.
// Times are compared on CLOCK_MONOTONIC: the kernel's %globaltimer readings moved by the timer's offset from the
// host clock (a kernel reading the timer between two host readings), the samples by the engine's ToMonotonicNs.
// The hardware buffer is drained every millisecond while the kernel runs, as gpaprof's drain thread does.
// Prints "FIGURE pm_sampling ..." lines for docs/pm_sampling.md. OPENGPA_PM_INTERVAL_NS sets the interval (default
// 100000): tools/device/run_gpu_tests.sh runs the test at several, the smallest that passes is the one the
// hardware sustains. A second test puts the samples' clock beside the host's clocks (FIGURE pm_clock).
#include <gtest/gtest.h>
#include <dlfcn.h>
#include <time.h>

#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include "pm_sampling/pm_sampler.h"

namespace {

__device__ unsigned long long g_first = ~0ull, g_last = 0;

__device__ unsigned long long GlobalTimer() {
    unsigned long long t;
    asm volatile("mov.u64 %0, %globaltimer;" : "=l"(t));
    return t;
}

__global__ void ReadTimer(unsigned long long* out) { *out = GlobalTimer(); }

uint64_t Now(clockid_t id) {
    timespec t{};
    clock_gettime(id, &t);
    return uint64_t(t.tv_sec) * 1000000000ull + uint64_t(t.tv_nsec);
}

// %globaltimer minus `clock`, from the tightest of `tries` host readings around a kernel that reads the timer.
long long TimerMinus(clockid_t clock, unsigned long long* timer, long long* bracket, int tries = 7) {
    long long best = 0;
    *bracket = LLONG_MAX;
    for (int i = 0; i < tries; ++i) {
        const uint64_t before = Now(clock);
        ReadTimer<<<1, 1>>>(timer);
        cudaDeviceSynchronize();
        const uint64_t after = Now(clock);
        unsigned long long gpu = 0;
        cudaMemcpy(&gpu, timer, sizeof gpu, cudaMemcpyDeviceToHost);
        if ((long long)(after - before) < *bracket) {
            *bracket = (long long)(after - before);
            best = (long long)gpu - (long long)(before + (after - before) / 2);
        }
    }
    return best;
}

uint32_t SamplesPerImage() {
    const char* text = std::getenv("OPENGPA_PM_SAMPLES_PER_IMAGE");
    return text && *text ? static_cast<uint32_t>(std::strtoul(text, nullptr, 10)) : gpa::pm_sampling::SamplerOptions{}.samplesPerImage;
}

uint64_t IntervalNs() {
    const char* text = std::getenv("OPENGPA_PM_INTERVAL_NS");
    return text && *text ? std::strtoull(text, nullptr, 10) : 100000;
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
    unsigned long long* timer = nullptr;
    ASSERT_EQ(cudaMalloc(&data, bytes), cudaSuccess);
    ASSERT_EQ(cudaMalloc(&timer, sizeof *timer), cudaSuccess);
    ASSERT_EQ(cudaMemset(data, 0, bytes), cudaSuccess);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);

    std::unique_ptr<gpa::pm_sampling::Sampler> sampler;
    gpa::pm_sampling::SamplerOptions options;
    options.intervalNs = IntervalNs();
    options.samplesPerImage = SamplesPerImage();
    const gpa::Outcome started = gpa::pm_sampling::Sampler::Start(*api, 0, gpa::pm_sampling::DefaultMetrics(), options, &sampler);
    ASSERT_TRUE(started.ok()) << started.reason();
    for (const std::string& why : sampler->plan().leftOut) std::printf("left out: %s\n", why.c_str());
    long long bracket = 0;
    const long long timerMinusMonotonic = TimerMinus(CLOCK_MONOTONIC, timer, &bracket);
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    Write<<<1056, 512>>>(data, bytes / sizeof(uint4), repeats);
    while (cudaStreamQuery(nullptr) == cudaErrorNotReady) {
        const gpa::Outcome drained = sampler->Drain();
        ASSERT_TRUE(drained.ok()) << drained.reason();
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    const gpa::Outcome stopped = sampler->Stop();
    ASSERT_TRUE(stopped.ok()) << stopped.reason();
    unsigned long long firstTimer = 0, lastTimer = 0;
    ASSERT_EQ(cudaMemcpyFromSymbol(&firstTimer, g_first, sizeof firstTimer), cudaSuccess);
    ASSERT_EQ(cudaMemcpyFromSymbol(&lastTimer, g_last, sizeof lastTimer), cudaSuccess);
    cudaFree(data);
    cudaFree(timer);
    // The kernel's start and end on CLOCK_MONOTONIC.
    const uint64_t first = firstTimer - timerMinusMonotonic, last = lastTimer - timerMinusMonotonic;

    const auto& metrics = sampler->plan().metrics;
    const size_t write = std::find(metrics.begin(), metrics.end(), "dram__bytes_write.sum") - metrics.begin();
    ASSERT_LT(write, metrics.size());
    const auto& samples = sampler->samples();
    ASSERT_GT(samples.size(), 50u);
    double total = 0, inside = 0;
    size_t dropped = 0, long_ = 0;
    std::vector<uint64_t> lengths;
    uint64_t busyFirst = ~0ull, busyLast = 0;  // samples with more than a tenth of the peak sample's writes
    double peak = 0;
    for (const auto& sample : samples) peak = std::max(peak, sample.values[write]);
    for (const auto& sample : samples) lengths.push_back(sample.gpuEndNs - sample.gpuStartNs);
    std::sort(lengths.begin(), lengths.end());
    const uint64_t interval = lengths[lengths.size() / 2];
    for (const auto& sample : samples) {
        const uint64_t start = sampler->ToMonotonicNs(sample.gpuStartNs), end = sampler->ToMonotonicNs(sample.gpuEndNs);
        total += sample.values[write];
        if (end > first && start < last) inside += sample.values[write];
        dropped += sample.droppedBefore ? 1 : 0;
        if (end - start > 4 * interval) {
            if (long_++ < 3) {
                std::printf("FIGURE pm_sampling long_sample start=%lld end=%lld (ns from the kernel's start) writes=%.0f\n",
                            (long long)(start - first), (long long)(end - first), sample.values[write]);
            }
        }
        if (sample.values[write] > peak / 10) {
            busyFirst = std::min(busyFirst, start);
            busyLast = std::max(busyLast, end);
        }
    }
    const double expected = double(bytes) * repeats;
    const gpa::pm_sampling::DecodeStatistics& stats = sampler->statistics();
    std::printf("FIGURE pm_sampling interval_ns=%llu samples=%zu median_interval_ns=%llu dropped=%zu long=%zu "
                "decodes=%llu full_images=%llu overflows=%llu long_dropped=%llu holes=%llu restarts=%llu per_image=%u image_bytes=%zu "
                "decode_ms=%.3f evaluate_ms=%.3f initialize_ms=%.3f dram_write_sum=%.0f expected=%.0f ratio=%.4f "
                "inside_kernel=%.0f kernel_ns=%llu busy_from=%lld busy_to=%lld (ns from the kernel's start/end; "
                "timer offset read within %lld ns)\n",
                (unsigned long long)options.intervalNs, samples.size(), (unsigned long long)interval, dropped, long_,
                (unsigned long long)stats.decodes, (unsigned long long)stats.fullImages,
                (unsigned long long)stats.overflows, (unsigned long long)stats.longDropped, (unsigned long long)stats.holes,
                (unsigned long long)stats.restarts, options.samplesPerImage,
                stats.imageBytes, stats.decodeNs / 1e6, stats.evaluateNs / 1e6, stats.initializeNs / 1e6, total, expected, total / expected, inside,
                (unsigned long long)(last - first), (long long)(busyFirst - first), (long long)(busyLast - last), bracket);
    for (size_t m = 0; m < metrics.size(); ++m) {
        double sum = 0, most = 0;
        for (const auto& sample : samples) {
            sum += sample.values[m];
            most = std::max(most, sample.values[m]);
        }
        std::printf("FIGURE pm_sampling metric=%s sum=%.4g max=%.4g\n", metrics[m].c_str(), sum, most);
    }
    // Where the kernel begins and ends, the samples see it: within two intervals, or 20 us for the timer offset's
    // own uncertainty, whichever is more.
    const long long slack = std::max<long long>(2 * (long long)interval, 20000 + bracket / 2);
    EXPECT_EQ(dropped, 0u);
    EXPECT_EQ(long_, 0u);
    EXPECT_NEAR(double(interval), double(options.intervalNs), 0.1 * double(options.intervalNs));
    EXPECT_NEAR(total / expected, 1.0, 0.05);
    EXPECT_NEAR(inside / expected, 1.0, 0.05);
    EXPECT_LE(std::llabs((long long)(busyFirst - first)), slack);
    EXPECT_LE(std::llabs((long long)(busyLast - last)), slack);
}

// Where the samples' timestamps lie against the host's clocks: the GPU's %globaltimer, CUPTI's own timestamp
// and the samples beside CLOCK_REALTIME and CLOCK_MONOTONIC. Says which clock the engine converts from.
TEST(PmSampler, SampleClockAgainstHostClocks) {
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) GTEST_SKIP() << "no CUDA device";
    ASSERT_EQ(cudaSetDevice(0), cudaSuccess);
    ASSERT_EQ(cudaFree(nullptr), cudaSuccess);
    const gpa::cuda::CuptiApi* api = nullptr;
    ASSERT_TRUE(gpa::cuda::LoadCupti(&api).ok());
    unsigned long long* timer = nullptr;
    ASSERT_EQ(cudaMalloc(&timer, sizeof *timer), cudaSuccess);
    std::unique_ptr<gpa::pm_sampling::Sampler> sampler;
    gpa::pm_sampling::SamplerOptions options;
    ASSERT_TRUE(gpa::pm_sampling::Sampler::Start(*api, 0, {"gr__cycles_active.avg.pct_of_peak_sustained_elapsed"},
                                                 options, &sampler).ok());
    using GetTimestamp = int (*)(uint64_t*);
    void* cupti = dlopen(api->path.c_str(), RTLD_NOW | RTLD_NOLOAD);
    auto cuptiGetTimestamp = cupti ? reinterpret_cast<GetTimestamp>(dlsym(cupti, "cuptiGetTimestamp")) : nullptr;
    long long realBracket = 0, monoBracket = 0;
    const long long timerMinusReal = TimerMinus(CLOCK_REALTIME, timer, &realBracket);
    const long long timerMinusMono = TimerMinus(CLOCK_MONOTONIC, timer, &monoBracket);
    uint64_t cuptiNow = 0;
    const uint64_t real = Now(CLOCK_REALTIME);
    if (cuptiGetTimestamp) cuptiGetTimestamp(&cuptiNow);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    const uint64_t realAtStop = Now(CLOCK_REALTIME), monoAtStop = Now(CLOCK_MONOTONIC);
    ASSERT_TRUE(sampler->Stop().ok());
    const uint64_t monoAfterStop = Now(CLOCK_MONOTONIC);
    ASSERT_FALSE(sampler->samples().empty());
    const auto& last = sampler->samples().back();
    std::printf("FIGURE pm_clock globaltimer-realtime=%lld (within %lld) globaltimer-monotonic=%lld (within %lld) "
                "cupti-realtime=%lld last_sample_end-realtime_at_stop=%lld last_sample_end_monotonic-monotonic_at_stop=%lld "
                "samples=%zu\n",
                timerMinusReal, realBracket, timerMinusMono, monoBracket, (long long)(cuptiNow - real),
                (long long)(last.gpuEndNs - realAtStop), (long long)(sampler->ToMonotonicNs(last.gpuEndNs) - monoAtStop),
                sampler->samples().size());
    // On CLOCK_MONOTONIC the last sample ends while Stop() ran (it drains before it stops: 1 ms past the reading
    // before it, on an H200), and not more than 5 ms before it was called; a sample on another clock would be
    // seconds or years off.
    const uint64_t lastEnd = sampler->ToMonotonicNs(last.gpuEndNs);
    EXPECT_LE(lastEnd, monoAfterStop + 20000);
    EXPECT_GE(lastEnd + 5000000, monoAtStop);
    cudaFree(timer);
}

}  // namespace
