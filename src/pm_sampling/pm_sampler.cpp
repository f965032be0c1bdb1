#include "pm_sampling/pm_sampler.h"

#include <time.h>

#include <algorithm>
#include <chrono>

#include "pm_sampling/impossible_values.h"

namespace gpa::pm_sampling {
namespace {

uint64_t Now(clockid_t clock) {
    timespec t{};
    clock_gettime(clock, &t);
    return uint64_t(t.tv_sec) * 1000000000ull + uint64_t(t.tv_nsec);
}

uint64_t Distance(uint64_t a, uint64_t b) { return a > b ? a - b : b - a; }

using Clock = std::chrono::steady_clock;
uint64_t Since(Clock::time_point begun) {
    return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - begun).count());
}

}  // namespace

void Sampler::ReadClocks() {
    // CLOCK_MONOTONIC read between two CLOCK_REALTIME readings; the pair nearest in time of three tries.
    uint64_t best = UINT64_MAX;
    for (int i = 0; i < 3; ++i) {
        const uint64_t before = Now(CLOCK_REALTIME), monotonic = Now(CLOCK_MONOTONIC), after = Now(CLOCK_REALTIME);
        if (after - before < best) {
            best = after - before;
            realtimeNs_ = before + (after - before) / 2;
            monotonicNs_ = monotonic;
        }
    }
    realMinusMonotonicNs_ = static_cast<int64_t>(realtimeNs_ - monotonicNs_);
}

uint64_t Sampler::ToMonotonicNs(uint64_t sampleNs) const {
    if (Distance(sampleNs, monotonicNs_) < Distance(sampleNs, realtimeNs_)) return sampleNs;
    return sampleNs - static_cast<uint64_t>(realMinusMonotonicNs_);
}

