// GPA_Initialize, GPA_Destroy, GPA_OpenContext, GPA_CloseContext, GPA_SelectContext, the open-context
// flags, several contexts at once, and the device queries.
#include <optional>
#include <string>

#include "gpa_test_fixture.h"

namespace gpa_test {
namespace {

using gpa::testing::Config;

class Context : public GpaTest {};

// ---- GPA_Initialize ----------------------------------------------------------------------------------------

TEST_F(Context, InitializeOk) { EXPECT_GPA(GPA_STATUS_OK, GPA_Initialize()); }

TEST_F(Context, InitializeTwiceFails) {
    ASSERT_GPA(GPA_STATUS_OK, GPA_Initialize());
    EXPECT_GPA(GPA_STATUS_ERROR_FAILED, GPA_Initialize());
}

TEST_F(Context, InitializeFailsWhenTheBackendCannotStart) {
    Config().failInitialize = true;
    EXPECT_GPA(GPA_STATUS_ERROR_FAILED, GPA_Initialize());
    EXPECT_NE(std::string(OGPA_GetLastErrorMessage()).find("scripted initialization failure"), std::string::npos);
    // Nothing was half-initialized: opening a context still asks for GPA_Initialize.
    EXPECT_GPA(GPA_STATUS_ERROR_HARDWARE_NOT_SUPPORTED, GPA_OpenContext(&queueA_, GPA_OPENCONTEXT_DEFAULT_BIT));
    Config().failInitialize = false;
    EXPECT_GPA(GPA_STATUS_OK, GPA_Initialize());
}

// ---- GPA_Destroy -------------------------------------------------------------------------------------------

TEST_F(Context, DestroyOk) {
    ASSERT_GPA(GPA_STATUS_OK, GPA_Initialize());
    EXPECT_GPA(GPA_STATUS_OK, GPA_Destroy());
}

TEST_F(Context, DestroyWithoutInitializeFails) { EXPECT_GPA(GPA_STATUS_ERROR_FAILED, GPA_Destroy()); }

TEST_F(Context, DestroyFailsWhenTheBackendCannotShutDownButStillTearsDown) {
    ASSERT_GPA(GPA_STATUS_OK, GPA_Initialize());
    Config().failDestroy = true;
    EXPECT_GPA(GPA_STATUS_ERROR_FAILED, GPA_Destroy());
    Config().failDestroy = false;
    EXPECT_GPA(GPA_STATUS_ERROR_FAILED, GPA_Destroy());  // already gone
    EXPECT_GPA(GPA_STATUS_OK, GPA_Initialize());
}

TEST_F(Context, DestroyClosesOpenContextsAndReleasesTheirSessions) {
    ASSERT_GPA(GPA_STATUS_OK, GPA_RegisterLoggingCallback(GPA_LOGGING_MESSAGE, LogCapture::Callback));
    Open();
    Enable("Waves");
    Record();
    Open(GPA_OPENCONTEXT_DEFAULT_BIT, &queueB_);
    EXPECT_EQ(gpa::testing::LiveSessions(), 1);
    EXPECT_GPA(GPA_STATUS_OK, GPA_Destroy());
    EXPECT_EQ(gpa::testing::LiveSessions(), 0);
    EXPECT_EQ(LogCapture::Count(GPA_LOGGING_MESSAGE, "GPA_Destroy closed 2 context(s)"), 1u);
    // Everything starts afresh: the same API object opens again and its sessions count from 1.
    ASSERT_GPA(GPA_STATUS_OK, GPA_Initialize());
    EXPECT_GPA(GPA_STATUS_OK, GPA_OpenContext(&queueA_, GPA_OPENCONTEXT_DEFAULT_BIT));
    Enable("Waves");
    EXPECT_EQ(Record(), 1u);
}

// ---- GPA_OpenContext ---------------------------------------------------------------------------------------

TEST_F(Context, OpenContextOkMakesItCurrent) {
    ASSERT_GPA(GPA_STATUS_OK, GPA_Initialize());
    EXPECT_GPA(GPA_STATUS_OK, GPA_OpenContext(&queueA_, GPA_OPENCONTEXT_DEFAULT_BIT));
    gpa_uint32 count = 0;
    EXPECT_GPA(GPA_STATUS_OK, GPA_GetNumCounters(&count));
    EXPECT_EQ(count, 5u);
}

TEST_F(Context, OpenContextNullPointer) {
    ASSERT_GPA(GPA_STATUS_OK, GPA_Initialize());
    EXPECT_GPA(GPA_STATUS_ERROR_NULL_POINTER, GPA_OpenContext(nullptr, GPA_OPENCONTEXT_DEFAULT_BIT));
}

TEST_F(Context, OpenContextTwiceOnTheSameObjectIsAlreadyOpen) {
    Open();
    EXPECT_GPA(GPA_STATUS_ERROR_COUNTERS_ALREADY_OPEN, GPA_OpenContext(&queueA_, GPA_OPENCONTEXT_DEFAULT_BIT));
}

TEST_F(Context, OpenContextBeforeInitializeIsHardwareNotSupported) {
    // The seed: "This may also be returned if GPA_Initialize() was not called".
    EXPECT_GPA(GPA_STATUS_ERROR_HARDWARE_NOT_SUPPORTED, GPA_OpenContext(&queueA_, GPA_OPENCONTEXT_DEFAULT_BIT));
}

TEST_F(Context, OpenContextOnUnsupportedHardware) {
    ASSERT_GPA(GPA_STATUS_OK, GPA_Initialize());
    Config().failOpen = true;
    EXPECT_GPA(GPA_STATUS_ERROR_HARDWARE_NOT_SUPPORTED, GPA_OpenContext(&queueA_, GPA_OPENCONTEXT_DEFAULT_BIT));
    EXPECT_NE(std::string(OGPA_GetLastErrorMessage()).find("scripted device is not supported"), std::string::npos);
    gpa_uint32 count = 0;
    EXPECT_GPA(GPA_STATUS_ERROR_COUNTERS_NOT_OPEN, GPA_GetNumCounters(&count));
}

TEST_F(Context, OpenContextInternalErrorIsFailed) {
    ASSERT_GPA(GPA_STATUS_OK, GPA_Initialize());
    Config().failOpen = true;
    Config().openFailStatus = GPA_STATUS_ERROR_FAILED;
    EXPECT_GPA(GPA_STATUS_ERROR_FAILED, GPA_OpenContext(&queueA_, GPA_OPENCONTEXT_DEFAULT_BIT));
    // The failed object was not registered as open.
    Config().failOpen = false;
    EXPECT_GPA(GPA_STATUS_OK, GPA_OpenContext(&queueA_, GPA_OPENCONTEXT_DEFAULT_BIT));
}

TEST_F(Context, OpenContextIgnoresUnknownFlagBitsAndSaysSo) {
    ASSERT_GPA(GPA_STATUS_OK, GPA_RegisterLoggingCallback(GPA_LOGGING_MESSAGE, LogCapture::Callback));
    Open(0x100);
    EXPECT_EQ(LogCapture::Count(GPA_LOGGING_MESSAGE, "flag bits 0x100 have no effect"), 1u);
    gpa_uint32 count = 0;
    EXPECT_GPA(GPA_STATUS_OK, GPA_GetNumCounters(&count));
    EXPECT_EQ(count, 5u);
}

// ---- GPA_CloseContext --------------------------------------------------------------------------------------

TEST_F(Context, CloseContextOk) {
    Open();
    EXPECT_GPA(GPA_STATUS_OK, GPA_CloseContext());
    gpa_uint32 count = 0;
    EXPECT_GPA(GPA_STATUS_ERROR_COUNTERS_NOT_OPEN, GPA_GetNumCounters(&count));
    EXPECT_GPA(GPA_STATUS_ERROR_COUNTERS_NOT_OPEN, GPA_CloseContext());
}

TEST_F(Context, CloseContextWithoutContextIsNotOpen) {
    EXPECT_GPA(GPA_STATUS_ERROR_COUNTERS_NOT_OPEN, GPA_CloseContext());
    ASSERT_GPA(GPA_STATUS_OK, GPA_Initialize());
    EXPECT_GPA(GPA_STATUS_ERROR_COUNTERS_NOT_OPEN, GPA_CloseContext());
}

TEST_F(Context, CloseContextWhileSamplingIsSamplingNotEnded) {
    Open();
    Enable("Waves");
    gpa_uint32 session = 0;
    ASSERT_GPA(GPA_STATUS_OK, GPA_BeginSession(&session));
    EXPECT_GPA(GPA_STATUS_ERROR_SAMPLING_NOT_ENDED, GPA_CloseContext());
    ASSERT_GPA(GPA_STATUS_OK, GPA_BeginPass());
    ASSERT_GPA(GPA_STATUS_OK, GPA_EndPass());
    ASSERT_GPA(GPA_STATUS_OK, GPA_EndSession());
    EXPECT_GPA(GPA_STATUS_OK, GPA_CloseContext());
}

TEST_F(Context, CloseContextReleasesItsSessionsAndLeavesNoContextSelected) {
    Open();
    Open(GPA_OPENCONTEXT_DEFAULT_BIT, &queueB_);
    Enable("Waves");
    Record();
    Record();
    EXPECT_EQ(gpa::testing::LiveSessions(), 2);
    EXPECT_GPA(GPA_STATUS_OK, GPA_CloseContext());
    EXPECT_EQ(gpa::testing::LiveSessions(), 0);
    // The other context stays open but is not selected by itself.
    gpa_uint32 count = 0;
    EXPECT_GPA(GPA_STATUS_ERROR_COUNTERS_NOT_OPEN, GPA_GetNumCounters(&count));
    EXPECT_GPA(GPA_STATUS_OK, GPA_SelectContext(&queueA_));
    EXPECT_GPA(GPA_STATUS_OK, GPA_GetNumCounters(&count));
    EXPECT_GPA(GPA_STATUS_ERROR_COUNTERS_NOT_OPEN, GPA_SelectContext(&queueB_));
}

TEST_F(Context, SessionIdsStartAtOneOnEveryNewlyOpenedContext) {
    Open();
    Enable("Waves");
    EXPECT_EQ(Record(), 1u);
    EXPECT_EQ(Record(), 2u);
    EXPECT_EQ(Record(), 3u);
    Open(GPA_OPENCONTEXT_DEFAULT_BIT, &queueB_);
    Enable("Waves");
    EXPECT_EQ(Record(), 1u);
    EXPECT_GPA(GPA_STATUS_OK, GPA_CloseContext());
    EXPECT_GPA(GPA_STATUS_OK, GPA_SelectContext(&queueA_));
    EXPECT_EQ(Record(), 4u);
    EXPECT_GPA(GPA_STATUS_OK, GPA_CloseContext());
    Open();  // reopened: a new context
    Enable("Waves");
    EXPECT_EQ(Record(), 1u);
}

// ---- GPA_SelectContext -------------------------------------------------------------------------------------

TEST_F(Context, SelectContextNullPointer) {
    Open();
    EXPECT_GPA(GPA_STATUS_ERROR_NULL_POINTER, GPA_SelectContext(nullptr));
}

TEST_F(Context, SelectContextNeverOpenedIsNotOpen) {
    EXPECT_GPA(GPA_STATUS_ERROR_COUNTERS_NOT_OPEN, GPA_SelectContext(&queueA_));
    Open();
    EXPECT_GPA(GPA_STATUS_ERROR_COUNTERS_NOT_OPEN, GPA_SelectContext(&queueB_));
    // A failed selection leaves the current context selected.
    gpa_uint32 count = 0;
    EXPECT_GPA(GPA_STATUS_OK, GPA_GetNumCounters(&count));
}

TEST_F(Context, SelectContextSwitchesBetweenContextsWithTheirOwnStates) {
    Open();  // A: the default counters
    Enable("Waves");
    Enable("GPUTime");
    EXPECT_EQ(Record(), 1u);
    EXPECT_EQ(Record(), 2u);

    Config().derived.resize(2);  // B sees only GPUTime and Busy
    Open(GPA_OPENCONTEXT_DEFAULT_BIT, &queueB_);
    gpa_uint32 count = 0;
    EXPECT_GPA(GPA_STATUS_OK, GPA_GetNumCounters(&count));
    EXPECT_EQ(count, 2u);
    EXPECT_GPA(GPA_STATUS_OK, GPA_GetEnabledCount(&count));
    EXPECT_EQ(count, 0u);
    Enable("Busy");
    EXPECT_EQ(Record({5}), 1u);

    EXPECT_GPA(GPA_STATUS_OK, GPA_SelectContext(&queueA_));
    EXPECT_GPA(GPA_STATUS_OK, GPA_GetNumCounters(&count));
    EXPECT_EQ(count, 5u);
    EXPECT_GPA(GPA_STATUS_OK, GPA_GetEnabledCount(&count));
    EXPECT_EQ(count, 2u);
    gpa_uint32 passes = 0;
    EXPECT_GPA(GPA_STATUS_OK, GPA_GetPassCount(&passes));
    EXPECT_EQ(passes, 1u);
    // Session 1 of A is A's: two samples, and Waves readable.
    EXPECT_GPA(GPA_STATUS_OK, GPA_GetSampleCount(1, &count));
    EXPECT_EQ(count, 2u);
    gpa_uint64 waves = 0;
    EXPECT_GPA(GPA_STATUS_OK, GPA_GetSampleUInt64(1, 1, Index("Waves"), &waves));
    EXPECT_EQ(waves, static_cast<gpa_uint64>(Hw(kWaves, 1)));
    EXPECT_EQ(Record(), 3u);

    EXPECT_GPA(GPA_STATUS_OK, GPA_SelectContext(&queueB_));
    EXPECT_GPA(GPA_STATUS_OK, GPA_GetSampleCount(1, &count));
    EXPECT_EQ(count, 1u);
    EXPECT_GPA(GPA_STATUS_OK, GPA_GetPassCount(&passes));
    EXPECT_EQ(passes, 2u);
    double busy = 0;
    EXPECT_GPA(GPA_STATUS_OK, GPA_GetSampleFloat64(1, 5, Index("Busy"), &busy));
    EXPECT_DOUBLE_EQ(busy, 100.0 * Hw(kBusy, 5) / Hw(kCycles, 5));
    EXPECT_GPA(GPA_STATUS_ERROR_SESSION_NOT_FOUND, GPA_GetSampleCount(3, &count));
}

TEST_F(Context, EachContextRecordsItsOwnSession) {
    Open();
    Enable("Waves");
    gpa_uint32 a = 0, b = 0;
    ASSERT_GPA(GPA_STATUS_OK, GPA_BeginSession(&a));
    Open(GPA_OPENCONTEXT_DEFAULT_BIT, &queueB_);
    Enable("Waves");
    // B is not sampling although A is.
    ASSERT_GPA(GPA_STATUS_OK, GPA_BeginSession(&b));
    EXPECT_EQ(a, 1u);
    EXPECT_EQ(b, 1u);
    EXPECT_GPA(GPA_STATUS_OK, GPA_SelectContext(&queueA_));
    EXPECT_GPA(GPA_STATUS_ERROR_SAMPLING_ALREADY_STARTED, GPA_BeginSession(&a));
    EXPECT_GPA(GPA_STATUS_ERROR_SAMPLING_NOT_ENDED, GPA_CloseContext());
}

// ---- open-context flags ------------------------------------------------------------------------------------

TEST_F(Context, HidePublicCountersLeavesNothingWithoutHardwareCounters) {
    Open(GPA_OPENCONTEXT_HIDE_PUBLIC_COUNTERS_BIT);
    gpa_uint32 count = 99;
    EXPECT_GPA(GPA_STATUS_OK, GPA_GetNumCounters(&count));
    EXPECT_EQ(count, 0u);
    gpa_uint32 index = 0;
    EXPECT_GPA(GPA_STATUS_ERROR_NOT_FOUND, GPA_GetCounterIndex("GPUTime", &index));
    EXPECT_GPA(GPA_STATUS_OK, GPA_EnableAllCounters());
    gpa_uint32 session = 0;
    EXPECT_GPA(GPA_STATUS_ERROR_NO_COUNTERS_ENABLED, GPA_BeginSession(&session));
}

TEST_F(Context, EnableHardwareCountersExposesRawCountersAfterTheDerivedOnes) {
    Open(GPA_OPENCONTEXT_ENABLE_HARDWARE_COUNTERS_BIT);
    gpa_uint32 count = 0;
    EXPECT_GPA(GPA_STATUS_OK, GPA_GetNumCounters(&count));
    ASSERT_EQ(count, 10u);  // 5 derived + 5 hardware
    const char* name = nullptr;
    EXPECT_GPA(GPA_STATUS_OK, GPA_GetCounterName(0, &name));
    EXPECT_STREQ(name, "GPUTime");
    EXPECT_GPA(GPA_STATUS_OK, GPA_GetCounterName(5, &name));
    EXPECT_STREQ(name, "hw.cycles");
    const char* category = nullptr;
    EXPECT_GPA(GPA_STATUS_OK, GPA_GetCounterCategory(Index("HW.BYTES"), &category));
    EXPECT_STREQ(category, "blockB");
    GPA_Usage_Type usage = GPA_USAGE_TYPE__LAST;
    EXPECT_GPA(GPA_STATUS_OK, GPA_GetCounterUsageType(Index("hw.time_ns"), &usage));
    EXPECT_EQ(usage, GPA_USAGE_TYPE_NANOSECONDS);
}

TEST_F(Context, HardwareCountersAloneGiveTheRawValues) {
    Open(GPA_OPENCONTEXT_HIDE_PUBLIC_COUNTERS_BIT | GPA_OPENCONTEXT_ENABLE_HARDWARE_COUNTERS_BIT);
    gpa_uint32 count = 0;
    EXPECT_GPA(GPA_STATUS_OK, GPA_GetNumCounters(&count));
    ASSERT_EQ(count, 5u);
    EXPECT_GPA(GPA_STATUS_OK, GPA_EnableAllCounters());
    gpa_uint32 passes = 0;
    EXPECT_GPA(GPA_STATUS_OK, GPA_GetPassCount(&passes));
    EXPECT_EQ(passes, 2u);  // blockA counts one at a time
    const gpa_uint32 session = Record({3, 9});
    for (gpa_uint32 counter = 0; counter < count; ++counter) {
        const char* name = nullptr;
        ASSERT_GPA(GPA_STATUS_OK, GPA_GetCounterName(counter, &name));
        GPA_Type type = GPA_TYPE__LAST;
        ASSERT_GPA(GPA_STATUS_OK, GPA_GetCounterDataType(counter, &type));
        EXPECT_EQ(type, GPA_TYPE_UINT64) << name;
        for (gpa_uint32 sample : {3u, 9u}) {
            gpa_uint64 value = 0;
            EXPECT_GPA(GPA_STATUS_OK, GPA_GetSampleUInt64(session, sample, counter, &value));
            EXPECT_EQ(value, static_cast<gpa_uint64>(Hw(counter, sample))) << name;
        }
    }
}

// ---- GPA_GetDeviceID / GPA_GetDeviceDesc -------------------------------------------------------------------

TEST_F(Context, DeviceIdOk) {
    Open();
    gpa_uint32 id = 0;
    EXPECT_GPA(GPA_STATUS_OK, GPA_GetDeviceID(&id));
    EXPECT_EQ(id, 0x2335u);
}

TEST_F(Context, DeviceIdWithoutContextIsNotOpen) {
    gpa_uint32 id = 7;
    EXPECT_GPA(GPA_STATUS_ERROR_COUNTERS_NOT_OPEN, GPA_GetDeviceID(&id));
    EXPECT_EQ(id, 7u);  // not modified on error
}

TEST_F(Context, DeviceIdNullPointer) {
    Open();
    EXPECT_GPA(GPA_STATUS_ERROR_NULL_POINTER, GPA_GetDeviceID(nullptr));
}

TEST_F(Context, DeviceIdNotFoundWhenTheDeviceHasNone) {
    Config().device.deviceId = std::nullopt;
    Open();
    gpa_uint32 id = 7;
    EXPECT_GPA(GPA_STATUS_ERROR_NOT_FOUND, GPA_GetDeviceID(&id));
    EXPECT_EQ(id, 7u);
    const char* desc = nullptr;
    EXPECT_GPA(GPA_STATUS_OK, GPA_GetDeviceDesc(&desc));  // the name is still known
}

TEST_F(Context, DeviceDescOk) {
    Open();
    const char* desc = nullptr;
    EXPECT_GPA(GPA_STATUS_OK, GPA_GetDeviceDesc(&desc));
    EXPECT_STREQ(desc, "Scripted Test Device");
}

TEST_F(Context, DeviceDescWithoutContextIsNotOpen) {
    const char* desc = "unchanged";
    EXPECT_GPA(GPA_STATUS_ERROR_COUNTERS_NOT_OPEN, GPA_GetDeviceDesc(&desc));
    EXPECT_STREQ(desc, "unchanged");
}

TEST_F(Context, DeviceDescNullPointer) {
    Open();
    EXPECT_GPA(GPA_STATUS_ERROR_NULL_POINTER, GPA_GetDeviceDesc(nullptr));
}

TEST_F(Context, DeviceDescNotFoundWhenTheDeviceHasNone) {
    Config().device.name.clear();
    Open();
    const char* desc = "unchanged";
    EXPECT_GPA(GPA_STATUS_ERROR_NOT_FOUND, GPA_GetDeviceDesc(&desc));
    EXPECT_STREQ(desc, "unchanged");
}

TEST_F(Context, DeviceQueriesFollowTheSelectedContext) {
    Open();
    Config().device = {0x1234u, "Second Device"};
    Open(GPA_OPENCONTEXT_DEFAULT_BIT, &queueB_);
    gpa_uint32 id = 0;
    const char* desc = nullptr;
    EXPECT_GPA(GPA_STATUS_OK, GPA_GetDeviceID(&id));
    EXPECT_GPA(GPA_STATUS_OK, GPA_GetDeviceDesc(&desc));
    EXPECT_EQ(id, 0x1234u);
    EXPECT_STREQ(desc, "Second Device");
    EXPECT_GPA(GPA_STATUS_OK, GPA_SelectContext(&queueA_));
    EXPECT_GPA(GPA_STATUS_OK, GPA_GetDeviceID(&id));
    EXPECT_GPA(GPA_STATUS_OK, GPA_GetDeviceDesc(&desc));
    EXPECT_EQ(id, 0x2335u);
    EXPECT_STREQ(desc, "Scripted Test Device");
}

}  // namespace
}  // namespace gpa_test
