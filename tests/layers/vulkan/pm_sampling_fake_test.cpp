// The PM-sampling block's whole path in the layer, on lavapipe, through the layer's test hook
// OPENGPA_VK_PM_SAMPLING_FAKE=1 (src/layers/vulkan/pm_test_source.h: samples made up from CLOCK_MONOTONIC, a count
// metric counting (index + 1) per ns, a rate reading 25 + index): the block listed with its events, cumulative
// samples integrating the window between the layer's timestamps (measured and approximate), trace samples in
// OpenGPA's SPM trace format, thread traces and other blocks' events refused in trace samples.
#include <cmath>
#include <cstring>

#include "pm_fake_fixture.h"
#include "pm_sampling/trace_buffer.h"

namespace ogpa::vktest {
namespace {

TEST_F(PmSamplingFake, BlockEventsAndFeatures) {
    const auto& metrics = gpa::pm_sampling::GraphicsMetrics();
    ASSERT_EQ(events_.size(), metrics.size());
    for (uint32_t i = 0; i < events_.size(); ++i) {
        EXPECT_EQ(events_[i].eventID, i);
        EXPECT_EQ(events_[i].name, metrics[i]) << "event names are the metric names exactly";
        EXPECT_EQ(events_[i].storage, VK_PERFORMANCE_COUNTER_STORAGE_FLOAT64_KHR);
        EXPECT_NE(std::string(events_[i].category).find("test source"), std::string::npos) << events_[i].category;
    }
    EXPECT_EQ(events_[Index("dram__bytes_write.sum")].unit, VK_PERFORMANCE_COUNTER_UNIT_BYTES_KHR);
    EXPECT_EQ(events_[0].unit, VK_PERFORMANCE_COUNTER_UNIT_PERCENTAGE_KHR);
    VkPhysicalDeviceGpaFeaturesAMD features{};
    features.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GPA_FEATURES_AMD;
    VkPhysicalDeviceFeatures2 features2{};
    features2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
    features2.pNext = &features;
    vkGetPhysicalDeviceFeatures2(env().physicalDevice, &features2);
    EXPECT_EQ(features.streamingPerfCounters, VK_TRUE);
    EXPECT_EQ(features.sqThreadTracing, VK_FALSE);
    VkPhysicalDeviceGpaPropertiesAMD properties{};
    properties.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GPA_PROPERTIES_AMD;
    VkPhysicalDeviceProperties2 properties2{};
    properties2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
    properties2.pNext = &properties;
    vkGetPhysicalDeviceProperties2(env().physicalDevice, &properties2);
    std::vector<VkGpaPerfBlockPropertiesAMD> blocks(properties.perfBlockCount);
    properties.pPerfBlocks = blocks.data();
    vkGetPhysicalDeviceProperties2(env().physicalDevice, &properties2);
    ASSERT_FALSE(blocks.empty());
    const VkGpaPerfBlockPropertiesAMD& pm = blocks.back();
    EXPECT_EQ(pm.blockType, VK_GPA_PERF_BLOCK_PM_SAMPLING_OPENGPA);
    EXPECT_EQ(pm.maxEventID, metrics.size() - 1);
    EXPECT_EQ(pm.maxStreamingCounters, metrics.size());
    EXPECT_EQ(pm.maxGlobalSharedCounters, metrics.size());
}

TEST_F(PmSamplingFake, CumulativeSamplesIntegrateTheirWindow) {
    const uint32_t writes = Index("dram__bytes_write.sum"), reads = Index("dram__bytes_read.sum");
    const std::vector<VkGpaPerfCounterAMD> counters = {{VK_GPA_PERF_BLOCK_PM_SAMPLING_OPENGPA, 0, writes},
                                                       kCSInvocations,
                                                       {VK_GPA_PERF_BLOCK_PM_SAMPLING_OPENGPA, 0, reads},
                                                       {VK_GPA_PERF_BLOCK_PM_SAMPLING_OPENGPA, 0, 0}};
    VkGpaSessionAMD session = NewSession();
    VkCommandBuffer cb = env().Begin();
    ASSERT_EQ(gpa().CmdBeginGpaSession(cb, session), VK_SUCCESS);
    const VkGpaSampleBeginInfoAMD info = CumulativeSample(counters);
    uint32_t longSample = 0, shortSample = 0;
    ASSERT_EQ(gpa().CmdBeginGpaSample(cb, session, &info, &longSample), VK_SUCCESS) << LastMessage();
    work().Dispatch(cb, 16, 16, 4, 20000);  // milliseconds on lavapipe
    gpa().CmdEndGpaSample(cb, session, longSample);
    ASSERT_EQ(gpa().CmdBeginGpaSample(cb, session, &info, &shortSample), VK_SUCCESS) << LastMessage();
    gpa().CmdEndGpaSample(cb, session, shortSample);  // nothing inside: far shorter than 4 intervals
    ASSERT_EQ(gpa().CmdEndGpaSession(cb, session), VK_SUCCESS);
    env().SubmitAndWait(cb);
    VkResult result = VK_NOT_READY;
    const std::vector<uint64_t> values = ResultsWhenReady(session, longSample, &result);
    ASSERT_EQ(result, VK_SUCCESS) << LastMessage();
    ASSERT_EQ(values.size(), 4u);
    const double windowNs = AsDouble(values[0]) / double(writes + 1);
    EXPECT_GT(windowNs, 0.0);
    if (windowNs < 400000.0) {  // a GPU runs the dispatch in less than 4 intervals (lavapipe takes milliseconds)
        EXPECT_NE(std::string(LastMessage()).find("approximate"), std::string::npos) << LastMessage();
    }
    EXPECT_NEAR(AsDouble(values[2]) / double(reads + 1), windowNs, windowNs * 1e-9) << "one window for every counter";
    EXPECT_EQ(values[1], 16u * 16u * 4u * 64u) << "the pipeline statistic beside them";
    EXPECT_DOUBLE_EQ(AsDouble(values[3]), 25.0) << "a rate: its mean over the window";
    // The short one: values, and a warning saying they are approximate. An empty sample spans less than 4 intervals
    // unless lavapipe's threads were descheduled between its two commands (seen under ASan on a loaded 2-core CI
    // machine: 2.4 ms); then it is taken again, in a command buffer of its own, up to 5 times.
    std::vector<uint64_t> approximate = ResultsWhenReady(session, shortSample, &result);
    ASSERT_EQ(result, VK_SUCCESS) << LastMessage();
    std::string message = LastMessage();
    for (int attempt = 0; attempt < 5 && AsDouble(approximate[0]) / double(writes + 1) >= 400000.0; ++attempt) {
        VkGpaSessionAMD again = NewSession();
        VkCommandBuffer empty = env().Begin();
        ASSERT_EQ(gpa().CmdBeginGpaSession(empty, again), VK_SUCCESS);
        ASSERT_EQ(gpa().CmdBeginGpaSample(empty, again, &info, &shortSample), VK_SUCCESS) << LastMessage();
        gpa().CmdEndGpaSample(empty, again, shortSample);
        ASSERT_EQ(gpa().CmdEndGpaSession(empty, again), VK_SUCCESS);
        env().SubmitAndWait(empty);
        approximate = ResultsWhenReady(again, shortSample, &result);
        ASSERT_EQ(result, VK_SUCCESS) << LastMessage();
        message = LastMessage();
    }
    EXPECT_LT(AsDouble(approximate[0]) / double(writes + 1), 400000.0) << "6 empty samples, each 4 intervals or longer";
    EXPECT_NE(message.find("approximate"), std::string::npos) << message;
    EXPECT_DOUBLE_EQ(AsDouble(approximate[3]), 25.0);
}

TEST_F(PmSamplingFake, TraceSamplesHoldTheSamplesOfTheirWindow) {
    const uint32_t writes = Index("dram__bytes_write.sum");
    const std::vector<VkGpaPerfCounterAMD> counters = {{VK_GPA_PERF_BLOCK_PM_SAMPLING_OPENGPA, 0, writes},
                                                       {VK_GPA_PERF_BLOCK_PM_SAMPLING_OPENGPA, 0, 1}};
    VkGpaSessionAMD session = NewSession();
    VkCommandBuffer cb = env().Begin();
    ASSERT_EQ(gpa().CmdBeginGpaSession(cb, session), VK_SUCCESS);
    VkGpaSampleBeginInfoAMD info = CumulativeSample(counters);
    info.sampleType = VK_GPA_SAMPLE_TYPE_TRACE_AMD;
    uint32_t sample = 0, refused = 0;
    // Refused: thread traces, other blocks' events, a counter twice.
    info.sqThreadTraceEnable = VK_TRUE;
    EXPECT_EQ(gpa().CmdBeginGpaSample(cb, session, &info, &refused), VK_ERROR_FEATURE_NOT_PRESENT);
    EXPECT_NE(std::string(LastMessage()).find("thread traces"), std::string::npos) << LastMessage();
    info.sqThreadTraceEnable = VK_FALSE;
    const std::vector<VkGpaPerfCounterAMD> mixed = {counters[0], kCSInvocations};
    VkGpaSampleBeginInfoAMD other = info;
    other.perfCounterCount = 2;
    other.pPerfCounters = mixed.data();
    EXPECT_EQ(gpa().CmdBeginGpaSample(cb, session, &other, &refused), VK_ERROR_FEATURE_NOT_PRESENT);
    EXPECT_NE(std::string(LastMessage()).find("only the PM-sampling block"), std::string::npos) << LastMessage();
    const std::vector<VkGpaPerfCounterAMD> twice = {counters[0], counters[0]};
    other.pPerfCounters = twice.data();
    EXPECT_EQ(gpa().CmdBeginGpaSample(cb, session, &other, &refused), VK_ERROR_VALIDATION_FAILED_EXT);
    ASSERT_EQ(gpa().CmdBeginGpaSample(cb, session, &info, &sample), VK_SUCCESS) << LastMessage();
    work().Dispatch(cb, 16, 16, 4, 20000);
    gpa().CmdEndGpaSample(cb, session, sample);
    ASSERT_EQ(gpa().CmdEndGpaSession(cb, session), VK_SUCCESS);
    env().SubmitAndWait(cb);
    size_t size = TraceSizeWhenReady(session, sample);
    ASSERT_GT(size, 0u);
    std::vector<uint8_t> bytes(size);
    size_t small = size - 1;
    EXPECT_EQ(gpa().GetGpaSessionResults(env().device, session, sample, &small, bytes.data()), VK_INCOMPLETE);
    EXPECT_EQ(small, 0u);
    ASSERT_EQ(gpa().GetGpaSessionResults(env().device, session, sample, &size, bytes.data()), VK_SUCCESS) << LastMessage();
    std::string error;
    gpa::pm_sampling::TraceBufferHeader header;
    const auto trace = gpa::pm_sampling::ReadTraceBuffer(bytes.data(), size, &error, &header);
    ASSERT_TRUE(trace) << error;
    EXPECT_EQ(header.intervalNs, 100000u) << "the running interval, not streamingPerfTraceSampleInterval";
    EXPECT_EQ(trace->counters, (std::vector<std::string>{"dram__bytes_write.sum", gpa::pm_sampling::GraphicsMetrics()[1]}));
    ASSERT_GE(trace->samples.size(), 1u);
    EXPECT_LE(header.firstSampleNs, trace->samples.front().startNs);
    for (const gpa::pm_sampling::TraceSample& s : trace->samples) {
        EXPECT_DOUBLE_EQ(s.values[0], double(writes + 1) * 100000.0);
        EXPECT_DOUBLE_EQ(s.values[1], 26.0);
        EXPECT_FALSE(s.droppedBefore);
    }
    EXPECT_EQ(header.flags, 0u);
}

// streamingPerfTraceSampleInterval: 400,000 cycles of the test source's 1 GHz clock = 400 us, four of its 100 us
// samples joined into one: bytes add up, a percentage of elapsed time is the mean.
TEST_F(PmSamplingFake, TraceSamplesJoinSamplesToTheRequestedInterval) {
    const uint32_t writes = Index("dram__bytes_write.sum");
    const std::vector<VkGpaPerfCounterAMD> counters = {{VK_GPA_PERF_BLOCK_PM_SAMPLING_OPENGPA, 0, writes},
                                                       {VK_GPA_PERF_BLOCK_PM_SAMPLING_OPENGPA, 0, 1}};
    VkGpaSessionAMD session = NewSession();
    VkCommandBuffer cb = env().Begin();
    ASSERT_EQ(gpa().CmdBeginGpaSession(cb, session), VK_SUCCESS);
    VkGpaSampleBeginInfoAMD info = CumulativeSample(counters);
    info.sampleType = VK_GPA_SAMPLE_TYPE_TRACE_AMD;
    info.streamingPerfTraceSampleInterval = 400000;
    uint32_t sample = 0;
    ASSERT_EQ(gpa().CmdBeginGpaSample(cb, session, &info, &sample), VK_SUCCESS) << LastMessage();
    work().Dispatch(cb, 16, 16, 4, 80000);
    gpa().CmdEndGpaSample(cb, session, sample);
    ASSERT_EQ(gpa().CmdEndGpaSession(cb, session), VK_SUCCESS);
    env().SubmitAndWait(cb);
    size_t size = TraceSizeWhenReady(session, sample);
    ASSERT_GT(size, 0u);
    std::vector<uint8_t> bytes(size);
    ASSERT_EQ(gpa().GetGpaSessionResults(env().device, session, sample, &size, bytes.data()), VK_SUCCESS) << LastMessage();
    std::string error;
    gpa::pm_sampling::TraceBufferHeader header;
    const auto trace = gpa::pm_sampling::ReadTraceBuffer(bytes.data(), size, &error, &header);
    ASSERT_TRUE(trace) << error;
    EXPECT_EQ(header.intervalNs, 400000u);
    ASSERT_GE(trace->samples.size(), 1u);
    size_t full = 0;
    for (const gpa::pm_sampling::TraceSample& s : trace->samples) {
        const uint64_t length = s.endNs - s.startNs;
        EXPECT_EQ(length % 100000, 0u);
        EXPECT_LE(length, 400000u);
        full += length == 400000;
        EXPECT_DOUBLE_EQ(s.values[0], double(writes + 1) * 100000.0 * double(length / 100000));
        EXPECT_DOUBLE_EQ(s.values[1], 26.0);
    }
    EXPECT_GE(full, trace->samples.size() > 2 ? trace->samples.size() - 2 : 0) << "all but the edges hold four";
}

TEST_F(PmSamplingFake, CopyTargetsOfPmSamplesAreRefused) {
    const std::vector<VkGpaPerfCounterAMD> counters = {{VK_GPA_PERF_BLOCK_PM_SAMPLING_OPENGPA, 0, 0}};
    VkGpaSessionAMD source = NewSession();
    VkCommandBuffer cb = env().Begin();
    ASSERT_EQ(gpa().CmdBeginGpaSession(cb, source), VK_SUCCESS);
    const VkGpaSampleBeginInfoAMD info = CumulativeSample(counters);
    uint32_t sample = 0;
    ASSERT_EQ(gpa().CmdBeginGpaSample(cb, source, &info, &sample), VK_SUCCESS) << LastMessage();
    gpa().CmdEndGpaSample(cb, source, sample);
    ASSERT_EQ(gpa().CmdEndGpaSession(cb, source), VK_SUCCESS);
    env().SubmitAndWait(cb);
    VkGpaSessionCreateInfoAMD copy{};
    copy.sType = VK_STRUCTURE_TYPE_GPA_SESSION_CREATE_INFO_AMD;
    copy.secondaryCopySource = source;
    VkGpaSessionAMD target = VK_NULL_HANDLE;
    EXPECT_EQ(gpa().CreateGpaSession(env().device, &copy, nullptr, &target), VK_ERROR_FEATURE_NOT_PRESENT);
    EXPECT_NE(std::string(LastMessage()).find("PM-sampling block"), std::string::npos) << LastMessage();
}

}  // namespace
}  // namespace ogpa::vktest