Outcome Sampler::Start(const cuda::CuptiApi& api, int deviceIndex, const std::vector<std::string>& metrics,
                       const SamplerOptions& options, std::unique_ptr<Sampler>* sampler) {
    if (!api.pmSampling) {
        return Fail(GPA_STATUS_ERROR_DRIVER_NOT_SUPPORTED,
                    "the CUPTI at " + api.path + " has no PM sampling (cupti_pmsampling.h: CUDA 12.6 or newer)");
    }
    std::vector<std::pair<const char*, uint64_t>> steps;
    Clock::time_point stepBegun = Clock::now();
    const auto step = [&](const char* name) {
        steps.emplace_back(name, Since(stepBegun));
        stepBegun = Clock::now();
    };
    auto initialize = OPENGPA_CUPTI_PARAMS(CUpti_Profiler_Initialize_Params);
    if (const CUptiResult r = api.cuptiProfilerInitialize(&initialize); r != CUPTI_SUCCESS) {
        return api.Failure("cuptiProfilerInitialize", r, GPA_STATUS_ERROR_HARDWARE_NOT_SUPPORTED);
    }
    auto chipParams = OPENGPA_CUPTI_PARAMS(CUpti_Device_GetChipName_Params);
    chipParams.deviceIndex = static_cast<size_t>(deviceIndex);
    if (const CUptiResult r = api.cuptiDeviceGetChipName(&chipParams); r != CUPTI_SUCCESS) {
        return api.Failure("cuptiDeviceGetChipName", r, GPA_STATUS_ERROR_HARDWARE_NOT_SUPPORTED);
    }
    step("profiler initialisation and chip");
    std::unique_ptr<Sampler> made(new Sampler(api));
    auto enable = OPENGPA_CUPTI_PARAMS(CUpti_PmSampling_Enable_Params);
    enable.deviceIndex = static_cast<size_t>(deviceIndex);
    if (const CUptiResult r = api.cuptiPmSamplingEnable(&enable); r != CUPTI_SUCCESS) {
        return api.Failure("cuptiPmSamplingEnable", r, GPA_STATUS_ERROR_HARDWARE_NOT_SUPPORTED);
    }
    step("enable");
    made->object_ = enable.pPmSamplingObject;
    made->deviceIndex_ = deviceIndex;
    made->intervalNs_ = options.intervalNs;
    made->hardwareBufferBytes_ = options.hardwareBufferBytes;
    made->samplesPerImage_ = options.samplesPerImage;
    // What the device can collect now (another profiler may hold some units).
    std::vector<uint8_t> availability;
    auto size = OPENGPA_CUPTI_PARAMS(CUpti_PmSampling_GetCounterAvailability_Params);
    size.deviceIndex = static_cast<size_t>(deviceIndex);
    if (api.cuptiPmSamplingGetCounterAvailability(&size) == CUPTI_SUCCESS && size.counterAvailabilityImageSize > 0) {
        availability.assign(size.counterAvailabilityImageSize, 0);
        auto image = OPENGPA_CUPTI_PARAMS(CUpti_PmSampling_GetCounterAvailability_Params);
        image.deviceIndex = static_cast<size_t>(deviceIndex);
        image.counterAvailabilityImageSize = availability.size();
        image.pCounterAvailabilityImage = availability.data();
        if (api.cuptiPmSamplingGetCounterAvailability(&image) != CUPTI_SUCCESS) availability.clear();
    }
    step("counter availability");
    if (Outcome o = MakePlan(api, chipParams.pChipName, metrics, availability, &made->plan_); !o.ok()) return o;
    if (Outcome o = cuda::HostObject::Create(api, made->plan_.chip, availability, &made->host_, CUPTI_PROFILER_TYPE_PM_SAMPLING);
        !o.ok()) {
        return o;
    }
    if (const CUptiResult r = made->host_->AddMetrics(made->plan_.metrics); r != CUPTI_SUCCESS) {
        return api.Failure("cuptiProfilerHostConfigAddMetrics (PM sampling)", r);
    }
    step("plan, host object and configuration image");
    auto config = OPENGPA_CUPTI_PARAMS(CUpti_PmSampling_SetConfig_Params);
    config.pPmSamplingObject = made->object_;
    config.configSize = made->plan_.configImage.size();
    config.pConfig = made->plan_.configImage.data();
    config.hardwareBufferSize = options.hardwareBufferBytes;
    config.samplingInterval = options.intervalNs;
    // Nanoseconds of a fixed clock (GA10x and later); GA100 and Turing count SYSCLK cycles, which vary.
    config.triggerMode = CUPTI_PM_SAMPLING_TRIGGER_MODE_GPU_TIME_INTERVAL;
    config.hwBufferAppendMode = CUPTI_PM_SAMPLING_HARDWARE_BUFFER_APPEND_MODE_KEEP_LATEST;
    if (const CUptiResult r = api.cuptiPmSamplingSetConfig(&config); r != CUPTI_SUCCESS) {
        if (r == CUPTI_ERROR_HARDWARE_BUSY) {
            const std::string what = "cuptiPmSamplingSetConfig: another process or tool samples or profiles device " +
                                     std::to_string(deviceIndex) + " (PM sampling is device-wide: one at a time)";
            return api.Failure(what.c_str(), r, GPA_STATUS_ERROR_HARDWARE_NOT_SUPPORTED);
        }
        return api.Failure("cuptiPmSamplingSetConfig (an interval in nanoseconds needs GA10x or later)", r,
                           GPA_STATUS_ERROR_HARDWARE_NOT_SUPPORTED);
    }
    step("set configuration");
    auto dataSize = OPENGPA_CUPTI_PARAMS(CUpti_PmSampling_GetCounterDataSize_Params);
    std::vector<const char*> names;
    for (const std::string& metric : made->plan_.metrics) names.push_back(metric.c_str());
    dataSize.pPmSamplingObject = made->object_;
    dataSize.pMetricNames = names.data();
    dataSize.numMetrics = names.size();
    dataSize.maxSamples = options.samplesPerImage;
    if (const CUptiResult r = api.cuptiPmSamplingGetCounterDataSize(&dataSize); r != CUPTI_SUCCESS) {
        return api.Failure("cuptiPmSamplingGetCounterDataSize", r);
    }
    made->image_.assign(dataSize.counterDataSize, 0);
    made->statistics_.imageBytes = made->image_.size();
    if (Outcome o = made->InitializeImage(); !o.ok()) return o;
    step("counter data image");
    auto start = OPENGPA_CUPTI_PARAMS(CUpti_PmSampling_Start_Params);
    start.pPmSamplingObject = made->object_;
    if (const CUptiResult r = api.cuptiPmSamplingStart(&start); r != CUPTI_SUCCESS) {
        return api.Failure("cuptiPmSamplingStart", r);
    }
    step("start");
    made->running_ = true;
    made->startSteps_ = std::move(steps);
    made->ReadClocks();
    *sampler = std::move(made);
    return Outcome::Ok();
}

