// The counter catalog through the C API: GPA_GetNumCounters, GPA_GetCounterName, GPA_GetCounterCategory,
// GPA_GetCounterDescription, GPA_GetCounterDataType, GPA_GetCounterUsageType, GPA_GetCounterIndex, and
// counters left out when the device lacks their inputs.
#include <string>

#include "gpa_test_fixture.h"

namespace gpa_test {
namespace {

using gpa::testing::Config;

class CounterCatalogApi : public GpaTest {};

constexpr gpa_uint32 kCounters = 5;  // GPUTime, Busy, FetchSize, Waves, Waves32 ("Missing" is left out)

// ---- GPA_GetNumCounters ------------------------------------------------------------------------------------

TEST_F(CounterCatalogApi, GetNumCountersOk) {
    Open();
    gpa_uint32 count = 0;
    EXPECT_GPA(GPA_STATUS_OK, GPA_GetNumCounters(&count));
    EXPECT_EQ(count, kCounters);
}

TEST_F(CounterCatalogApi, GetNumCountersWithoutContextIsNotOpen) {
    gpa_uint32 count = 42;
    EXPECT_GPA(GPA_STATUS_ERROR_COUNTERS_NOT_OPEN, GPA_GetNumCounters(&count));
    EXPECT_EQ(count, 42u);
    ASSERT_GPA(GPA_STATUS_OK, GPA_Initialize());
    EXPECT_GPA(GPA_STATUS_ERROR_COUNTERS_NOT_OPEN, GPA_GetNumCounters(&count));
}

TEST_F(CounterCatalogApi, GetNumCountersNullPointer) {
    Open();
    EXPECT_GPA(GPA_STATUS_ERROR_NULL_POINTER, GPA_GetNumCounters(nullptr));
}

// ---- GPA_GetCounterName ------------------------------------------------------------------------------------

TEST_F(CounterCatalogApi, GetCounterNameOkInDefinitionOrder) {
    Open();
    const char* expected[kCounters] = {"GPUTime", "Busy", "FetchSize", "Waves", "Waves32"};
    for (gpa_uint32 i = 0; i < kCounters; ++i) {
        const char* name = nullptr;
        EXPECT_GPA(GPA_STATUS_OK, GPA_GetCounterName(i, &name));
        EXPECT_STREQ(name, expected[i]);
    }
}

TEST_F(CounterCatalogApi, GetCounterNameWithoutContextIsNotOpen) {
    const char* name = "unchanged";
    EXPECT_GPA(GPA_STATUS_ERROR_COUNTERS_NOT_OPEN, GPA_GetCounterName(0, &name));
    EXPECT_STREQ(name, "unchanged");
}

TEST_F(CounterCatalogApi, GetCounterNameNullPointer) {
    Open();
    EXPECT_GPA(GPA_STATUS_ERROR_NULL_POINTER, GPA_GetCounterName(0, nullptr));
    EXPECT_GPA(GPA_STATUS_ERROR_NULL_POINTER, GPA_GetCounterName(kCounters, nullptr));  // before the index
}

TEST_F(CounterCatalogApi, GetCounterNameOfABadIndexIsNotFound) {
    // The seed lists GPA_STATUS_ERROR_NOT_FOUND, not INDEX_OUT_OF_RANGE, for this function.
    Open();
    const char* name = "unchanged";
    EXPECT_GPA(GPA_STATUS_ERROR_NOT_FOUND, GPA_GetCounterName(kCounters, &name));
    EXPECT_GPA(GPA_STATUS_ERROR_NOT_FOUND, GPA_GetCounterName(0xFFFFFFFFu, &name));
    EXPECT_STREQ(name, "unchanged");
}

// ---- category, description, data type, usage type: the same four statuses -------------------------------

TEST_F(CounterCatalogApi, GetCounterCategoryOk) {
    Open();
    const char* category = nullptr;
    EXPECT_GPA(GPA_STATUS_OK, GPA_GetCounterCategory(Index("FetchSize"), &category));
    EXPECT_STREQ(category, "GlobalMemory");
    EXPECT_GPA(GPA_STATUS_OK, GPA_GetCounterCategory(Index("GPUTime"), &category));
    EXPECT_STREQ(category, "Timing");
}

TEST_F(CounterCatalogApi, GetCounterCategoryWithoutContextIsNotOpen) {
    const char* category = nullptr;
    EXPECT_GPA(GPA_STATUS_ERROR_COUNTERS_NOT_OPEN, GPA_GetCounterCategory(0, &category));
}

TEST_F(CounterCatalogApi, GetCounterCategoryIndexOutOfRange) {
    Open();
    const char* category = nullptr;
    EXPECT_GPA(GPA_STATUS_ERROR_INDEX_OUT_OF_RANGE, GPA_GetCounterCategory(kCounters, &category));
    EXPECT_EQ(category, nullptr);
}

TEST_F(CounterCatalogApi, GetCounterCategoryNullPointer) {
    Open();
    EXPECT_GPA(GPA_STATUS_ERROR_NULL_POINTER, GPA_GetCounterCategory(0, nullptr));
    EXPECT_GPA(GPA_STATUS_ERROR_INDEX_OUT_OF_RANGE, GPA_GetCounterCategory(kCounters, nullptr));  // index first
}

TEST_F(CounterCatalogApi, GetCounterDescriptionOk) {
    Open();
    const char* description = nullptr;
    EXPECT_GPA(GPA_STATUS_OK, GPA_GetCounterDescription(Index("Busy"), &description));
    EXPECT_STREQ(description, "Percentage busy.");
}

TEST_F(CounterCatalogApi, GetCounterDescriptionWithoutContextIsNotOpen) {
    const char* description = nullptr;
    EXPECT_GPA(GPA_STATUS_ERROR_COUNTERS_NOT_OPEN, GPA_GetCounterDescription(0, &description));
}

TEST_F(CounterCatalogApi, GetCounterDescriptionIndexOutOfRange) {
    Open();
    const char* description = nullptr;
    EXPECT_GPA(GPA_STATUS_ERROR_INDEX_OUT_OF_RANGE, GPA_GetCounterDescription(kCounters, &description));
}

TEST_F(CounterCatalogApi, GetCounterDescriptionNullPointer) {
    Open();
    EXPECT_GPA(GPA_STATUS_ERROR_NULL_POINTER, GPA_GetCounterDescription(0, nullptr));
}

TEST_F(CounterCatalogApi, GetCounterDataTypeOk) {
    Open();
    const struct {
        const char* name;
        GPA_Type type;
    } expected[] = {{"GPUTime", GPA_TYPE_FLOAT64}, {"FetchSize", GPA_TYPE_FLOAT32}, {"Waves", GPA_TYPE_UINT64},
                    {"Waves32", GPA_TYPE_UINT32}};
    for (const auto& e : expected) {
        GPA_Type type = GPA_TYPE__LAST;
        EXPECT_GPA(GPA_STATUS_OK, GPA_GetCounterDataType(Index(e.name), &type));
        EXPECT_EQ(type, e.type) << e.name;
    }
}

TEST_F(CounterCatalogApi, GetCounterDataTypeWithoutContextIsNotOpen) {
    GPA_Type type = GPA_TYPE__LAST;
    EXPECT_GPA(GPA_STATUS_ERROR_COUNTERS_NOT_OPEN, GPA_GetCounterDataType(0, &type));
    EXPECT_EQ(type, GPA_TYPE__LAST);
}

TEST_F(CounterCatalogApi, GetCounterDataTypeIndexOutOfRange) {
    Open();
    GPA_Type type = GPA_TYPE__LAST;
    EXPECT_GPA(GPA_STATUS_ERROR_INDEX_OUT_OF_RANGE, GPA_GetCounterDataType(kCounters, &type));
    EXPECT_EQ(type, GPA_TYPE__LAST);
}

TEST_F(CounterCatalogApi, GetCounterDataTypeNullPointer) {
    Open();
    EXPECT_GPA(GPA_STATUS_ERROR_NULL_POINTER, GPA_GetCounterDataType(0, nullptr));
}

TEST_F(CounterCatalogApi, GetCounterUsageTypeOk) {
    Open();
    const struct {
        const char* name;
        GPA_Usage_Type usage;
    } expected[] = {{"GPUTime", GPA_USAGE_TYPE_MILLISECONDS}, {"Busy", GPA_USAGE_TYPE_PERCENTAGE},
                    {"FetchSize", GPA_USAGE_TYPE_KILOBYTES}, {"Waves", GPA_USAGE_TYPE_ITEMS}};
    for (const auto& e : expected) {
        GPA_Usage_Type usage = GPA_USAGE_TYPE__LAST;
        EXPECT_GPA(GPA_STATUS_OK, GPA_GetCounterUsageType(Index(e.name), &usage));
        EXPECT_EQ(usage, e.usage) << e.name;
    }
}

TEST_F(CounterCatalogApi, GetCounterUsageTypeWithoutContextIsNotOpen) {
    GPA_Usage_Type usage = GPA_USAGE_TYPE__LAST;
    EXPECT_GPA(GPA_STATUS_ERROR_COUNTERS_NOT_OPEN, GPA_GetCounterUsageType(0, &usage));
}

TEST_F(CounterCatalogApi, GetCounterUsageTypeIndexOutOfRange) {
    Open();
    GPA_Usage_Type usage = GPA_USAGE_TYPE__LAST;
    EXPECT_GPA(GPA_STATUS_ERROR_INDEX_OUT_OF_RANGE, GPA_GetCounterUsageType(kCounters, &usage));
    EXPECT_EQ(usage, GPA_USAGE_TYPE__LAST);
}

TEST_F(CounterCatalogApi, GetCounterUsageTypeNullPointer) {
    Open();
    EXPECT_GPA(GPA_STATUS_ERROR_NULL_POINTER, GPA_GetCounterUsageType(0, nullptr));
}

// ---- GPA_GetCounterIndex -----------------------------------------------------------------------------------

TEST_F(CounterCatalogApi, GetCounterIndexOkAndCaseInsensitive) {
    Open();
    for (gpa_uint32 i = 0; i < kCounters; ++i) {
        const char* name = nullptr;
        ASSERT_GPA(GPA_STATUS_OK, GPA_GetCounterName(i, &name));
        gpa_uint32 index = 99;
        EXPECT_GPA(GPA_STATUS_OK, GPA_GetCounterIndex(name, &index));
        EXPECT_EQ(index, i);
    }
    gpa_uint32 index = 99;
    EXPECT_GPA(GPA_STATUS_OK, GPA_GetCounterIndex("gputime", &index));
    EXPECT_EQ(index, 0u);
    EXPECT_GPA(GPA_STATUS_OK, GPA_GetCounterIndex("FETCHSIZE", &index));
    EXPECT_EQ(index, 2u);
    EXPECT_GPA(GPA_STATUS_OK, GPA_GetCounterIndex("wAvEs32", &index));
    EXPECT_EQ(index, 4u);
}

TEST_F(CounterCatalogApi, GetCounterIndexWithoutContextIsNotOpen) {
    gpa_uint32 index = 99;
    EXPECT_GPA(GPA_STATUS_ERROR_COUNTERS_NOT_OPEN, GPA_GetCounterIndex("GPUTime", &index));
    EXPECT_EQ(index, 99u);
}

TEST_F(CounterCatalogApi, GetCounterIndexNullPointers) {
    Open();
    gpa_uint32 index = 99;
    EXPECT_GPA(GPA_STATUS_ERROR_NULL_POINTER, GPA_GetCounterIndex(nullptr, &index));
    EXPECT_GPA(GPA_STATUS_ERROR_NULL_POINTER, GPA_GetCounterIndex("GPUTime", nullptr));
    EXPECT_EQ(index, 99u);
}

TEST_F(CounterCatalogApi, GetCounterIndexOfAnUnknownNameIsNotFound) {
    Open();
    gpa_uint32 index = 99;
    EXPECT_GPA(GPA_STATUS_ERROR_NOT_FOUND, GPA_GetCounterIndex("NoSuchCounter", &index));
    EXPECT_GPA(GPA_STATUS_ERROR_NOT_FOUND, GPA_GetCounterIndex("", &index));
    EXPECT_GPA(GPA_STATUS_ERROR_NOT_FOUND, GPA_GetCounterIndex("GPUTime ", &index));
    // Hardware counters are not counters unless GPA_OPENCONTEXT_ENABLE_HARDWARE_COUNTERS_BIT asks for them.
    EXPECT_GPA(GPA_STATUS_ERROR_NOT_FOUND, GPA_GetCounterIndex("hw.cycles", &index));
    EXPECT_EQ(index, 99u);
}

// ---- counters whose inputs the device lacks ----------------------------------------------------------------

TEST_F(CounterCatalogApi, CounterWithMissingInputsIsNotExposedAndTheReasonIsLogged) {
    ASSERT_GPA(GPA_STATUS_OK, GPA_RegisterLoggingCallback(GPA_LOGGING_MESSAGE, LogCapture::Callback));
    Open();
    gpa_uint32 index = 99;
    EXPECT_GPA(GPA_STATUS_ERROR_NOT_FOUND, GPA_GetCounterIndex("Missing", &index));
    EXPECT_GPA(GPA_STATUS_ERROR_NOT_FOUND, GPA_EnableCounterStr("Missing"));
    for (gpa_uint32 i = 0; i < kCounters; ++i) {
        const char* name = nullptr;
        ASSERT_GPA(GPA_STATUS_OK, GPA_GetCounterName(i, &name));
        EXPECT_STRNE(name, "Missing");
    }
    EXPECT_EQ(LogCapture::Count(GPA_LOGGING_MESSAGE, "counter Missing is not exposed"), 1u);
    EXPECT_EQ(LogCapture::Count(GPA_LOGGING_MESSAGE, "hw.absent"), 1u);
}

TEST_F(CounterCatalogApi, CounterBecomesAvailableWhenTheDeviceHasItsInputs) {
    Config().hardware.push_back({"hw.absent", "now present", "blockC", GPA_TYPE_UINT64, GPA_USAGE_TYPE_ITEMS});
    Config().blockOf.push_back(2);
    Open();
    gpa_uint32 count = 0;
    EXPECT_GPA(GPA_STATUS_OK, GPA_GetNumCounters(&count));
    EXPECT_EQ(count, kCounters + 1);
    gpa_uint32 index = 99;
    EXPECT_GPA(GPA_STATUS_OK, GPA_GetCounterIndex("missing", &index));
    EXPECT_EQ(index, kCounters);
}

TEST_F(CounterCatalogApi, CatalogIsTakenWhenTheContextOpens) {
    Open();
    Config().derived.clear();  // later changes do not reach an open context
    gpa_uint32 count = 0;
    EXPECT_GPA(GPA_STATUS_OK, GPA_GetNumCounters(&count));
    EXPECT_EQ(count, kCounters);
    Open(GPA_OPENCONTEXT_DEFAULT_BIT, &queueB_);
    EXPECT_GPA(GPA_STATUS_OK, GPA_GetNumCounters(&count));
    EXPECT_EQ(count, 0u);
}

}  // namespace
}  // namespace gpa_test
