// The Vulkan library's sampled counters: the layer's PM sampling block (VK_GPA_PERF_BLOCK_PM_SAMPLING_OPENGPA, NVIDIA
// metrics sampled device-wide) as "PM.<metric>" hardware counters and GPUBusy, FetchSize, WriteSize over them; how a
// result word of the block is read; none on a device whose layer offers no such block (lavapipe).
#include <bit>
#include <cmath>
#include <cstdio>

#include "backends/vulkan/gpa_interface.h"
#include "backends/vulkan/vulkan_counters.h"
#include "counters/counter_catalog.h"
#include "vulkan_backend_fixture.h"

namespace ogpa::vktest {
namespace {

using gpa::vk::BuildCounters;
using gpa::vk::CounterSet;
using gpa::vk::ResultEncoding;

VkGpaPerfBlockPropertiesAMD PmBlock(VkGpaPerfBlockAMD type, uint32_t maxEvent) {
    return VkGpaPerfBlockPropertiesAMD{type, 0, 1, maxEvent, maxEvent + 1, maxEvent + 1, 0};
}

VkGpaPerfEventPropertiesOPENGPA PmEvent(uint32_t id, const char* metric) {
    VkGpaPerfEventPropertiesOPENGPA e{};
    e.blockType = VK_GPA_PERF_BLOCK_PM_SAMPLING_OPENGPA;
    e.eventID = id;
    std::snprintf(e.name, sizeof(e.name), "%s", metric);
    e.storage = VK_PERFORMANCE_COUNTER_STORAGE_FLOAT64_KHR;
    e.queueFamilyMask = ~0u;
    return e;
}

TEST(VulkanPmCounters, TheBlockValueIsOpenGpas) { EXPECT_EQ(static_cast<uint32_t>(VK_GPA_PERF_BLOCK_PM_SAMPLING_OPENGPA), 0x10001u); }

TEST(VulkanPmCounters, EventsBecomePmHardwareCountersAndTheVocabularysPublicCounters) {
    const CounterSet set = BuildCounters(
        {PmBlock(VK_GPA_PERF_BLOCK_DB_AMD, 0), PmBlock(VK_GPA_PERF_BLOCK_PM_SAMPLING_OPENGPA, 2)}, true, {},
        {PmEvent(0, "gr__cycles_active.avg.pct_of_peak_sustained_elapsed"), PmEvent(1, "dram__bytes_read.sum"),
         PmEvent(2, "dram__bytes_write.sum")});
    ASSERT_EQ(set.hardware.size(), 5u);  // timing, DB, three PM
    EXPECT_EQ(set.hardware[2].name, "PM.gr__cycles_active.avg.pct_of_peak_sustained_elapsed");
    EXPECT_EQ(set.hardware[2].usage, GPA_USAGE_TYPE_PERCENTAGE);
    EXPECT_EQ(set.hardware[4].name, "PM.dram__bytes_write.sum");
    EXPECT_EQ(set.hardware[4].usage, GPA_USAGE_TYPE_BYTES);
    EXPECT_EQ(set.hardware[4].type, GPA_TYPE_FLOAT64);
    ASSERT_EQ(set.events.size(), 4u);
    EXPECT_EQ(set.events[3].blockType, VK_GPA_PERF_BLOCK_PM_SAMPLING_OPENGPA);
    EXPECT_EQ(set.events[3].eventID, 2u);
    EXPECT_EQ(set.encodings[3], ResultEncoding::kPmSampled);
    EXPECT_FALSE(set.planning[3].khr) << "joins any pass";

    const gpa::CounterCatalog catalog = gpa::CounterCatalog::Build(set.hardware, set.derived, {});
    const auto busy = catalog.Find("GPUBusy"), fetch = catalog.Find("FetchSize"), write = catalog.Find("WriteSize");
    ASSERT_TRUE(busy && fetch && write);
    // As the session reads them: timing, DB, then the PM words decoded.
    std::vector<double> values = {0, 0, *gpa::vk::DecodeResult(std::bit_cast<uint64_t>(97.25), ResultEncoding::kPmSampled),
                                  *gpa::vk::DecodeResult(std::bit_cast<uint64_t>(10240.0), ResultEncoding::kPmSampled),
                                  *gpa::vk::DecodeResult(std::bit_cast<uint64_t>(1048576.5), ResultEncoding::kPmSampled)};
    EXPECT_DOUBLE_EQ(catalog.Evaluate(*busy, values), 97.25);
    EXPECT_DOUBLE_EQ(catalog.Evaluate(*fetch, values), 10.0);
    EXPECT_DOUBLE_EQ(catalog.Evaluate(*write, values), 1048576.5 / 1024);
}

TEST(VulkanPmCounters, ResultWordsAreDoublesAndNanIsNoValue) {
    EXPECT_EQ(gpa::vk::DecodeResult(std::bit_cast<uint64_t>(2.5), ResultEncoding::kPmSampled), 2.5);
    EXPECT_FALSE(gpa::vk::DecodeResult(0x7FF8000000000000ull, ResultEncoding::kPmSampled));
    EXPECT_EQ(gpa::vk::DecodeResult(42, ResultEncoding::kUnsigned), 42.0);
    EXPECT_EQ(gpa::vk::DecodeResult(static_cast<uint64_t>(-3), ResultEncoding::kSigned), -3.0);
}

TEST(VulkanPmCounters, WithoutTheBlockThePublicCountersAreAbsentWithWhy) {
    const CounterSet set = BuildCounters({PmBlock(VK_GPA_PERF_BLOCK_DB_AMD, 0)}, true);
    for (const auto& counter : set.derived) EXPECT_NE(counter.name, "GPUBusy");
    bool said = false;
    for (const std::string& absent : set.absent) said |= absent.find("GPUBusy, FetchSize, WriteSize") != std::string::npos;
    EXPECT_TRUE(said);
}

using PmCounters = VulkanBackendTest;

// lavapipe (CI): the layer offers no PM sampling block, so no PM. counter is listed even with the hardware bit.
TEST_F(PmCounters, NoneWhereTheLayerOffersNoPmBlock) {
    ASSERT_GPA_OK(GPA_CloseContext());
    ASSERT_GPA_OK(GPA_OpenContext(&info_, GPA_OPENCONTEXT_ENABLE_HARDWARE_COUNTERS_BIT));
    gpa_uint32 count = 0, pm = 0;
    ASSERT_GPA_OK(GPA_GetNumCounters(&count));
    for (gpa_uint32 i = 0; i < count; ++i) {
        const char* name = nullptr;
        ASSERT_GPA_OK(GPA_GetCounterName(i, &name));
        pm += std::string(name).rfind("PM.", 0) == 0;
    }
    gpa_uint32 index = 0;
    const bool busy = GPA_GetCounterIndex("GPUBusy", &index) == GPA_STATUS_OK;
    VkPhysicalDeviceProperties properties{};
    vkGetPhysicalDeviceProperties(env().physicalDevice, &properties);
    if (properties.vendorID == 0x10DE) {
        std::printf("[ PM counters ] %u on %s\n", pm, properties.deviceName);
        GTEST_SKIP() << "an NVIDIA GPU: the layer may sample it (" << pm << " PM. counters)";
    }
    EXPECT_EQ(pm, 0u);
    EXPECT_FALSE(busy);
}

}  // namespace
}  // namespace ogpa::vktest