Sampler::~Sampler() {
    if (running_) {
        auto stop = OPENGPA_CUPTI_PARAMS(CUpti_PmSampling_Stop_Params);
        stop.pPmSamplingObject = object_;
        api_.cuptiPmSamplingStop(&stop);
    }
    if (object_) {
        auto disable = OPENGPA_CUPTI_PARAMS(CUpti_PmSampling_Disable_Params);
        disable.pPmSamplingObject = object_;
        api_.cuptiPmSamplingDisable(&disable);
    }
}

Outcome Sampler::InitializeImage() {
    const auto begun = Clock::now();
    auto init = OPENGPA_CUPTI_PARAMS(CUpti_PmSampling_CounterDataImage_Initialize_Params);
    init.pPmSamplingObject = object_;
    init.counterDataSize = image_.size();
    init.pCounterData = image_.data();
    if (const CUptiResult r = api_.cuptiPmSamplingCounterDataImageInitialize(&init); r != CUPTI_SUCCESS) {
        return api_.Failure("cuptiPmSamplingCounterDataImageInitialize", r);
    }
    statistics_.initializeNs += Since(begun);
    return Outcome::Ok();
}

Outcome Sampler::TakeCompleted() {
    auto info = OPENGPA_CUPTI_PARAMS(CUpti_PmSampling_GetCounterDataInfo_Params);
    info.pCounterDataImage = image_.data();
    info.counterDataImageSize = image_.size();
    if (const CUptiResult r = api_.cuptiPmSamplingGetCounterDataInfo(&info); r != CUPTI_SUCCESS) {
        return api_.Failure("cuptiPmSamplingGetCounterDataInfo", r);
    }
    for (size_t i = 0; i < info.numCompletedSamples; ++i) {
        auto sampleInfo = OPENGPA_CUPTI_PARAMS(CUpti_PmSampling_CounterData_GetSampleInfo_Params);
        sampleInfo.pPmSamplingObject = object_;
        sampleInfo.pCounterDataImage = image_.data();
        sampleInfo.counterDataImageSize = image_.size();
        sampleInfo.sampleIndex = i;
        if (const CUptiResult r = api_.cuptiPmSamplingCounterDataGetSampleInfo(&sampleInfo); r != CUPTI_SUCCESS) {
            return api_.Failure("cuptiPmSamplingCounterDataGetSampleInfo", r);
        }
        Sample sample;
        sample.gpuStartNs = sampleInfo.startTimestamp;
        sample.gpuEndNs = sampleInfo.endTimestamp;
        // A sample longer than two intervals spans time the monitors were not sampled: a session's first reaches
        // back to the configuration (1.5 s seen), and at 10 us or less under load the sampler skips whole spans and
        // the sample after the skip covers it with counts of nearly nothing (a 47 ms sample across a kernel that
        // wrote 40 GiB, 0 bytes: H200, 2026-11-28). Its counts are not the span's: it is left out, and the next
        // sample says that samples are missing before it. So does a sample that starts after a hole.
        if (sample.gpuEndNs - sample.gpuStartNs > 2 * intervalNs_) {
            ++statistics_.longDropped;
            overflowed_ = true;
            continue;
        }
        if (lastEndNs_ != 0 && sample.gpuStartNs > lastEndNs_ + intervalNs_ / 2) {
            overflowed_ = true;
            ++statistics_.holes;
        }
        lastEndNs_ = sample.gpuEndNs;
        const auto begun = Clock::now();
        const Outcome evaluated = host_->Evaluate(image_, i, plan_.metrics, &sample.values);
        statistics_.evaluateNs += Since(begun);
        if (!evaluated.ok()) return evaluated;
        statistics_.withheld += WithholdImpossibleValues(plan_.metrics, &sample.values);
        // Not for the session's first sample: nothing was taken before it.
        sample.droppedBefore = overflowed_ && !std::exchange(first_, false);
        first_ = false;
        overflowed_ = false;
        samples_.push_back(std::move(sample));
        ++statistics_.samples;
    }
    return InitializeImage();
}

