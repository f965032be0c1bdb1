// The sampled part of the graphics vocabulary (counters/graphics_counters.h): "PM." hardware counters of NVIDIA
// metrics and GPA's public counters over them, evaluated from given hardware values as the graphics backends'
// catalogs evaluate them.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "counters/counter_catalog.h"
#include "counters/graphics_counters.h"

namespace gpa {
namespace {

const std::vector<std::string> kMetrics = {
    "gr__cycles_active.avg.pct_of_peak_sustained_elapsed", "sm__cycles_active.avg.pct_of_peak_sustained_elapsed",
    "dram__bytes_read.sum", "dram__bytes_write.sum", "lts__t_bytes.sum", "pcie__read_bytes.sum"};

std::vector<HardwareCounter> Hardware(const std::vector<std::string>& metrics) {
    std::vector<HardwareCounter> hardware;
    for (const std::string& metric : metrics) hardware.push_back(graphics::SampledHardwareCounter(metric));
    return hardware;
}

TEST(SampledCounters, HardwareNamesUnitsAndDescriptions) {
    EXPECT_EQ(graphics::SampledCounterName("dram__bytes_read.sum"), "PM.dram__bytes_read.sum");
    const HardwareCounter bytes = graphics::SampledHardwareCounter("dram__bytes_write.sum");
    EXPECT_EQ(bytes.name, "PM.dram__bytes_write.sum");
    EXPECT_EQ(bytes.group, "PM");
    EXPECT_EQ(bytes.type, GPA_TYPE_FLOAT64);
    EXPECT_EQ(bytes.usage, GPA_USAGE_TYPE_BYTES);
    EXPECT_NE(bytes.description.find("device-wide"), std::string::npos) << bytes.description;
    EXPECT_NE(bytes.description.find("GPU time window"), std::string::npos) << bytes.description;
    EXPECT_EQ(graphics::SampledHardwareCounter("gr__cycles_active.avg.pct_of_peak_sustained_elapsed").usage,
              GPA_USAGE_TYPE_PERCENTAGE);
    // A metric the table does not know is still offered, named by itself.
    const HardwareCounter unknown = graphics::SampledHardwareCounter("xbar__bytes.sum");
    EXPECT_EQ(unknown.name, "PM.xbar__bytes.sum");
    EXPECT_EQ(unknown.usage, GPA_USAGE_TYPE_ITEMS);
    EXPECT_NE(unknown.description.find("xbar__bytes.sum"), std::string::npos);
}

TEST(SampledCounters, PublicCountersEvaluateFromHardwareValues) {
    const CounterCatalog catalog = CounterCatalog::Build(Hardware(kMetrics), graphics::SampledCounters(), {});
    EXPECT_TRUE(catalog.omitted().empty());
    // GR active 87.5 %, SM 50 %, 3 MiB read, 256 MiB written, L2 1 GiB, PCIe 4 KiB.
    const std::vector<double> values = {87.5, 50.0, 3.0 * 1048576, 268435456.0, 1073741824.0, 4096.0};
    const auto busy = catalog.Find("GPUBusy");
    const auto fetch = catalog.Find("FetchSize");
    const auto write = catalog.Find("WriteSize");
    ASSERT_TRUE(busy && fetch && write);
    EXPECT_DOUBLE_EQ(catalog.Evaluate(*busy, values), 87.5);
    EXPECT_DOUBLE_EQ(catalog.Evaluate(*fetch, values), 3072.0);   // kilobytes
    EXPECT_DOUBLE_EQ(catalog.Evaluate(*write, values), 262144.0);
    EXPECT_EQ(catalog.at(*busy).usage, GPA_USAGE_TYPE_PERCENTAGE);
    EXPECT_EQ(catalog.at(*fetch).usage, GPA_USAGE_TYPE_KILOBYTES);
    EXPECT_EQ(catalog.at(*write).usage, GPA_USAGE_TYPE_KILOBYTES);
    EXPECT_EQ(catalog.at(*write).type, GPA_TYPE_FLOAT64);
    for (const DerivedCounterDefinition& counter : graphics::SampledCounters()) {
        EXPECT_NE(counter.description.find("device-wide"), std::string::npos) << counter.name;
        EXPECT_NE(counter.description.find("approximate"), std::string::npos) << counter.name;
    }
}

TEST(SampledCounters, RawCountersWithTheHardwareBitAndNothingWithoutAMetric) {
    CounterCatalog::Options options;
    options.exposeHardware = true;
    const CounterCatalog catalog = CounterCatalog::Build(Hardware(kMetrics), graphics::SampledCounters(), options);
    const auto raw = catalog.Find("PM.lts__t_bytes.sum");
    ASSERT_TRUE(raw);
    EXPECT_DOUBLE_EQ(catalog.Evaluate(*raw, std::vector<double>{0, 0, 0, 0, 1024.0, 0}), 1024.0);

    // A device that samples no DRAM metric gets GPUBusy only; the others are omitted with what it lacks.
    const CounterCatalog partial = CounterCatalog::Build(
        Hardware({"gr__cycles_active.avg.pct_of_peak_sustained_elapsed"}), graphics::SampledCounters(), {});
    EXPECT_TRUE(partial.Find("GPUBusy"));
    EXPECT_FALSE(partial.Find("FetchSize"));
    ASSERT_EQ(partial.omitted().size(), 2u);
    EXPECT_NE(partial.omitted()[0].reason.find("PM.dram__bytes_read.sum"), std::string::npos);
}

TEST(SampledCounters, AbsentCountersSayWhy) {
    ASSERT_FALSE(graphics::SampledCountersAbsent().empty());
    for (const graphics::AbsentCounter& absent : graphics::SampledCountersAbsent()) {
        EXPECT_GT(std::string(absent.why).size(), 20u) << absent.name;
    }
}

}  // namespace
}  // namespace gpa
