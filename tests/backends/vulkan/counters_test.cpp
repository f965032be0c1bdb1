// The Vulkan library's counters: GPUTime and the graphics counters that pipeline statistics and occlusion
// measure, with their groups, types and usages; the raw events with GPA_OPENCONTEXT_ENABLE_HARDWARE_COUNTERS_BIT;
// what a device without pipeline statistics, or a driver with its own VK_AMD_gpa_interface, leaves out; and
// how the counters are spread over passes.
#include <algorithm>
#include <cstdio>
#include <set>

#include "backends/vulkan/vulkan_counters.h"
#include "vulkan_backend_fixture.h"

namespace ogpa::vktest {
namespace {

using gpa::vk::BuildCounters;
using gpa::vk::CounterSet;

const std::vector<std::string> kPublic = {"GPUTime",       "IAVertices",    "IAPrimitives", "VSInvocations", "HSInvocations",
                                          "DSInvocations", "GSInvocations", "GSPrimitives", "CInvocations",  "CPrimitives",
                                          "PSInvocations", "CSInvocations", "Occlusion"};

std::vector<std::string> CounterNames() {
    gpa_uint32 count = 0;
    EXPECT_GPA_OK(GPA_GetNumCounters(&count));
    std::vector<std::string> names;
    for (gpa_uint32 i = 0; i < count; ++i) {
        const char* name = nullptr;
        EXPECT_GPA_OK(GPA_GetCounterName(i, &name));
        names.push_back(name);
    }
    return names;
}

using Counters = VulkanBackendTest;

TEST_F(Counters, PublicCountersOfTheLayer) {
    VkPhysicalDeviceFeatures features{};
    vkGetPhysicalDeviceFeatures(env().physicalDevice, &features);
    if (!features.pipelineStatisticsQuery) GTEST_SKIP() << "the device has no pipeline statistics queries";
    EXPECT_EQ(CounterNames(), kPublic);
    for (const std::string& name : kPublic) {
        const gpa_uint32 index = Index(name.c_str());
        const char* group = nullptr;
        const char* description = nullptr;
        GPA_Type type = GPA_TYPE__LAST;
        GPA_Usage_Type usage = GPA_USAGE_TYPE__LAST;
        ASSERT_GPA_OK(GPA_GetCounterCategory(index, &group));
        ASSERT_GPA_OK(GPA_GetCounterDescription(index, &description));
        ASSERT_GPA_OK(GPA_GetCounterDataType(index, &type));
        ASSERT_GPA_OK(GPA_GetCounterUsageType(index, &usage));
        EXPECT_GT(std::string(description).size(), 20u) << name;
        if (name == "GPUTime") {
            EXPECT_STREQ(group, "Timing");
            EXPECT_EQ(type, GPA_TYPE_FLOAT64);
            EXPECT_EQ(usage, GPA_USAGE_TYPE_MILLISECONDS);
        } else {
            EXPECT_STREQ(group, "PipelineStatistics") << name;
            EXPECT_EQ(type, GPA_TYPE_UINT64) << name;
            EXPECT_EQ(usage, GPA_USAGE_TYPE_ITEMS) << name;
        }
    }
}

TEST_F(Counters, HardwareCountersAreTheLayersEvents) {
    ASSERT_GPA_OK(GPA_CloseContext());
    ASSERT_GPA_OK(GPA_OpenContext(&info_, GPA_OPENCONTEXT_HIDE_PUBLIC_COUNTERS_BIT | GPA_OPENCONTEXT_ENABLE_HARDWARE_COUNTERS_BIT));
    const std::vector<std::string> names = CounterNames();
    ASSERT_FALSE(names.empty());
    EXPECT_EQ(names.front(), "TIMING.duration_ns");
    EXPECT_NE(std::find(names.begin(), names.end(), "DB.samples_passed"), names.end());
    ASSERT_GPA_OK(GPA_EnableCounterStr("IA.primitives"));
    const gpa_uint32 session = RecordSession({0}, true, [&](VkCommandBuffer cb, gpa_uint32) { work().DrawTriangles(cb, 11); });
    EXPECT_EQ(UInt64(session, 0, "IA.primitives"), 11u);
}

TEST_F(Counters, PassesSeparateTimingFromCumulativeSamples) {
    struct Case {
        std::vector<const char*> counters;
        gpa_uint32 passes;
    };
    for (const Case& c : {Case{{"GPUTime"}, 1}, Case{{"IAPrimitives", "Occlusion", "CSInvocations"}, 1},
                          Case{{"GPUTime", "Occlusion"}, 2}, Case{{}, 0}}) {
        ASSERT_GPA_OK(GPA_DisableAllCounters());
        for (const char* name : c.counters) ASSERT_GPA_OK(GPA_EnableCounterStr(name));
        gpa_uint32 passes = 99;
        ASSERT_GPA_OK(GPA_GetPassCount(&passes));
        EXPECT_EQ(passes, c.passes) << c.counters.size() << " counters";
    }
    ASSERT_GPA_OK(GPA_EnableAllCounters());
    gpa_uint32 passes = 0;
    ASSERT_GPA_OK(GPA_GetPassCount(&passes));
    EXPECT_EQ(passes, 2u);
}

// Without a device: the counter set for block lists a driver could report.
VkGpaPerfBlockPropertiesAMD Block(VkGpaPerfBlockAMD type, uint32_t maxEvent) {
    return VkGpaPerfBlockPropertiesAMD{type, 0, 1, maxEvent, maxEvent + 1, maxEvent + 1, 0};
}

TEST(VulkanCounterSet, DeviceWithoutPipelineStatisticsKeepsGpuTimeAndOcclusion) {
    const CounterSet set = BuildCounters({Block(VK_GPA_PERF_BLOCK_DB_AMD, 0)}, true);
    ASSERT_EQ(set.hardware.size(), 2u);
    EXPECT_EQ(set.hardware[0].name, "TIMING.duration_ns");
    EXPECT_EQ(set.hardware[1].name, "DB.samples_passed");
    ASSERT_EQ(set.events.size(), 1u);
    EXPECT_EQ(set.events[0].blockType, VK_GPA_PERF_BLOCK_DB_AMD);
    ASSERT_EQ(set.absent.size(), 12u);  // the 11 statistics, and the sampled counters (no PM block)
    for (size_t i = 0; i < 11; ++i) EXPECT_NE(set.absent[i].find("does not offer it"), std::string::npos) << set.absent[i];
    EXPECT_NE(set.absent[11].find("no PM sampling block"), std::string::npos) << set.absent[11];
    EXPECT_EQ(set.derived.size(), kPublic.size()) << "the catalog omits those whose events are missing";
}

TEST(VulkanCounterSet, NativeDriverGivesGpuTimeOnly) {
    // AMD's driver offers its own blocks (SQ, TA, ...): their events are hardware-defined, so only the
    // timing counter is declared, and why is said.
    const CounterSet set = BuildCounters({Block(VK_GPA_PERF_BLOCK_SQ_AMD, 300), Block(VK_GPA_PERF_BLOCK_IA_AMD, 20)}, false);
    ASSERT_EQ(set.hardware.size(), 1u);
    ASSERT_EQ(set.derived.size(), 1u);
    EXPECT_EQ(set.derived[0].name, "GPUTime");
    ASSERT_EQ(set.absent.size(), 1u);
    EXPECT_NE(set.absent[0].find("implements VK_AMD_gpa_interface itself"), std::string::npos);
}

TEST(VulkanCounterSet, KhrEventsAreHardwareCountersWithUniqueNames) {
    auto event = [](uint32_t id, const char* name, VkPerformanceCounterStorageKHR storage, VkPerformanceCounterUnitKHR unit) {
        VkGpaPerfEventPropertiesOPENGPA e{};
        e.blockType = VK_GPA_PERF_BLOCK_KHR_PERFORMANCE_QUERY_OPENGPA;
        e.eventID = id;
        std::snprintf(e.name, sizeof(e.name), "%s", name);
        e.storage = storage;
        e.unit = unit;
        e.queueFamilyMask = 1;
        return e;
    };
    const CounterSet set = BuildCounters(
        {Block(VK_GPA_PERF_BLOCK_DB_AMD, 0), Block(VK_GPA_PERF_BLOCK_KHR_PERFORMANCE_QUERY_OPENGPA, 2)}, true,
        {event(0, "Busy", VK_PERFORMANCE_COUNTER_STORAGE_FLOAT32_KHR, VK_PERFORMANCE_COUNTER_UNIT_PERCENTAGE_KHR),
         event(1, "busy", VK_PERFORMANCE_COUNTER_STORAGE_INT32_KHR, VK_PERFORMANCE_COUNTER_UNIT_GENERIC_KHR),
         event(2, "Time", VK_PERFORMANCE_COUNTER_STORAGE_UINT64_KHR, VK_PERFORMANCE_COUNTER_UNIT_NANOSECONDS_KHR)});
    ASSERT_EQ(set.hardware.size(), 5u);  // timing, DB, three KHR
    EXPECT_EQ(set.hardware[2].name, "KHR.Busy");
    EXPECT_EQ(set.hardware[3].name, "KHR.busy #1") << "GPA names ignore letter case";
    EXPECT_EQ(set.hardware[4].name, "KHR.Time");
    EXPECT_EQ(set.hardware[2].type, GPA_TYPE_FLOAT32);
    EXPECT_EQ(set.hardware[2].usage, GPA_USAGE_TYPE_PERCENTAGE);
    EXPECT_EQ(set.hardware[3].type, GPA_TYPE_FLOAT64) << "signed: GPA 2.x reads it as float64";
    EXPECT_EQ(set.hardware[4].type, GPA_TYPE_UINT64);
    EXPECT_EQ(set.hardware[4].usage, GPA_USAGE_TYPE_NANOSECONDS);
    ASSERT_EQ(set.events.size(), 4u);
    EXPECT_EQ(set.events[3].eventID, 2u);
    EXPECT_EQ(set.encodings[1], gpa::vk::ResultEncoding::kDouble);
    EXPECT_EQ(set.encodings[2], gpa::vk::ResultEncoding::kSigned);
    EXPECT_TRUE(set.planning[1].khr);
    EXPECT_FALSE(set.planning[0].khr);
}

TEST(VulkanCounterSet, EveryPublicCounterReadsEventsOfTheLayer) {
    std::set<std::string> names = {"TIMING.duration_ns"};
    for (const gpa::vk::EventCounter& event : gpa::vk::LayerEvents()) names.insert(event.name);
    for (const auto& counter : gpa::vk::PublicCounters()) {
        const std::string input = counter.expression.substr(0, counter.expression.find(' '));
        EXPECT_EQ(names.count(input), 1u) << counter.name << " reads " << input;
    }
}

}  // namespace
}  // namespace ogpa::vktest