Outcome Sampler::Drain() {
    // Decode until the hardware buffer is empty; a full image is evaluated and decoding goes on into a fresh one.
    ReadClocks();
    const auto drainBegun = Clock::now();
    bool restarted = false;
    for (int round = 0; round < 1 << 16; ++round) {
        // Still decoding after a quarter of the time the ring holds: the device writes samples faster than they
        // are decoded (about 70 us of host time per sample of the default set on an H200's host), and the ring
        // would soon overwrite what is being read. Stop, take what the ring holds, start again: a hole, marked.
        if (running_ && !restarted && Since(drainBegun) > RingNs() / 4) {
            if (Outcome o = Restart(); !o.ok()) return o;
            restarted = true;
        }
        auto decode = OPENGPA_CUPTI_PARAMS(CUpti_PmSampling_DecodeData_Params);
        decode.pPmSamplingObject = object_;
        decode.pCounterDataImage = image_.data();
        decode.counterDataImageSize = image_.size();
        const auto begun = Clock::now();
        const CUptiResult r = api_.cuptiPmSamplingDecodeData(&decode);
        statistics_.decodeNs += Since(begun);
        ++statistics_.decodes;
        if (r == CUPTI_ERROR_OUT_OF_MEMORY || decode.overflow) {
            overflowed_ = true;
            ++statistics_.overflows;
        }
        if (decode.decodeStopReason == CUPTI_PM_SAMPLING_DECODE_STOP_REASON_COUNTER_DATA_FULL) ++statistics_.fullImages;
        if (r != CUPTI_SUCCESS && r != CUPTI_ERROR_OUT_OF_MEMORY) return api_.Failure("cuptiPmSamplingDecodeData", r);
        if (Outcome o = TakeCompleted(); !o.ok()) return o;
        if (decode.decodeStopReason != CUPTI_PM_SAMPLING_DECODE_STOP_REASON_COUNTER_DATA_FULL) return Outcome::Ok();
    }
    return Fail(GPA_STATUS_ERROR_FAILED, "cuptiPmSamplingDecodeData kept saying the counter data image is full");
}

uint64_t Sampler::RingNs() const {
    const size_t bytesPerSample = std::max<size_t>(1, statistics_.imageBytes / std::max<uint32_t>(1, samplesPerImage_));
    return hardwareBufferBytes_ / bytesPerSample * intervalNs_;
}

Outcome Sampler::Restart() {
    ++statistics_.restarts;
    auto stop = OPENGPA_CUPTI_PARAMS(CUpti_PmSampling_Stop_Params);
    stop.pPmSamplingObject = object_;
    if (const CUptiResult r = api_.cuptiPmSamplingStop(&stop); r != CUPTI_SUCCESS) {
        running_ = false;
        return api_.Failure("cuptiPmSamplingStop", r);
    }
    running_ = false;
    if (Outcome o = Drain(); !o.ok()) return o;
    auto start = OPENGPA_CUPTI_PARAMS(CUpti_PmSampling_Start_Params);
    start.pPmSamplingObject = object_;
    if (const CUptiResult r = api_.cuptiPmSamplingStart(&start); r != CUPTI_SUCCESS) {
        return api_.Failure("cuptiPmSamplingStart (again, after the decoding fell behind)", r);
    }
    running_ = true;
    overflowed_ = true;
    return Outcome::Ok();
}

Outcome Sampler::Stop() {
    if (running_) {
        // What the buffer holds first: decoding after the stop alone has given a single image's worth (5 us
        // interval on an H200, 2026-11-28).
        if (Outcome o = Drain(); !o.ok()) return o;
        auto stop = OPENGPA_CUPTI_PARAMS(CUpti_PmSampling_Stop_Params);
        stop.pPmSamplingObject = object_;
        running_ = false;
        if (const CUptiResult r = api_.cuptiPmSamplingStop(&stop); r != CUPTI_SUCCESS) {
            return api_.Failure("cuptiPmSamplingStop", r);
        }
    }
    return Drain();
}

}  // namespace gpa::pm_sampling
