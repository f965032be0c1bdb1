#include "pm_sampling/device_sampling.h"

#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <thread>

#include "backends/cuda/cuda_driver_loader.h"
#include "backends/cuda/cupti_loader.h"
#include "pm_sampling/pm_sampler.h"

namespace gpa::pm_sampling {

namespace {

using Uuid = std::array<uint8_t, 16>;
using Clock = std::chrono::steady_clock;

std::string Hex(const Uuid& uuid) {
    std::string text;
    char byte[4];
    for (size_t i = 0; i < uuid.size(); ++i) {
        std::snprintf(byte, sizeof byte, "%02x", uuid[i]);
        text += byte;
        if (i == 3 || i == 5 || i == 7 || i == 9) text += '-';
    }
    return text;
}

// 200 intervals, between 2 and 20 ms (as gpaprof drains): the ring holds far more.
std::chrono::nanoseconds DrainPeriod(uint64_t intervalNs) {
    return std::chrono::nanoseconds(std::clamp<uint64_t>(200 * intervalNs, 2000000, 20000000));
}

uint64_t IntervalFromEnvironment(uint64_t fallback) {
    const char* text = std::getenv("OPENGPA_PM_INTERVAL_NS");
    if (text == nullptr || *text == '\0') return fallback;
    char* end = nullptr;
    const unsigned long long value = std::strtoull(text, &end, 10);
    // Below 20 us decoding does not keep up (docs/pm_sampling.md); nonsense falls back to the default.
    if (end == text || *end != '\0' || value < 20000 || value > 1000000000ull) return fallback;
    return value;
}

// The library that holds this code (the Vulkan layer, libGPUPerfAPIGL) stays loaded once a drain thread runs in
// it: the Vulkan loader unloads layers at vkDestroyInstance, and the thread would then run unmapped code.
void PinThisLibrary() {
    Dl_info info{};
    if (dladdr(reinterpret_cast<void*>(&PinThisLibrary), &info) != 0 && info.dli_fname != nullptr) {
        dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);
    }
}

class RunningSampling final : public DeviceSampling {
public:
    RunningSampling(std::unique_ptr<Sampler> sampler, int ordinal, uint32_t clockKHz, uint64_t intervalNs, uint64_t retentionNs)
        : sampler_(std::move(sampler)),
          ordinal_(ordinal),
          clockKHz_(clockKHz),
          intervalNs_(intervalNs),
          history_(sampler_->plan().metrics, intervalNs, retentionNs) {}

    void StartThread() { thread_ = std::thread([this] { Run(); }); }

    // At process exit: the thread ends and the sampler stops; it is never disabled (that finalizes CUPTI, which
    // the application may still use in its own exit) nor destroyed.
    void Finish() {
        {
            std::lock_guard<std::mutex> lock(wakeMutex_);
            finishing_ = true;
        }
        wake_.notify_all();
        if (thread_.joinable()) thread_.join();
        std::lock_guard<std::mutex> lock(samplerMutex_);
        if (sampler_) sampler_->Stop();
        static_cast<void>(sampler_.release());
    }

    const std::vector<std::string>& metrics() const override { return history_.metrics(); }
    uint64_t intervalNs() const override { return intervalNs_; }
    std::string chip() const override { return sampler_ ? sampler_->plan().chip : std::string(); }
    int cudaOrdinal() const override { return ordinal_; }
    uint32_t gpuClockKHz() const override { return clockKHz_; }

    WindowResult Window(uint64_t beginNs, uint64_t endNs, std::chrono::milliseconds timeout,
                        const WindowRules& rules) override {
        std::string problem;
        if (!WaitFor(endNs, timeout, &problem)) {
            WindowResult refused;
            refused.why = problem;
            refused.values.assign(metrics().size(), std::nullopt);
            refused.valueWhy.assign(metrics().size(), std::string());
            return refused;
        }
        std::lock_guard<std::mutex> lock(historyMutex_);
        return history_.Window(beginNs, endNs, rules);
    }

    std::vector<WindowSample> Samples(uint64_t beginNs, uint64_t endNs, std::chrono::milliseconds timeout,
                                      bool* complete) override {
        std::string problem;
        const bool reached = WaitFor(endNs, timeout, &problem);
        std::lock_guard<std::mutex> lock(historyMutex_);
        if (complete) *complete = reached && history_.Window(beginNs, endNs).quality != WindowQuality::Refused;
        return history_.Samples(beginNs, endNs);
    }

private:
    void Run() {
        std::unique_lock<std::mutex> lock(wakeMutex_);
        while (!finishing_) {
            wake_.wait_for(lock, DrainPeriod(intervalNs_), [this] { return finishing_; });
            if (finishing_) break;
            lock.unlock();
            DrainNow();
            lock.lock();
        }
    }

