#include "core/runtime.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "core/enum_strings.h"
#include "core/logger.h"

namespace gpa {

namespace {

constexpr const char* kOpenFirst = "no context is open; call GPA_OpenContext (or GPA_SelectContext) first";

// Runs while Runtime::Instance() constructs the runtime, so it must not log (a logging callback calling GPA
// would re-enter that construction); a bad value is described in *problem and logged by GPA_Initialize.
size_t SessionBufferSizeFromEnvironment(std::string* problem) {
    if (const char* text = std::getenv("OPENGPA_SESSION_BUFFER_SIZE")) {
        char* end = nullptr;
        const unsigned long value = std::strtoul(text, &end, 10);
        if (end != text && *end == '\0' && value >= SessionRing::kMinimumCapacity) return value;
        *problem = std::string("OPENGPA_SESSION_BUFFER_SIZE='") + text +
                   "' is not a number >= 4; keeping 4 sessions per context";
    }
    return SessionRing::kMinimumCapacity;
}

// Log messages produced while the runtime lock is held, emitted when this object goes out of scope.
// Declared before the lock guard, it is destroyed after the lock is released, so a logging callback may
// call GPA functions (which take the lock) without deadlocking.
class DeferredLog {
public:
    DeferredLog() = default;
    DeferredLog(const DeferredLog&) = delete;
    DeferredLog& operator=(const DeferredLog&) = delete;
    ~DeferredLog() {
        for (const auto& [type, text] : entries_) {
            if (type == GPA_LOGGING_ERROR) Logger::Instance().Error(text);
            else Logger::Instance().Message(text);
        }
    }
    void Error(std::string text) { entries_.emplace_back(GPA_LOGGING_ERROR, std::move(text)); }
    void Message(std::string text) { entries_.emplace_back(GPA_LOGGING_MESSAGE, std::move(text)); }

private:
    std::vector<std::pair<GPA_Logging_Type, std::string>> entries_;
};

std::string NullArgument(const char* name) { return std::string("the ") + name + " argument is NULL"; }

// A name no counter of the context has; the backend's reason when it gave one (close names, what is wrong).
Outcome CounterNotFound(const char* name, const Outcome& lookup) {
    return Fail(GPA_STATUS_ERROR_NOT_FOUND,
                std::string("no counter is named '") + name + "' on this device" +
                    (lookup.reason().empty() ? "; GPA_GetCounterName lists the available ones" : ": " + lookup.reason()));
}

}  // namespace

Runtime& Runtime::Instance() {
    // Never destroyed: a program that exits with contexts open (exit() in an error path, as the seed's example
    // does) would otherwise have their sessions delete GL queries and Vulkan objects after the driver's own exit
    // handlers tore it down (gpa_example_opengl and gpa_example_vulkan died in exit() on an H200, 2026-11-28, most
    // likely so). The system takes the memory back; GPA_Destroy is the orderly end.
    static Runtime* runtime = new Runtime();
    return *runtime;
}

Runtime::Runtime() { sessionBufferSize_ = SessionBufferSizeFromEnvironment(&environmentProblem_); }

Outcome Runtime::RequireContext() const {
    if (current_ == nullptr) return Fail(GPA_STATUS_ERROR_COUNTERS_NOT_OPEN, kOpenFirst);
    return Outcome::Ok();
}

Outcome Runtime::CheckIndex(gpa_uint32 index) const {
    const size_t count = current_->catalog().size();
    if (index >= count) {
        return Fail(GPA_STATUS_ERROR_INDEX_OUT_OF_RANGE,
                    "counter index " + std::to_string(index) + " is out of range; this context has " +
                        std::to_string(count) + " counters" +
                        (count > 0 ? " (0.." + std::to_string(count - 1) + ")" : std::string()));
    }
    return Outcome::Ok();
}

Outcome Runtime::CheckNotSampling(const char* what) const {
    if (current_->recording() != nullptr) {
        return Fail(GPA_STATUS_ERROR_CANNOT_CHANGE_COUNTERS_WHEN_SAMPLING,
                    std::string("counters cannot be ") + what + " while session " +
                        std::to_string(current_->recording()->id()) + " is being recorded; call GPA_EndSession first");
    }
    return Outcome::Ok();
}

// ---- initialisation and contexts -------------------------------------------------------------------------

Outcome Runtime::Initialize() {
    DeferredLog log;
    std::lock_guard<std::mutex> lock(mutex_);
    if (!environmentProblem_.empty()) {
        log.Error(environmentProblem_);
        environmentProblem_.clear();  // said once per process
    }
    if (initialized_) return Fail(GPA_STATUS_ERROR_FAILED, "GPA is already initialized; call GPA_Destroy before initializing again");
    std::unique_ptr<Backend> backend = CreateBackend();
    Outcome outcome = backend->Initialize();
    if (!outcome.ok()) {
        return Fail(GPA_STATUS_ERROR_FAILED, std::string("the ") + backend->ApiName() + " backend could not be initialized: " + outcome.reason());
    }
    backend_ = std::move(backend);
    initialized_ = true;
    return Outcome::Ok();
}

Outcome Runtime::Destroy() {
    DeferredLog log;
    std::lock_guard<std::mutex> lock(mutex_);
    if (!initialized_) return Fail(GPA_STATUS_ERROR_FAILED, "GPA is not initialized; call GPA_Initialize first");
    if (!contexts_.empty()) {
        log.Message("GPA_Destroy closed " + std::to_string(contexts_.size()) + " context(s) that were still open");
    }
    current_ = nullptr;
    contexts_.clear();
    Outcome outcome = backend_->Destroy();
    backend_.reset();
    initialized_ = false;
    if (!outcome.ok()) return Fail(GPA_STATUS_ERROR_FAILED, "the backend could not be shut down: " + outcome.reason());
    return Outcome::Ok();
}

Outcome Runtime::OpenContext(void* apiContext, GPA_OpenContextFlags flags) {
    DeferredLog log;
    std::lock_guard<std::mutex> lock(mutex_);
    if (apiContext == nullptr) return Fail(GPA_STATUS_ERROR_NULL_POINTER, NullArgument("pContext"));
    if (!initialized_) {
        return Fail(GPA_STATUS_ERROR_HARDWARE_NOT_SUPPORTED, "GPA_Initialize was not called; call it before GPA_OpenContext");
    }
    for (const std::unique_ptr<Context>& context : contexts_) {
        if (context->apiHandle() == apiContext) {
            return Fail(GPA_STATUS_ERROR_COUNTERS_ALREADY_OPEN,
                        "this context is already open; use GPA_SelectContext to make it current");
        }
    }
    const GPA_OpenContextFlags known = GPA_OPENCONTEXT_HIDE_PUBLIC_COUNTERS_BIT | GPA_OPENCONTEXT_ENABLE_HARDWARE_COUNTERS_BIT;
    if ((flags & ~known) != 0) {
        log.Message("GPA_OpenContext: flag bits 0x" + [&] {
            char text[16];
            std::snprintf(text, sizeof text, "%x", flags & ~known);
            return std::string(text);
        }() + " have no effect in OpenGPA and are ignored");
    }
    std::unique_ptr<BackendContext> backendContext;
    Outcome outcome = backend_->OpenContext(apiContext, flags, &backendContext);
    if (!outcome.ok()) return outcome;
    std::shared_ptr<BackendContext> shared(std::move(backendContext));
    CounterCatalog::Options options;
    options.exposeDerived = (flags & GPA_OPENCONTEXT_HIDE_PUBLIC_COUNTERS_BIT) == 0;
    options.exposeHardware = (flags & GPA_OPENCONTEXT_ENABLE_HARDWARE_COUNTERS_BIT) != 0;
    auto catalog = std::make_shared<const CounterCatalog>(
        CounterCatalog::Build(shared->HardwareCounters(), shared->DerivedCounters(), options));
    for (const OmittedCounter& omitted : catalog->omitted()) {
        log.Message("counter " + omitted.name + " is not exposed: " + omitted.reason);
    }
    contexts_.push_back(std::make_unique<Context>(apiContext, std::move(shared), std::move(catalog), sessionBufferSize_));
    current_ = contexts_.back().get();
    return Outcome::Ok();
}

Outcome Runtime::CloseContext() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (Outcome o = RequireContext(); !o.ok()) return o;
    if (current_->recording() != nullptr) {
        return Fail(GPA_STATUS_ERROR_SAMPLING_NOT_ENDED, "session " + std::to_string(current_->recording()->id()) +
                                                             " is still being recorded; call GPA_EndSession first");
    }
    for (auto it = contexts_.begin(); it != contexts_.end(); ++it) {
        if (it->get() == current_) {
            contexts_.erase(it);
            break;
        }
    }
    current_ = nullptr;
    return Outcome::Ok();
}

