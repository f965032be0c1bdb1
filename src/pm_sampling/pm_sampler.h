// Device-level PM sampling of one GPU (CUPTI's cupti_pmsampling.h): the device's performance monitors read every
// interval into a hardware buffer, decoded into timestamped samples of a Plan's metrics. Device-wide: every
// context's and every process's work on the GPU is in the samples. Needs the CUDA driver initialised (cuInit).
//
// The hardware buffer is drained by Drain() (call it often enough that the buffer does not fill: at 100 us and
// the default set, 64 MiB hold several seconds) and at Stop(). A buffer that filled before it was drained loses
// the samples that did not fit: the next sample kept says so (droppedBefore), nothing is made up.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
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

struct SamplerOptions {
    uint64_t intervalNs = 100000;                 // 100 us
    size_t hardwareBufferBytes = 64ull << 20;     // where the device writes raw samples until they are decoded
    uint32_t samplesPerImage = 4096;              // decoded at a time
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

private:
    Sampler(const cuda::CuptiApi& api) : api_(api) {}
    Outcome InitializeImage();
    Outcome TakeCompleted();  // evaluates the image's completed samples, then starts a fresh image

    const cuda::CuptiApi& api_;
    Plan plan_;
    std::unique_ptr<cuda::HostObject> host_;
    CUpti_PmSampling_Object* object_ = nullptr;
    std::vector<uint8_t> image_;
    bool running_ = false;
    bool overflowed_ = false;  // the next sample taken follows lost ones
    std::vector<Sample> samples_;
};

}  // namespace gpa::pm_sampling
