// The layer's counters as data: uuids, texts that fit the extension's structure, units and storage.
#include <gtest/gtest.h>

#include <cstring>
#include <set>
#include <string>

#include "layers/opencl/layer_counters.h"

namespace {

using namespace gpa::cl_layer;

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
