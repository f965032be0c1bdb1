/*
 * The single source of truth for the GPA C API: every exported function, once.
 *
 * Includers define GPA_FUNCTION(ReturnType, Name, ParameterList, ArgumentList) and optionally
 * OGPA_EXTENSION_FUNCTION(...) with the same shape, then include this file. GPUPerfAPI.h turns the
 * list into prototypes, GPUPerfAPIFunctionTypes.h into <Name>PtrType typedefs, the library checks
 * its definitions against it and the tests load every entry with dlsym.
 *
 * GPA_FUNCTION entries are the GPA 2.x interface (names, order of parameters and types unchanged).
 * OGPA_EXTENSION_FUNCTION entries are OpenGPA additions; programs written for 2.x never need them.
 */
#ifndef OGPA_EXTENSION_FUNCTION
#define OGPA_EXTENSION_FUNCTION(ReturnType, Name, ParameterList, ArgumentList)
#define OGPA_UNDEFINE_EXTENSION_FUNCTION_AFTER_LIST
#endif

/* Logging */
GPA_FUNCTION(GPA_Status, GPA_RegisterLoggingCallback, (GPA_Logging_Type loggingType, GPA_LoggingCallbackPtrType pCallbackFuncPtr), (loggingType, pCallbackFuncPtr))

/* Initialization and contexts */
GPA_FUNCTION(GPA_Status, GPA_Initialize, (void), ())
GPA_FUNCTION(GPA_Status, GPA_Destroy, (void), ())
GPA_FUNCTION(GPA_Status, GPA_OpenContext, (void* pContext, GPA_OpenContextFlags flags), (pContext, flags))
GPA_FUNCTION(GPA_Status, GPA_CloseContext, (void), ())
GPA_FUNCTION(GPA_Status, GPA_SelectContext, (void* pContext), (pContext))

/* Counter catalog */
GPA_FUNCTION(GPA_Status, GPA_GetNumCounters, (gpa_uint32* pCount), (pCount))
GPA_FUNCTION(GPA_Status, GPA_GetCounterName, (gpa_uint32 index, const char** ppName), (index, ppName))
GPA_FUNCTION(GPA_Status, GPA_GetCounterCategory, (gpa_uint32 index, const char** ppCategory), (index, ppCategory))
GPA_FUNCTION(GPA_Status, GPA_GetCounterDescription, (gpa_uint32 index, const char** ppDescription), (index, ppDescription))
GPA_FUNCTION(GPA_Status, GPA_GetCounterDataType, (gpa_uint32 index, GPA_Type* pCounterDataType), (index, pCounterDataType))
GPA_FUNCTION(GPA_Status, GPA_GetCounterUsageType, (gpa_uint32 index, GPA_Usage_Type* pCounterUsageType), (index, pCounterUsageType))
GPA_FUNCTION(GPA_Status, GPA_GetDataTypeAsStr, (GPA_Type counterDataType, const char** ppTypeStr), (counterDataType, ppTypeStr))
GPA_FUNCTION(GPA_Status, GPA_GetUsageTypeAsStr, (GPA_Usage_Type counterUsageType, const char** ppTypeStr), (counterUsageType, ppTypeStr))
GPA_FUNCTION(GPA_Status, GPA_GetCounterIndex, (const char* pCounter, gpa_uint32* pIndex), (pCounter, pIndex))

/* Enabling counters */
GPA_FUNCTION(GPA_Status, GPA_EnableCounter, (gpa_uint32 index), (index))
GPA_FUNCTION(GPA_Status, GPA_DisableCounter, (gpa_uint32 index), (index))
GPA_FUNCTION(GPA_Status, GPA_GetEnabledCount, (gpa_uint32* pCount), (pCount))
GPA_FUNCTION(GPA_Status, GPA_GetEnabledIndex, (gpa_uint32 enabledNumber, gpa_uint32* pEnabledCounterIndex), (enabledNumber, pEnabledCounterIndex))
GPA_FUNCTION(GPA_Status, GPA_IsCounterEnabled, (gpa_uint32 counterIndex), (counterIndex))
GPA_FUNCTION(GPA_Status, GPA_EnableCounterStr, (const char* pCounter), (pCounter))
GPA_FUNCTION(GPA_Status, GPA_DisableCounterStr, (const char* pCounter), (pCounter))
GPA_FUNCTION(GPA_Status, GPA_EnableAllCounters, (void), ())
GPA_FUNCTION(GPA_Status, GPA_DisableAllCounters, (void), ())

