// The exported C entry points. Each one forwards to the Runtime, then reports: an error status is
// logged with its reason (GPA_LOGGING_ERROR) and kept for OGPA_GetLastErrorMessage; every call is logged
// with its arguments and status when tracing is wanted (GPA_LOGGING_TRACE).
#define GPALIB_DECL extern "C" __attribute__((visibility("default")))
#include "GPUPerfAPI.h"
#include "GPUPerfAPIFunctionTypes.h"

#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>
#include <string>
#include <type_traits>

#include "core/enum_strings.h"
#include "core/logger.h"
#include "core/runtime.h"

namespace {

using gpa::Outcome;
using gpa::Runtime;

thread_local std::string tLastError;

void AppendArgument(std::ostringstream& out, const char* text) {
    if (text == nullptr) out << "NULL";
    else out << '"' << text << '"';
}
template <typename T>
void AppendArgument(std::ostringstream& out, T* pointer) {
    if (pointer == nullptr) out << "NULL";
    else out << static_cast<const void*>(pointer);
}
template <typename T>
    requires std::is_arithmetic_v<T> || std::is_enum_v<T>
void AppendArgument(std::ostringstream& out, T value) {
    if constexpr (std::is_enum_v<T>) out << static_cast<long long>(value);
    else out << value;
}

template <typename... Args>
std::string FormatArguments(const Args&... args) {
    std::ostringstream out;
    bool first = true;
    ((out << (first ? "" : ", "), AppendArgument(out, args), first = false), ...);
    return out.str();
}

template <typename... Args>
GPA_Status Report(const char* function, const Outcome& outcome, const Args&... args) {
    // Kept until the thread's next error: OGPA_GetLastErrorMessage explains the last non-OK status.
    if (!outcome.ok()) {
        tLastError = std::string(function) + " failed with " + gpa::StatusName(outcome.status()) + ": " + outcome.reason();
        gpa::Logger::Instance().Error(tLastError);
    }
    if (gpa::Logger::Instance().Wants(GPA_LOGGING_TRACE)) {
        gpa::Logger::Instance().Trace(std::string(function) + "(" + FormatArguments(args...) + ") = " +
                                      gpa::StatusName(outcome.status()));
    }
    return outcome.status();
}

Runtime& Rt() { return Runtime::Instance(); }

template <typename T>
T Convert(double value) {
    if constexpr (std::is_floating_point_v<T>) {
        return static_cast<T>(value);
    } else {
        // Derived integer counters are rounded; counts never go below zero or beyond the type.
        if (!(value > 0.0)) return 0;
        const double rounded = std::nearbyint(value);
        if (rounded >= static_cast<double>(std::numeric_limits<T>::max())) return std::numeric_limits<T>::max();
        return static_cast<T>(rounded);
    }
}

template <typename T>
GPA_Status GetSample(const char* function, GPA_Type type, gpa_uint32 sessionID, gpa_uint32 sampleID,
                     gpa_uint32 counterIndex, T* pResult) {
    double value = 0.0;
    Outcome outcome = Rt().GetSample(sessionID, sampleID, counterIndex, type, pResult, &value);
    if (outcome.ok()) *pResult = Convert<T>(value);
    return Report(function, outcome, sessionID, sampleID, counterIndex, pResult);
}

}  // namespace

GPALIB_DECL GPA_Status GPA_RegisterLoggingCallback(GPA_Logging_Type loggingType, GPA_LoggingCallbackPtrType pCallbackFuncPtr) {
    const GPA_Status status = gpa::Logger::Instance().Register(loggingType, pCallbackFuncPtr);
    Outcome outcome = status == GPA_STATUS_OK
                          ? Outcome::Ok()
                          : gpa::Fail(status, "pCallbackFuncPtr is NULL; pass a function, or GPA_LOGGING_NONE to stop logging");
    return Report("GPA_RegisterLoggingCallback", outcome, loggingType, reinterpret_cast<void*>(pCallbackFuncPtr));
}

GPALIB_DECL GPA_Status GPA_Initialize(void) { return Report("GPA_Initialize", Rt().Initialize()); }
GPALIB_DECL GPA_Status GPA_Destroy(void) { return Report("GPA_Destroy", Rt().Destroy()); }
GPALIB_DECL GPA_Status GPA_OpenContext(void* pContext, GPA_OpenContextFlags flags) {
    return Report("GPA_OpenContext", Rt().OpenContext(pContext, flags), pContext, flags);
}
GPALIB_DECL GPA_Status GPA_CloseContext(void) { return Report("GPA_CloseContext", Rt().CloseContext()); }
GPALIB_DECL GPA_Status GPA_SelectContext(void* pContext) {
    return Report("GPA_SelectContext", Rt().SelectContext(pContext), pContext);
}