    // Decodes what the device has sampled into the history. Returns the newest sample's end.
    uint64_t DrainNow() {
        std::lock_guard<std::mutex> samplerLock(samplerMutex_);
        if (!sampler_ || !failure_.empty()) return NewestEnd();
        const Outcome drained = sampler_->Drain();
        std::vector<Sample> samples = sampler_->TakeSamples();
        std::vector<WindowSample> converted;
        converted.reserve(samples.size());
        uint64_t gapFrom = 0, gapTo = 0;
        for (Sample& sample : samples) {
            WindowSample out;
            out.startNs = sampler_->ToMonotonicNs(sample.gpuStartNs);
            out.endNs = sampler_->ToMonotonicNs(sample.gpuEndNs);
            out.droppedBefore = sample.droppedBefore;
            // Consecutive samples meet end to start on the GPU's clock; on CLOCK_MONOTONIC they may overlap by the
            // jitter of the clock offset read at each drain (Sampler::ReadClocks), and the drains come often while a
            // results call waits. Such a sample starts where the last ended. (Skipped, it left a hole of one interval
            // and the windows around it refused: the Vulkan and GL GPU tests on an H200, 2026-11-28.) A sample wholly
            // before the last one's end is out of order: never made up, left out.
            if (!JoinToPrevious(lastEndNs_, intervalNs_, &out)) continue;
            if (sample.droppedBefore && lastEndNs_ != 0) gapFrom = lastEndNs_, gapTo = out.startNs;
            lastEndNs_ = out.endNs;
            out.values.reserve(sample.values.size());
            for (double value : sample.values) {
                out.values.push_back(value == value ? std::optional<double>(value) : std::nullopt);  // NaN: unknown
            }
            converted.push_back(std::move(out));
        }
        std::lock_guard<std::mutex> historyLock(historyMutex_);
        if (gapTo > gapFrom) history_.MarkGap(gapFrom, gapTo);
        history_.Append(std::move(converted));
        if (!drained.ok()) failure_ = "PM sampling of CUDA device " + std::to_string(ordinal_) + " failed: " + drained.reason();
        return history_.NewestEndNs();
    }

    uint64_t NewestEnd() {
        std::lock_guard<std::mutex> lock(historyMutex_);
        return history_.NewestEndNs();
    }

    // Until samples reaching endNs are decoded, or the timeout.
    bool WaitFor(uint64_t endNs, std::chrono::milliseconds timeout, std::string* problem) {
        const auto deadline = Clock::now() + timeout;
        while (true) {
            if (NewestEnd() >= endNs) return true;
            const uint64_t newest = DrainNow();
            if (newest >= endNs) return true;
            {
                std::lock_guard<std::mutex> lock(samplerMutex_);
                if (!failure_.empty()) return *problem = failure_, false;
            }
            if (Clock::now() >= deadline) {
                *problem = std::string(kSamplesLate) + " within " + std::to_string(timeout.count()) +
                           " ms (the newest decoded ends " +
                           (newest == 0 ? std::string("nowhere: none yet")
                                        : std::to_string(endNs > newest ? (endNs - newest) / 1000 : 0) + " us before it") +
                           ")";
                return false;
            }
            std::this_thread::sleep_for(std::chrono::nanoseconds(std::clamp<uint64_t>(intervalNs_, 50000, 1000000)));
        }
    }

