// Device-level PM sampling of one GPU (CUPTI's cupti_pmsampling.h): the device's performance monitors read every
// interval into a hardware buffer, decoded into timestamped samples of a Plan's metrics. Device-wide: every
// context's and every process's work on the GPU is in the samples. Needs the CUDA driver initialised (cuInit).
//
// The hardware buffer is a ring (CUPTI's KEEP_LATEST mode) drained by Drain() (call it often enough that the
// ring does not wrap: on GH100 a sample of the default set takes about 19 KB of it, so 256 MiB hold about 14,000
// samples, 1.4 s at 100 us) and at Stop(). When decoding falls behind the device, the sampler is stopped, drained
// and started again (a hole in the samples, marked). Samples missing for any reason are not made up: the next
// sample kept says so (droppedBefore). (In KEEP_OLDEST mode the buffer does not take new records once
// it has filled, even after they were decoded: measured on an H200, 2026-11-28.)
#pragma once

#include <cstdint>
#include <future>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "backends/cuda/cupti_host.h"
#include "backends/cuda/cupti_loader.h"
#include "core/outcome.h"
#include "pm_sampling/pm_sampling_plan.h"

namespace gpa::pm_sampling {

struct Sample {
    uint64_t gpuStartNs = 0, gpuEndNs = 0;  // the GPU's timer (the clock of CUPTI's activity records' device times)
    std::vector<double> values;             // Plan::metrics' values over the sample
    bool droppedBefore = false;             // samples before this one were lost (the hardware buffer filled)
};

// What decoding met, for the reports of a run (a buffer that overflowed, images that filled).
struct DecodeStatistics {
    uint64_t decodes = 0;         // cuptiPmSamplingDecodeData calls
    uint64_t fullImages = 0;      // decodes that stopped because the counter data image was full
    uint64_t overflows = 0;       // decodes that said the hardware buffer had overflowed (samples lost)
    uint64_t samples = 0;         // samples taken out
    uint64_t longDropped = 0;     // samples longer than two intervals, left out (their counts are not the span's)
    uint64_t holes = 0;           // samples that start after a hole in the samples
    uint64_t restarts = 0;        // times the sampler was stopped and started again: decoding fell behind
    uint64_t withheld = 0;        // readings no device can give, made NaN (impossible_values.h)
    uint64_t decodeNs = 0, evaluateNs = 0, initializeNs = 0;  // host time in each step
    size_t imageBytes = 0;        // the counter data image
};

struct SamplerOptions {
    uint64_t intervalNs = 100000;                 // 100 us
    size_t hardwareBufferBytes = 256ull << 20;    // the ring the device writes raw samples into until they are decoded
    uint32_t samplesPerImage = 1024;              // decoded at a time
};

class Sampler {
public:
    // Enables PM sampling on CUDA device `deviceIndex`, plans `metrics` for its chip (Plan's rules) and starts.
    static Outcome Start(const cuda::CuptiApi& api, int deviceIndex, const std::vector<std::string>& metrics,
                         const SamplerOptions& options, std::unique_ptr<Sampler>* sampler);
    ~Sampler();  // stops and disables, dropping what was not drained
    Sampler(const Sampler&) = delete;
    Sampler& operator=(const Sampler&) = delete;

    const Plan& plan() const { return plan_; }
    // Decodes what the hardware buffer holds into samples().
    Outcome Drain();
    // Stops sampling and drains the rest.
    Outcome Stop();
    const std::vector<Sample>& samples() const { return samples_; }
    // Hands the samples decoded so far to the caller, leaving none (for a reader that writes them out as it goes).
    std::vector<Sample> TakeSamples() { return std::exchange(samples_, {}); }
    const DecodeStatistics& statistics() const { return statistics_; }
    // How long each step of Start took (host time, in order): what an application waiting for the start waits on.
    const std::vector<std::pair<const char*, uint64_t>>& startSteps() const { return startSteps_; }
    int deviceIndex() const { return deviceIndex_; }

    // A sample's time on CLOCK_MONOTONIC (the clock of gpaprof's files). CUPTI stamps samples on its own clock,
    // which is CLOCK_REALTIME's on Linux (measured on H200s, docs/pm_sampling.md); the offset between the two is
    // read again at every Drain, so a step of the wall clock moves only the samples after it. A sample whose time
    // is already nearer CLOCK_MONOTONIC than CLOCK_REALTIME (a CUPTI that stamps with the activity API's
    // timestamp callback) is kept as it is.
    uint64_t ToMonotonicNs(uint64_t sampleNs) const;

private:
    // An image's completed samples: their times and flags taken on the draining thread, their values evaluated
    // there or on a thread of their own (Drain).
    struct Evaluation {
        std::vector<size_t> indices;  // in the image
        std::vector<Sample> samples;
        uint64_t evaluateNs = 0, initializeNs = 0, withheld = 0;
        std::future<Outcome> done;    // when evaluated on a thread of its own
    };

    Sampler(const cuda::CuptiApi& api) : api_(api) {}
    void ReadClocks();
    Outcome InitializeImage(std::vector<uint8_t>& image, uint64_t* ns);
    Outcome Collect(const std::vector<uint8_t>& image, Evaluation* evaluation);  // the completed samples' times, flags
    Outcome Evaluate(std::vector<uint8_t>& image, Evaluation* evaluation);       // their values; a fresh image after
    Outcome Finish(Evaluation* evaluation, const Outcome& outcome);  // its statistics, then its samples, in order
    Outcome FinishPending();  // waits for the image evaluated beside the decoding, if any

    const cuda::CuptiApi& api_;
    Plan plan_;
    std::unique_ptr<cuda::HostObject> host_;
    CUpti_PmSampling_Object* object_ = nullptr;
    std::vector<uint8_t> images_[2];  // decoded into in turn; the second made when a drain first fills the first
    int current_ = 0;
    std::unique_ptr<Evaluation> pending_;  // the other image's, evaluated beside the decoding of this one
    bool evaluateBeside_ = true;           // OPENGPA_PM_EVALUATE_BESIDE=0: every image on the draining thread
    bool running_ = false;
    bool overflowed_ = false;  // the next sample taken follows lost ones
    bool first_ = true;        // the next sample taken is the session's first
    std::vector<Sample> samples_;
    DecodeStatistics statistics_;
    std::vector<std::pair<const char*, uint64_t>> startSteps_;
    int deviceIndex_ = 0;
    uint64_t intervalNs_ = 0;
    size_t hardwareBufferBytes_ = 0;
    uint32_t samplesPerImage_ = 1;
    uint64_t lastEndNs_ = 0;   // of the last sample taken
    uint64_t RingNs() const;   // how long the hardware ring holds samples, estimated
    Outcome Restart();
    int64_t realMinusMonotonicNs_ = 0;
    uint64_t realtimeNs_ = 0, monotonicNs_ = 0;  // when the offset was read
};

}  // namespace gpa::pm_sampling
