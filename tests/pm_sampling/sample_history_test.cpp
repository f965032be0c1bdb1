// The PM samples of a device kept for a while (src/pm_sampling/sample_history.h): retention, gaps, windows before
// the oldest sample kept or after the newest refused with the reason, the samples of a window. No GPU.
#include "pm_sampling/sample_history.h"

#include <gtest/gtest.h>

namespace gpa::pm_sampling {
namespace {

const std::vector<std::string> kMetrics = {"dram__bytes_write.sum", "gr__cycles_active.avg.pct_of_peak_sustained_elapsed"};

// `count` samples of 100 ns from `from`, 1000 bytes and 50% busy each.
std::vector<WindowSample> Even(uint64_t from, int count, bool droppedBeforeFirst = false) {
    std::vector<WindowSample> samples;
    for (int i = 0; i < count; ++i) {
        samples.push_back({from + uint64_t(i) * 100, from + uint64_t(i + 1) * 100, droppedBeforeFirst && i == 0, {1000.0, 50.0}});
    }
    return samples;
}

bool Says(const WindowResult& r, const std::string& text) { return r.why.find(text) != std::string::npos; }

// Samples that meet on the GPU's clock overlap on CLOCK_MONOTONIC by the jitter of the offsets of two drains: joined,
// not dropped (a dropped one left a hole of an interval, and windows around it were refused on an H200).
TEST(JoinToPrevious, SmallOverlapsAreJoinedLargeOnesAndStaleSamplesLeftOut) {
    WindowSample first{1000, 101000, false, {}};
    EXPECT_TRUE(JoinToPrevious(0, 100000, &first));
    EXPECT_EQ(first.startNs, 1000u);
    WindowSample jittered{100987, 200987, false, {}};  // 13 ns before the last end
    EXPECT_TRUE(JoinToPrevious(101000, 100000, &jittered));
    EXPECT_EQ(jittered.startNs, 101000u);
    EXPECT_EQ(jittered.endNs, 200987u);
    WindowSample after{201500, 301500, false, {}};  // a gap: kept as it is (the history's rules judge it)
    EXPECT_TRUE(JoinToPrevious(200987, 100000, &after));
    EXPECT_EQ(after.startNs, 201500u);
    WindowSample overlapping{150000, 350000, false, {}};  // 50.9 us before the last end: more than half an interval
    EXPECT_FALSE(JoinToPrevious(200900, 100000, &overlapping));
    WindowSample stale{100000, 200000, false, {}};  // ends before the last one did
    EXPECT_FALSE(JoinToPrevious(200987, 100000, &stale));
    WindowSample empty{300000, 300000, false, {}};
    EXPECT_FALSE(JoinToPrevious(0, 100000, &empty));
}

TEST(SampleHistory, EmptyRefusesEveryWindow) {
    SampleHistory history(kMetrics, 100, 1000000);
    EXPECT_EQ(history.NewestEndNs(), 0u);
    EXPECT_EQ(history.OldestStartNs(), 0u);
    const WindowResult r = history.Window(100, 200);
    EXPECT_EQ(r.quality, WindowQuality::Refused);
    EXPECT_TRUE(Says(r, "no PM sample has been decoded yet")) << r.why;
    EXPECT_EQ(r.values.size(), kMetrics.size());
    EXPECT_FALSE(r.values[0]);
    EXPECT_TRUE(history.Samples(0, 1000).empty());
}

TEST(SampleHistory, WindowsInsideAreIntegrated) {
    SampleHistory history(kMetrics, 100, 1000000);
    EXPECT_EQ(history.metrics(), kMetrics);
    EXPECT_EQ(history.intervalNs(), 100u);
    history.Append(Even(1000, 10));
    history.Append(Even(2000, 10));  // appended in two drains: one history
    EXPECT_EQ(history.OldestStartNs(), 1000u);
    EXPECT_EQ(history.NewestEndNs(), 3000u);
    const WindowResult r = history.Window(1200, 2800);
    ASSERT_EQ(r.quality, WindowQuality::Measured) << r.why;
    EXPECT_DOUBLE_EQ(*r.values[0], 16 * 1000.0);
    EXPECT_DOUBLE_EQ(*r.values[1], 50.0);
    EXPECT_EQ(r.samples, 16u);
    // Half samples at both edges: the share inside, approximate under 4 intervals.
    const WindowResult edge = history.Window(1250, 1450);
    EXPECT_EQ(edge.quality, WindowQuality::Approximate) << edge.why;
    EXPECT_DOUBLE_EQ(*edge.values[0], 2000.0);
    // The whole history is a window too.
    EXPECT_EQ(history.Window(1000, 3000).quality, WindowQuality::Measured);
}

TEST(SampleHistory, WindowBeforeTheFirstSampleIsRefusedAsNotSampledYet) {
    SampleHistory history(kMetrics, 100, 1000000);
    history.Append(Even(1000, 10));
    const WindowResult r = history.Window(900, 1500);
    EXPECT_EQ(r.quality, WindowQuality::Refused);
    EXPECT_TRUE(Says(r, "before the first PM sample: the device was not sampled yet")) << r.why;
    EXPECT_FALSE(r.values[0]);
}

TEST(SampleHistory, WindowAfterTheNewestIsRefusedAsNotDecodedYet) {
    SampleHistory history(kMetrics, 100, 1000000);
    history.Append(Even(1000, 10));
    const WindowResult r = history.Window(1500, 2100);
    EXPECT_EQ(r.quality, WindowQuality::Refused);
    EXPECT_TRUE(Says(r, "after the newest PM sample decoded")) << r.why;
    EXPECT_TRUE(Says(r, "100 ns")) << r.why;
    // Once the samples are there, the same window is measured.
    history.Append(Even(2000, 2));
    EXPECT_EQ(history.Window(1500, 2100).quality, WindowQuality::Measured);
}

TEST(SampleHistory, RetentionForgetsOldSamplesAndSaysSo) {
    SampleHistory history(kMetrics, 100, 1000);  // keeps 1000 ns behind the newest
    history.Append(Even(0, 10));                 // 0 .. 1000
    EXPECT_EQ(history.OldestStartNs(), 0u);
    history.Append(Even(1000, 10));  // 1000 .. 2000: samples ending before 1000 are forgotten
    EXPECT_EQ(history.OldestStartNs(), 900u);
    EXPECT_EQ(history.NewestEndNs(), 2000u);
    EXPECT_EQ(history.Samples(0, 5000).size(), 11u);
    const WindowResult old = history.Window(200, 1500);
    EXPECT_EQ(old.quality, WindowQuality::Refused);
    EXPECT_TRUE(Says(old, "forgotten")) << old.why;
    EXPECT_TRUE(Says(old, "read the results sooner")) << old.why;
    EXPECT_EQ(history.Window(950, 1950).quality, WindowQuality::Measured);
}

TEST(SampleHistory, GapsRefuseTheWindowsOverThem) {
    SampleHistory history(kMetrics, 100, 1000000);
    history.Append(Even(1000, 10));
    history.MarkGap(2000, 2500);
    history.Append(Even(2500, 10, /*droppedBeforeFirst=*/true));
    const WindowResult over = history.Window(1500, 3000);
    EXPECT_EQ(over.quality, WindowQuality::Refused);
    EXPECT_TRUE(Says(over, "missing inside the window")) << over.why;
    EXPECT_TRUE(Says(over, "lost 500 ns")) << over.why;
    // On either side of the gap windows are measured.
    EXPECT_EQ(history.Window(1200, 1900).quality, WindowQuality::Measured);
    EXPECT_EQ(history.Window(2500, 3400).quality, WindowQuality::Measured);
    // An empty gap is no gap.
    history.MarkGap(3000, 3000);
    EXPECT_EQ(history.Window(2600, 3400).quality, WindowQuality::Measured);
}

TEST(SampleHistory, AHoleWithoutAMarkedGapIsStillRefused) {
    SampleHistory history(kMetrics, 100, 1000000);
    history.Append(Even(1000, 10));
    history.Append(Even(2400, 10));  // 400 ns missing, not marked: the integration sees the hole
    const WindowResult r = history.Window(1500, 3000);
    EXPECT_EQ(r.quality, WindowQuality::Refused);
    EXPECT_TRUE(Says(r, "missing")) << r.why;
}

TEST(SampleHistory, SamplesOutOfOrderAreLeftOut) {
    SampleHistory history(kMetrics, 100, 1000000);
    history.Append(Even(1000, 10));
    history.Append(Even(1500, 2));  // overlaps what is kept
    history.Append({{2100, 2000, false, {1.0, 1.0}}});  // ends before it starts
    EXPECT_EQ(history.NewestEndNs(), 2000u);
    EXPECT_EQ(history.Samples(0, 5000).size(), 10u);
}

TEST(SampleHistory, SamplesAreThoseMeetingTheWindowInOrder) {
    SampleHistory history(kMetrics, 100, 1000000);
    history.Append(Even(1000, 10));
    const std::vector<WindowSample> met = history.Samples(1250, 1450);
    ASSERT_EQ(met.size(), 3u);
    EXPECT_EQ(met[0].startNs, 1200u);
    EXPECT_EQ(met[1].startNs, 1300u);
    EXPECT_EQ(met[2].startNs, 1400u);
    EXPECT_EQ(met[2].endNs, 1500u);
    // Edges that touch a sample's end or start do not meet it: [begin, end).
    EXPECT_EQ(history.Samples(1300, 1400).size(), 1u);
    EXPECT_TRUE(history.Samples(0, 1000).empty());
    EXPECT_TRUE(history.Samples(2000, 3000).empty());
    EXPECT_EQ(history.Samples(0, 100000).size(), 10u);
}

TEST(SampleHistory, WindowsEndingBeforeTheyBeginAreRefused) {
    SampleHistory history(kMetrics, 100, 1000000);
    history.Append(Even(1000, 10));
    const WindowResult r = history.Window(1500, 1500);
    EXPECT_EQ(r.quality, WindowQuality::Refused);
    EXPECT_TRUE(Says(r, "ends before it begins")) << r.why;
}

}  // namespace
}  // namespace gpa::pm_sampling