Outcome Runtime::SelectContext(void* apiContext) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (apiContext == nullptr) return Fail(GPA_STATUS_ERROR_NULL_POINTER, NullArgument("pContext"));
    for (const std::unique_ptr<Context>& context : contexts_) {
        if (context->apiHandle() == apiContext) {
            current_ = context.get();
            return Outcome::Ok();
        }
    }
    return Fail(GPA_STATUS_ERROR_COUNTERS_NOT_OPEN, "this context was never opened (or was closed); call GPA_OpenContext first");
}

// ---- counter catalog -------------------------------------------------------------------------------------

Outcome Runtime::GetNumCounters(gpa_uint32* count) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (Outcome o = RequireContext(); !o.ok()) return o;
    if (count == nullptr) return Fail(GPA_STATUS_ERROR_NULL_POINTER, NullArgument("pCount"));
    *count = static_cast<gpa_uint32>(current_->catalog().size());
    return Outcome::Ok();
}

Outcome Runtime::GetCounterName(gpa_uint32 index, const char** name) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (Outcome o = RequireContext(); !o.ok()) return o;
    if (name == nullptr) return Fail(GPA_STATUS_ERROR_NULL_POINTER, NullArgument("ppName"));
    // The seed documents GPA_STATUS_ERROR_NOT_FOUND (not INDEX_OUT_OF_RANGE) for this function.
    if (index >= current_->catalog().size()) {
        return Fail(GPA_STATUS_ERROR_NOT_FOUND, "no counter has index " + std::to_string(index) + "; this context has " +
                                                    std::to_string(current_->catalog().size()) + " counters");
    }
    *name = current_->catalog().at(index).name.c_str();
    return Outcome::Ok();
}

