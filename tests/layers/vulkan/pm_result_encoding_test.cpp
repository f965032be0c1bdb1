// What samples of the PM-sampling block return (src/layers/vulkan/pm_result_encoding.h): doubles in the 64-bit
// words, NaN for what is not known; traces of the requested counters in OpenGPA's SPM trace format. No device.
#include "layers/vulkan/pm_result_encoding.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

namespace ogpa::vklayer {
namespace {

using gpa::pm_sampling::WindowSample;

TEST(PmResultEncoding, ValuesAreTheBitsOfADouble) {
    const uint64_t word = EncodePmValue(268435456.5);
    double back = 0;
    std::memcpy(&back, &word, sizeof back);
    EXPECT_EQ(back, 268435456.5);
    EXPECT_EQ(DecodePmWord(EncodePmValue(42.25)), 42.25);
    EXPECT_EQ(EncodePmValue(0.0), 0u);
}

TEST(PmResultEncoding, UnknownIsTheQuietNaNNeverZero) {
    EXPECT_EQ(EncodePmValue(std::nullopt), kPmUnknownWord);
    EXPECT_EQ(EncodePmValue(std::nan("")), kPmUnknownWord);
    EXPECT_TRUE(std::isnan(DecodePmWord(kPmUnknownWord)));
}

TEST(PmResultEncoding, TraceOfTheRequestedCountersInRequestOrder) {
    const std::vector<std::string> metrics = {"dram__bytes_read.sum", "dram__bytes_write.sum", "gr__cycles_active.avg.pct_of_peak_sustained_elapsed"};
    const std::vector<WindowSample> samples = {{1000, 1100, false, {1.0, 2.0, 50.0}},
                                               {1100, 1200, true, {3.0, std::nullopt, 60.0}}};
    const gpa::pm_sampling::TraceData trace = PmTraceData(metrics, {1, 2}, samples, 100);
    EXPECT_EQ(trace.intervalNs, 100u);
    EXPECT_EQ(trace.counters, (std::vector<std::string>{"dram__bytes_write.sum", metrics[2]}));
    ASSERT_EQ(trace.samples.size(), 2u);
    EXPECT_EQ(trace.samples[0].values, (std::vector<double>{2.0, 50.0}));
    EXPECT_FALSE(trace.samples[0].droppedBefore);
    EXPECT_TRUE(trace.samples[1].droppedBefore);
    EXPECT_TRUE(std::isnan(trace.samples[1].values[0]));
    EXPECT_EQ(trace.samples[1].values[1], 60.0);
    // The bytes a trace sample returns, read back.
    std::string error;
    ASSERT_TRUE(gpa::pm_sampling::CheckTraceData(trace, &error)) << error;
    std::vector<uint8_t> bytes(gpa::pm_sampling::WriteTraceBuffer(trace, nullptr, 0));
    ASSERT_EQ(gpa::pm_sampling::WriteTraceBuffer(trace, bytes.data(), bytes.size()), bytes.size());
    gpa::pm_sampling::TraceBufferHeader header;
    const auto read = gpa::pm_sampling::ReadTraceBuffer(bytes.data(), bytes.size(), &error, &header);
    ASSERT_TRUE(read) << error;
    EXPECT_EQ(read->counters, trace.counters);
    EXPECT_EQ(header.flags, gpa::pm_sampling::kTraceFollowsLost);
    EXPECT_EQ(header.firstSampleNs, 1000u);
    EXPECT_EQ(header.lastSampleNs, 1200u);
}

TEST(PmResultEncoding, InfiniteValuesBecomeUnknown) {
    const std::vector<WindowSample> samples = {{0, 100, false, {INFINITY}}};
    const gpa::pm_sampling::TraceData trace = PmTraceData({"lts__t_bytes.sum"}, {0}, samples, 100);
    EXPECT_TRUE(std::isnan(trace.samples[0].values[0]));
    EXPECT_TRUE(gpa::pm_sampling::CheckTraceData(trace, nullptr));
}

}  // namespace
}  // namespace ogpa::vklayer
