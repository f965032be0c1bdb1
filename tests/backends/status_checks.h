// The statuses of the GPA functions that do not depend on the API (docs/api_status.md), checked the same way on
// every graphics backend's open context: the counter catalog's, and enabling counters around a session. Each
// backend's statuses_test.cpp calls these with its fixture's context open.
#pragma once

#include <gtest/gtest.h>

#include "GPUPerfAPI.h"

namespace ogpa::status_checks {

// `unmeasurable`: a GPA counter name the backend never offers, and `why`.
inline void ExpectCounterCatalogStatuses(const char* unmeasurable, const char* why) {
    gpa_uint32 count = 0, index = 0;
    ASSERT_EQ(GPA_GetNumCounters(&count), GPA_STATUS_OK);
    const char* text = nullptr;
    GPA_Type type;
    GPA_Usage_Type usage;
    EXPECT_EQ(GPA_GetNumCounters(nullptr), GPA_STATUS_ERROR_NULL_POINTER);
    EXPECT_EQ(GPA_GetCounterName(count, &text), GPA_STATUS_ERROR_NOT_FOUND);
    EXPECT_EQ(GPA_GetCounterName(0, nullptr), GPA_STATUS_ERROR_NULL_POINTER);
    EXPECT_EQ(GPA_GetCounterCategory(count, &text), GPA_STATUS_ERROR_INDEX_OUT_OF_RANGE);
    EXPECT_EQ(GPA_GetCounterDescription(count, &text), GPA_STATUS_ERROR_INDEX_OUT_OF_RANGE);
    EXPECT_EQ(GPA_GetCounterDataType(count, &type), GPA_STATUS_ERROR_INDEX_OUT_OF_RANGE);
    EXPECT_EQ(GPA_GetCounterUsageType(count, &usage), GPA_STATUS_ERROR_INDEX_OUT_OF_RANGE);
    EXPECT_EQ(GPA_GetCounterDescription(0, nullptr), GPA_STATUS_ERROR_NULL_POINTER);
    EXPECT_EQ(GPA_GetCounterIndex("gputime", &index), GPA_STATUS_OK) << "names in any letter case";
    EXPECT_EQ(GPA_GetCounterIndex(unmeasurable, &index), GPA_STATUS_ERROR_NOT_FOUND) << unmeasurable << ": " << why;
    EXPECT_EQ(GPA_GetCounterIndex(nullptr, &index), GPA_STATUS_ERROR_NULL_POINTER);
    EXPECT_EQ(GPA_GetDataTypeAsStr(GPA_TYPE__LAST, &text), GPA_STATUS_ERROR_NOT_FOUND);
    EXPECT_EQ(GPA_GetUsageTypeAsStr(GPA_USAGE_TYPE_MILLISECONDS, nullptr), GPA_STATUS_ERROR_NULL_POINTER);
    EXPECT_EQ(GPA_GetDeviceID(nullptr), GPA_STATUS_ERROR_NULL_POINTER);
    EXPECT_EQ(GPA_GetDeviceDesc(nullptr), GPA_STATUS_ERROR_NULL_POINTER);
}

// Needs a counter named GPUTime; leaves a session begun with every counter enabled.
inline void ExpectEnablingCounterStatuses() {
    gpa_uint32 count = 0, value = 0;
    ASSERT_EQ(GPA_GetNumCounters(&count), GPA_STATUS_OK);
    gpa_uint32 gpuTime = 0;
    ASSERT_EQ(GPA_GetCounterIndex("GPUTime", &gpuTime), GPA_STATUS_OK);
    EXPECT_EQ(GPA_EnableCounter(count), GPA_STATUS_ERROR_INDEX_OUT_OF_RANGE);
    ASSERT_EQ(GPA_EnableCounter(gpuTime), GPA_STATUS_OK);
    EXPECT_EQ(GPA_EnableCounter(gpuTime), GPA_STATUS_ERROR_ALREADY_ENABLED);
    EXPECT_EQ(GPA_EnableCounterStr("GPUTIME"), GPA_STATUS_ERROR_ALREADY_ENABLED);
    EXPECT_EQ(GPA_IsCounterEnabled(gpuTime), GPA_STATUS_OK);
    EXPECT_EQ(GPA_IsCounterEnabled(count), GPA_STATUS_ERROR_INDEX_OUT_OF_RANGE);
    EXPECT_EQ(GPA_EnableCounterStr(nullptr), GPA_STATUS_ERROR_NULL_POINTER);
    EXPECT_EQ(GPA_EnableCounterStr("NoSuchCounter"), GPA_STATUS_ERROR_NOT_FOUND);
    EXPECT_EQ(GPA_GetEnabledCount(nullptr), GPA_STATUS_ERROR_NULL_POINTER);
    EXPECT_EQ(GPA_GetEnabledIndex(1, &value), GPA_STATUS_ERROR_INDEX_OUT_OF_RANGE);
    EXPECT_EQ(GPA_GetEnabledIndex(0, nullptr), GPA_STATUS_ERROR_NULL_POINTER);
    ASSERT_EQ(GPA_DisableCounterStr("GPUTime"), GPA_STATUS_OK);
    EXPECT_EQ(GPA_DisableCounter(gpuTime), GPA_STATUS_ERROR_NOT_ENABLED);
    EXPECT_EQ(GPA_DisableCounterStr("GPUTime"), GPA_STATUS_ERROR_NOT_ENABLED);
    EXPECT_EQ(GPA_IsCounterEnabled(gpuTime), GPA_STATUS_ERROR_NOT_FOUND);
    EXPECT_EQ(GPA_GetPassCount(nullptr), GPA_STATUS_ERROR_NULL_POINTER);
    EXPECT_EQ(GPA_BeginSession(&value), GPA_STATUS_ERROR_NO_COUNTERS_ENABLED);
    ASSERT_EQ(GPA_EnableAllCounters(), GPA_STATUS_OK);
    ASSERT_EQ(GPA_BeginSession(&value), GPA_STATUS_OK);
    EXPECT_EQ(GPA_EnableCounter(gpuTime), GPA_STATUS_ERROR_CANNOT_CHANGE_COUNTERS_WHEN_SAMPLING);
    EXPECT_EQ(GPA_DisableCounter(gpuTime), GPA_STATUS_ERROR_CANNOT_CHANGE_COUNTERS_WHEN_SAMPLING);
    EXPECT_EQ(GPA_EnableCounterStr("GPUTime"), GPA_STATUS_ERROR_CANNOT_CHANGE_COUNTERS_WHEN_SAMPLING);
    EXPECT_EQ(GPA_DisableCounterStr("GPUTime"), GPA_STATUS_ERROR_CANNOT_CHANGE_COUNTERS_WHEN_SAMPLING);
    EXPECT_EQ(GPA_EnableAllCounters(), GPA_STATUS_ERROR_CANNOT_CHANGE_COUNTERS_WHEN_SAMPLING);
    EXPECT_EQ(GPA_DisableAllCounters(), GPA_STATUS_ERROR_CANNOT_CHANGE_COUNTERS_WHEN_SAMPLING);
    EXPECT_EQ(GPA_CloseContext(), GPA_STATUS_ERROR_SAMPLING_NOT_ENDED);
    EXPECT_EQ(GPA_EndSession(), GPA_STATUS_ERROR_NOT_ENOUGH_PASSES) << "no pass was recorded: the session is discarded";
}

}  // namespace ogpa::status_checks
