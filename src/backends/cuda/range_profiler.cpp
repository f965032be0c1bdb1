#include "backends/cuda/range_profiler.h"

#include <algorithm>
#include <cstdlib>

#include "backends/cuda/elapsed_time.h"
#include "backends/cuda/large_buffer.h"

namespace gpa::cuda {

Outcome InitializeCuptiProfiler(const CuptiApi& cupti) {
    static std::once_flag once;
    static Outcome outcome;
    std::call_once(once, [&] {
        auto params = OPENGPA_CUPTI_PARAMS(CUpti_Profiler_Initialize_Params);
        const CUptiResult result = cupti.cuptiProfilerInitialize(&params);
        if (result != CUPTI_SUCCESS) {
            outcome = cupti.Failure("cuptiProfilerInitialize", result, GPA_STATUS_ERROR_HARDWARE_NOT_SUPPORTED);
        }
    });
    return outcome;
}

Outcome QueryChipName(const CuptiApi& cupti, CUdevice device, std::string* chip) {
    if (Outcome o = InitializeCuptiProfiler(cupti); !o.ok()) return o;  // CUPTI needs it first
    auto params = OPENGPA_CUPTI_PARAMS(CUpti_Device_GetChipName_Params);
    params.deviceIndex = static_cast<size_t>(device);
    const CUptiResult result = cupti.cuptiDeviceGetChipName(&params);
    if (result != CUPTI_SUCCESS || params.pChipName == nullptr) {
        return cupti.Failure("cuptiDeviceGetChipName", result, GPA_STATUS_ERROR_HARDWARE_NOT_SUPPORTED);
    }
    *chip = params.pChipName;
    return Outcome::Ok();
}

Outcome CheckProfilingSupported(const CuptiApi& cupti, CUdevice device) {
    auto params = OPENGPA_CUPTI_PARAMS(CUpti_Profiler_DeviceSupported_Params);
    params.cuDevice = device;
    params.api = CUPTI_PROFILER_RANGE_PROFILING;
    const CUptiResult result = cupti.cuptiProfilerDeviceSupported(&params);
    if (result != CUPTI_SUCCESS) return cupti.Failure("cuptiProfilerDeviceSupported", result, GPA_STATUS_ERROR_HARDWARE_NOT_SUPPORTED);
    if (params.isSupported == CUPTI_PROFILER_CONFIGURATION_SUPPORTED) return Outcome::Ok();
    std::string reasons;
    auto add = [&](CUpti_Profiler_Support_Level level, const char* what) {
        if (level == CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED || level == CUPTI_PROFILER_CONFIGURATION_DISABLED) {
            reasons += (reasons.empty() ? "" : "; ") + std::string(what) +
                       (level == CUPTI_PROFILER_CONFIGURATION_DISABLED ? " (profiling disabled by the system)" : "");
        }
    };
    add(params.architecture, "the GPU architecture is older than Volta (compute capability 7.0)");
    add(params.sli, "SLI is enabled");
    add(params.vGpu, "this virtual GPU does not allow profiling");
    add(params.confidentialCompute, "confidential computing is enabled");
    add(params.cmp, "NVIDIA CMP devices cannot be profiled");
    add(params.wsl, "profiling is not supported under this WSL configuration");
    return Fail(GPA_STATUS_ERROR_HARDWARE_NOT_SUPPORTED,
                "CUPTI cannot profile this device: " + (reasons.empty() ? std::string("no reason given") : reasons));
}

std::vector<uint8_t> QueryCounterAvailability(const CuptiApi& cupti, const DriverApi& driver, CUcontext context) {
    ScopedContext current(driver, context);
    auto params = OPENGPA_CUPTI_PARAMS(CUpti_Profiler_GetCounterAvailability_Params);
    params.ctx = context;
    if (cupti.cuptiProfilerGetCounterAvailability(&params) != CUPTI_SUCCESS) return {};
    std::vector<uint8_t> image(params.counterAvailabilityImageSize);
    params.pCounterAvailabilityImage = image.data();
    if (cupti.cuptiProfilerGetCounterAvailability(&params) != CUPTI_SUCCESS) return {};
    return image;
}

namespace {

std::mutex gLock;
RangeProfiler::StepTimes gStepTimes;  // under gLock

// The profiler whose CUPTI object is enabled on each device.
std::vector<std::pair<CUdevice, RangeProfiler*>>& EnabledOnDevice() {
    static std::vector<std::pair<CUdevice, RangeProfiler*>> enabled;
    return enabled;
}

}  // namespace

std::unique_lock<std::mutex> RangeProfiler::Lock() { return std::unique_lock<std::mutex>(gLock); }

RangeProfiler::StepTimes RangeProfiler::ProcessStepTimes() { return gStepTimes; }

bool RangeProfiler::FreshObjectEachTime() {
    static const bool fresh = [] {
        const char* value = std::getenv("OPENGPA_CUDA_FRESH_RANGE_PROFILER");
        return value != nullptr && std::string(value) == "1";
    }();
    return fresh;
}

Outcome RangeProfiler::Create(const CuptiApi& cupti, const DriverApi& driver, CUcontext context,
                              std::unique_ptr<RangeProfiler>* profiler, ProfilerApi api) {
    if (api == ProfilerApi::Pausable && !cupti.legacyProfiler) api = ProfilerApi::Range;
    if (Outcome o = InitializeCuptiProfiler(cupti); !o.ok()) return o;
    CUdevice device = 0;
    {
        ScopedContext current(driver, context);
        if (!current.outcome().ok()) return current.outcome();
        if (CUresult r = driver.cuCtxGetDevice(&device); r != CUDA_SUCCESS) return driver.Failure("cuCtxGetDevice", r);
    }
    std::unique_ptr<RangeProfiler> result(new RangeProfiler(cupti, driver, context, device, api));
    auto lock = Lock();
    if (Outcome o = result->EnableObject(); !o.ok()) return o;  // the privilege check
    result->DisableObject();
    *profiler = std::move(result);
    return Outcome::Ok();
}

RangeProfiler::~RangeProfiler() {
    auto lock = Lock();
    FinishPending();
    DisableObject();
}

Outcome RangeProfiler::EnableObject() {
    if (object_ != nullptr) return Outcome::Ok();
    ReleaseOthersOnDevice();
    ScopedContext current(driver_, context_);
    if (!current.outcome().ok()) return current.outcome();
    auto params = OPENGPA_CUPTI_PARAMS(CUpti_RangeProfiler_Enable_Params);
    params.ctx = context_;
    const CUptiResult result = cupti_.cuptiRangeProfilerEnable(&params);
    if (result != CUPTI_SUCCESS) {
        return cupti_.Failure("cuptiRangeProfilerEnable (starting NVIDIA's range profiler on the context)", result,
                              GPA_STATUS_ERROR_HARDWARE_NOT_SUPPORTED);
    }
    object_ = params.pRangeProfilerObject;
    configured_ = false;
    EnabledOnDevice().emplace_back(device_, this);
    return Outcome::Ok();
}

void RangeProfiler::ReleaseOthersOnDevice() {
    std::vector<RangeProfiler*> others;  // released after the walk: Release edits the list
    for (const auto& [device, profiler] : EnabledOnDevice()) {
        if (device == device_ && profiler != this) others.push_back(profiler);
    }
    for (RangeProfiler* other : others) other->Release();
}

void RangeProfiler::DisableObject() {
    if (session_) {
        AddElapsed timer(&gStepTimes.sessionEndNs);
        session_.reset();  // ends the session: data not flushed is dropped
        configured_ = false;
    }
    if (object_ == nullptr) {
        auto& enabled = EnabledOnDevice();
        for (auto it = enabled.begin(); it != enabled.end(); ++it) {
            if (it->second == this) {
                enabled.erase(it);
                break;
            }
        }
        return;
    }
    {
        ScopedContext current(driver_, context_);
        auto params = OPENGPA_CUPTI_PARAMS(CUpti_RangeProfiler_Disable_Params);
        params.pRangeProfilerObject = object_;
        cupti_.cuptiRangeProfilerDisable(&params);
    }
    object_ = nullptr;
    configured_ = false;
    auto& enabled = EnabledOnDevice();
    for (auto it = enabled.begin(); it != enabled.end(); ++it) {
        if (it->second == this) {
            enabled.erase(it);
            break;
        }
    }
}

void RangeProfiler::Release() {
    FinishPending();
    DisableObject();
}

void RangeProfiler::Reset() { Release(); }

Outcome RangeProfiler::CreateCounterData(const std::vector<std::string>& metrics, size_t maxRanges,
                                         std::vector<uint8_t>* image) {
    std::vector<const char*> names;
    for (const std::string& metric : metrics) names.push_back(metric.c_str());
    ScopedContext current(driver_, context_);
    if (!current.outcome().ok()) return current.outcome();
    auto size = OPENGPA_CUPTI_PARAMS(CUpti_RangeProfiler_GetCounterDataSize_Params);
    size.pRangeProfilerObject = object_;
    size.pMetricNames = names.data();
    size.numMetrics = names.size();
    size.maxNumOfRanges = maxRanges;
    size.maxNumRangeTreeNodes = static_cast<uint32_t>(maxRanges);
    CUptiResult result = cupti_.cuptiRangeProfilerGetCounterDataSize(&size);
    if (result != CUPTI_SUCCESS) return cupti_.Failure("cuptiRangeProfilerGetCounterDataSize", result);
    AssignZeroed(image, size.counterDataSize);
    gStepTimes.largestImageBytes = std::max<uint64_t>(gStepTimes.largestImageBytes, size.counterDataSize);
    auto init = OPENGPA_CUPTI_PARAMS(CUpti_RangeProfiler_CounterDataImage_Initialize_Params);
    init.pRangeProfilerObject = object_;
    init.counterDataSize = image->size();
    init.pCounterData = image->data();
    result = cupti_.cuptiRangeProfilerCounterDataImageInitialize(&init);
    if (result != CUPTI_SUCCESS) return cupti_.Failure("cuptiRangeProfilerCounterDataImageInitialize", result);
    return Outcome::Ok();
}

bool RangeProfiler::ReuseSessions() {
    static const bool reuse = [] {
        const char* value = std::getenv("OPENGPA_CUDA_SESSION_REUSE");
        return value == nullptr || std::string(value) != "0";
    }();
    return reuse;
}

void RangeProfiler::EndKeptSession() {
    if (session_ && sessionDecoded_) DisableObject();
}

Outcome RangeProfiler::Decode() {
    if (session_) {
        const Outcome flushed = session_->Flush();
        if (flushed.ok() && ReuseSessions()) {
            sessionDecoded_ = true;  // kept for a next configuration like this one (ConfigureSession)
            return flushed;
        }
        DisableObject();  // a session per configuration
        return flushed;
    }
    if (object_ == nullptr) return Fail(GPA_STATUS_ERROR_FAILED, "the range profiler was disabled before decoding");
    ScopedContext current(driver_, context_);
    if (!current.outcome().ok()) return current.outcome();
    auto params = OPENGPA_CUPTI_PARAMS(CUpti_RangeProfiler_DecodeData_Params);
    params.pRangeProfilerObject = object_;
    const CUptiResult result = cupti_.cuptiRangeProfilerDecodeData(&params);
    if (result != CUPTI_SUCCESS) return cupti_.Failure("cuptiRangeProfilerDecodeData", result);
    if (params.numOfRangeDropped > 0) {
        return Fail(GPA_STATUS_ERROR_FAILED,
                    std::to_string(params.numOfRangeDropped) +
                        " sample(s) were dropped because a pass held more samples than the counter data image has "
                        "room for; raise OPENGPA_CUDA_MAX_SAMPLES");
    }
    return Outcome::Ok();
}

void RangeProfiler::FinishPending() {
    if (!hasPending_) return;
    hasPending_ = false;
    Pending pending = std::move(pending_);
    pending_ = {};
    Outcome outcome;
    if (pendingComplete_ && !stopFailed_) {
        outcome = Decode();
    } else if (stopFailed_) {
        // CUPTI crashed decoding a configuration one of whose Stops had failed (seen under gpaprof on an H100,
        // CUPTI 13.0): its data is dropped with the CUPTI object.
        DisableObject();
        outcome = Fail(GPA_STATUS_ERROR_FAILED, "CUPTI failed to stop a pass of the configuration, so its data cannot be decoded");
    } else {
        // Decoding a replay that stopped half-way is not possible (CUPTI may crash); a fresh object follows.
        DisableObject();
        outcome = Fail(GPA_STATUS_ERROR_FAILED, "not every pass of the configuration ran, so CUPTI has no complete data");
    }
    if (pending.decoded) pending.decoded(outcome);
}

bool RangeProfiler::FinishPendingOf(const void* owner) {
    if (!hasPending_ || pending_.owner != owner) return false;
    FinishPending();
    return true;
}

void RangeProfiler::Abandon(const void* owner) {
    if (!hasPending_ || pending_.owner != owner) return;
    pending_.decoded = nullptr;  // the owner is going away: decode for the profiler's sake only
    FinishPending();
}

Outcome RangeProfiler::Configure(const std::vector<uint8_t>& config, const std::vector<std::string>& metrics,
                                 size_t maxRanges, std::vector<uint8_t>* counterData, CUpti_ProfilerRange range,
                                 CUpti_ProfilerReplayMode replay, Pending pending, bool pausable) {
    FinishPending();
    if (pausable && api_ == ProfilerApi::Pausable && replay == CUPTI_UserReplay) {
        const Outcome session = ConfigureSession(config, metrics, maxRanges, counterData, range, replay);
        if (session.ok()) {
            Configured(config, range, replay, std::move(pending));
            return Outcome::Ok();
        }
        // No session on this driver: the Range Profiler API from now on, which cannot pause.
        DisableObject();
        api_ = ProfilerApi::Range;
        pauseLost_ = session.reason();
    }
    if (session_) DisableObject();  // a session kept from a configuration before: the Range Profiler API now
    // A configured object keeps the pass count of its configuration: CUPTI then ends the next configuration
    // after the previous one's number of passes (seen on GH100 with CUPTI 13.0). So a configuration gets a
    // fresh object, unless it is the previous one again (the same image: the same passes), as each batch of
    // gpaprof's dispatches is: the first start of a fresh object costs about 0.65 s on an H100.
    const bool again = object_ != nullptr && configured_ && config == config_ && range == range_ && replay == replay_ &&
                       !FreshObjectEachTime();
    if (configured_ && !again) DisableObject();
    if (object_ == nullptr) {
        if (Outcome o = EnableObject(); !o.ok()) return o;
    }
    if (Outcome o = CreateCounterData(metrics, maxRanges, counterData); !o.ok()) return o;
    ScopedContext current(driver_, context_);
    if (!current.outcome().ok()) return current.outcome();
    auto setConfig = [&] {
        auto params = OPENGPA_CUPTI_PARAMS(CUpti_RangeProfiler_SetConfig_Params);
        params.pRangeProfilerObject = object_;
        params.configSize = config.size();
        params.pConfig = config.data();
        params.counterDataImageSize = counterData->size();
        params.pCounterDataImage = counterData->data();
        params.range = range;
        params.replayMode = replay;
        params.maxRangesPerPass = maxRanges;
        params.numNestingLevels = 1;
        params.minNestingLevel = 1;
        params.passIndex = 0;
        params.targetNestingLevel = 1;
        return cupti_.cuptiRangeProfilerSetConfig(&params);
    };
    CUptiResult result = setConfig();
    if (result != CUPTI_SUCCESS && again) {  // the object refused a second configuration: a fresh one then
        DisableObject();
        if (Outcome o = EnableObject(); !o.ok()) return o;
        result = setConfig();
    }
    if (result != CUPTI_SUCCESS) return cupti_.Failure("cuptiRangeProfilerSetConfig", result);
    configured_ = true;
    Configured(config, range, replay, std::move(pending));
    return Outcome::Ok();
}

void RangeProfiler::Configured(const std::vector<uint8_t>& config, CUpti_ProfilerRange range,
                               CUpti_ProfilerReplayMode replay, Pending pending) {
    config_ = config;
    range_ = range;
    replay_ = replay;
    hasPending_ = true;
    pendingComplete_ = false;
    stopFailed_ = false;
    pending_ = std::move(pending);
}

Outcome RangeProfiler::Released() {
    return Fail(GPA_STATUS_ERROR_FAILED,
                "the range profiler of this context was released: another context on the same device collected "
                "counters in between (the passes of sessions on contexts of one device cannot interleave)");
}

Outcome RangeProfiler::Start() {
    if (session_) return session_->StartPass();
    if (object_ == nullptr) return Released();
    ScopedContext current(driver_, context_);
    if (!current.outcome().ok()) return current.outcome();
    auto params = OPENGPA_CUPTI_PARAMS(CUpti_RangeProfiler_Start_Params);
    params.pRangeProfilerObject = object_;
    const CUptiResult result = cupti_.cuptiRangeProfilerStart(&params);
    if (result != CUPTI_SUCCESS) return cupti_.Failure("cuptiRangeProfilerStart", result);
    return Outcome::Ok();
}

Outcome RangeProfiler::Stop(bool* allPassesSubmitted) {
    if (session_) {
        const Outcome stopped = session_->StopPass(allPassesSubmitted);
        if (!stopped.ok()) {
            stopFailed_ = true;
            return stopped;
        }
        if (*allPassesSubmitted) pendingComplete_ = true;
        return stopped;
    }
    if (object_ == nullptr) return Released();
    ScopedContext current(driver_, context_);
    if (!current.outcome().ok()) return current.outcome();
    auto params = OPENGPA_CUPTI_PARAMS(CUpti_RangeProfiler_Stop_Params);
    params.pRangeProfilerObject = object_;
    const CUptiResult result = cupti_.cuptiRangeProfilerStop(&params);
    if (result != CUPTI_SUCCESS) {
        stopFailed_ = true;
        return cupti_.Failure("cuptiRangeProfilerStop", result);
    }
    *allPassesSubmitted = params.isAllPassSubmitted != 0;
    if (*allPassesSubmitted) pendingComplete_ = true;
    return Outcome::Ok();
}

Outcome RangeProfiler::PushRange(const std::string& name) {
    if (session_) return session_->PushRange(name);
    if (object_ == nullptr) return Released();
    ScopedContext current(driver_, context_);
    if (!current.outcome().ok()) return current.outcome();
    auto params = OPENGPA_CUPTI_PARAMS(CUpti_RangeProfiler_PushRange_Params);
    params.pRangeProfilerObject = object_;
    params.pRangeName = name.c_str();
    const CUptiResult result = cupti_.cuptiRangeProfilerPushRange(&params);
    if (result != CUPTI_SUCCESS) return cupti_.Failure("cuptiRangeProfilerPushRange", result);
    return Outcome::Ok();
}

Outcome RangeProfiler::PopRange() {
    if (session_) return session_->PopRange();
    if (object_ == nullptr) return Released();
    ScopedContext current(driver_, context_);
    if (!current.outcome().ok()) return current.outcome();
    auto params = OPENGPA_CUPTI_PARAMS(CUpti_RangeProfiler_PopRange_Params);
    params.pRangeProfilerObject = object_;
    const CUptiResult result = cupti_.cuptiRangeProfilerPopRange(&params);
    if (result != CUPTI_SUCCESS) return cupti_.Failure("cuptiRangeProfilerPopRange", result);
    return Outcome::Ok();
}

Outcome RangeProfiler::Pause() {
    if (!session_) return Fail(GPA_STATUS_ERROR_FAILED, "this profiler cannot pause (CUPTI's Range Profiler API)");
    return session_->Pause();
}

Outcome RangeProfiler::Resume() {
    if (!session_) return Fail(GPA_STATUS_ERROR_FAILED, "this profiler cannot pause (CUPTI's Range Profiler API)");
    return session_->Resume();
}

Outcome RangeProfiler::ConfigureSession(const std::vector<uint8_t>& config, const std::vector<std::string>& metrics,
                                        size_t maxRanges, std::vector<uint8_t>* counterData, CUpti_ProfilerRange range,
                                        CUpti_ProfilerReplayMode replay) {
    if (session_ && sessionDecoded_ && config == config_ && range == range_ && replay == replay_ && maxRanges == sessionRanges_) {
        sessionDecoded_ = false;
        // The same configuration again (gpaprof's next batch): the decoded session goes on into the same image.
        const std::vector<uint8_t>* empty = KnownEmptyImage(metrics, maxRanges);
        if (empty && empty->size() == counterData->size()) {
            AddElapsed timer(&gStepTimes.sessionRestartNs);
            std::copy(empty->begin(), empty->end(), counterData->begin());  // in place: the session holds its address
            ScopedContext current(driver_, context_);
            if (current.outcome().ok() && session_->Restart(config, counterData).ok()) {
                ++sessionsReused_;
                return Outcome::Ok();
            }
        }
    }
    sessionDecoded_ = false;
    DisableObject();  // the previous configuration's session (its data was decoded or dropped above)
    if (Outcome o = EmptyCounterData(metrics, maxRanges, counterData); !o.ok()) return o;
    ReleaseOthersOnDevice();
    AddElapsed timer(&gStepTimes.sessionBeginNs);
    ++gStepTimes.sessionsBegun;
    ScopedContext current(driver_, context_);
    if (!current.outcome().ok()) return current.outcome();
    if (Outcome o = LegacyProfilerSession::Begin(cupti_, context_, config, counterData, range, replay, maxRanges, &session_);
        !o.ok()) {
        session_.reset();
        return o;
    }
    configured_ = true;
    sessionRanges_ = maxRanges;
    EnabledOnDevice().emplace_back(device_, this);
    return Outcome::Ok();
}

std::string RangeProfiler::EmptyImageKey(const std::vector<std::string>& metrics, size_t maxRanges) {
    std::string key = std::to_string(maxRanges);
    for (const std::string& metric : metrics) key += "," + metric;
    return key;
}

const std::vector<uint8_t>* RangeProfiler::KnownEmptyImage(const std::vector<std::string>& metrics, size_t maxRanges) const {
    const std::string key = EmptyImageKey(metrics, maxRanges);
    for (const auto& [known, empty] : emptyImages_) {
        if (known == key) return &empty;
    }
    return nullptr;
}

Outcome RangeProfiler::EmptyCounterData(const std::vector<std::string>& metrics, size_t maxRanges,
                                        std::vector<uint8_t>* image) {
    if (const std::vector<uint8_t>* known = KnownEmptyImage(metrics, maxRanges)) {
        AssignCopy(image, *known);
        return Outcome::Ok();
    }
    std::string key = EmptyImageKey(metrics, maxRanges);
    AddElapsed timer(&gStepTimes.emptyImageNs);
    ++gStepTimes.emptyImages;
    if (Outcome o = EnableObject(); !o.ok()) return o;
    const Outcome made = CreateCounterData(metrics, maxRanges, image);
    DisableObject();
    if (!made.ok()) return made;
    emptyImages_.emplace_back(std::move(key), std::vector<uint8_t>());
    AssignCopy(&emptyImages_.back().second, *image);
    if (emptyImages_.size() > 4) emptyImages_.erase(emptyImages_.begin());  // a few sizes at a time
    return Outcome::Ok();
}

}  // namespace gpa::cuda
