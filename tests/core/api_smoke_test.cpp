#include <gtest/gtest.h>

#include "GPUPerfAPI.h"
#include "scripted_backend.h"

namespace {

int gQueue = 0;  // any distinct address serves as the scripted backend's API object

TEST(ApiSmoke, MultiPassSessionGivesScriptedValues) {
    gpa::testing::ResetConfig();
    ASSERT_EQ(GPA_Initialize(), GPA_STATUS_OK);
    ASSERT_EQ(GPA_OpenContext(&gQueue, GPA_OPENCONTEXT_DEFAULT_BIT), GPA_STATUS_OK);
    ASSERT_EQ(GPA_EnableAllCounters(), GPA_STATUS_OK);
    gpa_uint32 passes = 0;
    ASSERT_EQ(GPA_GetPassCount(&passes), GPA_STATUS_OK);
    EXPECT_EQ(passes, 2u);
    gpa_uint32 session = 0;
    ASSERT_EQ(GPA_BeginSession(&session), GPA_STATUS_OK);
    EXPECT_EQ(session, 1u);
    for (gpa_uint32 p = 0; p < passes; ++p) {
        ASSERT_EQ(GPA_BeginPass(), GPA_STATUS_OK);
        ASSERT_EQ(GPA_BeginSample(7), GPA_STATUS_OK);
        ASSERT_EQ(GPA_EndSample(), GPA_STATUS_OK);
        ASSERT_EQ(GPA_EndPass(), GPA_STATUS_OK);
    }
    ASSERT_EQ(GPA_EndSession(), GPA_STATUS_OK);
    gpa_uint32 busy = 0;
    ASSERT_EQ(GPA_GetCounterIndex("busy", &busy), GPA_STATUS_OK);
    double value = 0;
    ASSERT_EQ(GPA_GetSampleFloat64(session, 7, busy, &value), GPA_STATUS_OK);
    EXPECT_DOUBLE_EQ(value, 100.0 * gpa::testing::ScriptedValue(1, 7) / gpa::testing::ScriptedValue(0, 7));
    ASSERT_EQ(GPA_CloseContext(), GPA_STATUS_OK);
    ASSERT_EQ(GPA_Destroy(), GPA_STATUS_OK);
}

}  // namespace