Outcome Runtime::GetCounterCategory(gpa_uint32 index, const char** category) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (Outcome o = RequireContext(); !o.ok()) return o;
    if (Outcome o = CheckIndex(index); !o.ok()) return o;
    if (category == nullptr) return Fail(GPA_STATUS_ERROR_NULL_POINTER, NullArgument("ppCategory"));
    *category = current_->catalog().at(index).group.c_str();
    return Outcome::Ok();
}

Outcome Runtime::GetCounterDescription(gpa_uint32 index, const char** description) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (Outcome o = RequireContext(); !o.ok()) return o;
    if (Outcome o = CheckIndex(index); !o.ok()) return o;
    if (description == nullptr) return Fail(GPA_STATUS_ERROR_NULL_POINTER, NullArgument("ppDescription"));
    *description = current_->catalog().at(index).description.c_str();
    return Outcome::Ok();
}

Outcome Runtime::GetCounterDataType(gpa_uint32 index, GPA_Type* type) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (Outcome o = RequireContext(); !o.ok()) return o;
    if (Outcome o = CheckIndex(index); !o.ok()) return o;
    if (type == nullptr) return Fail(GPA_STATUS_ERROR_NULL_POINTER, NullArgument("pCounterDataType"));
    *type = current_->catalog().at(index).type;
    return Outcome::Ok();
}

Outcome Runtime::GetCounterUsageType(gpa_uint32 index, GPA_Usage_Type* usage) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (Outcome o = RequireContext(); !o.ok()) return o;
    if (Outcome o = CheckIndex(index); !o.ok()) return o;
    if (usage == nullptr) return Fail(GPA_STATUS_ERROR_NULL_POINTER, NullArgument("pCounterUsageType"));
    *usage = current_->catalog().at(index).usage;
    return Outcome::Ok();
}

Outcome Runtime::GetCounterIndex(const char* name, gpa_uint32* index) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (Outcome o = RequireContext(); !o.ok()) return o;
    if (name == nullptr) return Fail(GPA_STATUS_ERROR_NULL_POINTER, NullArgument("pCounter"));
    if (index == nullptr) return Fail(GPA_STATUS_ERROR_NULL_POINTER, NullArgument("pIndex"));
    if (Outcome found = current_->FindCounter(name, index); !found.ok()) return CounterNotFound(name, found);
    return Outcome::Ok();
}

// ---- enabling --------------------------------------------------------------------------------------------

