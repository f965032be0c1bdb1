// The drivers' own counters (GL_AMD_performance_monitor, GL_INTEL_performance_query) against a scripted stand-in
// driver (fake_perf_monitor_driver.h, a test double: neither extension exists on llvmpipe or NVIDIA's driver):
// enumeration into names, types and usages; what fits in one pass; one sample's monitor or query instance; the
// decoding of AMD's result list and INTEL's data block; results the driver does not give are errors, never zero.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "backends/gl/gl_counters.h"
#include "backends/gl/gl_driver_counters.h"
#include "fake_perf_monitor_driver.h"

namespace ogpa::gltest {
namespace {

using gpa::gl::DriverCounter;
using gpa::gl::DriverCounterList;
using gpa::gl::DriverSampleRecording;

const gpa::HardwareCounter* Find(const DriverCounterList& list, const std::string& name, const DriverCounter** counter) {
    for (size_t i = 0; i < list.hardware.size(); ++i) {
        if (list.hardware[i].name == name) {
            if (counter) *counter = &list.counters[i];
            return &list.hardware[i];
        }
    }
    return nullptr;
}

std::vector<const DriverCounter*> Pick(const DriverCounterList& list, const std::vector<std::string>& names) {
    std::vector<const DriverCounter*> picked;
    for (const std::string& name : names) {
        const DriverCounter* counter = nullptr;
        EXPECT_NE(Find(list, name, &counter), nullptr) << name;
        if (counter) picked.push_back(counter);
    }
    return picked;
}

class DriverCounters : public ::testing::Test {
protected:
    void SetUp() override { driver_.ScriptExample(); }
    FakePerfMonitorDriver driver_;
};

TEST_F(DriverCounters, AmdGroupsAndCountersBecomeNamedTypedHardwareCounters) {
    const DriverCounterList list = gpa::gl::EnumerateAmdPerfMonitor(driver_.Functions(true, false).amd);
    ASSERT_EQ(list.hardware.size(), 5u);
    ASSERT_EQ(list.counters.size(), 5u);
    const DriverCounter* counter = nullptr;
    const gpa::HardwareCounter* count = Find(list, "AMD_perfmon.GRBM.GRBM_COUNT", &counter);
    ASSERT_NE(count, nullptr);
    EXPECT_EQ(count->group, "AMD_perfmon.GRBM");
    EXPECT_EQ(count->type, GPA_TYPE_UINT64);
    EXPECT_EQ(count->usage, GPA_USAGE_TYPE_ITEMS);
    EXPECT_NE(count->description.find("counter of group GRBM"), std::string::npos) << count->description;
    EXPECT_EQ(counter->group, 3u);
    EXPECT_EQ(counter->counter, 1u);
    EXPECT_EQ(counter->groupLimit, 2u);
    const gpa::HardwareCounter* busy = Find(list, "AMD_perfmon.GRBM.GPU_BUSY", nullptr);
    ASSERT_NE(busy, nullptr);
    EXPECT_EQ(busy->type, GPA_TYPE_FLOAT64);
    EXPECT_EQ(busy->usage, GPA_USAGE_TYPE_PERCENTAGE);
    const gpa::HardwareCounter* rate = Find(list, "AMD_perfmon.SQ.SQ_ALU_RATE", &counter);
    ASSERT_NE(rate, nullptr);
    EXPECT_EQ(rate->type, GPA_TYPE_FLOAT64);
    EXPECT_EQ(counter->groupLimit, 1u);
    EXPECT_EQ(Find(list, "AMD_perfmon.GRBM.GRBM_GUI_ACTIVE", nullptr)->type, GPA_TYPE_UINT64);
}

TEST_F(DriverCounters, AmdCountersOfAnUnknownTypeAreLeftOutSayingWhy) {
    driver_.amdGroups[1].counters.push_back({9, "SQ_ODD", 0x1234});
    const DriverCounterList list = gpa::gl::EnumerateAmdPerfMonitor(driver_.Functions(true, false).amd);
    EXPECT_EQ(Find(list, "AMD_perfmon.SQ.SQ_ODD", nullptr), nullptr);
    ASSERT_EQ(list.skipped.size(), 1u);
    EXPECT_NE(list.skipped[0].find("AMD_perfmon.SQ.SQ_ODD"), std::string::npos) << list.skipped[0];
}

TEST_F(DriverCounters, IntelQueriesAndCountersBecomeNamedTypedHardwareCounters) {
    const DriverCounterList list = gpa::gl::EnumerateIntelPerfQuery(driver_.Functions(false, true).intel);
    ASSERT_EQ(list.hardware.size(), 6u);  // Broken lies past its block
    ASSERT_EQ(list.skipped.size(), 1u);
    EXPECT_NE(list.skipped[0].find("INTEL_perfquery.RenderBasic.Broken"), std::string::npos) << list.skipped[0];
    struct Expected {
        const char* name;
        GPA_Type type;
        GPA_Usage_Type usage;
        GLuint offset;
    };
    for (const Expected& e : {Expected{"INTEL_perfquery.RenderBasic.GpuTime", GPA_TYPE_UINT64, GPA_USAGE_TYPE_NANOSECONDS, 0},
                              Expected{"INTEL_perfquery.RenderBasic.GpuBusy", GPA_TYPE_FLOAT64, GPA_USAGE_TYPE_PERCENTAGE, 8},
                              Expected{"INTEL_perfquery.RenderBasic.VertexCount", GPA_TYPE_UINT64, GPA_USAGE_TYPE_ITEMS, 12},
                              Expected{"INTEL_perfquery.RenderBasic.Bandwidth", GPA_TYPE_FLOAT64, GPA_USAGE_TYPE_RATIO, 16},
                              Expected{"INTEL_perfquery.RenderBasic.HizEnabled", GPA_TYPE_UINT64, GPA_USAGE_TYPE_ITEMS, 24},
                              Expected{"INTEL_perfquery.Compute Basic.EuActive", GPA_TYPE_FLOAT64, GPA_USAGE_TYPE_PERCENTAGE, 0}}) {
        const DriverCounter* counter = nullptr;
        const gpa::HardwareCounter* hardware = Find(list, e.name, &counter);
        ASSERT_NE(hardware, nullptr) << e.name;
        EXPECT_EQ(hardware->type, e.type) << e.name;
        EXPECT_EQ(hardware->usage, e.usage) << e.name;
        EXPECT_EQ(counter->offset, e.offset) << e.name;
    }
    const gpa::HardwareCounter* busy = Find(list, "INTEL_perfquery.RenderBasic.GpuBusy", nullptr);
    EXPECT_EQ(busy->group, "INTEL_perfquery.RenderBasic");
    // The driver's own description, and that the query counts the whole GPU (GL_PERFQUERY_GLOBAL_CONTEXT_INTEL).
    EXPECT_EQ(busy->description.rfind("The percentage of time in which the GPU has been processing commands.", 0), 0u)
        << busy->description;
    EXPECT_NE(busy->description.find("whole GPU"), std::string::npos) << busy->description;
    EXPECT_EQ(Find(list, "INTEL_perfquery.Compute Basic.EuActive", nullptr)->description.find("whole GPU"), std::string::npos);
}

TEST_F(DriverCounters, TablesOfUnofferedExtensionsEnumerateNothing) {
    const auto functions = driver_.Functions(false, false);
    EXPECT_TRUE(gpa::gl::EnumerateDriverCounters(functions).hardware.empty());
    EXPECT_EQ(gpa::gl::EnumerateDriverCounters(driver_.Functions(true, true)).hardware.size(), 11u);
}

TEST_F(DriverCounters, PassesHoldAtMostEachAmdGroupsMaxActiveAndOneIntelQuery) {
    const DriverCounterList list = gpa::gl::EnumerateDriverCounters(driver_.Functions(true, true));
    using gpa::gl::DriverCountersFitInOnePass;
    EXPECT_TRUE(DriverCountersFitInOnePass(Pick(list, {"AMD_perfmon.GRBM.GRBM_COUNT", "AMD_perfmon.GRBM.GPU_BUSY",
                                                       "AMD_perfmon.SQ.SQ_WAVES"})));
    EXPECT_FALSE(DriverCountersFitInOnePass(Pick(list, {"AMD_perfmon.GRBM.GRBM_COUNT", "AMD_perfmon.GRBM.GPU_BUSY",
                                                        "AMD_perfmon.GRBM.GRBM_GUI_ACTIVE"})));
    EXPECT_FALSE(DriverCountersFitInOnePass(Pick(list, {"AMD_perfmon.SQ.SQ_WAVES", "AMD_perfmon.SQ.SQ_ALU_RATE"})));
    EXPECT_TRUE(DriverCountersFitInOnePass(Pick(list, {"INTEL_perfquery.RenderBasic.GpuTime", "INTEL_perfquery.RenderBasic.GpuBusy",
                                                       "INTEL_perfquery.RenderBasic.VertexCount"})));
    EXPECT_FALSE(DriverCountersFitInOnePass(Pick(list, {"INTEL_perfquery.RenderBasic.GpuTime", "INTEL_perfquery.Compute Basic.EuActive"})));
    EXPECT_FALSE(DriverCountersFitInOnePass(Pick(list, {"AMD_perfmon.SQ.SQ_WAVES", "INTEL_perfquery.RenderBasic.GpuTime"})));
    // With GL queries: the driver's limits hold beside them (FitInOnePass, the planner's predicate).
    std::vector<gpa::gl::GlQuery> queries(3);
    queries[0] = gpa::gl::GlQuery{GL_SAMPLES_PASSED, 0, false};
    queries[1].driver = 0;
    queries[2].driver = 1;
    EXPECT_TRUE(gpa::gl::FitInOnePass(queries, list.counters));  // GRBM_COUNT, GRBM_GUI_ACTIVE
    queries.push_back(gpa::gl::GlQuery{});
    queries.back().driver = 2;  // GPU_BUSY: a third of GRBM
    EXPECT_FALSE(gpa::gl::FitInOnePass(queries, list.counters));
}

TEST_F(DriverCounters, AnAmdSampleSelectsItsCountersPerGroupAndDecodesTheResultList) {
    const auto functions = driver_.Functions(true, false);
    const DriverCounterList list = gpa::gl::EnumerateDriverCounters(functions);
    DriverSampleRecording sample;
    sample.counters = Pick(list, {"AMD_perfmon.GRBM.GRBM_COUNT", "AMD_perfmon.GRBM.GRBM_GUI_ACTIVE",
                                  "AMD_perfmon.SQ.SQ_ALU_RATE"});
    gpa::gl::BeginDriverSample(functions, &sample);
    gpa::gl::EndDriverSample(functions, &sample);
    ASSERT_NE(sample.amdMonitor, 0u);
    const auto& monitor = driver_.monitors.at(sample.amdMonitor);
    EXPECT_EQ(monitor.begun, 1);
    EXPECT_EQ(monitor.ended, 1);
    EXPECT_EQ(monitor.selected.at(3), (std::vector<GLuint>{1, 2}));
    EXPECT_EQ(monitor.selected.at(6), (std::vector<GLuint>{8}));
    EXPECT_TRUE(gpa::gl::DriverSampleAvailable(functions, &sample));
    gpa::gl::ReadDriverSample(functions, &sample, 100);
    ASSERT_EQ(sample.values.size(), 3u);
    ASSERT_TRUE(sample.values[0] && sample.values[1] && sample.values[2]) << sample.why[0] << sample.why[1] << sample.why[2];
    EXPECT_EQ(*sample.values[0], 1234.0);
    EXPECT_EQ(*sample.values[1], 5000000007.0);
    EXPECT_EQ(*sample.values[2], 0.25);
    gpa::gl::DeleteDriverSample(functions, &sample);
    EXPECT_TRUE(monitor.deleted);
}

TEST_F(DriverCounters, AnAmdCounterTheDriverRefusedHasNoValueAndTheReason) {
    driver_.amdRefused.insert({3, 2});
    const auto functions = driver_.Functions(true, false);
    const DriverCounterList list = gpa::gl::EnumerateDriverCounters(functions);
    DriverSampleRecording sample;
    sample.counters = Pick(list, {"AMD_perfmon.GRBM.GRBM_COUNT", "AMD_perfmon.GRBM.GRBM_GUI_ACTIVE"});
    gpa::gl::BeginDriverSample(functions, &sample);
    gpa::gl::EndDriverSample(functions, &sample);
    gpa::gl::ReadDriverSample(functions, &sample, 100);
    ASSERT_TRUE(sample.values[0].has_value());
    EXPECT_EQ(*sample.values[0], 1234.0);
    EXPECT_FALSE(sample.values[1].has_value());
    EXPECT_NE(sample.why[1].find("no value of AMD_perfmon.GRBM.GRBM_GUI_ACTIVE"), std::string::npos) << sample.why[1];
}

TEST_F(DriverCounters, AnAmdResultNeverAvailableIsAnErrorAfterTheWait) {
    driver_.amdAvailable = false;
    const auto functions = driver_.Functions(true, false);
    const DriverCounterList list = gpa::gl::EnumerateDriverCounters(functions);
    DriverSampleRecording sample;
    sample.counters = Pick(list, {"AMD_perfmon.SQ.SQ_WAVES"});
    gpa::gl::BeginDriverSample(functions, &sample);
    gpa::gl::EndDriverSample(functions, &sample);
    EXPECT_FALSE(gpa::gl::DriverSampleAvailable(functions, &sample));
    gpa::gl::ReadDriverSample(functions, &sample, 5);
    EXPECT_FALSE(sample.values[0].has_value());
    EXPECT_NE(sample.why[0].find("GL_PERFMON_RESULT_AVAILABLE_AMD stayed 0"), std::string::npos) << sample.why[0];
}

TEST_F(DriverCounters, AnAmdMonitorTheDriverDoesNotMakeFailsItsCounters) {
    driver_.amdGenFails = true;
    const auto functions = driver_.Functions(true, false);
    const DriverCounterList list = gpa::gl::EnumerateDriverCounters(functions);
    DriverSampleRecording sample;
    sample.counters = Pick(list, {"AMD_perfmon.SQ.SQ_WAVES"});
    gpa::gl::BeginDriverSample(functions, &sample);
    gpa::gl::EndDriverSample(functions, &sample);
    gpa::gl::ReadDriverSample(functions, &sample, 5);
    EXPECT_FALSE(sample.values[0].has_value());
    EXPECT_NE(sample.why[0].find("glGenPerfMonitorsAMD gave no monitor"), std::string::npos) << sample.why[0];
}

TEST_F(DriverCounters, AmdResultListsDecodeEachTypeAndRefuseWhatTheyCannotRead) {
    const DriverCounterList list = gpa::gl::EnumerateDriverCounters(driver_.Functions(true, false));
    const auto counters = Pick(list, {"AMD_perfmon.GRBM.GRBM_COUNT", "AMD_perfmon.GRBM.GRBM_GUI_ACTIVE",
                                      "AMD_perfmon.GRBM.GPU_BUSY"});
    const float busy = 12.5f;
    GLuint busyBits = 0;
    std::memcpy(&busyBits, &busy, sizeof busy);
    // In the driver's order, not the selection's: GPU_BUSY, GRBM_GUI_ACTIVE (0x1_0000_0002), GRBM_COUNT.
    const std::vector<GLuint> words = {3, 4, busyBits, 3, 2, 2, 1, 3, 1, 77};
    std::vector<std::optional<double>> values;
    std::vector<std::string> why;
    gpa::gl::DecodeAmdResult(words, words.size() * 4, counters, &values, &why);
    ASSERT_TRUE(values[0] && values[1] && values[2]);
    EXPECT_EQ(*values[0], 77.0);
    EXPECT_EQ(*values[1], 4294967298.0);
    EXPECT_EQ(*values[2], 12.5);
    // Fewer bytes written than the list holds: GRBM_COUNT's entry is cut.
    gpa::gl::DecodeAmdResult(words, 8 * 4, counters, &values, &why);
    EXPECT_FALSE(values[2].has_value());
    EXPECT_NE(why[2].find("ends inside an entry"), std::string::npos) << why[2];
    // An entry of a counter not selected: its size is unknown, nothing after it can be read.
    const std::vector<GLuint> stranger = {6, 7, 5, 3, 1, 77};
    gpa::gl::DecodeAmdResult(stranger, stranger.size() * 4, counters, &values, &why);
    EXPECT_FALSE(values[0].has_value());
    EXPECT_NE(why[0].find("counter 7 of group 6, which the monitor did not select"), std::string::npos) << why[0];
    // An empty list: every counter is missing, with the reason.
    gpa::gl::DecodeAmdResult({}, 0, counters, &values, &why);
    for (size_t i = 0; i < counters.size(); ++i) {
        EXPECT_FALSE(values[i].has_value());
        EXPECT_NE(why[i].find("did not count it"), std::string::npos) << why[i];
    }
}

TEST_F(DriverCounters, AnIntelSampleReadsEachCounterAtItsOffsetAndType) {
    const auto functions = driver_.Functions(false, true);
    const DriverCounterList list = gpa::gl::EnumerateDriverCounters(functions);
    DriverSampleRecording sample;
    sample.counters = Pick(list, {"INTEL_perfquery.RenderBasic.GpuTime", "INTEL_perfquery.RenderBasic.GpuBusy",
                                  "INTEL_perfquery.RenderBasic.VertexCount", "INTEL_perfquery.RenderBasic.Bandwidth",
                                  "INTEL_perfquery.RenderBasic.HizEnabled"});
    gpa::gl::BeginDriverSample(functions, &sample);
    gpa::gl::EndDriverSample(functions, &sample);
    ASSERT_NE(sample.intelQuery, 0u);
    const auto& instance = driver_.instances.at(sample.intelQuery);
    EXPECT_EQ(instance.queryId, 5u);
    EXPECT_EQ(instance.begun, 1);
    EXPECT_EQ(instance.ended, 1);
    gpa::gl::ReadDriverSample(functions, &sample, 100);
    const std::vector<double> expected = {123456789012.0, 62.5, 96.0, 1.5e9, 1.0};
    ASSERT_EQ(sample.values.size(), expected.size());
    for (size_t i = 0; i < expected.size(); ++i) {
        ASSERT_TRUE(sample.values[i].has_value()) << i << ": " << sample.why[i];
        EXPECT_EQ(*sample.values[i], expected[i]) << sample.counters[i]->name;
    }
    gpa::gl::DeleteDriverSample(functions, &sample);
    EXPECT_TRUE(instance.deleted);
}

TEST_F(DriverCounters, IntelQueriesTheDriverRefusesOrLeavesEmptyAreErrors) {
    const auto functions = driver_.Functions(false, true);
    const DriverCounterList list = gpa::gl::EnumerateDriverCounters(functions);
    driver_.intelNoData = true;
    DriverSampleRecording empty;
    empty.counters = Pick(list, {"INTEL_perfquery.Compute Basic.EuActive"});
    gpa::gl::BeginDriverSample(functions, &empty);
    gpa::gl::EndDriverSample(functions, &empty);
    EXPECT_FALSE(gpa::gl::DriverSampleAvailable(functions, &empty));
    gpa::gl::ReadDriverSample(functions, &empty, 5);
    EXPECT_FALSE(empty.values[0].has_value());
    EXPECT_NE(empty.why[0].find("wrote nothing"), std::string::npos) << empty.why[0];

    driver_.intelNoData = false;
    driver_.intelCreateFails = true;
    DriverSampleRecording refused;
    refused.counters = empty.counters;
    gpa::gl::BeginDriverSample(functions, &refused);
    gpa::gl::EndDriverSample(functions, &refused);
    gpa::gl::ReadDriverSample(functions, &refused, 5);
    EXPECT_FALSE(refused.values[0].has_value());
    EXPECT_NE(refused.why[0].find("glCreatePerfQueryINTEL gave no instance of INTEL_perfquery.Compute Basic"),
              std::string::npos)
        << refused.why[0];
}

TEST_F(DriverCounters, IntelValuesPastTheBytesWrittenAreErrors) {
    const DriverCounterList list = gpa::gl::EnumerateDriverCounters(driver_.Functions(false, true));
    const DriverCounter* bandwidth = nullptr;
    ASSERT_NE(Find(list, "INTEL_perfquery.RenderBasic.Bandwidth", &bandwidth), nullptr);
    const std::vector<uint8_t>& block = driver_.intelBlocks.at(5);
    std::string why;
    const auto whole = gpa::gl::DecodeIntelCounter(block, block.size(), *bandwidth, &why);
    ASSERT_TRUE(whole.has_value()) << why;
    EXPECT_EQ(*whole, 1.5e9);
    EXPECT_FALSE(gpa::gl::DecodeIntelCounter(block, 20, *bandwidth, &why).has_value());
    EXPECT_NE(why.find("20 bytes written"), std::string::npos) << why;
}

}  // namespace
}  // namespace ogpa::gltest
