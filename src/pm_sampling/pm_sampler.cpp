#include "pm_sampling/pm_sampler.h"

#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <future>

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
    const char* beside = std::getenv("OPENGPA_PM_EVALUATE_BESIDE");
    made->evaluateBeside_ = !(beside && std::string(beside) == "0");
    made->images_[0].assign(dataSize.counterDataSize, 0);
    made->statistics_.imageBytes = made->images_[0].size();
    if (Outcome o = made->InitializeImage(made->images_[0], &made->statistics_.initializeNs); !o.ok()) return o;
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

Outcome Sampler::InitializeImage(std::vector<uint8_t>& image, uint64_t* ns) {
    const auto begun = Clock::now();
    auto init = OPENGPA_CUPTI_PARAMS(CUpti_PmSampling_CounterDataImage_Initialize_Params);
    init.pPmSamplingObject = object_;
    init.counterDataSize = image.size();
    init.pCounterData = image.data();
    if (const CUptiResult r = api_.cuptiPmSamplingCounterDataImageInitialize(&init); r != CUPTI_SUCCESS) {
        return api_.Failure("cuptiPmSamplingCounterDataImageInitialize", r);
    }
    *ns += Since(begun);
    return Outcome::Ok();
}

Outcome Sampler::Collect(const std::vector<uint8_t>& image, Evaluation* evaluation) {
    auto info = OPENGPA_CUPTI_PARAMS(CUpti_PmSampling_GetCounterDataInfo_Params);
    info.pCounterDataImage = image.data();
    info.counterDataImageSize = image.size();
    if (const CUptiResult r = api_.cuptiPmSamplingGetCounterDataInfo(&info); r != CUPTI_SUCCESS) {
        return api_.Failure("cuptiPmSamplingGetCounterDataInfo", r);
    }
    for (size_t i = 0; i < info.numCompletedSamples; ++i) {
        auto sampleInfo = OPENGPA_CUPTI_PARAMS(CUpti_PmSampling_CounterData_GetSampleInfo_Params);
        sampleInfo.pPmSamplingObject = object_;
        sampleInfo.pCounterDataImage = image.data();
        sampleInfo.counterDataImageSize = image.size();
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
        // Not for the session's first sample: nothing was taken before it.
        sample.droppedBefore = overflowed_ && !std::exchange(first_, false);
        first_ = false;
        overflowed_ = false;
        evaluation->indices.push_back(i);
        evaluation->samples.push_back(std::move(sample));
    }
    return Outcome::Ok();
}

Outcome Sampler::Evaluate(std::vector<uint8_t>& image, Evaluation* evaluation) {
    for (size_t k = 0; k < evaluation->samples.size(); ++k) {
        Sample& sample = evaluation->samples[k];
        const auto begun = Clock::now();
        const Outcome evaluated = host_->Evaluate(image, evaluation->indices[k], plan_.metrics, &sample.values);
        evaluation->evaluateNs += Since(begun);
        if (!evaluated.ok()) return evaluated;
        evaluation->withheld += WithholdImpossibleValues(plan_.metrics, &sample.values);
    }
    return InitializeImage(image, &evaluation->initializeNs);
}

Outcome Sampler::Finish(Evaluation* evaluation, const Outcome& outcome) {
    statistics_.evaluateNs += evaluation->evaluateNs;
    statistics_.initializeNs += evaluation->initializeNs;
    statistics_.withheld += evaluation->withheld;
    if (!outcome.ok()) return outcome;
    statistics_.samples += evaluation->samples.size();
    for (Sample& sample : evaluation->samples) samples_.push_back(std::move(sample));
    return Outcome::Ok();
}

Outcome Sampler::FinishPending() {
    if (!pending_) return Outcome::Ok();
    const Outcome outcome = pending_->done.get();
    const std::unique_ptr<Evaluation> finished = std::move(pending_);
    return Finish(finished.get(), outcome);
}

Outcome Sampler::Drain() {
    // Decode until the hardware buffer is empty. A full image is evaluated on a thread of its own while decoding goes
    // on into the other image (its evaluation and re-initialisation cost about as much host time as decoding), so
    // a drain with a backlog takes about the decoding's time. One evaluation at a time (one host object); the
    // samples keep their order; the drain returns with every sample evaluated.
    ReadClocks();
    const auto drainBegun = Clock::now();
    bool restarted = false;
    for (int round = 0; round < 1 << 16; ++round) {
        // Still decoding after a quarter of the time the ring holds: the device writes samples faster than they
        // are decoded (70 us or more of host time per sample of the default set on an H200's host), and the ring
        // (which keeps the latest records, silently) would soon overwrite what is being read. Stop, take what the
        // ring holds, start again: a hole, marked.
        if (running_ && !restarted && Since(drainBegun) > RingNs() / 4) {
            if (Outcome o = FinishPending(); !o.ok()) return o;
            if (Outcome o = Restart(); !o.ok()) return o;
            restarted = true;
        }
        std::vector<uint8_t>& image = images_[current_];
        auto decode = OPENGPA_CUPTI_PARAMS(CUpti_PmSampling_DecodeData_Params);
        decode.pPmSamplingObject = object_;
        decode.pCounterDataImage = image.data();
        decode.counterDataImageSize = image.size();
        const auto begun = Clock::now();
        const CUptiResult r = api_.cuptiPmSamplingDecodeData(&decode);
        statistics_.decodeNs += Since(begun);
        ++statistics_.decodes;
        if (r == CUPTI_ERROR_OUT_OF_MEMORY || decode.overflow) {
            overflowed_ = true;
            ++statistics_.overflows;
        }
        const bool full = decode.decodeStopReason == CUPTI_PM_SAMPLING_DECODE_STOP_REASON_COUNTER_DATA_FULL;
        if (full) ++statistics_.fullImages;
        if (r != CUPTI_SUCCESS && r != CUPTI_ERROR_OUT_OF_MEMORY) {
            static_cast<void>(FinishPending());
            return api_.Failure("cuptiPmSamplingDecodeData", r);
        }
        auto evaluation = std::make_unique<Evaluation>();
        const Outcome collected = Collect(image, evaluation.get());
        // The other image's evaluation, which ran while this one was decoded: its samples come first.
        if (Outcome o = FinishPending(); !o.ok()) return o;
        if (!collected.ok()) return collected;
        if (!full) {
            const Outcome evaluated = Evaluate(image, evaluation.get());
            return Finish(evaluation.get(), evaluated);
        }
        // More to decode: this image is evaluated beside the decoding of the other, made (and initialised) once;
        // on this thread where OPENGPA_PM_EVALUATE_BESIDE=0 (to compare the two).
        if (!evaluateBeside_) {
            const Outcome evaluated = Evaluate(image, evaluation.get());
            if (Outcome o = Finish(evaluation.get(), evaluated); !o.ok()) return o;
            continue;
        }
        std::vector<uint8_t>& other = images_[current_ ^ 1];
        if (other.empty()) {
            other.assign(image.size(), 0);
            if (Outcome o = InitializeImage(other, &statistics_.initializeNs); !o.ok()) {
                const Outcome evaluated = Evaluate(image, evaluation.get());
                static_cast<void>(Finish(evaluation.get(), evaluated));
                return o;
            }
        }
        Evaluation* job = evaluation.get();
        job->done = std::async(std::launch::async, [this, &image, job] { return Evaluate(image, job); });
        pending_ = std::move(evaluation);
        current_ ^= 1;
    }
    static_cast<void>(FinishPending());
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
