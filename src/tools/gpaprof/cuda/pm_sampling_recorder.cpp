#include "tools/gpaprof/cuda/pm_sampling_recorder.h"

#include <algorithm>
#include <chrono>
#include <cstdio>

#include <unistd.h>

#include "backends/cuda/cuda_driver_loader.h"
#include "backends/cuda/cupti_loader.h"
#include "tools/gpaprof/cuda/cuda_part.h"  // Internal
#include "tools/gpaprof/spool/spool_records.h"

namespace gpaprof::cuda {
namespace {

// How often the samplers' hardware buffers are emptied: at the smallest interval (docs/pm_sampling.md) and the
// default set, 64 MiB of buffer hold far more than this.
// Shorter for short intervals: 200 intervals, between 2 and 20 ms.
std::chrono::nanoseconds DrainPeriod(uint64_t intervalNs) {
    return std::chrono::nanoseconds(std::clamp<uint64_t>(200 * intervalNs, 2000000, 20000000));
}
// How long the application's first context on a device waits for its sampler to start.
constexpr auto kStartWait = std::chrono::seconds(3);

}  // namespace

PmSamplingRecorder::PmSamplingRecorder(agent::Agent* agent, uint64_t intervalNs, std::vector<std::string> metrics)
    : agent_(agent), intervalNs_(intervalNs), metrics_(std::move(metrics)), owner_(getpid()) {
    if (metrics_.empty()) metrics_ = gpa::pm_sampling::DefaultMetrics();
    thread_ = std::thread([this] { Run(); });
}

PmSamplingRecorder::~PmSamplingRecorder() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        finishing_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
}

void PmSamplingRecorder::UseDevice(uint32_t ordinal) {
    if (getpid() != owner_) return;  // no thread to start it in a forked child
    std::unique_lock<std::mutex> lock(mutex_);
    if (finishing_ || !named_.insert(ordinal).second) return;
    pending_.push_back(ordinal);
    wake_.notify_all();
    // The application waits until the sampler runs, so that its first work on the device is in the samples;
    // not forever: should CUPTI hold a lock of its own in this callback that the start needs, the start goes on
    // after the application does.
    const auto begun = std::chrono::steady_clock::now();
    started_.wait_for(lock, kStartWait, [this, ordinal] { return finishing_ || settled_.count(ordinal) > 0; });
    statistics_.waitedNs += static_cast<uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - begun).count());
}

void PmSamplingRecorder::Run() {
    // Every CUDA call of this thread (the sampler's start: cuDeviceGet, cuDeviceGetName) is gpaprof's own, not the
    // application's: without this, --pm-sampling added two calls to the trace on a thread the application never had.
    const injection::Internal internal;
    std::unique_lock<std::mutex> lock(mutex_);
    while (!finishing_) {
        wake_.wait_for(lock, DrainPeriod(intervalNs_), [this] { return finishing_ || !pending_.empty(); });
        if (finishing_) break;
        StartPending();
        DrainAll();
    }
}

void PmSamplingRecorder::StartPending() {
    if (pending_.empty()) return;
    const gpa::cuda::CuptiApi* cupti = nullptr;
    const gpa::Outcome loaded = gpa::cuda::LoadCupti(&cupti);
    const gpa::cuda::DriverApi* driver = nullptr;
    gpa::cuda::LoadDriver(&driver);
    for (const uint32_t ordinal : std::exchange(pending_, {})) {
        struct Settled {  // the device's start has ended, well or not: UseDevice stops waiting
            PmSamplingRecorder* recorder;
            uint32_t ordinal;
            ~Settled() {
                recorder->settled_.insert(ordinal);
                recorder->started_.notify_all();
            }
        } settled{this, ordinal};
        if (!loaded.ok()) {
            agent_->Note("--pm-sampling: device " + std::to_string(ordinal) + " is not sampled: " + loaded.reason());
            continue;
        }
        gpa::pm_sampling::SamplerOptions options;
        options.intervalNs = intervalNs_;
        auto device = std::make_unique<Device>();
        device->ordinal = ordinal;
        const gpa::Outcome started =
            gpa::pm_sampling::Sampler::Start(*cupti, static_cast<int>(ordinal), metrics_, options, &device->sampler);
        if (!started.ok()) {
            agent_->Note("--pm-sampling: device " + std::to_string(ordinal) + " is not sampled: " + started.reason());
            continue;
        }
        spool::PmDeviceRecord record;
        record.device = ordinal;
        char name[256] = {};
        CUdevice handle = 0;
        if (driver && driver->cuDeviceGet(&handle, static_cast<int>(ordinal)) == CUDA_SUCCESS &&
            driver->cuDeviceGetName(name, sizeof name, handle) == CUDA_SUCCESS) {
            record.name = name;
        }
        statistics_.startSteps += "device " + std::to_string(ordinal) + ":";
        for (const auto& [step, ns] : device->sampler->startSteps()) {
            char text[96];
            std::snprintf(text, sizeof text, " %s %.1f ms,", step, ns / 1e6);
            statistics_.startSteps += text;
        }
        statistics_.startSteps.back() = ';';
        const gpa::pm_sampling::Plan& plan = device->sampler->plan();
        record.chip = plan.chip;
        record.intervalNs = intervalNs_;
        record.metrics = plan.metrics;
        record.leftOut = plan.leftOut;
        agent_->Write(record);
        devices_.push_back(std::move(device));
    }
}