Outcome Runtime::SetEnabled(gpa_uint32 index, bool enable) {
    if (Outcome o = CheckNotSampling(enable ? "enabled" : "disabled"); !o.ok()) return o;
    const std::string& name = current_->catalog().at(index).name;
    if (enable && current_->IsEnabled(index)) {
        return Fail(GPA_STATUS_ERROR_ALREADY_ENABLED, "counter " + name + " (index " + std::to_string(index) + ") is already enabled");
    }
    if (!enable && !current_->IsEnabled(index)) {
        return Fail(GPA_STATUS_ERROR_NOT_ENABLED, "counter " + name + " (index " + std::to_string(index) +
                                                      ") is not enabled, so it cannot be disabled");
    }
    if (enable) current_->Enable(index);
    else current_->Disable(index);
    return Outcome::Ok();
}

Outcome Runtime::EnableCounter(gpa_uint32 index) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (Outcome o = RequireContext(); !o.ok()) return o;
    if (Outcome o = CheckIndex(index); !o.ok()) return o;
    return SetEnabled(index, true);
}

Outcome Runtime::DisableCounter(gpa_uint32 index) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (Outcome o = RequireContext(); !o.ok()) return o;
    if (Outcome o = CheckIndex(index); !o.ok()) return o;
    return SetEnabled(index, false);
}

Outcome Runtime::EnableCounterStr(const char* name) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (name == nullptr) return Fail(GPA_STATUS_ERROR_NULL_POINTER, NullArgument("pCounter"));
    if (Outcome o = RequireContext(); !o.ok()) return o;
    if (Outcome o = CheckNotSampling("enabled"); !o.ok()) return o;
    uint32_t index = 0;
    if (Outcome found = current_->FindCounter(name, &index); !found.ok()) return CounterNotFound(name, found);
    return SetEnabled(index, true);
}

Outcome Runtime::DisableCounterStr(const char* name) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (name == nullptr) return Fail(GPA_STATUS_ERROR_NULL_POINTER, NullArgument("pCounter"));
    if (Outcome o = RequireContext(); !o.ok()) return o;
    if (Outcome o = CheckNotSampling("disabled"); !o.ok()) return o;
    uint32_t index = 0;
    if (Outcome found = current_->FindCounter(name, &index); !found.ok()) return CounterNotFound(name, found);
    return SetEnabled(index, false);
}

Outcome Runtime::EnableAllCounters() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (Outcome o = RequireContext(); !o.ok()) return o;
    if (Outcome o = CheckNotSampling("enabled"); !o.ok()) return o;
    for (uint32_t i = 0; i < current_->catalog().size(); ++i) current_->Enable(i);
    return Outcome::Ok();
}

Outcome Runtime::DisableAllCounters() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (Outcome o = RequireContext(); !o.ok()) return o;
    if (Outcome o = CheckNotSampling("disabled"); !o.ok()) return o;
    current_->DisableAll();
    return Outcome::Ok();
}

Outcome Runtime::GetEnabledCount(gpa_uint32* count) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (Outcome o = RequireContext(); !o.ok()) return o;
    if (count == nullptr) return Fail(GPA_STATUS_ERROR_NULL_POINTER, NullArgument("pCount"));
    *count = static_cast<gpa_uint32>(current_->enabled().size());
    return Outcome::Ok();
}

Outcome Runtime::GetEnabledIndex(gpa_uint32 enabledNumber, gpa_uint32* counterIndex) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (Outcome o = RequireContext(); !o.ok()) return o;
    if (counterIndex == nullptr) return Fail(GPA_STATUS_ERROR_NULL_POINTER, NullArgument("pEnabledCounterIndex"));
    const size_t count = current_->enabled().size();
    if (enabledNumber >= count) {
        return Fail(GPA_STATUS_ERROR_INDEX_OUT_OF_RANGE, "enabled counter number " + std::to_string(enabledNumber) +
                                                             " is out of range; " + std::to_string(count) +
                                                             " counters are enabled");
    }
    *counterIndex = current_->enabled()[enabledNumber];
    return Outcome::Ok();
}

Outcome Runtime::IsCounterEnabled(gpa_uint32 index) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (Outcome o = RequireContext(); !o.ok()) return o;
    if (Outcome o = CheckIndex(index); !o.ok()) return o;
    if (!current_->IsEnabled(index)) {
        return Fail(GPA_STATUS_ERROR_NOT_FOUND, "counter " + current_->catalog().at(index).name + " is not enabled");
    }
    return Outcome::Ok();
}

// ---- sampling --------------------------------------------------------------------------------------------

