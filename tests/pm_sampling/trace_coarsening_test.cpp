// A trace sample's requested interval served by joining the sampler's samples (trace_coarsening.h).
#include <gtest/gtest.h>

#include <cmath>

#include "pm_sampling/trace_coarsening.h"

namespace gpa::pm_sampling {
namespace {

constexpr uint64_t kInterval = 100000;  // 100 us

// `count` contiguous samples from t = 1 ms: bytes i + 1, busy percentage 10 * (i + 1), a maximum i.
TraceData Trace(int count) {
    TraceData trace;
    trace.intervalNs = kInterval;
    trace.counters = {"dram__bytes_write.sum", "gr__cycles_active.avg.pct_of_peak_sustained_elapsed",
                      "sm__warps_active.max"};
    for (int i = 0; i < count; ++i) {
        TraceSample sample;
        sample.startNs = 1000000 + uint64_t(i) * kInterval;
        sample.endNs = sample.startNs + kInterval;
        sample.values = {double(i + 1), 10.0 * (i + 1), double(i)};
        trace.samples.push_back(sample);
    }
    return trace;
}

TEST(TraceCoarsening, SamplesPerBinRoundsAndNeverGoesBelowOne) {
    EXPECT_EQ(SamplesPerBin(0, kInterval), 1u);
    EXPECT_EQ(SamplesPerBin(50000, kInterval), 1u) << "finer than the sampler: its own interval";
    EXPECT_EQ(SamplesPerBin(400000, kInterval), 4u);
    EXPECT_EQ(SamplesPerBin(430000, kInterval), 4u);
    EXPECT_EQ(SamplesPerBin(460000, kInterval), 5u);
    EXPECT_EQ(SamplesPerBin(400000, 0), 1u);
}

TEST(TraceCoarsening, CountsAddRatesAverageOverTimeAndMaximaHaveNoValue) {
    const TraceData coarse = CoarsenTrace(Trace(10), 4);
    EXPECT_EQ(coarse.intervalNs, 4 * kInterval);
    ASSERT_EQ(coarse.samples.size(), 3u) << "4 + 4 + the last 2";
    EXPECT_EQ(coarse.samples[0].startNs, 1000000u);
    EXPECT_EQ(coarse.samples[0].endNs, 1000000u + 4 * kInterval);
    EXPECT_DOUBLE_EQ(coarse.samples[0].values[0], 1 + 2 + 3 + 4);
    EXPECT_DOUBLE_EQ(coarse.samples[0].values[1], 25.0);  // mean of 10, 20, 30, 40 over equal times
    EXPECT_TRUE(std::isnan(coarse.samples[0].values[2])) << "a maximum of instances does not add up";
    EXPECT_DOUBLE_EQ(coarse.samples[2].values[0], 9 + 10);
    EXPECT_DOUBLE_EQ(coarse.samples[2].values[1], 95.0);
    EXPECT_EQ(coarse.samples[2].endNs - coarse.samples[2].startNs, 2 * kInterval);
    std::string error;
    EXPECT_TRUE(CheckTraceData(coarse, &error)) << error;
}

TEST(TraceCoarsening, ARateIsWeightedByEachSamplesTime) {
    TraceData trace = Trace(2);
    trace.samples[1].endNs = trace.samples[1].startNs + 3 * kInterval / 2;  // 150 us at 20 %, after 100 us at 10 %
    const TraceData coarse = CoarsenTrace(trace, 2);
    ASSERT_EQ(coarse.samples.size(), 1u);
    EXPECT_DOUBLE_EQ(coarse.samples[0].values[1], (10.0 * 100 + 20.0 * 150) / 250);
}

TEST(TraceCoarsening, NeverJoinsAcrossLostSamplesOrGaps) {
    TraceData trace = Trace(8);
    trace.samples[2].droppedBefore = true;
    for (size_t i = 5; i < trace.samples.size(); ++i) {  // a gap of 3 intervals before sample 5
        trace.samples[i].startNs += 3 * kInterval;
        trace.samples[i].endNs += 3 * kInterval;
    }
    const TraceData coarse = CoarsenTrace(trace, 4);
    ASSERT_EQ(coarse.samples.size(), 3u) << "[0,1] [2,3,4] [5,6,7]";
    EXPECT_DOUBLE_EQ(coarse.samples[0].values[0], 1 + 2);
    EXPECT_FALSE(coarse.samples[0].droppedBefore);
    EXPECT_DOUBLE_EQ(coarse.samples[1].values[0], 3 + 4 + 5);
    EXPECT_TRUE(coarse.samples[1].droppedBefore) << "the joined sample follows lost ones";
    EXPECT_DOUBLE_EQ(coarse.samples[2].values[0], 6 + 7 + 8);
    EXPECT_FALSE(coarse.samples[2].droppedBefore);
}

TEST(TraceCoarsening, AnUnknownValueMakesTheJoinedValueUnknown) {
    TraceData trace = Trace(4);
    trace.samples[1].values[0] = std::nan("");
    const TraceData coarse = CoarsenTrace(trace, 4);
    ASSERT_EQ(coarse.samples.size(), 1u);
    EXPECT_TRUE(std::isnan(coarse.samples[0].values[0]));
    EXPECT_DOUBLE_EQ(coarse.samples[0].values[1], 25.0);
}

TEST(TraceCoarsening, OneSampleABinKeepsTheTraceAsItIs) {
    const TraceData trace = Trace(3);
    const TraceData same = CoarsenTrace(trace, 1);
    ASSERT_EQ(same.samples.size(), 3u);
    EXPECT_EQ(same.intervalNs, kInterval);
    EXPECT_DOUBLE_EQ(same.samples[2].values[2], 2.0) << "a single sample keeps even a maximum";
}

}  // namespace
}  // namespace gpa::pm_sampling