void PmSamplingRecorder::Drain(Device* device) {
    const auto begun = std::chrono::steady_clock::now();
    gpa::pm_sampling::Sampler& sampler = *device->sampler;
    const gpa::Outcome drained = sampler.Drain();
    std::vector<gpa::pm_sampling::Sample> samples = sampler.TakeSamples();
    std::string lines;
    for (const gpa::pm_sampling::Sample& sample : samples) {
        const uint64_t start = sampler.ToMonotonicNs(sample.gpuStartNs), end = sampler.ToMonotonicNs(sample.gpuEndNs);
        if (end < start || start < device->lastEndNs) continue;  // never made up: a sample out of order is left out
        device->lastEndNs = end;
        // Non-finite values (a ratio over an empty sample) are written as NA.
        spool::EncodePmSampleLine(device->ordinal, start, end, sample.droppedBefore, false,
                                  sample.values, &lines);
        if (lines.size() > (1u << 20)) {
            agent_->WriteEncoded(lines);
            lines.clear();
        }
    }
    if (!lines.empty()) agent_->WriteEncoded(lines);
    statistics_.samples += samples.size();
    statistics_.drainNs += static_cast<uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - begun).count());
    if (!drained.ok()) agent_->Note("--pm-sampling: device " + std::to_string(device->ordinal) + ": " + drained.reason());
}

void PmSamplingRecorder::DrainAll() {
    for (auto& device : devices_) Drain(device.get());
}

void PmSamplingRecorder::Finish() {
    // A child forked after the samplers started (a data loader's worker) has neither the thread nor the samplers:
    // joining a thread of the parent's would fail, and the device's samples are the parent's to write.
    if (getpid() != owner_) return;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (finished_) return;
        finished_ = true;
        finishing_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
    std::lock_guard<std::mutex> lock(mutex_);
    StartPending();
    for (auto& device : devices_) {
        const gpa::Outcome stopped = device->sampler->Stop();
        if (!stopped.ok()) agent_->Note("--pm-sampling: device " + std::to_string(device->ordinal) + ": " + stopped.reason());
        Drain(device.get());
        const gpa::pm_sampling::DecodeStatistics& s = device->sampler->statistics();
        statistics_.overflows += s.overflows;
        statistics_.decodes += s.decodes;
        statistics_.decodeNs += s.decodeNs;
        statistics_.evaluateNs += s.evaluateNs;
        statistics_.initializeNs += s.initializeNs;
        statistics_.longDropped += s.longDropped;
        statistics_.holes += s.holes;
        statistics_.restarts += s.restarts;
        statistics_.withheld += s.withheld;
        if (s.withheld > 0) {
            agent_->Note("--pm-sampling: device " + std::to_string(device->ordinal) + ": " + std::to_string(s.withheld) +
                         " reading(s) of a percentage of peak above 101% were written as NA: no device reads them, and the "
                         "sampler gave such readings now and then (docs/pm_sampling.md); the other values of those "
                         "samples may be off too");
        }
        if (s.restarts > 0) {
            agent_->Note("--pm-sampling: device " + std::to_string(device->ordinal) + ": decoding the samples fell " +
                         "behind the device " + std::to_string(s.restarts) + " time(s) (about 70 us of host time per " +
                         "sample of the default set): the sampler was stopped and started again, and the sample after " +
                         "each hole is marked dropped-before (a longer interval or fewer metrics avoid it)");
        }
        if (s.overflows > 0) {
            agent_->Note("--pm-sampling: device " + std::to_string(device->ordinal) + ": samples were overwritten in the "
                         "hardware buffer before gpaprof read them, " + std::to_string(s.overflows) + " time(s); the "
                         "sample after each gap is marked dropped-before (a longer interval or fewer metrics lose none)");
        }
        // Left alive on purpose (see the header): disabling PM sampling would finalize CUPTI.
        static_cast<void>(device->sampler.release());
    }
}

PmSamplingRecorder::Statistics PmSamplingRecorder::statistics() {
    std::lock_guard<std::mutex> lock(mutex_);
    return statistics_;
}

}  // namespace gpaprof::cuda