Outcome Runtime::GetPassCount(gpa_uint32* passes) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (Outcome o = RequireContext(); !o.ok()) return o;
    if (passes == nullptr) return Fail(GPA_STATUS_ERROR_NULL_POINTER, NullArgument("pNumPasses"));
    if (current_->recording() != nullptr) {
        *passes = current_->recording()->requiredPasses();
        return Outcome::Ok();
    }
    PassPlan plan;
    if (Outcome o = current_->Plan(&plan); !o.ok()) return o;
    *passes = plan.passCount;
    return Outcome::Ok();
}

Outcome Runtime::BeginSession(gpa_uint32* sessionId) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (Outcome o = RequireContext(); !o.ok()) return o;
    if (sessionId == nullptr) return Fail(GPA_STATUS_ERROR_NULL_POINTER, NullArgument("pSessionID"));
    if (current_->recording() != nullptr) {
        return Fail(GPA_STATUS_ERROR_SAMPLING_ALREADY_STARTED, "session " + std::to_string(current_->recording()->id()) +
                                                                   " is still being recorded; call GPA_EndSession first");
    }
    if (current_->enabled().empty()) {
        return Fail(GPA_STATUS_ERROR_NO_COUNTERS_ENABLED,
                    "no counters are enabled; enable some with GPA_EnableCounter, GPA_EnableCounterStr or GPA_EnableAllCounters");
    }
    return current_->BeginSession(sessionId);
}

Outcome Runtime::EndSession() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (Outcome o = RequireContext(); !o.ok()) return o;
    if (current_->recording() == nullptr) {
        return Fail(GPA_STATUS_ERROR_SAMPLING_NOT_STARTED, "no session is being recorded; call GPA_BeginSession first");
    }
    return current_->EndSession();
}

Outcome Runtime::BeginPass() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (Outcome o = RequireContext(); !o.ok()) return o;
    if (current_->recording() == nullptr) {
        return Fail(GPA_STATUS_ERROR_SAMPLING_NOT_STARTED, "no session is being recorded; call GPA_BeginSession first");
    }
    return current_->recording()->BeginPass();
}

Outcome Runtime::EndPass() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (Outcome o = RequireContext(); !o.ok()) return o;
    if (current_->recording() == nullptr) {
        return Fail(GPA_STATUS_ERROR_PASS_NOT_STARTED, "no session is being recorded, so no pass is open; call GPA_BeginSession and GPA_BeginPass first");
    }
    return current_->recording()->EndPass();
}

Outcome Runtime::BeginSample(gpa_uint32 sampleId) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (Outcome o = RequireContext(); !o.ok()) return o;
    if (current_->recording() == nullptr) {
        return Fail(GPA_STATUS_ERROR_SAMPLING_NOT_STARTED, "no session is being recorded; call GPA_BeginSession first");
    }
    return current_->recording()->BeginSample(sampleId);
}

Outcome Runtime::EndSample() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (Outcome o = RequireContext(); !o.ok()) return o;
    if (current_->recording() == nullptr) {
        return Fail(GPA_STATUS_ERROR_SAMPLE_NOT_STARTED, "no session is being recorded, so no sample is open");
    }
    return current_->recording()->EndSample();
}

Outcome Runtime::FindSession(gpa_uint32 sessionId, std::shared_ptr<Session>* session) const {
    *session = current_->FindFinished(sessionId);
    if (*session == nullptr) {
        if (current_->IsRecording(sessionId)) {
            return Fail(GPA_STATUS_ERROR_SAMPLING_NOT_ENDED,
                        "session " + std::to_string(sessionId) + " is still being recorded; call GPA_EndSession first");
        }
        return Fail(GPA_STATUS_ERROR_SESSION_NOT_FOUND,
                    "session " + std::to_string(sessionId) +
                        " is not available: it was never ended on this context, or newer sessions overwrote it "
                        "(this context keeps the last sessions only; read results sooner)");
    }
    return Outcome::Ok();
}

Outcome Runtime::GetSampleCount(gpa_uint32 sessionId, gpa_uint32* samples) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (Outcome o = RequireContext(); !o.ok()) return o;
    if (samples == nullptr) return Fail(GPA_STATUS_ERROR_NULL_POINTER, NullArgument("pSamples"));
    std::shared_ptr<Session> session;
    if (Outcome o = FindSession(sessionId, &session); !o.ok()) return o;
    *samples = session->SampleCount();
    return Outcome::Ok();
}

// ---- results ---------------------------------------------------------------------------------------------

