// The process-wide GPA state behind the C API: the backend, the opened contexts and the selected one.
//
// Threading model: every API call takes one process-wide lock, so calls from several threads are
// serialised and never corrupt state. The selected context is process-wide, as in GPA 2.x: a thread that
// calls GPA_SelectContext changes it for all threads. The blocking result calls (GPA_GetSample*) wait for
// the device with the lock released, so other threads may keep recording or polling meanwhile.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/backend.h"
#include "core/context.h"
#include "core/outcome.h"

namespace gpa {

class Runtime {
public:
    static Runtime& Instance();

    Outcome Initialize();
    Outcome Destroy();
    Outcome OpenContext(void* apiContext, GPA_OpenContextFlags flags);
    Outcome CloseContext();
    Outcome SelectContext(void* apiContext);

    Outcome GetNumCounters(gpa_uint32* count);
    Outcome GetCounterName(gpa_uint32 index, const char** name);
    Outcome GetCounterCategory(gpa_uint32 index, const char** category);
    Outcome GetCounterDescription(gpa_uint32 index, const char** description);
    Outcome GetCounterDataType(gpa_uint32 index, GPA_Type* type);
    Outcome GetCounterUsageType(gpa_uint32 index, GPA_Usage_Type* usage);
    Outcome GetCounterIndex(const char* name, gpa_uint32* index);

    Outcome EnableCounter(gpa_uint32 index);
    Outcome DisableCounter(gpa_uint32 index);
    Outcome EnableCounterStr(const char* name);
    Outcome DisableCounterStr(const char* name);
    Outcome EnableAllCounters();
    Outcome DisableAllCounters();
    Outcome GetEnabledCount(gpa_uint32* count);
    Outcome GetEnabledIndex(gpa_uint32 enabledNumber, gpa_uint32* counterIndex);
    Outcome IsCounterEnabled(gpa_uint32 index);

    Outcome GetPassCount(gpa_uint32* passes);
    Outcome BeginSession(gpa_uint32* sessionId);
    Outcome EndSession();
    Outcome BeginPass();
    Outcome EndPass();
    Outcome BeginSample(gpa_uint32 sampleId);
    Outcome EndSample();
    Outcome GetSampleCount(gpa_uint32 sessionId, gpa_uint32* samples);

    Outcome IsSessionReady(bool* ready, gpa_uint32 sessionId);
    Outcome IsSampleReady(bool* ready, gpa_uint32 sessionId, gpa_uint32 sampleId);
    // Reads a sample as `type`; `value` receives the counter's value before conversion.
    Outcome GetSample(gpa_uint32 sessionId, gpa_uint32 sampleId, gpa_uint32 counterIndex, GPA_Type type,
                      const void* result, double* value);

    Outcome GetDeviceID(gpa_uint32* deviceId);
    Outcome GetDeviceDesc(const char** description);

    Outcome SetSessionBufferSize(gpa_uint32 sessions);
    Outcome SetCommandList(void* commandList);

private:
    Runtime();
    Outcome RequireContext() const;
    Outcome CheckIndex(gpa_uint32 index) const;
    Outcome CheckNotSampling(const char* what) const;
    Outcome FindSession(gpa_uint32 sessionId, std::shared_ptr<Session>* session) const;
    Outcome SetEnabled(gpa_uint32 index, bool enable);

    std::mutex mutex_;
    bool initialized_ = false;
    std::unique_ptr<Backend> backend_;
    std::vector<std::unique_ptr<Context>> contexts_;
    Context* current_ = nullptr;
    size_t sessionBufferSize_;
    std::string environmentProblem_;  // a bad OPENGPA_SESSION_BUFFER_SIZE, logged by the first GPA_Initialize
};

}  // namespace gpa