    std::unique_ptr<Sampler> sampler_;
    const int ordinal_;
    const uint32_t clockKHz_;
    const uint64_t intervalNs_;
    std::mutex samplerMutex_;  // the sampler, lastEndNs_, failure_
    uint64_t lastEndNs_ = 0;
    std::string failure_;
    std::mutex historyMutex_;
    SampleHistory history_;
    std::mutex wakeMutex_;
    std::condition_variable wake_;
    bool finishing_ = false;
    std::thread thread_;
};

// One entry per GPU UUID asked for, kept for the process's life (never destroyed: a drain thread may run at exit).
struct Entry {
    Outcome outcome;
    std::shared_ptr<RunningSampling> sampling;
};

struct Registry {
    std::mutex mutex;
    std::map<Uuid, Entry> entries;
    pid_t owner = getpid();
};

Registry& TheRegistry() {
    static Registry* registry = new Registry();
    return *registry;
}

void FinishAll() {
    Registry& registry = TheRegistry();
    if (getpid() != registry.owner) return;  // a forked child has no threads of the parent's
    std::lock_guard<std::mutex> lock(registry.mutex);
    for (auto& [uuid, entry] : registry.entries) {
        if (entry.sampling) entry.sampling->Finish();
    }
}

Outcome Start(const Uuid& uuid, const DeviceSamplingOptions& options, std::shared_ptr<RunningSampling>* made) {
    const cuda::DriverApi* driver = nullptr;
    if (Outcome o = cuda::LoadDriver(&driver); !o.ok()) return Fail(o.status(), "no CUDA driver: " + o.reason());
    const cuda::CuptiApi* cupti = nullptr;
    if (Outcome o = cuda::LoadCupti(&cupti); !o.ok()) return Fail(o.status(), "CUPTI not found: " + o.reason());
    if (!cupti->pmSampling) {
        return Fail(GPA_STATUS_ERROR_DRIVER_NOT_SUPPORTED,
                    "the CUPTI at " + cupti->path + " has no PM sampling (cupti_pmsampling.h: CUDA 12.6 or newer)");
    }
    int count = 0;
    if (CUresult r = driver->cuDeviceGetCount(&count); r != CUDA_SUCCESS) return driver->Failure("cuDeviceGetCount", r);
    int ordinal = -1;
    std::string seen;
    CUdevice device = 0;
    for (int i = 0; i < count && ordinal < 0; ++i) {
        CUuuid cuUuid{};
        if (driver->cuDeviceGet(&device, i) != CUDA_SUCCESS || driver->cuDeviceGetUuid(&cuUuid, device) != CUDA_SUCCESS) continue;
        Uuid other{};
        std::memcpy(other.data(), cuUuid.bytes, other.size());
        if (other == uuid) ordinal = i;
        seen += (seen.empty() ? "" : ", ") + Hex(other);
    }
    if (ordinal < 0) {
        return Fail(GPA_STATUS_ERROR_HARDWARE_NOT_SUPPORTED,
                    "no CUDA device with this UUID (GPU-" + Hex(uuid) + "; CUDA has " + std::to_string(count) +
                        " device(s)" + (seen.empty() ? std::string() : ": GPU-" + seen) +
                        "; not an NVIDIA GPU, or hidden from CUDA by CUDA_VISIBLE_DEVICES)");
    }
    // PM sampling is set up through a context on the device (CUPTI's tests and gpaprof have one): the primary
    // context is retained for the process's life, as a CUDA runtime program's would be.
    CUcontext context = nullptr;
    if (CUresult r = driver->cuDevicePrimaryCtxRetain(&context, device); r != CUDA_SUCCESS) {
        return driver->Failure("cuDevicePrimaryCtxRetain (PM sampling needs a context on the device)", r,
                               GPA_STATUS_ERROR_HARDWARE_NOT_SUPPORTED);
    }
    SamplerOptions samplerOptions;
    samplerOptions.intervalNs = IntervalFromEnvironment(options.intervalNs);
    std::unique_ptr<Sampler> sampler;
    Outcome started = Outcome::Ok();
    {
        cuda::ScopedContext current(*driver, context);
        if (!current.outcome().ok()) return current.outcome();
        started = Sampler::Start(*cupti, ordinal, GraphicsMetrics(), samplerOptions, &sampler);
    }
    if (!started.ok()) {
        driver->cuDevicePrimaryCtxRelease(device);
        return Fail(started.status(), "PM sampling could not start on CUDA device " + std::to_string(ordinal) + ": " +
                                          started.reason());
    }
    int clockKHz = 0;
    if (driver->cuDeviceGetAttribute(&clockKHz, CU_DEVICE_ATTRIBUTE_CLOCK_RATE, device) != CUDA_SUCCESS || clockKHz < 0) clockKHz = 0;
    *made = std::make_shared<RunningSampling>(std::move(sampler), ordinal, static_cast<uint32_t>(clockKHz),
                                              samplerOptions.intervalNs, options.retentionNs);
    PinThisLibrary();
    (*made)->StartThread();
    return Outcome::Ok();
}

}  // namespace

Outcome DeviceSampling::ForDevice(const std::array<uint8_t, 16>& uuid, const DeviceSamplingOptions& options,
                                  std::shared_ptr<DeviceSampling>* sampling) {
    Registry& registry = TheRegistry();
    std::lock_guard<std::mutex> lock(registry.mutex);
    if (getpid() != registry.owner) {
        return Fail(GPA_STATUS_ERROR_FAILED, "this process was forked from the one that started PM sampling: the "
                                             "sampler and its thread are the parent's");
    }
    auto found = registry.entries.find(uuid);
    if (found == registry.entries.end()) {
        Entry entry;
        std::shared_ptr<RunningSampling> made;
        entry.outcome = Start(uuid, options, &made);
        entry.sampling = made;
        static const bool registered = std::atexit(FinishAll) == 0;
        static_cast<void>(registered);
        found = registry.entries.emplace(uuid, std::move(entry)).first;
    }
    if (!found->second.outcome.ok()) return found->second.outcome;
    *sampling = found->second.sampling;
    return Outcome::Ok();
}

}  // namespace gpa::pm_sampling
