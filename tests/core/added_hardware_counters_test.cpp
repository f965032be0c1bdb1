// Hardware counters a backend adds when a name asks for one the catalog lacks (BackendContext::AddHardwareCounter;
// on CUDA: every NVIDIA metric name ncu accepts), through GPA_GetCounterIndex, GPA_EnableCounterStr and
// GPA_DisableCounterStr on contexts opened with GPA_OPENCONTEXT_ENABLE_HARDWARE_COUNTERS_BIT. The scripted
// backend adds "hw.stalls.pct" (blockA, which counts one counter per pass) and refuses every other name.
#include <cstring>
#include <string>

#include "gpa_test_fixture.h"

namespace gpa_test {
namespace {

using gpa::testing::Config;

class AddedHardwareCounters : public GpaTest {
protected:
    static gpa_uint32 Count() {
        gpa_uint32 count = 0;
        EXPECT_GPA(GPA_STATUS_OK, GPA_GetNumCounters(&count));
        return count;
    }
    static constexpr gpa_uint32 kListed = 10;          // 5 derived + 5 hardware
    static constexpr uint32_t kAddedHardwareIndex = 5;  // after the scripted device's five hardware counters
};

TEST_F(AddedHardwareCounters, GetCounterIndexAddsTheCounterWithWhatTheBackendSaysOfIt) {
    Open(GPA_OPENCONTEXT_ENABLE_HARDWARE_COUNTERS_BIT);
    ASSERT_EQ(Count(), kListed);
    gpa_uint32 index = 0;
    ASSERT_GPA(GPA_STATUS_OK, GPA_GetCounterIndex("HW.Stalls.PCT", &index));  // any letter case
    EXPECT_EQ(index, kListed);
    EXPECT_EQ(Count(), kListed + 1);  // listed from now on
    const char* name = nullptr;
    EXPECT_GPA(GPA_STATUS_OK, GPA_GetCounterName(index, &name));
    EXPECT_STREQ(name, "hw.stalls.pct");  // the backend's spelling
    const char* text = nullptr;
    EXPECT_GPA(GPA_STATUS_OK, GPA_GetCounterDescription(index, &text));
    EXPECT_STREQ(text, "stalled cycles in percent");
    EXPECT_GPA(GPA_STATUS_OK, GPA_GetCounterCategory(index, &text));
    EXPECT_STREQ(text, "blockA");
    GPA_Type type = GPA_TYPE__LAST;
    EXPECT_GPA(GPA_STATUS_OK, GPA_GetCounterDataType(index, &type));
    EXPECT_EQ(type, GPA_TYPE_FLOAT64);
    GPA_Usage_Type usage = GPA_USAGE_TYPE__LAST;
    EXPECT_GPA(GPA_STATUS_OK, GPA_GetCounterUsageType(index, &usage));
    EXPECT_EQ(usage, GPA_USAGE_TYPE_PERCENTAGE);
    // Asked again: the same counter, nothing added.
    gpa_uint32 again = 0;
    EXPECT_GPA(GPA_STATUS_OK, GPA_GetCounterIndex("hw.stalls.pct", &again));
    EXPECT_EQ(again, index);
    EXPECT_EQ(Count(), kListed + 1);
}

TEST_F(AddedHardwareCounters, EnableCounterStrAddsEnablesPlansAndReadsIt) {
    Open(GPA_OPENCONTEXT_ENABLE_HARDWARE_COUNTERS_BIT);
    ASSERT_GPA(GPA_STATUS_OK, GPA_EnableCounterStr("hw.stalls.pct"));
    EXPECT_GPA(GPA_STATUS_OK, GPA_IsCounterEnabled(kListed));
    gpa_uint32 passes = 0;
    EXPECT_GPA(GPA_STATUS_OK, GPA_GetPassCount(&passes));
    EXPECT_EQ(passes, 1u);
    // It shares blockA's one slot per pass with hw.cycles: the planner knows its block.
    Enable("hw.cycles");
    EXPECT_GPA(GPA_STATUS_OK, GPA_GetPassCount(&passes));
    EXPECT_EQ(passes, 2u);
    const gpa_uint32 session = Record({0, 7});
    for (gpa_uint32 sample : {0u, 7u}) {
        double value = 0;
        EXPECT_GPA(GPA_STATUS_OK, GPA_GetSampleFloat64(session, sample, kListed, &value));
        EXPECT_EQ(value, Hw(kAddedHardwareIndex, sample));
        gpa_uint64 cycles = 0;
        EXPECT_GPA(GPA_STATUS_OK, GPA_GetSampleUInt64(session, sample, Index("hw.cycles"), &cycles));
        EXPECT_EQ(static_cast<double>(cycles), Hw(kCycles, sample));
    }
    EXPECT_GPA(GPA_STATUS_ERROR_ALREADY_ENABLED, GPA_EnableCounterStr("HW.STALLS.PCT"));
}

TEST_F(AddedHardwareCounters, DisableCounterStrResolvesTheSameNames) {
    Open(GPA_OPENCONTEXT_ENABLE_HARDWARE_COUNTERS_BIT);
    EXPECT_GPA(GPA_STATUS_ERROR_NOT_ENABLED, GPA_DisableCounterStr("hw.stalls.pct"));  // known now, not enabled
    EXPECT_EQ(Count(), kListed + 1);
    ASSERT_GPA(GPA_STATUS_OK, GPA_EnableCounterStr("hw.stalls.pct"));
    EXPECT_GPA(GPA_STATUS_OK, GPA_DisableCounterStr("hw.stalls.pct"));
    EXPECT_GPA(GPA_STATUS_ERROR_NOT_FOUND, GPA_DisableCounterStr("hw.nothing"));
}

TEST_F(AddedHardwareCounters, NamesTheBackendRefusesAreNotFoundWithItsReason) {
    Open(GPA_OPENCONTEXT_ENABLE_HARDWARE_COUNTERS_BIT);
    gpa_uint32 index = 99;
    EXPECT_GPA(GPA_STATUS_ERROR_NOT_FOUND, GPA_GetCounterIndex("hw.nothing", &index));
    EXPECT_EQ(index, 99u);
    const std::string reason = OGPA_GetLastErrorMessage();
    EXPECT_NE(reason.find("no counter is named 'hw.nothing' on this device: the scripted device measures no such counter"),
              std::string::npos)
        << reason;
    EXPECT_GPA(GPA_STATUS_ERROR_NOT_FOUND, GPA_EnableCounterStr("hw.nothing"));
    EXPECT_GPA(GPA_STATUS_ERROR_NOT_FOUND, GPA_EnableCounterStr("Missing"));  // a derived counter left out stays out
    EXPECT_EQ(Count(), kListed);
    // A backend with nothing to say: the core's own advice.
    Config().addRefusal.clear();
    EXPECT_GPA(GPA_STATUS_ERROR_NOT_FOUND, GPA_GetCounterIndex("hw.nothing", &index));
    EXPECT_NE(std::string(OGPA_GetLastErrorMessage()).find("GPA_GetCounterName lists the available ones"), std::string::npos);
}

TEST_F(AddedHardwareCounters, OnlyContextsThatExposeHardwareCountersAskTheBackend) {
    Open();  // GPA counters only
    gpa_uint32 count = 0;
    ASSERT_GPA(GPA_STATUS_OK, GPA_GetNumCounters(&count));
    gpa_uint32 index = 99;
    EXPECT_GPA(GPA_STATUS_ERROR_NOT_FOUND, GPA_GetCounterIndex("hw.stalls.pct", &index));
    EXPECT_GPA(GPA_STATUS_ERROR_NOT_FOUND, GPA_EnableCounterStr("hw.stalls.pct"));
    EXPECT_EQ(std::string(OGPA_GetLastErrorMessage()).find("scripted"), std::string::npos);
    EXPECT_EQ(Count(), count);
}

// A context without the flag says why it lacks a hardware counter's name, whether it lists it (hw.cycles) or the
// backend would add it (hw.stalls.pct, the backend's hint); other names get the plain answer.
TEST_F(AddedHardwareCounters, HiddenHardwareCounterNamesSayWhichFlagTheyNeed) {
    Open();
    gpa_uint32 index = 0;
    EXPECT_GPA(GPA_STATUS_ERROR_NOT_FOUND, GPA_EnableCounterStr("HW.Cycles"));
    EXPECT_NE(std::string(OGPA_GetLastErrorMessage()).find("GPA_OPENCONTEXT_ENABLE_HARDWARE_COUNTERS_BIT"), std::string::npos)
        << OGPA_GetLastErrorMessage();
    EXPECT_GPA(GPA_STATUS_ERROR_NOT_FOUND, GPA_GetCounterIndex("hw.stalls.pct", &index));
    EXPECT_NE(std::string(OGPA_GetLastErrorMessage()).find("adds with the hardware flag"), std::string::npos)
        << OGPA_GetLastErrorMessage();
    EXPECT_GPA(GPA_STATUS_ERROR_NOT_FOUND, GPA_GetCounterIndex("NoSuchCounter", &index));
    EXPECT_NE(std::string(OGPA_GetLastErrorMessage()).find("GPA_GetCounterName lists the available ones"), std::string::npos);
}

TEST_F(AddedHardwareCounters, EachContextAddsItsOwn) {
    Open(GPA_OPENCONTEXT_ENABLE_HARDWARE_COUNTERS_BIT, &queueA_);
    ASSERT_GPA(GPA_STATUS_OK, GPA_EnableCounterStr("hw.stalls.pct"));
    Open(GPA_OPENCONTEXT_ENABLE_HARDWARE_COUNTERS_BIT, &queueB_);
    EXPECT_EQ(Count(), kListed);
    ASSERT_GPA(GPA_STATUS_OK, GPA_SelectContext(&queueA_));
    EXPECT_EQ(Count(), kListed + 1);
}

TEST_F(AddedHardwareCounters, NamesHandedOutStayValidWhenTheListGrows) {
    Open(GPA_OPENCONTEXT_ENABLE_HARDWARE_COUNTERS_BIT);
    const char* first = nullptr;
    const char* description = nullptr;
    const char* category = nullptr;
    ASSERT_GPA(GPA_STATUS_OK, GPA_GetCounterName(0, &first));
    ASSERT_GPA(GPA_STATUS_OK, GPA_GetCounterDescription(9, &description));
    ASSERT_GPA(GPA_STATUS_OK, GPA_GetCounterCategory(5, &category));
    gpa_uint32 added = 0;
    ASSERT_GPA(GPA_STATUS_OK, GPA_GetCounterIndex("hw.stalls.pct", &added));
    EXPECT_STREQ(first, "GPUTime");  // read after the list grew (AddressSanitizer sees freed memory)
    EXPECT_STREQ(description, "time");
    EXPECT_STREQ(category, "blockA");
}

TEST_F(AddedHardwareCounters, EarlierSessionsAreReadAfterTheListGrew) {
    Open(GPA_OPENCONTEXT_ENABLE_HARDWARE_COUNTERS_BIT);
    Enable("Waves");
    const gpa_uint32 before = Record({4});
    // A session being recorded while a name adds a counter (GPA_GetCounterIndex may run while sampling).
    gpa_uint32 during = 0;
    ASSERT_GPA(GPA_STATUS_OK, GPA_BeginSession(&during));
    gpa_uint32 added = 0;
    ASSERT_GPA(GPA_STATUS_OK, GPA_GetCounterIndex("hw.stalls.pct", &added));
    EXPECT_GPA(GPA_STATUS_ERROR_CANNOT_CHANGE_COUNTERS_WHEN_SAMPLING, GPA_EnableCounterStr("hw.stalls.pct"));
    ASSERT_GPA(GPA_STATUS_OK, GPA_BeginPass());
    ASSERT_GPA(GPA_STATUS_OK, GPA_BeginSample(4));
    ASSERT_GPA(GPA_STATUS_OK, GPA_EndSample());
    ASSERT_GPA(GPA_STATUS_OK, GPA_EndPass());
    ASSERT_GPA(GPA_STATUS_OK, GPA_EndSession());
    for (gpa_uint32 session : {before, during}) {
        gpa_uint64 waves = 0;
        EXPECT_GPA(GPA_STATUS_OK, GPA_GetSampleUInt64(session, 4, Index("Waves"), &waves));
        EXPECT_EQ(static_cast<double>(waves), Hw(kWaves, 4));
        double stalls = 0;
        EXPECT_GPA(GPA_STATUS_ERROR_NOT_ENABLED, GPA_GetSampleFloat64(session, 4, added, &stalls));
    }
}

}  // namespace
}  // namespace gpa_test
