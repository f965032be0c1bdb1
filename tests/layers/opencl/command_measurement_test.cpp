// One command's measurement from its shape, timestamps and sensors; a marker's total of the commands it
// covers; results in each storage.
#include <gtest/gtest.h>

#include <cmath>

#include "layers/opencl/command_measurement.h"

namespace {

using namespace gpa::cl_layer;

CommandSample Sample(CommandKind kind, cl_ulong queued, cl_ulong submit, cl_ulong start, cl_ulong end) {
    CommandSample sample;
    sample.shape.kind = kind;
    sample.times = {queued, submit, start, end};
    return sample;
}

TEST(CommandMeasurement, KernelCountsItsWorkAndTimes) {
    CommandSample sample = Sample(CommandKind::kKernel, 100, 150, 400, 1400);
    sample.shape.workItems = 4096;
    sample.shape.workGroups = 64;
    sample.shape.bytes = 999;  // not a transfer: ignored
    const Measurement m = Measure(sample);
    EXPECT_EQ(ResultOf(m, CounterId::kCommandDuration).uint64, 1000u);
    EXPECT_EQ(ResultOf(m, CounterId::kQueuedToStart).uint64, 300u);
    EXPECT_EQ(ResultOf(m, CounterId::kSubmitToStart).uint64, 250u);
    EXPECT_EQ(ResultOf(m, CounterId::kKernelWorkItems).uint64, 4096u);
    EXPECT_EQ(ResultOf(m, CounterId::kKernelWorkGroups).int64, 64);
    EXPECT_EQ(ResultOf(m, CounterId::kKernelDuration).uint64, 1000u);
    EXPECT_EQ(ResultOf(m, CounterId::kTransferBytes).uint64, 0u);
    EXPECT_EQ(ResultOf(m, CounterId::kTransferDuration).uint64, 0u);
}

TEST(CommandMeasurement, TransferCountsItsBytes) {
    CommandSample sample = Sample(CommandKind::kTransfer, 0, 0, 10, 60);
    sample.shape.bytes = 1 << 20;
    const Measurement m = Measure(sample);
    EXPECT_EQ(ResultOf(m, CounterId::kTransferBytes).uint64, 1u << 20);
    EXPECT_EQ(ResultOf(m, CounterId::kTransferDuration).uint64, 50u);
    EXPECT_EQ(ResultOf(m, CounterId::kKernelWorkGroups).int64, 0);
    EXPECT_EQ(ResultOf(m, CounterId::kKernelDuration).uint64, 0u);
}

TEST(CommandMeasurement, TimestampsOutOfOrderGiveZeroNotAWrappedSpan) {
    const Measurement m = Measure(Sample(CommandKind::kOther, 500, 500, 400, 300));
    EXPECT_EQ(ResultOf(m, CounterId::kCommandDuration).uint64, 0u);
    EXPECT_EQ(ResultOf(m, CounterId::kQueuedToStart).uint64, 0u);
}

TEST(CommandMeasurement, UnknownWorkGroupsAreMinusOneAndStaySoInSums) {
    CommandSample chosen = Sample(CommandKind::kKernel, 0, 0, 0, 10);
    chosen.shape.workItems = 1000;
    chosen.shape.workGroups = std::nullopt;
    CommandSample known = Sample(CommandKind::kKernel, 0, 0, 0, 10);
    known.shape.workItems = 64;
    known.shape.workGroups = 2;
    EXPECT_EQ(ResultOf(Measure(chosen), CounterId::kKernelWorkGroups).int64, -1);
    Measurement total{};
    Accumulate(&total, Measure(known));
    EXPECT_EQ(ResultOf(total, CounterId::kKernelWorkGroups).int64, 2);
    Accumulate(&total, Measure(chosen));
    EXPECT_EQ(ResultOf(total, CounterId::kKernelWorkGroups).int64, -1);
    EXPECT_EQ(ResultOf(total, CounterId::kKernelWorkItems).uint64, 1064u);
}

TEST(CommandMeasurement, SensorReadingsAreDurationWeightedInTotals) {
    CommandSample hot = Sample(CommandKind::kKernel, 0, 0, 0, 3000);
    hot.readings[IndexOf(CounterId::kGpuPower)] = 300.0;
    CommandSample cool = Sample(CommandKind::kTransfer, 0, 0, 0, 1000);
    cool.readings[IndexOf(CounterId::kGpuPower)] = 100.0;
    CommandSample unread = Sample(CommandKind::kTransfer, 0, 0, 0, 5000);  // NVML did not answer: no weight
    EXPECT_DOUBLE_EQ(ResultOf(Measure(hot), CounterId::kGpuPower).float64, 300.0);
    EXPECT_TRUE(std::isnan(ResultOf(Measure(unread), CounterId::kGpuPower).float64));
    Measurement total{};
    for (const CommandSample* s : {&hot, &cool, &unread}) Accumulate(&total, Measure(*s));
    EXPECT_DOUBLE_EQ(ResultOf(total, CounterId::kGpuPower).float64, (300.0 * 3000 + 100.0 * 1000) / 4000);
    // Commands that took no time still count, unweighted, when nothing else does.
    CommandSample instant = Sample(CommandKind::kOther, 0, 0, 7, 7);
    instant.readings[IndexOf(CounterId::kGpuTemperature)] = 330.0;
    EXPECT_DOUBLE_EQ(ResultOf(Measure(instant), CounterId::kGpuTemperature).float64, 330.0);
}

TEST(CommandMeasurement, PackagePowerIsEnergyOverTimeAndCountsAdd) {
    CommandSample a = Sample(CommandKind::kKernel, 0, 0, 0, 10);
    a.energyJoules = 2.0;
    a.spanSeconds = 0.01;
    a.spanCounts[IndexOf(CounterId::kCpuThreadTime)] = 7000000;
    a.spanCounts[IndexOf(CounterId::kCpuCycles)] = 1000;
    CommandSample b = Sample(CommandKind::kKernel, 0, 0, 0, 10);
    b.energyJoules = 1.0;
    b.spanSeconds = 0.03;
    b.spanCounts[IndexOf(CounterId::kCpuThreadTime)] = 3000000;
    b.spanCounts[IndexOf(CounterId::kCpuCycles)] = 500;
    EXPECT_DOUBLE_EQ(ResultOf(Measure(a), CounterId::kCpuPackagePower).float64, 200.0);
    Measurement total{};
    Accumulate(&total, Measure(a));
    Accumulate(&total, Measure(b));
    EXPECT_DOUBLE_EQ(ResultOf(total, CounterId::kCpuPackagePower).float64, 3.0 / 0.04);
    EXPECT_EQ(ResultOf(total, CounterId::kCpuThreadTime).uint64, 10000000u);
    EXPECT_EQ(ResultOf(total, CounterId::kCpuCycles).uint64, 1500u);
    // No energy reading: no power, never 0 W.
    EXPECT_TRUE(std::isnan(ResultOf(Measure(Sample(CommandKind::kKernel, 0, 0, 0, 1)), CounterId::kCpuPackagePower).float64));
}

TEST(CommandMeasurement, ResultsFollowTheEnableOrder) {
    CommandSample sample = Sample(CommandKind::kTransfer, 0, 0, 100, 350);
    sample.shape.bytes = 64;
    const CounterId order[] = {CounterId::kTransferBytes, CounterId::kCommandDuration, CounterId::kTransferBytes};
    const std::vector<cl_performance_counter_result_codeplay> results = Results(Measure(sample), order);
    ASSERT_EQ(results.size(), 3u);
    EXPECT_EQ(results[0].uint64, 64u);
    EXPECT_EQ(results[1].uint64, 250u);
    EXPECT_EQ(results[2].uint64, 64u);
}

}  // namespace
