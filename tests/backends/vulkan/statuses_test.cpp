// The documented statuses of the GPA functions (docs/api_status.md), returned by libGPUPerfAPIVK.so on a
// Vulkan device: the core's state machine over the real backend, and the Vulkan cases (results that never
// come because nothing was submitted, a device that cannot be profiled).
#include <cstdlib>

#include "../status_checks.h"
#include "vulkan_backend_fixture.h"

namespace ogpa::vktest {
namespace {

class Statuses : public VulkanBackendTest {
protected:
    // A finished, submitted one-pass session with samples 0 and 1 of GPUTime.
    gpa_uint32 FinishedSession() {
        return RecordSession({0, 1}, false, [&](VkCommandBuffer cb, gpa_uint32) { work().Dispatch(cb, 1, 1, 1, 1); });
    }
};

TEST_F(Statuses, WithoutAContext) {
    ASSERT_GPA_OK(GPA_CloseContext());
    gpa_uint32 value = 0;
    const char* text = nullptr;
    bool ready = false;
    for (GPA_Status status :
         {GPA_CloseContext(), GPA_GetNumCounters(&value), GPA_GetCounterName(0, &text), GPA_GetCounterCategory(0, &text),
          GPA_GetCounterIndex("GPUTime", &value), GPA_EnableCounter(0), GPA_DisableCounter(0), GPA_EnableCounterStr("GPUTime"),
          GPA_DisableCounterStr("GPUTime"), GPA_EnableAllCounters(), GPA_DisableAllCounters(), GPA_GetEnabledCount(&value),
          GPA_GetEnabledIndex(0, &value), GPA_IsCounterEnabled(0), GPA_GetPassCount(&value), GPA_BeginSession(&value),
          GPA_EndSession(), GPA_BeginPass(), GPA_EndPass(), GPA_BeginSample(0), GPA_EndSample(), GPA_GetSampleCount(1, &value),
          GPA_IsSessionReady(&ready, 1), GPA_IsSampleReady(&ready, 1, 0), GPA_GetDeviceID(&value), GPA_GetDeviceDesc(&text)}) {
        EXPECT_EQ(status, GPA_STATUS_ERROR_COUNTERS_NOT_OPEN) << GPA_GetStatusAsStr(status);
    }
    EXPECT_EQ(GPA_SelectContext(&info_), GPA_STATUS_ERROR_COUNTERS_NOT_OPEN);
    EXPECT_EQ(GPA_SelectContext(nullptr), GPA_STATUS_ERROR_NULL_POINTER);
    ASSERT_GPA_OK(GPA_OpenContext(&info_, GPA_OPENCONTEXT_DEFAULT_BIT));
    ASSERT_GPA_OK(GPA_SelectContext(&info_));
}

TEST_F(Statuses, InitializeDestroyAndOpen) {
    EXPECT_EQ(GPA_Initialize(), GPA_STATUS_ERROR_FAILED) << "already initialized";
    ASSERT_GPA_OK(GPA_Destroy());  // closes the open context
    EXPECT_EQ(GPA_Destroy(), GPA_STATUS_ERROR_FAILED) << "not initialized";
    EXPECT_EQ(GPA_OpenContext(&info_, GPA_OPENCONTEXT_DEFAULT_BIT), GPA_STATUS_ERROR_HARDWARE_NOT_SUPPORTED) << "before GPA_Initialize";
    ASSERT_GPA_OK(GPA_Initialize());
    ASSERT_GPA_OK(GPA_OpenContext(&info_, GPA_OPENCONTEXT_DEFAULT_BIT));
    EXPECT_EQ(GPA_RegisterLoggingCallback(GPA_LOGGING_ERROR, nullptr), GPA_STATUS_ERROR_NULL_POINTER);
}

TEST_F(Statuses, CounterCatalog) { status_checks::ExpectCounterCatalogStatuses("VSBusy", "not measurable on Vulkan drivers"); }

TEST_F(Statuses, EnablingCounters) { status_checks::ExpectEnablingCounterStatuses(); }

TEST_F(Statuses, SamplingOrder) {
    ASSERT_GPA_OK(GPA_EnableCounterStr("GPUTime"));
    gpa_uint32 session = 0;
    EXPECT_EQ(GPA_EndSession(), GPA_STATUS_ERROR_SAMPLING_NOT_STARTED);
    EXPECT_EQ(GPA_BeginPass(), GPA_STATUS_ERROR_SAMPLING_NOT_STARTED);
    EXPECT_EQ(GPA_EndPass(), GPA_STATUS_ERROR_PASS_NOT_STARTED);
    EXPECT_EQ(GPA_BeginSample(0), GPA_STATUS_ERROR_SAMPLING_NOT_STARTED);
    EXPECT_EQ(GPA_EndSample(), GPA_STATUS_ERROR_SAMPLE_NOT_STARTED);
    EXPECT_EQ(GPA_BeginSession(nullptr), GPA_STATUS_ERROR_NULL_POINTER);
    ASSERT_GPA_OK(GPA_BeginSession(&session));
    EXPECT_EQ(GPA_BeginSession(&session), GPA_STATUS_ERROR_SAMPLING_ALREADY_STARTED);
    EXPECT_EQ(GPA_BeginSample(0), GPA_STATUS_ERROR_PASS_NOT_STARTED);
    ASSERT_GPA_OK(GPA_BeginPass());
    EXPECT_EQ(GPA_BeginPass(), GPA_STATUS_ERROR_PASS_ALREADY_STARTED);
    EXPECT_EQ(GPA_EndSession(), GPA_STATUS_ERROR_PASS_NOT_ENDED);
    VkCommandBuffer cb = env().Begin();
    ASSERT_GPA_OK(OGPA_SetCommandList(cb));
    ASSERT_GPA_OK(GPA_BeginSample(0));
    EXPECT_EQ(GPA_BeginSample(1), GPA_STATUS_ERROR_SAMPLE_ALREADY_STARTED);
    EXPECT_EQ(GPA_EndPass(), GPA_STATUS_ERROR_SAMPLE_NOT_ENDED);
    work().Dispatch(cb, 1, 1, 1, 1);
    ASSERT_GPA_OK(GPA_EndSample());
    EXPECT_EQ(GPA_BeginSample(0), GPA_STATUS_ERROR_FAILED) << "id used twice in a pass";
    ASSERT_GPA_OK(GPA_EndPass());
    EXPECT_EQ(GPA_BeginPass(), GPA_STATUS_ERROR_FAILED) << "the one pass was recorded";
    bool ready = true;
    ASSERT_GPA_OK(GPA_IsSessionReady(&ready, session));
    EXPECT_FALSE(ready) << "still being recorded";
    gpa_uint32 samples = 0;
    EXPECT_EQ(GPA_GetSampleCount(session, &samples), GPA_STATUS_ERROR_SAMPLING_NOT_ENDED);
    ASSERT_GPA_OK(GPA_EndSession());
    env().SubmitAndWait(cb);
    ASSERT_GPA_OK(GPA_GetSampleCount(session, &samples));
    EXPECT_EQ(samples, 1u);
}

TEST_F(Statuses, VariableSamplesAcrossPasses) {
    ASSERT_GPA_OK(GPA_EnableCounterStr("GPUTime"));
    ASSERT_GPA_OK(GPA_EnableCounterStr("CSInvocations"));
    gpa_uint32 session = 0;
    ASSERT_GPA_OK(GPA_BeginSession(&session));
    for (int pass = 0; pass < 2; ++pass) {
        ASSERT_GPA_OK(GPA_BeginPass());
        VkCommandBuffer cb = env().Begin();
        ASSERT_GPA_OK(OGPA_SetCommandList(cb));
        for (gpa_uint32 sample = 0; sample < (pass == 0 ? 2u : 1u); ++sample) {
            ASSERT_GPA_OK(GPA_BeginSample(sample));
            work().Dispatch(cb, 1, 1, 1, 1);
            ASSERT_GPA_OK(GPA_EndSample());
        }
        const GPA_Status status = GPA_EndPass();
        EXPECT_EQ(status, pass == 0 ? GPA_STATUS_OK : GPA_STATUS_ERROR_VARIABLE_NUMBER_OF_SAMPLES_IN_PASSES);
        env().Submit(cb);
    }
    ASSERT_GPA_OK(GPA_EndSession());
    env().WaitIdle();
    bool ready = false;
    EXPECT_EQ(GPA_IsSampleReady(&ready, session, 1), GPA_STATUS_ERROR_SAMPLE_NOT_FOUND_IN_ALL_PASSES);
    EXPECT_EQ(GPA_IsSampleReady(&ready, session, 9), GPA_STATUS_ERROR_SAMPLE_NOT_FOUND);
    ASSERT_GPA_OK(GPA_IsSampleReady(&ready, session, 0));
    EXPECT_TRUE(ready);
    double value = 0;
    EXPECT_EQ(GPA_GetSampleFloat64(session, 1, Index("GPUTime"), &value), GPA_STATUS_ERROR_SAMPLE_NOT_FOUND_IN_ALL_PASSES);
    EXPECT_EQ(GPA_GetSampleFloat64(session, 9, Index("GPUTime"), &value), GPA_STATUS_ERROR_SAMPLE_NOT_FOUND);
}

TEST_F(Statuses, Results) {
    ASSERT_GPA_OK(GPA_EnableCounterStr("GPUTime"));
    const gpa_uint32 session = FinishedSession();
    gpa_uint32 count = 0, u32 = 0;
    ASSERT_GPA_OK(GPA_GetNumCounters(&count));
    gpa_uint64 u64 = 0;
    float f32 = 0;
    double f64 = 0;
    const gpa_uint32 gpuTime = Index("GPUTime");
    EXPECT_GPA_OK(GPA_GetSampleFloat64(session, 0, gpuTime, &f64));
    EXPECT_EQ(GPA_GetSampleFloat32(session, 0, gpuTime, &f32), GPA_STATUS_ERROR_COUNTER_NOT_OF_SPECIFIED_TYPE);
    EXPECT_EQ(GPA_GetSampleUInt64(session, 0, gpuTime, &u64), GPA_STATUS_ERROR_COUNTER_NOT_OF_SPECIFIED_TYPE);
    EXPECT_EQ(GPA_GetSampleUInt32(session, 0, gpuTime, &u32), GPA_STATUS_ERROR_COUNTER_NOT_OF_SPECIFIED_TYPE);
    EXPECT_EQ(GPA_GetSampleFloat64(session, 0, gpuTime, nullptr), GPA_STATUS_ERROR_NULL_POINTER);
    EXPECT_EQ(GPA_GetSampleFloat64(session, 0, count, &f64), GPA_STATUS_ERROR_INDEX_OUT_OF_RANGE);
    EXPECT_EQ(GPA_GetSampleUInt64(session, 0, Index("Occlusion"), &u64), GPA_STATUS_ERROR_NOT_ENABLED);
    EXPECT_EQ(GPA_GetSampleFloat64(session + 1, 0, gpuTime, &f64), GPA_STATUS_ERROR_SESSION_NOT_FOUND);
    bool ready = false;
    EXPECT_EQ(GPA_IsSessionReady(nullptr, session), GPA_STATUS_ERROR_NULL_POINTER);
    EXPECT_EQ(GPA_IsSampleReady(nullptr, session, 0), GPA_STATUS_ERROR_NULL_POINTER);
    EXPECT_EQ(GPA_GetSampleCount(session, nullptr), GPA_STATUS_ERROR_NULL_POINTER);
    EXPECT_EQ(GPA_IsSessionReady(&ready, 0), GPA_STATUS_ERROR_SESSION_NOT_FOUND);
    // The ring keeps 4 finished sessions: the fifth later one overwrites the first.
    for (int i = 0; i < 4; ++i) FinishedSession();
    EXPECT_EQ(GPA_IsSessionReady(&ready, session), GPA_STATUS_ERROR_SESSION_NOT_FOUND);
}

TEST_F(Statuses, ResultsThatNeverComeAreAReadingError) {
    // Recorded, never submitted: GPA_GetSample* waits OPENGPA_VK_RESULT_TIMEOUT_S, then says why.
    setenv("OPENGPA_VK_RESULT_TIMEOUT_S", "0.3", 1);
    ASSERT_GPA_OK(GPA_EnableCounterStr("GPUTime"));
    gpa_uint32 session = 0;
    ASSERT_GPA_OK(GPA_BeginSession(&session));
    ASSERT_GPA_OK(GPA_BeginPass());
    VkCommandBuffer cb = env().Begin();
    ASSERT_GPA_OK(OGPA_SetCommandList(cb));
    ASSERT_GPA_OK(GPA_BeginSample(0));
    ASSERT_GPA_OK(GPA_EndSample());
    ASSERT_GPA_OK(GPA_EndPass());
    ASSERT_GPA_OK(GPA_EndSession());
    bool ready = true;
    ASSERT_GPA_OK(GPA_IsSessionReady(&ready, session));
    EXPECT_FALSE(ready);
    double value = 0;
    EXPECT_EQ(GPA_GetSampleFloat64(session, 0, Index("GPUTime"), &value), GPA_STATUS_ERROR_READING_COUNTER_RESULT);
    EXPECT_NE(std::string(OGPA_GetLastErrorMessage()).find("vkQueueSubmit"), std::string::npos) << OGPA_GetLastErrorMessage();
    unsetenv("OPENGPA_VK_RESULT_TIMEOUT_S");
    // Submitted now, the same session's results come (the failure was not kept).
    env().SubmitAndWait(cb);
    ASSERT_GPA_OK(GPA_IsSessionReady(&ready, session));
    EXPECT_TRUE(ready);
}

}  // namespace
}  // namespace ogpa::vktest