GPALIB_DECL GPA_Status GPA_GetNumCounters(gpa_uint32* pCount) {
    return Report("GPA_GetNumCounters", Rt().GetNumCounters(pCount), pCount);
}
GPALIB_DECL GPA_Status GPA_GetCounterName(gpa_uint32 index, const char** ppName) {
    return Report("GPA_GetCounterName", Rt().GetCounterName(index, ppName), index, ppName);
}
GPALIB_DECL GPA_Status GPA_GetCounterCategory(gpa_uint32 index, const char** ppCategory) {
    return Report("GPA_GetCounterCategory", Rt().GetCounterCategory(index, ppCategory), index, ppCategory);
}
GPALIB_DECL GPA_Status GPA_GetCounterDescription(gpa_uint32 index, const char** ppDescription) {
    return Report("GPA_GetCounterDescription", Rt().GetCounterDescription(index, ppDescription), index, ppDescription);
}
GPALIB_DECL GPA_Status GPA_GetCounterDataType(gpa_uint32 index, GPA_Type* pCounterDataType) {
    return Report("GPA_GetCounterDataType", Rt().GetCounterDataType(index, pCounterDataType), index, pCounterDataType);
}
GPALIB_DECL GPA_Status GPA_GetCounterUsageType(gpa_uint32 index, GPA_Usage_Type* pCounterUsageType) {
    return Report("GPA_GetCounterUsageType", Rt().GetCounterUsageType(index, pCounterUsageType), index, pCounterUsageType);
}
GPALIB_DECL GPA_Status GPA_GetDataTypeAsStr(GPA_Type counterDataType, const char** ppTypeStr) {
    Outcome outcome;
    const char* name = gpa::DataTypeName(counterDataType);
    if (name == nullptr) {
        outcome = gpa::Fail(GPA_STATUS_ERROR_NOT_FOUND, "data type " + std::to_string(static_cast<int>(counterDataType)) +
                                                            " is not a GPA_Type value");
    } else if (ppTypeStr == nullptr) {
        outcome = gpa::Fail(GPA_STATUS_ERROR_NULL_POINTER, "the ppTypeStr argument is NULL");
    } else {
        *ppTypeStr = name;
    }
    return Report("GPA_GetDataTypeAsStr", outcome, counterDataType, ppTypeStr);
}
GPALIB_DECL GPA_Status GPA_GetUsageTypeAsStr(GPA_Usage_Type counterUsageType, const char** ppTypeStr) {
    Outcome outcome;
    const char* name = gpa::UsageTypeName(counterUsageType);
    if (name == nullptr) {
        outcome = gpa::Fail(GPA_STATUS_ERROR_NOT_FOUND, "usage type " + std::to_string(static_cast<int>(counterUsageType)) +
                                                            " is not a GPA_Usage_Type value");
    } else if (ppTypeStr == nullptr) {
        outcome = gpa::Fail(GPA_STATUS_ERROR_NULL_POINTER, "the ppTypeStr argument is NULL");
    } else {
        *ppTypeStr = name;
    }
    return Report("GPA_GetUsageTypeAsStr", outcome, counterUsageType, ppTypeStr);
}
GPALIB_DECL GPA_Status GPA_GetCounterIndex(const char* pCounter, gpa_uint32* pIndex) {
    return Report("GPA_GetCounterIndex", Rt().GetCounterIndex(pCounter, pIndex), pCounter, pIndex);
}

GPALIB_DECL GPA_Status GPA_EnableCounter(gpa_uint32 index) { return Report("GPA_EnableCounter", Rt().EnableCounter(index), index); }
GPALIB_DECL GPA_Status GPA_DisableCounter(gpa_uint32 index) { return Report("GPA_DisableCounter", Rt().DisableCounter(index), index); }
GPALIB_DECL GPA_Status GPA_GetEnabledCount(gpa_uint32* pCount) {
    return Report("GPA_GetEnabledCount", Rt().GetEnabledCount(pCount), pCount);
}
GPALIB_DECL GPA_Status GPA_GetEnabledIndex(gpa_uint32 enabledNumber, gpa_uint32* pEnabledCounterIndex) {
    return Report("GPA_GetEnabledIndex", Rt().GetEnabledIndex(enabledNumber, pEnabledCounterIndex), enabledNumber,
                  pEnabledCounterIndex);
}
GPALIB_DECL GPA_Status GPA_IsCounterEnabled(gpa_uint32 counterIndex) {
    return Report("GPA_IsCounterEnabled", Rt().IsCounterEnabled(counterIndex), counterIndex);
}
GPALIB_DECL GPA_Status GPA_EnableCounterStr(const char* pCounter) {
    return Report("GPA_EnableCounterStr", Rt().EnableCounterStr(pCounter), pCounter);
}
GPALIB_DECL GPA_Status GPA_DisableCounterStr(const char* pCounter) {
    return Report("GPA_DisableCounterStr", Rt().DisableCounterStr(pCounter), pCounter);
}
GPALIB_DECL GPA_Status GPA_EnableAllCounters(void) { return Report("GPA_EnableAllCounters", Rt().EnableAllCounters()); }
GPALIB_DECL GPA_Status GPA_DisableAllCounters(void) { return Report("GPA_DisableAllCounters", Rt().DisableAllCounters()); }

