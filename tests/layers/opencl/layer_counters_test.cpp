// The layer's counters as data: uuids, texts that fit the extension's structure, units and storage.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstring>
#include <set>
#include <string>

#include "layers/opencl/layer_counters.h"

extern "C" size_t CodeplayLayoutFromC(int which);  // extension_header_c.c

namespace {

using namespace gpa::cl_layer;

// The public header (include/CL/cl_codeplay_performance_counters.h) has the extension's values, and C and
// C++ see the same structures.
TEST(ExtensionHeader, ValuesAndLayoutsAreTheExtensions) {
    EXPECT_STREQ(CL_CODEPLAY_PERFORMANCE_COUNTERS_EXTENSION_NAME, "cl_codeplay_performance_counters");
    EXPECT_EQ(CL_DEVICE_PERFORMANCE_COUNTERS_CODEPLAY, 0x4260);
    EXPECT_EQ(CL_QUEUE_PERFORMANCE_COUNTERS_CODEPLAY, 0x4261);
    EXPECT_EQ(CL_PROFILING_COMMAND_PERFORMANCE_COUNTERS_CODEPLAY, 0x4262);
    EXPECT_EQ(CL_PERFORMANCE_COUNTER_UNIT_HERTZ_CODEPLAY, 0x9);
    EXPECT_EQ(CL_PERFORMANCE_COUNTER_RESULT_TYPE_FLOAT32_CODEPLAY, 0x4);
    EXPECT_EQ(CodeplayLayoutFromC(0), sizeof(cl_performance_counter_codeplay));
    EXPECT_EQ(CodeplayLayoutFromC(1), offsetof(cl_performance_counter_codeplay, description));
    EXPECT_EQ(CodeplayLayoutFromC(2), sizeof(cl_performance_counter_desc_codeplay));
    EXPECT_EQ(CodeplayLayoutFromC(3), sizeof(cl_performance_counter_config_codeplay));
    EXPECT_EQ(CodeplayLayoutFromC(4), offsetof(cl_performance_counter_config_codeplay, descs));
    EXPECT_EQ(CodeplayLayoutFromC(5), sizeof(cl_performance_counter_result_codeplay));
}

TEST(LayerCounters, UuidsNamesAndTextsAreUniqueAndFit) {
    std::set<cl_uint> uuids;
    std::set<std::string> names;
    for (const CounterDefinition& counter : AllCounters()) {
        SCOPED_TRACE(counter.name);
        EXPECT_TRUE(uuids.insert(static_cast<cl_uint>(counter.id)).second);
        EXPECT_TRUE(names.insert(counter.name).second);
        EXPECT_LT(std::strlen(counter.description), 256u);
        EXPECT_LE(counter.unit, static_cast<cl_uint>(CL_PERFORMANCE_COUNTER_UNIT_CYCLES_CODEPLAY));
        EXPECT_LE(counter.storage, static_cast<cl_uint>(CL_PERFORMANCE_COUNTER_RESULT_TYPE_FLOAT64_CODEPLAY));
        EXPECT_EQ(CounterFromUuid(static_cast<cl_uint>(counter.id)), counter.id);
        // Sums are counts (integers); means and rates are reals.
        const bool integer = counter.storage == CL_PERFORMANCE_COUNTER_RESULT_TYPE_UINT64_CODEPLAY ||
                             counter.storage == CL_PERFORMANCE_COUNTER_RESULT_TYPE_INT64_CODEPLAY;
        EXPECT_EQ(integer, counter.aggregation == Aggregation::kSum);
    }
    EXPECT_EQ(uuids.size(), kCounterCount);
    EXPECT_EQ(CounterFromUuid(0), std::nullopt);
    EXPECT_EQ(CounterFromUuid(kCounterCount + 1), std::nullopt);
}

TEST(LayerCounters, DescribeFillsTheExtensionsStructure) {
    const cl_performance_counter_codeplay described = Describe(Definition(CounterId::kGpuTemperature));
    EXPECT_EQ(described.uuid, static_cast<cl_uint>(CounterId::kGpuTemperature));
    EXPECT_EQ(described.unit, static_cast<cl_uint>(CL_PERFORMANCE_COUNTER_UNIT_KELVIN_CODEPLAY));
    EXPECT_EQ(described.storage, static_cast<cl_uint>(CL_PERFORMANCE_COUNTER_RESULT_TYPE_FLOAT64_CODEPLAY));
    EXPECT_STREQ(described.name, "GPUTemperature");
    EXPECT_STREQ(described.category, "Thermal");
    EXPECT_EQ(std::string(described.description), Definition(CounterId::kGpuTemperature).description);
}

}  // namespace
