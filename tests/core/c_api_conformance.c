/*
 * The GPA C interface as a C99 program sees it: compiled with -std=c99 -pedantic-errors against include/
 * only. It takes every function through its <Name>PtrType typedef (a type mismatch is a compile error in
 * C), then runs the seed's example (3.1-3.3) with its WriteSession utility (7) over the scripted backend:
 * all counters, two samples per pass, as many passes as GPA_GetPassCount says, skipping sessions that
 * were overwritten. Exit status 0 means every check passed.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "GPUPerfAPI.h"
#include "GPUPerfAPIFunctionTypes.h"

/* One pointer per listed function, each of its declared PtrType. */
#define GPA_FUNCTION(ReturnType, Name, ParameterList, ArgumentList) static Name##PtrType p_##Name = Name;
#define OGPA_EXTENSION_FUNCTION GPA_FUNCTION
#include "GPUPerfAPIFunctionList.h"
#undef GPA_FUNCTION
#undef OGPA_EXTENSION_FUNCTION

static int g_failures = 0;
static int g_registered = 0;

#define CHECK(condition)                                                            \
    do {                                                                            \
        if (!(condition)) {                                                         \
            fprintf(stderr, "%s:%d: check failed: %s (last error: %s)\n", __FILE__, \
                    __LINE__, #condition, p_OGPA_GetLastErrorMessage());            \
            ++g_failures;                                                           \
        }                                                                           \
    } while (0)

#define CHECK_OK(call) CHECK((call) == GPA_STATUS_OK)

static void Logger(GPA_Logging_Type type, const char* message) {
    size_t length = strlen(message);
    CHECK(length > 0 && message[length - 1] != '\n');
    if (type == GPA_LOGGING_MESSAGE && strcmp(message, "Logging callback registered successfully.") == 0) {
        ++g_registered;
    }
}

/* Expected value of each default scripted counter for a sample (see tests/support/scripted_backend.cpp). */
static double Expected(const char* name, gpa_uint32 sample) {
    double cycles = 1000.0 + sample, busy = 2000.0 + sample, bytes = 3000.0 + sample;
    double waves = 4000.0 + sample, timeNs = 5000.0 + sample;
    if (strcmp(name, "GPUTime") == 0) return timeNs / 1e6;
    if (strcmp(name, "Busy") == 0) return 100.0 * busy / cycles;
    if (strcmp(name, "FetchSize") == 0) return bytes / 1024.0;
    if (strcmp(name, "Waves") == 0 || strcmp(name, "Waves32") == 0) return waves;
    return -1.0;
}

/* Section 7: every enabled counter of every sample, read by its data type; returns the values checked. */
static int WriteSession(gpa_uint32 currentWaitSessionID) {
    gpa_uint32 count = 0, sampleCount = 0, sample, counter;
    int checked = 0;
    CHECK_OK(p_GPA_GetEnabledCount(&count));
    CHECK_OK(p_GPA_GetSampleCount(currentWaitSessionID, &sampleCount));
    CHECK(sampleCount == 2);
    for (sample = 0; sample < sampleCount; sample++) {
        for (counter = 0; counter < count; counter++) {
            gpa_uint32 enabledCounterIndex = 0;
            GPA_Type type = GPA_TYPE__LAST;
            const char* name = NULL;
            double value = -2.0;
            CHECK_OK(p_GPA_GetEnabledIndex(counter, &enabledCounterIndex));
            CHECK_OK(p_GPA_GetCounterName(enabledCounterIndex, &name));
            CHECK_OK(p_GPA_GetCounterDataType(enabledCounterIndex, &type));
            if (type == GPA_TYPE_UINT32) {
                gpa_uint32 v = 0;
                CHECK_OK(p_GPA_GetSampleUInt32(currentWaitSessionID, sample, enabledCounterIndex, &v));
                value = v;
            } else if (type == GPA_TYPE_UINT64) {
                gpa_uint64 v = 0;
                CHECK_OK(p_GPA_GetSampleUInt64(currentWaitSessionID, sample, enabledCounterIndex, &v));
                value = (double)v;
            } else if (type == GPA_TYPE_FLOAT32) {
                gpa_float32 v = 0;
                CHECK_OK(p_GPA_GetSampleFloat32(currentWaitSessionID, sample, enabledCounterIndex, &v));
                CHECK(v == (gpa_float32)Expected(name, sample));
                value = Expected(name, sample);
            } else if (type == GPA_TYPE_FLOAT64) {
                gpa_float64 v = 0;
                CHECK_OK(p_GPA_GetSampleFloat64(currentWaitSessionID, sample, enabledCounterIndex, &v));
                value = v;
            } else {
                CHECK(!"unexpected counter type");
            }
            CHECK(value == Expected(name, sample));
            ++checked;
        }
    }
    return checked;
}

/* The functions the example does not need, once each from C. */
static void ExerciseTheRest(void* context) {
    gpa_uint32 index = 99, id = 0;
    const char* text = NULL;
    GPA_Usage_Type usage = GPA_USAGE_TYPE__LAST;
    bool ready = true;
    CHECK_OK(p_GPA_SelectContext(context));
    CHECK_OK(p_GPA_GetCounterIndex("busy", &index));
    CHECK(index == 1);
    CHECK_OK(p_GPA_GetCounterCategory(index, &text));
    CHECK(strcmp(text, "Timing") == 0);
    CHECK_OK(p_GPA_GetCounterDescription(index, &text));
    CHECK(strlen(text) > 0);
    CHECK_OK(p_GPA_GetCounterUsageType(index, &usage));
    CHECK(usage == GPA_USAGE_TYPE_PERCENTAGE);
    CHECK_OK(p_GPA_EnableCounter(index));
    CHECK_OK(p_GPA_IsCounterEnabled(index));
    CHECK_OK(p_GPA_DisableCounter(index));
    CHECK(p_GPA_IsCounterEnabled(index) == GPA_STATUS_ERROR_NOT_FOUND);
    CHECK_OK(p_GPA_EnableCounterStr("Waves"));
    CHECK_OK(p_GPA_DisableCounterStr("WAVES"));
    CHECK_OK(p_GPA_DisableAllCounters());
    CHECK(p_GPA_IsSampleReady(&ready, 1, 0) == GPA_STATUS_ERROR_SESSION_NOT_FOUND);
    CHECK_OK(p_GPA_GetDeviceID(&id));
    CHECK(id == 0x2335);
    CHECK_OK(p_GPA_GetDeviceDesc(&text));
    CHECK(strcmp(text, "Scripted Test Device") == 0);
    CHECK(p_OGPA_SetSessionBufferSize(2) == GPA_STATUS_ERROR_INDEX_OUT_OF_RANGE);
    CHECK_OK(p_OGPA_SetSessionBufferSize(4));
    CHECK(p_OGPA_SetCommandList(NULL) == GPA_STATUS_ERROR_NULL_POINTER);
    CHECK(p_OGPA_SetCommandList(context) == GPA_STATUS_ERROR_FAILED); /* no command lists in this API */
}

int main(void) {
    static int queue; /* stands for the API object (a command queue) */
    gpa_uint32 currentWaitSessionID = 1;
    gpa_uint32 frame, written = 0, skipped = 0, numCounters = 0, expectedID = 1;
    const char* text = NULL;
    bool readyResult = true;
    int checked = 0;

    /* 2.3 and 3.1 */
    CHECK_OK(p_GPA_RegisterLoggingCallback(GPA_LOGGING_ERROR_AND_MESSAGE, Logger));
    CHECK(g_registered == 1);
    CHECK_OK(p_GPA_Initialize());
    CHECK_OK(p_GPA_OpenContext(&queue, GPA_OPENCONTEXT_DEFAULT_BIT));
    ExerciseTheRest(&queue);
    CHECK_OK(p_GPA_EnableAllCounters());
    CHECK_OK(p_GPA_GetNumCounters(&numCounters));
    CHECK(numCounters == 5);
    CHECK_OK(p_GPA_GetDataTypeAsStr(GPA_TYPE_UINT64, &text));
    CHECK(strcmp(text, "gpa_uint64") == 0);
    CHECK_OK(p_GPA_GetUsageTypeAsStr(GPA_USAGE_TYPE_PERCENTAGE, &text));
    CHECK(strcmp(text, "percentage") == 0);
    CHECK(strcmp(p_GPA_GetStatusAsStr(GPA_STATUS_ERROR_NULL_POINTER), "GPA_STATUS_ERROR_NULL_POINTER") == 0);
    CHECK(p_GPA_IsSessionReady(&readyResult, 1) == GPA_STATUS_ERROR_SESSION_NOT_FOUND);

    /* 3.2, ten frames: results are read one frame late, so nothing is overwritten... */
    for (frame = 1; frame <= 10; ++frame) {
        gpa_uint32 sessionID = 0, numRequiredPasses = 0, i;
        CHECK_OK(p_GPA_BeginSession(&sessionID));
        CHECK(sessionID == expectedID++);
        CHECK_OK(p_GPA_GetPassCount(&numRequiredPasses));
        CHECK(numRequiredPasses == 2);
        for (i = 0; i < numRequiredPasses; i++) {
            CHECK_OK(p_GPA_BeginPass());
            CHECK_OK(p_GPA_BeginSample(0));
            CHECK_OK(p_GPA_EndSample());
            CHECK_OK(p_GPA_BeginSample(1));
            CHECK_OK(p_GPA_EndSample());
            CHECK_OK(p_GPA_EndPass());
        }
        CHECK_OK(p_GPA_EndSession());

        /* ...except in frame 6, which records five sessions before looking at results again, so the loop
           must skip the ones overwritten meanwhile. */
        if (frame == 6) {
            gpa_uint32 extra, burst;
            for (burst = 0; burst < 5; ++burst) {
                gpa_uint32 id = 0;
                CHECK_OK(p_GPA_BeginSession(&id));
                CHECK(id == expectedID++);
                for (extra = 0; extra < 2; ++extra) {
                    CHECK_OK(p_GPA_BeginPass());
                    CHECK_OK(p_GPA_BeginSample(0));
                    CHECK_OK(p_GPA_EndSample());
                    CHECK_OK(p_GPA_BeginSample(1));
                    CHECK_OK(p_GPA_EndSample());
                    CHECK_OK(p_GPA_EndPass());
                }
                CHECK_OK(p_GPA_EndSession());
                sessionID = id;
            }
        }

        readyResult = false;
        if (sessionID != currentWaitSessionID) {
            GPA_Status sessionStatus = p_GPA_IsSessionReady(&readyResult, currentWaitSessionID);
            while (sessionStatus == GPA_STATUS_ERROR_SESSION_NOT_FOUND) {
                /* skipping a session which got overwritten */
                currentWaitSessionID++;
                ++skipped;
                sessionStatus = p_GPA_IsSessionReady(&readyResult, currentWaitSessionID);
            }
            CHECK_OK(sessionStatus);
        }
        if (readyResult) {
            checked += WriteSession(currentWaitSessionID);
            currentWaitSessionID++;
            ++written;
        }
    }

    /* 3.3 */
    CHECK_OK(p_GPA_CloseContext());
    CHECK_OK(p_GPA_Destroy());
    CHECK(p_GPA_CloseContext() == GPA_STATUS_ERROR_COUNTERS_NOT_OPEN);
    CHECK(strlen(p_OGPA_GetLastErrorMessage()) > 0);

    /* Frames 2..5 read sessions 1..4. Frame 6 ends on session 11 with 8..11 kept, so it skips 5, 6 and 7
       and reads 8; frames 7..10 (sessions 12..15) read 9..12. */
    CHECK(skipped == 3);
    CHECK(written == 9);
    CHECK(checked == 9 * 2 * 5);
    if (g_failures != 0) {
        fprintf(stderr, "%d check(s) failed\n", g_failures);
        return 1;
    }
    printf("C API conformance: %u sessions read, %u skipped, %d values checked\n", written, skipped, checked);
    return 0;
}
