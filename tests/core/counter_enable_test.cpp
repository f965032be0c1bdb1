// Enabling counters and planning passes: GPA_EnableCounter, GPA_DisableCounter, GPA_EnableCounterStr,
// GPA_DisableCounterStr, GPA_EnableAllCounters, GPA_DisableAllCounters, GPA_GetEnabledCount,
// GPA_GetEnabledIndex, GPA_IsCounterEnabled, GPA_GetPassCount.
#include <string>

#include "gpa_test_fixture.h"

namespace gpa_test {
namespace {

using gpa::testing::Config;

class CounterEnable : public GpaTest {
protected:
    // Opens a context and leaves a session being recorded with Waves enabled.
    void OpenAndBeginSession() {
        Open();
        Enable("Waves");
        gpa_uint32 session = 0;
        ASSERT_GPA(GPA_STATUS_OK, GPA_BeginSession(&session));
    }
    static gpa_uint32 EnabledCount() {
        gpa_uint32 count = 0xFFFFFFFFu;
        EXPECT_GPA(GPA_STATUS_OK, GPA_GetEnabledCount(&count));
        return count;
    }
};

constexpr gpa_uint32 kCounters = 5;

// ---- GPA_EnableCounter -------------------------------------------------------------------------------------

TEST_F(CounterEnable, EnableCounterOk) {
    Open();
    EXPECT_GPA(GPA_STATUS_OK, GPA_EnableCounter(3));
    EXPECT_GPA(GPA_STATUS_OK, GPA_IsCounterEnabled(3));
    EXPECT_EQ(EnabledCount(), 1u);
}

TEST_F(CounterEnable, EnableCounterWithoutContextIsNotOpen) {
    EXPECT_GPA(GPA_STATUS_ERROR_COUNTERS_NOT_OPEN, GPA_EnableCounter(0));
}

TEST_F(CounterEnable, EnableCounterIndexOutOfRange) {
    Open();
    EXPECT_GPA(GPA_STATUS_ERROR_INDEX_OUT_OF_RANGE, GPA_EnableCounter(kCounters));
    EXPECT_GPA(GPA_STATUS_ERROR_INDEX_OUT_OF_RANGE, GPA_EnableCounter(0xFFFFFFFFu));
    EXPECT_EQ(EnabledCount(), 0u);
}

TEST_F(CounterEnable, EnableCounterTwiceIsAlreadyEnabled) {
    Open();
    ASSERT_GPA(GPA_STATUS_OK, GPA_EnableCounter(1));
    EXPECT_GPA(GPA_STATUS_ERROR_ALREADY_ENABLED, GPA_EnableCounter(1));
    EXPECT_EQ(EnabledCount(), 1u);
}

TEST_F(CounterEnable, EnableCounterWhileSamplingCannotChangeCounters) {
    OpenAndBeginSession();
    EXPECT_GPA(GPA_STATUS_ERROR_CANNOT_CHANGE_COUNTERS_WHEN_SAMPLING, GPA_EnableCounter(0));
    EXPECT_GPA(GPA_STATUS_ERROR_NOT_FOUND, GPA_IsCounterEnabled(0));
}

// ---- GPA_DisableCounter ------------------------------------------------------------------------------------

TEST_F(CounterEnable, DisableCounterOk) {
    Open();
    ASSERT_GPA(GPA_STATUS_OK, GPA_EnableCounter(2));
    EXPECT_GPA(GPA_STATUS_OK, GPA_DisableCounter(2));
    EXPECT_GPA(GPA_STATUS_ERROR_NOT_FOUND, GPA_IsCounterEnabled(2));
    EXPECT_EQ(EnabledCount(), 0u);
}

TEST_F(CounterEnable, DisableCounterWithoutContextIsNotOpen) {
    EXPECT_GPA(GPA_STATUS_ERROR_COUNTERS_NOT_OPEN, GPA_DisableCounter(0));
}

TEST_F(CounterEnable, DisableCounterIndexOutOfRange) {
    Open();
    EXPECT_GPA(GPA_STATUS_ERROR_INDEX_OUT_OF_RANGE, GPA_DisableCounter(kCounters));
}

TEST_F(CounterEnable, DisableCounterThatIsNotEnabledIsNotEnabled) {
    Open();
    EXPECT_GPA(GPA_STATUS_ERROR_NOT_ENABLED, GPA_DisableCounter(0));
    ASSERT_GPA(GPA_STATUS_OK, GPA_EnableCounter(0));
    ASSERT_GPA(GPA_STATUS_OK, GPA_DisableCounter(0));
    EXPECT_GPA(GPA_STATUS_ERROR_NOT_ENABLED, GPA_DisableCounter(0));
}

TEST_F(CounterEnable, DisableCounterWhileSamplingCannotChangeCounters) {
    OpenAndBeginSession();
    EXPECT_GPA(GPA_STATUS_ERROR_CANNOT_CHANGE_COUNTERS_WHEN_SAMPLING, GPA_DisableCounter(Index("Waves")));
    EXPECT_GPA(GPA_STATUS_OK, GPA_IsCounterEnabled(Index("Waves")));
}

// ---- GPA_EnableCounterStr ----------------------------------------------------------------------------------

TEST_F(CounterEnable, EnableCounterStrOkAndCaseInsensitive) {
    Open();
    EXPECT_GPA(GPA_STATUS_OK, GPA_EnableCounterStr("fetchsize"));
    EXPECT_GPA(GPA_STATUS_OK, GPA_IsCounterEnabled(Index("FetchSize")));
}

TEST_F(CounterEnable, EnableCounterStrNullPointer) {
    Open();
    EXPECT_GPA(GPA_STATUS_ERROR_NULL_POINTER, GPA_EnableCounterStr(nullptr));
}

TEST_F(CounterEnable, EnableCounterStrWithoutContextIsNotOpen) {
    EXPECT_GPA(GPA_STATUS_ERROR_COUNTERS_NOT_OPEN, GPA_EnableCounterStr("Waves"));
}

TEST_F(CounterEnable, EnableCounterStrWhileSamplingCannotChangeCounters) {
    OpenAndBeginSession();
    EXPECT_GPA(GPA_STATUS_ERROR_CANNOT_CHANGE_COUNTERS_WHEN_SAMPLING, GPA_EnableCounterStr("GPUTime"));
    EXPECT_GPA(GPA_STATUS_ERROR_CANNOT_CHANGE_COUNTERS_WHEN_SAMPLING, GPA_EnableCounterStr("NoSuchCounter"));
}

TEST_F(CounterEnable, EnableCounterStrUnknownNameIsNotFound) {
    Open();
    EXPECT_GPA(GPA_STATUS_ERROR_NOT_FOUND, GPA_EnableCounterStr("NoSuchCounter"));
    EXPECT_EQ(EnabledCount(), 0u);
}

TEST_F(CounterEnable, EnableCounterStrTwiceIsAlreadyEnabled) {
    Open();
    ASSERT_GPA(GPA_STATUS_OK, GPA_EnableCounterStr("Busy"));
    EXPECT_GPA(GPA_STATUS_ERROR_ALREADY_ENABLED, GPA_EnableCounterStr("BUSY"));
    EXPECT_GPA(GPA_STATUS_ERROR_ALREADY_ENABLED, GPA_EnableCounter(Index("Busy")));
}

// ---- GPA_DisableCounterStr ---------------------------------------------------------------------------------

TEST_F(CounterEnable, DisableCounterStrOkAndCaseInsensitive) {
    Open();
    ASSERT_GPA(GPA_STATUS_OK, GPA_EnableCounterStr("GPUTime"));
    EXPECT_GPA(GPA_STATUS_OK, GPA_DisableCounterStr("gputime"));
    EXPECT_EQ(EnabledCount(), 0u);
}

TEST_F(CounterEnable, DisableCounterStrNullPointer) {
    Open();
    EXPECT_GPA(GPA_STATUS_ERROR_NULL_POINTER, GPA_DisableCounterStr(nullptr));
}

TEST_F(CounterEnable, DisableCounterStrWithoutContextIsNotOpen) {
    EXPECT_GPA(GPA_STATUS_ERROR_COUNTERS_NOT_OPEN, GPA_DisableCounterStr("Waves"));
}

TEST_F(CounterEnable, DisableCounterStrWhileSamplingCannotChangeCounters) {
    OpenAndBeginSession();
    EXPECT_GPA(GPA_STATUS_ERROR_CANNOT_CHANGE_COUNTERS_WHEN_SAMPLING, GPA_DisableCounterStr("Waves"));
}

TEST_F(CounterEnable, DisableCounterStrUnknownNameIsNotFound) {
    Open();
    EXPECT_GPA(GPA_STATUS_ERROR_NOT_FOUND, GPA_DisableCounterStr("NoSuchCounter"));
}

TEST_F(CounterEnable, DisableCounterStrThatIsNotEnabledIsNotEnabled) {
    Open();
    EXPECT_GPA(GPA_STATUS_ERROR_NOT_ENABLED, GPA_DisableCounterStr("Waves"));
}

// ---- GPA_EnableAllCounters / GPA_DisableAllCounters ---------------------------------------------------------

TEST_F(CounterEnable, EnableAllCountersOkEvenWhenSomeAreEnabled) {
    Open();
    ASSERT_GPA(GPA_STATUS_OK, GPA_EnableCounterStr("Waves32"));
    EXPECT_GPA(GPA_STATUS_OK, GPA_EnableAllCounters());
    EXPECT_EQ(EnabledCount(), kCounters);
    // Waves32 keeps its place; the others follow in catalog order.
    for (gpa_uint32 n = 0; n < kCounters; ++n) {
        gpa_uint32 index = 99;
        EXPECT_GPA(GPA_STATUS_OK, GPA_GetEnabledIndex(n, &index));
        EXPECT_EQ(index, n == 0 ? Index("Waves32") : n - 1);
    }
    for (gpa_uint32 i = 0; i < kCounters; ++i) EXPECT_GPA(GPA_STATUS_OK, GPA_IsCounterEnabled(i));
    EXPECT_GPA(GPA_STATUS_OK, GPA_EnableAllCounters());
    EXPECT_EQ(EnabledCount(), kCounters);
}

TEST_F(CounterEnable, EnableAllCountersWithoutContextIsNotOpen) {
    EXPECT_GPA(GPA_STATUS_ERROR_COUNTERS_NOT_OPEN, GPA_EnableAllCounters());
}

TEST_F(CounterEnable, EnableAllCountersWhileSamplingCannotChangeCounters) {
    OpenAndBeginSession();
    EXPECT_GPA(GPA_STATUS_ERROR_CANNOT_CHANGE_COUNTERS_WHEN_SAMPLING, GPA_EnableAllCounters());
    EXPECT_EQ(EnabledCount(), 1u);
}

TEST_F(CounterEnable, DisableAllCountersOk) {
    Open();
    ASSERT_GPA(GPA_STATUS_OK, GPA_EnableAllCounters());
    EXPECT_GPA(GPA_STATUS_OK, GPA_DisableAllCounters());
    EXPECT_EQ(EnabledCount(), 0u);
    EXPECT_GPA(GPA_STATUS_OK, GPA_DisableAllCounters());  // nothing enabled is fine
}

TEST_F(CounterEnable, DisableAllCountersWithoutContextIsNotOpen) {
    EXPECT_GPA(GPA_STATUS_ERROR_COUNTERS_NOT_OPEN, GPA_DisableAllCounters());
}

TEST_F(CounterEnable, DisableAllCountersWhileSamplingCannotChangeCounters) {
    OpenAndBeginSession();
    EXPECT_GPA(GPA_STATUS_ERROR_CANNOT_CHANGE_COUNTERS_WHEN_SAMPLING, GPA_DisableAllCounters());
    EXPECT_EQ(EnabledCount(), 1u);
}

TEST_F(CounterEnable, CountersCanChangeAgainOnceTheSessionEnds) {
    OpenAndBeginSession();
    ASSERT_GPA(GPA_STATUS_OK, GPA_BeginPass());
    ASSERT_GPA(GPA_STATUS_OK, GPA_EndPass());
    ASSERT_GPA(GPA_STATUS_OK, GPA_EndSession());
    EXPECT_GPA(GPA_STATUS_OK, GPA_EnableAllCounters());
    EXPECT_GPA(GPA_STATUS_OK, GPA_DisableCounterStr("Waves"));
}

// ---- GPA_GetEnabledCount / GPA_GetEnabledIndex / GPA_IsCounterEnabled --------------------------------------

TEST_F(CounterEnable, GetEnabledCountOk) {
    Open();
    EXPECT_EQ(EnabledCount(), 0u);
    Enable("Waves");
    Enable("GPUTime");
    EXPECT_EQ(EnabledCount(), 2u);
}

TEST_F(CounterEnable, GetEnabledCountWithoutContextIsNotOpen) {
    gpa_uint32 count = 7;
    EXPECT_GPA(GPA_STATUS_ERROR_COUNTERS_NOT_OPEN, GPA_GetEnabledCount(&count));
    EXPECT_EQ(count, 7u);
}

TEST_F(CounterEnable, GetEnabledCountNullPointer) {
    Open();
    EXPECT_GPA(GPA_STATUS_ERROR_NULL_POINTER, GPA_GetEnabledCount(nullptr));
}

TEST_F(CounterEnable, GetEnabledIndexOkInTheOrderCountersWereEnabled) {
    Open();
    Enable("Waves32");
    Enable("GPUTime");
    Enable("FetchSize");
    const gpa_uint32 expected[] = {Index("Waves32"), Index("GPUTime"), Index("FetchSize")};
    for (gpa_uint32 n = 0; n < 3; ++n) {
        gpa_uint32 index = 99;
        EXPECT_GPA(GPA_STATUS_OK, GPA_GetEnabledIndex(n, &index));
        EXPECT_EQ(index, expected[n]);
    }
    ASSERT_GPA(GPA_STATUS_OK, GPA_DisableCounterStr("GPUTime"));
    gpa_uint32 index = 99;
    EXPECT_GPA(GPA_STATUS_OK, GPA_GetEnabledIndex(1, &index));
    EXPECT_EQ(index, Index("FetchSize"));
}

TEST_F(CounterEnable, GetEnabledIndexWithoutContextIsNotOpen) {
    gpa_uint32 index = 99;
    EXPECT_GPA(GPA_STATUS_ERROR_COUNTERS_NOT_OPEN, GPA_GetEnabledIndex(0, &index));
    EXPECT_EQ(index, 99u);
}

TEST_F(CounterEnable, GetEnabledIndexNullPointer) {
    Open();
    Enable("Waves");
    EXPECT_GPA(GPA_STATUS_ERROR_NULL_POINTER, GPA_GetEnabledIndex(0, nullptr));
}

TEST_F(CounterEnable, GetEnabledIndexOutOfRange) {
    Open();
    gpa_uint32 index = 99;
    EXPECT_GPA(GPA_STATUS_ERROR_INDEX_OUT_OF_RANGE, GPA_GetEnabledIndex(0, &index));
    Enable("Waves");
    EXPECT_GPA(GPA_STATUS_ERROR_INDEX_OUT_OF_RANGE, GPA_GetEnabledIndex(1, &index));
    EXPECT_EQ(index, 99u);
}

TEST_F(CounterEnable, IsCounterEnabledOk) {
    Open();
    Enable("Busy");
    EXPECT_GPA(GPA_STATUS_OK, GPA_IsCounterEnabled(Index("Busy")));
}

TEST_F(CounterEnable, IsCounterEnabledWithoutContextIsNotOpen) {
    EXPECT_GPA(GPA_STATUS_ERROR_COUNTERS_NOT_OPEN, GPA_IsCounterEnabled(0));
}

TEST_F(CounterEnable, IsCounterEnabledIndexOutOfRange) {
    Open();
    EXPECT_GPA(GPA_STATUS_ERROR_INDEX_OUT_OF_RANGE, GPA_IsCounterEnabled(kCounters));
}

TEST_F(CounterEnable, IsCounterEnabledOfADisabledCounterIsNotFound) {
    Open();
    Enable("Busy");
    EXPECT_GPA(GPA_STATUS_ERROR_NOT_FOUND, GPA_IsCounterEnabled(Index("GPUTime")));
}

// ---- GPA_GetPassCount --------------------------------------------------------------------------------------

TEST_F(CounterEnable, GetPassCountOk) {
    Open();
    gpa_uint32 passes = 99;
    EXPECT_GPA(GPA_STATUS_OK, GPA_GetPassCount(&passes));
    EXPECT_EQ(passes, 0u);  // nothing enabled, nothing to collect
    Enable("Waves");
    Enable("FetchSize");  // hw.waves and hw.bytes share blockB, which counts two at once
    EXPECT_GPA(GPA_STATUS_OK, GPA_GetPassCount(&passes));
    EXPECT_EQ(passes, 1u);
    Enable("Busy");  // hw.busy and hw.cycles are both in blockA, which counts one at a time
    EXPECT_GPA(GPA_STATUS_OK, GPA_GetPassCount(&passes));
    EXPECT_EQ(passes, 2u);
    ASSERT_GPA(GPA_STATUS_OK, GPA_DisableCounterStr("Busy"));
    EXPECT_GPA(GPA_STATUS_OK, GPA_GetPassCount(&passes));
    EXPECT_EQ(passes, 1u);
}

TEST_F(CounterEnable, GetPassCountWhileSamplingIsTheSessionsCount) {
    Open();
    Enable("Busy");
    gpa_uint32 session = 0;
    ASSERT_GPA(GPA_STATUS_OK, GPA_BeginSession(&session));
    gpa_uint32 passes = 0;
    EXPECT_GPA(GPA_STATUS_OK, GPA_GetPassCount(&passes));
    EXPECT_EQ(passes, 2u);
}

TEST_F(CounterEnable, GetPassCountWithoutContextIsNotOpen) {
    gpa_uint32 passes = 99;
    EXPECT_GPA(GPA_STATUS_ERROR_COUNTERS_NOT_OPEN, GPA_GetPassCount(&passes));
    EXPECT_EQ(passes, 99u);
}

TEST_F(CounterEnable, GetPassCountNullPointer) {
    Open();
    EXPECT_GPA(GPA_STATUS_ERROR_NULL_POINTER, GPA_GetPassCount(nullptr));
}

TEST_F(CounterEnable, CounterThatNoPassCanCollectFailsToPlan) {
    Config().maxPerBlock[2] = 0;  // blockC (hw.time_ns) can never be counted
    Open();
    Enable("GPUTime");
    gpa_uint32 passes = 99;
    EXPECT_GPA(GPA_STATUS_ERROR_FAILED, GPA_GetPassCount(&passes));
    EXPECT_EQ(passes, 99u);
    gpa_uint32 session = 0;
    EXPECT_GPA(GPA_STATUS_ERROR_FAILED, GPA_BeginSession(&session));
    // Without it, planning works again.
    ASSERT_GPA(GPA_STATUS_OK, GPA_DisableCounterStr("GPUTime"));
    Enable("Waves");
    EXPECT_GPA(GPA_STATUS_OK, GPA_GetPassCount(&passes));
    EXPECT_EQ(passes, 1u);
    EXPECT_EQ(Record(), 1u);
}

}  // namespace
}  // namespace gpa_test
