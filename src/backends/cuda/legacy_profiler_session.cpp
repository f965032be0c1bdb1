#include "backends/cuda/legacy_profiler_session.h"

namespace gpa::cuda {

Outcome LegacyProfilerSession::Begin(const CuptiApi& cupti, CUcontext context, const std::vector<uint8_t>& config,
                                     std::vector<uint8_t>* counterData, CUpti_ProfilerRange range,
                                     CUpti_ProfilerReplayMode replay, size_t maxRanges,
                                     std::unique_ptr<LegacyProfilerSession>* session) {
    if (!cupti.legacyProfiler) {
        return Fail(GPA_STATUS_ERROR_HARDWARE_NOT_SUPPORTED, "this CUPTI has no Profiler API sessions (" + cupti.path + ")");
    }
    std::unique_ptr<LegacyProfilerSession> result(new LegacyProfilerSession(cupti, context));
    if (Outcome o = result->InitializeScratch(counterData); !o.ok()) return o;
    auto begin = OPENGPA_CUPTI_PARAMS(CUpti_Profiler_BeginSession_Params);
    begin.ctx = context;
    begin.counterDataImageSize = counterData->size();
    begin.pCounterDataImage = counterData->data();
    begin.counterDataScratchBufferSize = result->scratch_.size();
    begin.pCounterDataScratchBuffer = result->scratch_.data();
    begin.range = range;
    begin.replayMode = replay;
    begin.maxRangesPerPass = maxRanges;
    begin.maxLaunchesPerPass = maxRanges;
    CUptiResult r = cupti.cuptiProfilerBeginSession(&begin);
    if (r != CUPTI_SUCCESS) {
        return cupti.Failure("cuptiProfilerBeginSession (starting NVIDIA's profiler on the context)", r,
                             GPA_STATUS_ERROR_HARDWARE_NOT_SUPPORTED);
    }
    result->begun_ = true;
    result->image_ = counterData->data();
    result->imageSize_ = counterData->size();
    if (Outcome o = result->SetConfig(config); !o.ok()) return o;
    *session = std::move(result);
    return Outcome::Ok();
}

Outcome LegacyProfilerSession::InitializeScratch(std::vector<uint8_t>* counterData) {
    auto size = OPENGPA_CUPTI_PARAMS(CUpti_Profiler_CounterDataImage_CalculateScratchBufferSize_Params);
    size.counterDataImageSize = counterData->size();
    size.pCounterDataImage = counterData->data();
    CUptiResult r = cupti_.cuptiProfilerCounterDataImageCalculateScratchBufferSize(&size);
    if (r != CUPTI_SUCCESS) return cupti_.Failure("cuptiProfilerCounterDataImageCalculateScratchBufferSize", r);
    scratch_.assign(size.counterDataScratchBufferSize, 0);
    auto scratch = OPENGPA_CUPTI_PARAMS(CUpti_Profiler_CounterDataImage_InitializeScratchBuffer_Params);
    scratch.counterDataImageSize = counterData->size();
    scratch.pCounterDataImage = counterData->data();
    scratch.counterDataScratchBufferSize = scratch_.size();
    scratch.pCounterDataScratchBuffer = scratch_.data();
    r = cupti_.cuptiProfilerCounterDataImageInitializeScratchBuffer(&scratch);
    if (r != CUPTI_SUCCESS) return cupti_.Failure("cuptiProfilerCounterDataImageInitializeScratchBuffer", r);
    return Outcome::Ok();
}

Outcome LegacyProfilerSession::SetConfig(const std::vector<uint8_t>& config) {
    auto set = OPENGPA_CUPTI_PARAMS(CUpti_Profiler_SetConfig_Params);
    set.ctx = context_;
    set.pConfig = config.data();
    set.configSize = config.size();
    set.minNestingLevel = 1;
    set.numNestingLevels = 1;
    set.passIndex = 0;
    set.targetNestingLevel = 1;
    if (const CUptiResult r = cupti_.cuptiProfilerSetConfig(&set); r != CUPTI_SUCCESS) {
        return cupti_.Failure("cuptiProfilerSetConfig", r);
    }
    configured_ = true;
    return Outcome::Ok();
}

Outcome LegacyProfilerSession::Restart(const std::vector<uint8_t>& config, std::vector<uint8_t>* counterData) {
    if (counterData->data() != image_ || counterData->size() != imageSize_) {
        return Fail(GPA_STATUS_ERROR_FAILED, "the counter data image is not the one the session began with");
    }
    if (profiling_) return Fail(GPA_STATUS_ERROR_FAILED, "a pass of the session is still in progress");
    if (Outcome o = InitializeScratch(counterData); !o.ok()) return o;
    if (configured_) {
        auto unset = OPENGPA_CUPTI_PARAMS(CUpti_Profiler_UnsetConfig_Params);
        unset.ctx = context_;
        configured_ = false;
        if (const CUptiResult r = cupti_.cuptiProfilerUnsetConfig(&unset); r != CUPTI_SUCCESS) {
            return cupti_.Failure("cuptiProfilerUnsetConfig", r);
        }
    }
    return SetConfig(config);
}

LegacyProfilerSession::~LegacyProfilerSession() {
    if (configured_) {
        auto unset = OPENGPA_CUPTI_PARAMS(CUpti_Profiler_UnsetConfig_Params);
        unset.ctx = context_;
        cupti_.cuptiProfilerUnsetConfig(&unset);
    }
    if (begun_) {
        auto end = OPENGPA_CUPTI_PARAMS(CUpti_Profiler_EndSession_Params);
        end.ctx = context_;
        cupti_.cuptiProfilerEndSession(&end);
    }
}

Outcome LegacyProfilerSession::StartPass() {
    auto begin = OPENGPA_CUPTI_PARAMS(CUpti_Profiler_BeginPass_Params);
    begin.ctx = context_;
    if (CUptiResult r = cupti_.cuptiProfilerBeginPass(&begin); r != CUPTI_SUCCESS) return cupti_.Failure("cuptiProfilerBeginPass", r);
    return Resume();
}

Outcome LegacyProfilerSession::StopPass(bool* allPassesSubmitted) {
    const Outcome paused = Pause();
    auto end = OPENGPA_CUPTI_PARAMS(CUpti_Profiler_EndPass_Params);
    end.ctx = context_;
    if (CUptiResult r = cupti_.cuptiProfilerEndPass(&end); r != CUPTI_SUCCESS) return cupti_.Failure("cuptiProfilerEndPass", r);
    if (!paused.ok()) return paused;
    *allPassesSubmitted = end.allPassesSubmitted != 0;
    return Outcome::Ok();
}

Outcome LegacyProfilerSession::Pause() {
    if (!profiling_) return Outcome::Ok();
    auto params = OPENGPA_CUPTI_PARAMS(CUpti_Profiler_DisableProfiling_Params);
    params.ctx = context_;
    const CUptiResult r = cupti_.cuptiProfilerDisableProfiling(&params);
    if (r != CUPTI_SUCCESS) return cupti_.Failure("cuptiProfilerDisableProfiling", r);
    profiling_ = false;
    return Outcome::Ok();
}

Outcome LegacyProfilerSession::Resume() {
    if (profiling_) return Outcome::Ok();
    auto params = OPENGPA_CUPTI_PARAMS(CUpti_Profiler_EnableProfiling_Params);
    params.ctx = context_;
    const CUptiResult r = cupti_.cuptiProfilerEnableProfiling(&params);
    if (r != CUPTI_SUCCESS) return cupti_.Failure("cuptiProfilerEnableProfiling", r);
    profiling_ = true;
    return Outcome::Ok();
}

Outcome LegacyProfilerSession::PushRange(const std::string& name) {
    auto params = OPENGPA_CUPTI_PARAMS(CUpti_Profiler_PushRange_Params);
    params.ctx = context_;
    params.pRangeName = name.c_str();
    params.rangeNameLength = name.size();
    const CUptiResult r = cupti_.cuptiProfilerPushRange(&params);
    return r == CUPTI_SUCCESS ? Outcome::Ok() : cupti_.Failure("cuptiProfilerPushRange", r);
}

Outcome LegacyProfilerSession::PopRange() {
    auto params = OPENGPA_CUPTI_PARAMS(CUpti_Profiler_PopRange_Params);
    params.ctx = context_;
    const CUptiResult r = cupti_.cuptiProfilerPopRange(&params);
    return r == CUPTI_SUCCESS ? Outcome::Ok() : cupti_.Failure("cuptiProfilerPopRange", r);
}

Outcome LegacyProfilerSession::Flush() {
    auto params = OPENGPA_CUPTI_PARAMS(CUpti_Profiler_FlushCounterData_Params);
    params.ctx = context_;
    if (CUptiResult r = cupti_.cuptiProfilerFlushCounterData(&params); r != CUPTI_SUCCESS) {
        return cupti_.Failure("cuptiProfilerFlushCounterData", r);
    }
    if (params.numRangesDropped > 0) {
        return Fail(GPA_STATUS_ERROR_FAILED, std::to_string(params.numRangesDropped) +
                                                 " range(s) were dropped: a pass held more ranges than the counter data "
                                                 "image has room for");
    }
    return Outcome::Ok();
}

}  // namespace gpa::cuda
