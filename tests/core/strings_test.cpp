// GPA_GetStatusAsStr, GPA_GetDataTypeAsStr and GPA_GetUsageTypeAsStr. None of them needs GPA_Initialize.
#include <set>
#include <string>

#include "gpa_test_fixture.h"

namespace gpa_test {
namespace {

class Strings : public GpaTest {};

// ---- GPA_GetStatusAsStr ------------------------------------------------------------------------------------

TEST_F(Strings, StatusAsStrNamesEveryStatus) {
#define STATUS(s) {s, #s}
    const struct {
        GPA_Status status;
        const char* name;
    } all[] = {
        STATUS(GPA_STATUS_OK),
        STATUS(GPA_STATUS_ERROR_NULL_POINTER),
        STATUS(GPA_STATUS_ERROR_COUNTERS_NOT_OPEN),
        STATUS(GPA_STATUS_ERROR_COUNTERS_ALREADY_OPEN),
        STATUS(GPA_STATUS_ERROR_INDEX_OUT_OF_RANGE),
        STATUS(GPA_STATUS_ERROR_NOT_FOUND),
        STATUS(GPA_STATUS_ERROR_ALREADY_ENABLED),
        STATUS(GPA_STATUS_ERROR_NO_COUNTERS_ENABLED),
        STATUS(GPA_STATUS_ERROR_NOT_ENABLED),
        STATUS(GPA_STATUS_ERROR_SAMPLING_NOT_STARTED),
        STATUS(GPA_STATUS_ERROR_SAMPLING_ALREADY_STARTED),
        STATUS(GPA_STATUS_ERROR_SAMPLING_NOT_ENDED),
        STATUS(GPA_STATUS_ERROR_NOT_ENOUGH_PASSES),
        STATUS(GPA_STATUS_ERROR_PASS_NOT_ENDED),
        STATUS(GPA_STATUS_ERROR_PASS_NOT_STARTED),
        STATUS(GPA_STATUS_ERROR_PASS_ALREADY_STARTED),
        STATUS(GPA_STATUS_ERROR_SAMPLE_NOT_STARTED),
        STATUS(GPA_STATUS_ERROR_SAMPLE_ALREADY_STARTED),
        STATUS(GPA_STATUS_ERROR_SAMPLE_NOT_ENDED),
        STATUS(GPA_STATUS_ERROR_CANNOT_CHANGE_COUNTERS_WHEN_SAMPLING),
        STATUS(GPA_STATUS_ERROR_SESSION_NOT_FOUND),
        STATUS(GPA_STATUS_ERROR_SAMPLE_NOT_FOUND),
        STATUS(GPA_STATUS_ERROR_SAMPLE_NOT_FOUND_IN_ALL_PASSES),
        STATUS(GPA_STATUS_ERROR_COUNTER_NOT_OF_SPECIFIED_TYPE),
        STATUS(GPA_STATUS_ERROR_READING_COUNTER_RESULT),
        STATUS(GPA_STATUS_ERROR_VARIABLE_NUMBER_OF_SAMPLES_IN_PASSES),
        STATUS(GPA_STATUS_ERROR_FAILED),
        STATUS(GPA_STATUS_ERROR_HARDWARE_NOT_SUPPORTED),
        STATUS(GPA_STATUS_ERROR_DRIVER_NOT_SUPPORTED),
        STATUS(GPA_STATUS_INTERNAL),
    };
#undef STATUS
    // The 2.x numbering: sequential from 0 up to DRIVER_NOT_SUPPORTED = 28, then INTERNAL = 256.
    ASSERT_EQ(std::size(all), 30u);
    for (int i = 0; i < 29; ++i) EXPECT_EQ(static_cast<int>(all[i].status), i) << all[i].name;
    EXPECT_EQ(static_cast<int>(GPA_STATUS_INTERNAL), 256);
    std::set<std::string> distinct;
    for (const auto& s : all) {
        const char* text = GPA_GetStatusAsStr(s.status);
        ASSERT_NE(text, nullptr);
        EXPECT_STREQ(text, s.name);
        distinct.insert(text);
    }
    EXPECT_EQ(distinct.size(), std::size(all));
}

TEST_F(Strings, StatusAsStrOfAnUnknownValueIsUnknownError) {
    // Values inside the enumeration's range (0..511) that name no status.
    for (int value : {29, 100, 255, 257, 511}) {
        const char* text = GPA_GetStatusAsStr(static_cast<GPA_Status>(value));
        ASSERT_NE(text, nullptr) << value;
        EXPECT_STREQ(text, "Unknown Error") << value;
    }
}

TEST_F(Strings, StatusAsStrDoesNotTouchTheLastError) {
    EXPECT_GPA(GPA_STATUS_ERROR_COUNTERS_NOT_OPEN, GPA_CloseContext());
    const std::string error = OGPA_GetLastErrorMessage();
    GPA_GetStatusAsStr(GPA_STATUS_OK);
    EXPECT_EQ(std::string(OGPA_GetLastErrorMessage()), error);
}

// ---- GPA_GetDataTypeAsStr ----------------------------------------------------------------------------------

TEST_F(Strings, DataTypeAsStrOk) {
    const struct {
        GPA_Type type;
        const char* name;
    } all[] = {{GPA_TYPE_FLOAT32, "gpa_float32"}, {GPA_TYPE_FLOAT64, "gpa_float64"}, {GPA_TYPE_UINT32, "gpa_uint32"},
               {GPA_TYPE_UINT64, "gpa_uint64"},   {GPA_TYPE_INT32, "gpa_int32"},     {GPA_TYPE_INT64, "gpa_int64"}};
    for (const auto& t : all) {
        const char* text = nullptr;
        EXPECT_GPA(GPA_STATUS_OK, GPA_GetDataTypeAsStr(t.type, &text));
        EXPECT_STREQ(text, t.name);
    }
}

TEST_F(Strings, DataTypeAsStrSeedExample) {
    const char* text = nullptr;
    EXPECT_GPA(GPA_STATUS_OK, GPA_GetDataTypeAsStr(GPA_TYPE_UINT64, &text));
    EXPECT_STREQ(text, "gpa_uint64");
}

TEST_F(Strings, DataTypeAsStrOfAnInvalidTypeIsNotFound) {
    const char* text = "unchanged";
    EXPECT_GPA(GPA_STATUS_ERROR_NOT_FOUND, GPA_GetDataTypeAsStr(GPA_TYPE__LAST, &text));
    EXPECT_GPA(GPA_STATUS_ERROR_NOT_FOUND, GPA_GetDataTypeAsStr(static_cast<GPA_Type>(7), &text));
    EXPECT_STREQ(text, "unchanged");
}

TEST_F(Strings, DataTypeAsStrNullPointer) {
    EXPECT_GPA(GPA_STATUS_ERROR_NULL_POINTER, GPA_GetDataTypeAsStr(GPA_TYPE_UINT32, nullptr));
    EXPECT_GPA(GPA_STATUS_ERROR_NOT_FOUND, GPA_GetDataTypeAsStr(GPA_TYPE__LAST, nullptr));  // type first
}

// ---- GPA_GetUsageTypeAsStr ---------------------------------------------------------------------------------

TEST_F(Strings, UsageTypeAsStrOk) {
    const struct {
        GPA_Usage_Type usage;
        const char* name;
    } all[] = {{GPA_USAGE_TYPE_RATIO, "ratio"},
               {GPA_USAGE_TYPE_PERCENTAGE, "percentage"},
               {GPA_USAGE_TYPE_CYCLES, "cycles"},
               {GPA_USAGE_TYPE_MILLISECONDS, "milliseconds"},
               {GPA_USAGE_TYPE_BYTES, "bytes"},
               {GPA_USAGE_TYPE_ITEMS, "items"},
               {GPA_USAGE_TYPE_KILOBYTES, "kilobytes"},
               {GPA_USAGE_TYPE_NANOSECONDS, "nanoseconds"}};
    for (const auto& u : all) {
        const char* text = nullptr;
        EXPECT_GPA(GPA_STATUS_OK, GPA_GetUsageTypeAsStr(u.usage, &text));
        EXPECT_STREQ(text, u.name);
    }
}

TEST_F(Strings, UsageTypeAsStrSeedExample) {
    const char* text = nullptr;
    EXPECT_GPA(GPA_STATUS_OK, GPA_GetUsageTypeAsStr(GPA_USAGE_TYPE_PERCENTAGE, &text));
    EXPECT_STREQ(text, "percentage");
}

TEST_F(Strings, UsageTypeAsStrOfAnInvalidTypeIsNotFound) {
    const char* text = "unchanged";
    EXPECT_GPA(GPA_STATUS_ERROR_NOT_FOUND, GPA_GetUsageTypeAsStr(GPA_USAGE_TYPE__LAST, &text));
    EXPECT_GPA(GPA_STATUS_ERROR_NOT_FOUND, GPA_GetUsageTypeAsStr(static_cast<GPA_Usage_Type>(15), &text));
    EXPECT_STREQ(text, "unchanged");
}

TEST_F(Strings, UsageTypeAsStrNullPointer) {
    EXPECT_GPA(GPA_STATUS_ERROR_NULL_POINTER, GPA_GetUsageTypeAsStr(GPA_USAGE_TYPE_BYTES, nullptr));
    EXPECT_GPA(GPA_STATUS_ERROR_NOT_FOUND, GPA_GetUsageTypeAsStr(GPA_USAGE_TYPE__LAST, nullptr));
}

TEST_F(Strings, EnumerationValuesMatchThe2xInterface) {
    EXPECT_EQ(GPA_TYPE_FLOAT32, 0);
    EXPECT_EQ(GPA_TYPE_INT64, 5);
    EXPECT_EQ(GPA_USAGE_TYPE_RATIO, 0);
    EXPECT_EQ(GPA_USAGE_TYPE_KILOBYTES, 6);
    EXPECT_EQ(GPA_USAGE_TYPE_NANOSECONDS, 7);
    EXPECT_EQ(GPA_LOGGING_ERROR_MESSAGE_AND_TRACE, 7);
    EXPECT_EQ(GPA_LOGGING_ALL, 0xFF);
    EXPECT_EQ(GPA_OPENCONTEXT_HIDE_PUBLIC_COUNTERS_BIT, 0x1);
    EXPECT_EQ(GPA_OPENCONTEXT_ENABLE_HARDWARE_COUNTERS_BIT, 0x80);
}

}  // namespace
}  // namespace gpa_test