Outcome Runtime::IsSessionReady(bool* ready, gpa_uint32 sessionId) {
    std::shared_ptr<Session> session;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (Outcome o = RequireContext(); !o.ok()) return o;
        if (ready == nullptr) return Fail(GPA_STATUS_ERROR_NULL_POINTER, NullArgument("pReadyResult"));
        if (current_->IsRecording(sessionId)) {
            *ready = false;  // not ended yet, so certainly not ready
            return Outcome::Ok();
        }
        if (Outcome o = FindSession(sessionId, &session); !o.ok()) return o;
    }
    *ready = session->IsReady();
    return Outcome::Ok();
}

Outcome Runtime::IsSampleReady(bool* ready, gpa_uint32 sessionId, gpa_uint32 sampleId) {
    std::shared_ptr<Session> session;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (Outcome o = RequireContext(); !o.ok()) return o;
        if (ready == nullptr) return Fail(GPA_STATUS_ERROR_NULL_POINTER, NullArgument("pReadyResult"));
        if (current_->IsRecording(sessionId)) {
            *ready = false;
            return Outcome::Ok();
        }
        if (Outcome o = FindSession(sessionId, &session); !o.ok()) return o;
    }
    return session->IsSampleReady(sampleId, ready);
}

Outcome Runtime::GetSample(gpa_uint32 sessionId, gpa_uint32 sampleId, gpa_uint32 counterIndex, GPA_Type type,
                           const void* result, double* value) {
    std::shared_ptr<Session> session;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (Outcome o = RequireContext(); !o.ok()) return o;
        if (Outcome o = FindSession(sessionId, &session); !o.ok()) return o;
        if (Outcome o = CheckIndex(counterIndex); !o.ok()) return o;
        const ExposedCounter& counter = current_->catalog().at(counterIndex);
        if (!session->IsCounterEnabled(counterIndex)) {
            return Fail(GPA_STATUS_ERROR_NOT_ENABLED, "counter " + counter.name + " was not enabled in session " +
                                                          std::to_string(sessionId));
        }
        if (result == nullptr) return Fail(GPA_STATUS_ERROR_NULL_POINTER, NullArgument("pResult"));
        if (counter.type != type) {
            return Fail(GPA_STATUS_ERROR_COUNTER_NOT_OF_SPECIFIED_TYPE,
                        "counter " + counter.name + " is of type " + DataTypeName(counter.type) + ", not " +
                            DataTypeName(type) + "; use the GPA_GetSample function for " + DataTypeName(counter.type));
        }
    }
    // Waiting for the device happens without the runtime lock.
    return session->Read(sampleId, counterIndex, value);
}

Outcome Runtime::GetDeviceID(gpa_uint32* deviceId) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (Outcome o = RequireContext(); !o.ok()) return o;
    if (deviceId == nullptr) return Fail(GPA_STATUS_ERROR_NULL_POINTER, NullArgument("pDeviceID"));
    if (!current_->device().deviceId) {
        return Fail(GPA_STATUS_ERROR_NOT_FOUND, "the device of this context does not report a PCI device id");
    }
    *deviceId = *current_->device().deviceId;
    return Outcome::Ok();
}

Outcome Runtime::GetDeviceDesc(const char** description) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (Outcome o = RequireContext(); !o.ok()) return o;
    if (description == nullptr) return Fail(GPA_STATUS_ERROR_NULL_POINTER, NullArgument("ppDesc"));
    if (current_->device().name.empty()) {
        return Fail(GPA_STATUS_ERROR_NOT_FOUND, "the device of this context does not report a name");
    }
    *description = current_->device().name.c_str();
    return Outcome::Ok();
}

Outcome Runtime::SetCommandList(void* commandList) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (Outcome o = RequireContext(); !o.ok()) return o;
    if (commandList == nullptr) return Fail(GPA_STATUS_ERROR_NULL_POINTER, NullArgument("pCommandList"));
    return current_->backend().SetCommandList(commandList);
}

Outcome Runtime::SetSessionBufferSize(gpa_uint32 sessions) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (sessions < SessionRing::kMinimumCapacity) {
        return Fail(GPA_STATUS_ERROR_INDEX_OUT_OF_RANGE, "a context keeps at least 4 sessions; " +
                                                             std::to_string(sessions) + " is too few");
    }
    sessionBufferSize_ = sessions;
    return Outcome::Ok();
}

}  // namespace gpa
