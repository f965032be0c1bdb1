// The cl_codeplay_performance_counters mapping, without a device that has the extension: units and storage
// to GPA usage and types, result values, the queue's enabled counters and how both lists are joined.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "backends/opencl/codeplay_counters.h"

namespace {

using namespace gpa::cl;

cl_performance_counter_codeplay DeviceCounter(cl_uint uuid, const char* name, cl_uint unit, cl_uint storage) {
    cl_performance_counter_codeplay counter{};
    counter.uuid = uuid;
    counter.unit = unit;
    counter.storage = storage;
    std::strncpy(counter.name, name, sizeof counter.name);
    std::strncpy(counter.category, "cache", sizeof counter.category);
    std::strncpy(counter.description, "what it counts", sizeof counter.description);
    return counter;
}

TEST(CodeplayCounters, ExtensionValuesAreTheSpecifications) {
    EXPECT_EQ(CL_DEVICE_PERFORMANCE_COUNTERS_CODEPLAY, 0x4260);
    EXPECT_EQ(CL_QUEUE_PERFORMANCE_COUNTERS_CODEPLAY, 0x4261);
    EXPECT_EQ(CL_PROFILING_COMMAND_PERFORMANCE_COUNTERS_CODEPLAY, 0x4262);
    EXPECT_EQ(CL_PERFORMANCE_COUNTER_UNIT_CYCLES_CODEPLAY, 0xA);
    EXPECT_EQ(CL_PERFORMANCE_COUNTER_RESULT_TYPE_FLOAT64_CODEPLAY, 0x5);
    EXPECT_EQ(sizeof(cl_performance_counter_result_codeplay), 8u);
    EXPECT_EQ(offsetof(cl_performance_counter_codeplay, name), 12u);
    EXPECT_EQ(sizeof(cl_performance_counter_codeplay), 12u + 3 * 256u);
}

TEST(CodeplayCounters, UnitsMapToUsageTypes) {
    EXPECT_EQ(CodeplayUsage(CL_PERFORMANCE_COUNTER_UNIT_PERCENTAGE_CODEPLAY), GPA_USAGE_TYPE_PERCENTAGE);
    EXPECT_EQ(CodeplayUsage(CL_PERFORMANCE_COUNTER_UNIT_NANOSECONDS_CODEPLAY), GPA_USAGE_TYPE_NANOSECONDS);
    EXPECT_EQ(CodeplayUsage(CL_PERFORMANCE_COUNTER_UNIT_BYTES_CODEPLAY), GPA_USAGE_TYPE_BYTES);
    EXPECT_EQ(CodeplayUsage(CL_PERFORMANCE_COUNTER_UNIT_CYCLES_CODEPLAY), GPA_USAGE_TYPE_CYCLES);
    EXPECT_EQ(CodeplayUsage(CL_PERFORMANCE_COUNTER_UNIT_GENERIC_CODEPLAY), GPA_USAGE_TYPE_ITEMS);
    for (cl_uint unit : {CL_PERFORMANCE_COUNTER_UNIT_BYTES_PER_SECOND_CODEPLAY, CL_PERFORMANCE_COUNTER_UNIT_KELVIN_CODEPLAY,
                         CL_PERFORMANCE_COUNTER_UNIT_WATTS_CODEPLAY, CL_PERFORMANCE_COUNTER_UNIT_VOLTS_CODEPLAY,
                         CL_PERFORMANCE_COUNTER_UNIT_AMPS_CODEPLAY, CL_PERFORMANCE_COUNTER_UNIT_HERTZ_CODEPLAY}) {
        EXPECT_EQ(CodeplayUsage(unit), GPA_USAGE_TYPE_ITEMS) << unit;
        EXPECT_NE(CodeplayUnitName(unit), nullptr) << unit;
    }
    EXPECT_STREQ(CodeplayUnitName(CL_PERFORMANCE_COUNTER_UNIT_WATTS_CODEPLAY), "watts");
    EXPECT_EQ(CodeplayUnitName(0xB), nullptr);
}

TEST(CodeplayCounters, StorageMapsToReadableTypes) {
    EXPECT_EQ(CodeplayType(CL_PERFORMANCE_COUNTER_RESULT_TYPE_UINT32_CODEPLAY), GPA_TYPE_UINT32);
    EXPECT_EQ(CodeplayType(CL_PERFORMANCE_COUNTER_RESULT_TYPE_UINT64_CODEPLAY), GPA_TYPE_UINT64);
    EXPECT_EQ(CodeplayType(CL_PERFORMANCE_COUNTER_RESULT_TYPE_FLOAT32_CODEPLAY), GPA_TYPE_FLOAT32);
    EXPECT_EQ(CodeplayType(CL_PERFORMANCE_COUNTER_RESULT_TYPE_FLOAT64_CODEPLAY), GPA_TYPE_FLOAT64);
    // GPA has no signed reader; float64 keeps the sign.
    EXPECT_EQ(CodeplayType(CL_PERFORMANCE_COUNTER_RESULT_TYPE_INT32_CODEPLAY), GPA_TYPE_FLOAT64);
    EXPECT_EQ(CodeplayType(CL_PERFORMANCE_COUNTER_RESULT_TYPE_INT64_CODEPLAY), GPA_TYPE_FLOAT64);
    EXPECT_FALSE(CodeplayType(6).has_value());
}

TEST(CodeplayCounters, ResultsAreReadThroughTheirStorage) {
    cl_performance_counter_result_codeplay result{};
    result.int32 = -7;
    EXPECT_EQ(CodeplayValue(result, CL_PERFORMANCE_COUNTER_RESULT_TYPE_INT32_CODEPLAY), -7.0);
    result.int64 = -(1LL << 40);
    EXPECT_EQ(CodeplayValue(result, CL_PERFORMANCE_COUNTER_RESULT_TYPE_INT64_CODEPLAY), -1099511627776.0);
    result.uint64 = 0;
    result.uint32 = 4000000000u;
    EXPECT_EQ(CodeplayValue(result, CL_PERFORMANCE_COUNTER_RESULT_TYPE_UINT32_CODEPLAY), 4000000000.0);
    result.uint64 = 1ULL << 50;
    EXPECT_EQ(CodeplayValue(result, CL_PERFORMANCE_COUNTER_RESULT_TYPE_UINT64_CODEPLAY), 1125899906842624.0);
    result.float32 = 1.5f;
    EXPECT_EQ(CodeplayValue(result, CL_PERFORMANCE_COUNTER_RESULT_TYPE_FLOAT32_CODEPLAY), 1.5);
    result.float64 = 2.25;
    EXPECT_EQ(CodeplayValue(result, CL_PERFORMANCE_COUNTER_RESULT_TYPE_FLOAT64_CODEPLAY), 2.25);
    EXPECT_FALSE(CodeplayValue(result, 9).has_value());
}

TEST(CodeplayCounters, QueuePropertiesNameTheEnabledCounters) {
    cl_performance_counter_desc_codeplay descs[] = {{30, nullptr}, {10, nullptr}};
    cl_performance_counter_config_codeplay config{2, descs};
    const std::vector<cl_ulong> properties = {
        CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE,
        CL_QUEUE_PERFORMANCE_COUNTERS_CODEPLAY, static_cast<cl_ulong>(reinterpret_cast<uintptr_t>(&config)), 0};
    EXPECT_EQ(EnabledCounterUuids(properties), (std::vector<cl_uint>{30, 10}));

    const std::vector<cl_ulong> without = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
    EXPECT_TRUE(EnabledCounterUuids(without).empty());
    EXPECT_TRUE(EnabledCounterUuids({}).empty());
    // A 0 key ends the list even when more follows.
    const std::vector<cl_ulong> ended = {0, CL_QUEUE_PERFORMANCE_COUNTERS_CODEPLAY,
                                         static_cast<cl_ulong>(reinterpret_cast<uintptr_t>(&config))};
    EXPECT_TRUE(EnabledCounterUuids(ended).empty());
}

TEST(CodeplayCounters, OnlyCountersTheQueueEnabledAreExposedInResultOrder) {
    const std::vector<cl_performance_counter_codeplay> device = {
        DeviceCounter(10, "l1_hits", CL_PERFORMANCE_COUNTER_UNIT_GENERIC_CODEPLAY,
                      CL_PERFORMANCE_COUNTER_RESULT_TYPE_UINT64_CODEPLAY),
        DeviceCounter(20, "power", CL_PERFORMANCE_COUNTER_UNIT_WATTS_CODEPLAY,
                      CL_PERFORMANCE_COUNTER_RESULT_TYPE_FLOAT32_CODEPLAY),
        DeviceCounter(30, "busy", CL_PERFORMANCE_COUNTER_UNIT_PERCENTAGE_CODEPLAY,
                      CL_PERFORMANCE_COUNTER_RESULT_TYPE_FLOAT64_CODEPLAY),
    };
    const std::vector<cl_uint> enabled = {30, 20};
    const CodeplayCounterSet set = BuildCodeplayCounters(device, enabled);
    EXPECT_EQ(set.resultCount, 2u);
    ASSERT_EQ(set.counters.size(), 2u);
    EXPECT_EQ(set.counters[0].hardware.name, "busy");
    EXPECT_EQ(set.counters[0].hardware.group, "cache");
    EXPECT_EQ(set.counters[0].hardware.description, "what it counts");
    EXPECT_EQ(set.counters[0].hardware.usage, GPA_USAGE_TYPE_PERCENTAGE);
    EXPECT_EQ(set.counters[0].hardware.type, GPA_TYPE_FLOAT64);
    EXPECT_EQ(set.counters[0].resultIndex, 0u);
    EXPECT_EQ(set.counters[1].hardware.name, "power");
    EXPECT_EQ(set.counters[1].hardware.type, GPA_TYPE_FLOAT32);
    EXPECT_EQ(set.counters[1].hardware.description, "what it counts [unit: watts]");
    EXPECT_EQ(set.counters[1].resultIndex, 1u);
    ASSERT_EQ(set.skipped.size(), 1u);
    EXPECT_NE(set.skipped[0].find("l1_hits"), std::string::npos);
    EXPECT_NE(set.skipped[0].find("CL_QUEUE_PERFORMANCE_COUNTERS_CODEPLAY"), std::string::npos);
}

TEST(CodeplayCounters, UndescribedOrUnreadableCountersKeepTheirResultSlot) {
    const std::vector<cl_performance_counter_codeplay> device = {
        DeviceCounter(1, "odd", CL_PERFORMANCE_COUNTER_UNIT_GENERIC_CODEPLAY, 42),
        DeviceCounter(2, "good", CL_PERFORMANCE_COUNTER_UNIT_CYCLES_CODEPLAY,
                      CL_PERFORMANCE_COUNTER_RESULT_TYPE_UINT32_CODEPLAY),
    };
    const std::vector<cl_uint> enabled = {99, 1, 2};
    const CodeplayCounterSet set = BuildCodeplayCounters(device, enabled);
    EXPECT_EQ(set.resultCount, 3u);
    ASSERT_EQ(set.counters.size(), 1u);
    EXPECT_EQ(set.counters[0].hardware.name, "good");
    EXPECT_EQ(set.counters[0].hardware.usage, GPA_USAGE_TYPE_CYCLES);
    EXPECT_EQ(set.counters[0].resultIndex, 2u) << "results stay in the queue's enable order";
    EXPECT_EQ(set.skipped.size(), 2u);
}

TEST(CodeplayCounters, UnterminatedNamesAreCut) {
    cl_performance_counter_codeplay counter = DeviceCounter(1, "", CL_PERFORMANCE_COUNTER_UNIT_GENERIC_CODEPLAY,
                                                            CL_PERFORMANCE_COUNTER_RESULT_TYPE_UINT64_CODEPLAY);
    std::memset(counter.name, 'n', sizeof counter.name);
    const std::vector<cl_uint> enabled = {1};
    const CodeplayCounterSet set = BuildCodeplayCounters({&counter, 1}, enabled);
    ASSERT_EQ(set.counters.size(), 1u);
    EXPECT_EQ(set.counters[0].hardware.name, std::string(256, 'n'));
}

// GPA counters derived from the layer's counters exist where the queue collects their inputs, and evaluate as
// the bandwidth and busy percentages they say.
TEST(CodeplayCounters, DerivedCountersNeedTheirInputs) {
    auto names = [](const std::vector<gpa::DerivedCounterDefinition>& derived) {
        std::vector<std::string> list;
        for (const auto& counter : derived) list.push_back(counter.name);
        return list;
    };
    const std::vector<std::string> all = {"cl.sample_duration_ns", "TransferBytes", "TransferDuration", "KernelDuration"};
    const auto derived = CodeplayDerivedCounters(all, "cl.sample_duration_ns");
    EXPECT_EQ(names(derived), (std::vector<std::string>{"TransferBandwidth", "KernelBusy", "TransferBusy"}));
    EXPECT_EQ(derived[0].expression, "TransferBytes / TransferDuration");
    EXPECT_EQ(derived[1].expression, "KernelDuration / cl.sample_duration_ns * 100");
    EXPECT_EQ(derived[1].usage, GPA_USAGE_TYPE_PERCENTAGE);
    const std::vector<std::string> bytesOnly = {"cl.sample_duration_ns", "TransferBytes", "KernelDuration"};
    EXPECT_EQ(names(CodeplayDerivedCounters(bytesOnly, "cl.sample_duration_ns")), std::vector<std::string>{"KernelBusy"});
    EXPECT_TRUE(CodeplayDerivedCounters(std::vector<std::string>{"cl.sample_duration_ns"}, "cl.sample_duration_ns").empty());
}

}  // namespace