GPALIB_DECL GPA_Status GPA_GetPassCount(gpa_uint32* pNumPasses) {
    return Report("GPA_GetPassCount", Rt().GetPassCount(pNumPasses), pNumPasses);
}
GPALIB_DECL GPA_Status GPA_BeginSession(gpa_uint32* pSessionID) {
    return Report("GPA_BeginSession", Rt().BeginSession(pSessionID), pSessionID);
}
GPALIB_DECL GPA_Status GPA_EndSession(void) { return Report("GPA_EndSession", Rt().EndSession()); }
GPALIB_DECL GPA_Status GPA_BeginPass(void) { return Report("GPA_BeginPass", Rt().BeginPass()); }
GPALIB_DECL GPA_Status GPA_EndPass(void) { return Report("GPA_EndPass", Rt().EndPass()); }
GPALIB_DECL GPA_Status GPA_BeginSample(gpa_uint32 sampleID) { return Report("GPA_BeginSample", Rt().BeginSample(sampleID), sampleID); }
GPALIB_DECL GPA_Status GPA_EndSample(void) { return Report("GPA_EndSample", Rt().EndSample()); }
GPALIB_DECL GPA_Status GPA_GetSampleCount(gpa_uint32 sessionID, gpa_uint32* pSamples) {
    return Report("GPA_GetSampleCount", Rt().GetSampleCount(sessionID, pSamples), sessionID, pSamples);
}

GPALIB_DECL GPA_Status GPA_IsSampleReady(bool* pReadyResult, gpa_uint32 sessionID, gpa_uint32 sampleID) {
    return Report("GPA_IsSampleReady", Rt().IsSampleReady(pReadyResult, sessionID, sampleID), pReadyResult, sessionID, sampleID);
}
GPALIB_DECL GPA_Status GPA_IsSessionReady(bool* pReadyResult, gpa_uint32 sessionID) {
    return Report("GPA_IsSessionReady", Rt().IsSessionReady(pReadyResult, sessionID), pReadyResult, sessionID);
}
GPALIB_DECL GPA_Status GPA_GetSampleUInt64(gpa_uint32 sessionID, gpa_uint32 sampleID, gpa_uint32 counterIndex, gpa_uint64* pResult) {
    return GetSample("GPA_GetSampleUInt64", GPA_TYPE_UINT64, sessionID, sampleID, counterIndex, pResult);
}
GPALIB_DECL GPA_Status GPA_GetSampleUInt32(gpa_uint32 sessionID, gpa_uint32 sampleID, gpa_uint32 counterIndex, gpa_uint32* pResult) {
    return GetSample("GPA_GetSampleUInt32", GPA_TYPE_UINT32, sessionID, sampleID, counterIndex, pResult);
}
GPALIB_DECL GPA_Status GPA_GetSampleFloat64(gpa_uint32 sessionID, gpa_uint32 sampleID, gpa_uint32 counterIndex, gpa_float64* pResult) {
    return GetSample("GPA_GetSampleFloat64", GPA_TYPE_FLOAT64, sessionID, sampleID, counterIndex, pResult);
}
GPALIB_DECL GPA_Status GPA_GetSampleFloat32(gpa_uint32 sessionID, gpa_uint32 sampleID, gpa_uint32 counterIndex, gpa_float32* pResult) {
    return GetSample("GPA_GetSampleFloat32", GPA_TYPE_FLOAT32, sessionID, sampleID, counterIndex, pResult);
}

GPALIB_DECL const char* GPA_GetStatusAsStr(GPA_Status status) { return gpa::StatusName(status); }
GPALIB_DECL GPA_Status GPA_GetDeviceID(gpa_uint32* pDeviceID) {
    return Report("GPA_GetDeviceID", Rt().GetDeviceID(pDeviceID), pDeviceID);
}
GPALIB_DECL GPA_Status GPA_GetDeviceDesc(const char** ppDesc) {
    return Report("GPA_GetDeviceDesc", Rt().GetDeviceDesc(ppDesc), ppDesc);
}

GPALIB_DECL const char* OGPA_GetLastErrorMessage(void) { return tLastError.c_str(); }
GPALIB_DECL GPA_Status OGPA_SetSessionBufferSize(gpa_uint32 sessionCount) {
    return Report("OGPA_SetSessionBufferSize", Rt().SetSessionBufferSize(sessionCount), sessionCount);
}
GPALIB_DECL GPA_Status OGPA_SetCommandList(void* pCommandList) {
    return Report("OGPA_SetCommandList", Rt().SetCommandList(pCommandList), pCommandList);
}

// Every entry of the function list has a definition of exactly the listed type.
#define GPA_FUNCTION(ReturnType, Name, ParameterList, ArgumentList) \
    static_assert(std::is_same_v<decltype(&Name), Name##PtrType>, #Name " does not match GPUPerfAPIFunctionList.h");
#define OGPA_EXTENSION_FUNCTION GPA_FUNCTION
#include "GPUPerfAPIFunctionList.h"
#undef GPA_FUNCTION
#undef OGPA_EXTENSION_FUNCTION