/* Sampling */
GPA_FUNCTION(GPA_Status, GPA_GetPassCount, (gpa_uint32* pNumPasses), (pNumPasses))
GPA_FUNCTION(GPA_Status, GPA_BeginSession, (gpa_uint32* pSessionID), (pSessionID))
GPA_FUNCTION(GPA_Status, GPA_EndSession, (void), ())
GPA_FUNCTION(GPA_Status, GPA_BeginPass, (void), ())
GPA_FUNCTION(GPA_Status, GPA_EndPass, (void), ())
GPA_FUNCTION(GPA_Status, GPA_BeginSample, (gpa_uint32 sampleID), (sampleID))
GPA_FUNCTION(GPA_Status, GPA_EndSample, (void), ())
GPA_FUNCTION(GPA_Status, GPA_GetSampleCount, (gpa_uint32 sessionID, gpa_uint32* pSamples), (sessionID, pSamples))

/* Results */
GPA_FUNCTION(GPA_Status, GPA_IsSampleReady, (bool* pReadyResult, gpa_uint32 sessionID, gpa_uint32 sampleID), (pReadyResult, sessionID, sampleID))
GPA_FUNCTION(GPA_Status, GPA_IsSessionReady, (bool* pReadyResult, gpa_uint32 sessionID), (pReadyResult, sessionID))
GPA_FUNCTION(GPA_Status, GPA_GetSampleUInt64, (gpa_uint32 sessionID, gpa_uint32 sampleID, gpa_uint32 counterIndex, gpa_uint64* pResult), (sessionID, sampleID, counterIndex, pResult))
GPA_FUNCTION(GPA_Status, GPA_GetSampleUInt32, (gpa_uint32 sessionID, gpa_uint32 sampleID, gpa_uint32 counterIndex, gpa_uint32* pResult), (sessionID, sampleID, counterIndex, pResult))
GPA_FUNCTION(GPA_Status, GPA_GetSampleFloat64, (gpa_uint32 sessionID, gpa_uint32 sampleID, gpa_uint32 counterIndex, gpa_float64* pResult), (sessionID, sampleID, counterIndex, pResult))
GPA_FUNCTION(GPA_Status, GPA_GetSampleFloat32, (gpa_uint32 sessionID, gpa_uint32 sampleID, gpa_uint32 counterIndex, gpa_float32* pResult), (sessionID, sampleID, counterIndex, pResult))

/* Strings and device */
GPA_FUNCTION(const char*, GPA_GetStatusAsStr, (GPA_Status status), (status))
GPA_FUNCTION(GPA_Status, GPA_GetDeviceID, (gpa_uint32* pDeviceID), (pDeviceID))
GPA_FUNCTION(GPA_Status, GPA_GetDeviceDesc, (const char** ppDesc), (ppDesc))

/* OpenGPA extensions */
/* The reason for the last status other than GPA_STATUS_OK returned to the calling thread ("" if none). */
OGPA_EXTENSION_FUNCTION(const char*, OGPA_GetLastErrorMessage, (void), ())
/* How many finished sessions each context keeps (the result ring); at least 4. Takes effect for contexts opened afterwards. */
OGPA_EXTENSION_FUNCTION(GPA_Status, OGPA_SetSessionBufferSize, (gpa_uint32 sessionCount), (sessionCount))
/* The command list (Vulkan: the VkCommandBuffer, cast to void*) that the next GPA_BeginSample/GPA_EndSample record into, and in which GPA_EndPass ends the pass (later GPA versions name it in GPA_BeginCommandList). Libraries of APIs without command lists (OpenCL, CUDA) answer GPA_STATUS_ERROR_FAILED. */
OGPA_EXTENSION_FUNCTION(GPA_Status, OGPA_SetCommandList, (void* pCommandList), (pCommandList))

#ifdef OGPA_UNDEFINE_EXTENSION_FUNCTION_AFTER_LIST
#undef OGPA_EXTENSION_FUNCTION
#undef OGPA_UNDEFINE_EXTENSION_FUNCTION_AFTER_LIST
#endif
