// A cumulative sample whose PM window the samples do not cover (the layer's test hook with
// OPENGPA_VK_PM_SAMPLING_FAKE=holes: every fourth sample missing): its PM events have no value (NaN words) and a warning
// says why, while the sample's other counters are its results as usual (VK_SUCCESS). Until 2026-11-28 the whole sample
// failed with VK_ERROR_FEATURE_NOT_PRESENT, and the seed's example loop stopped on an H200.
#include <cmath>
#include <string>

#include "pm_fake_fixture.h"

namespace ogpa::vktest {
namespace {

TEST_F(PmSamplingFake, ARefusedWindowGivesNanForThePmEventsAndTheOtherCountersAsUsual) {
    const uint32_t writes = Index("dram__bytes_write.sum");
    const std::vector<VkGpaPerfCounterAMD> counters = {{VK_GPA_PERF_BLOCK_PM_SAMPLING_OPENGPA, 0, writes}, kCSInvocations};
    VkGpaSessionAMD session = NewSession();
    VkCommandBuffer cb = env().Begin();
    ASSERT_EQ(gpa().CmdBeginGpaSession(cb, session), VK_SUCCESS);
    const VkGpaSampleBeginInfoAMD info = CumulativeSample(counters);
    uint32_t sample = 0;
    ASSERT_EQ(gpa().CmdBeginGpaSample(cb, session, &info, &sample), VK_SUCCESS) << LastMessage();
    work().Dispatch(cb, 16, 16, 4, 20000);  // milliseconds on lavapipe: several holes inside
    gpa().CmdEndGpaSample(cb, session, sample);
    ASSERT_EQ(gpa().CmdEndGpaSession(cb, session), VK_SUCCESS);
    env().SubmitAndWait(cb);
    VkResult result = VK_NOT_READY;
    const std::vector<uint64_t> values = ResultsWhenReady(session, sample, &result);
    ASSERT_EQ(result, VK_SUCCESS) << LastMessage();
    ASSERT_EQ(values.size(), 2u);
    EXPECT_TRUE(std::isnan(AsDouble(values[0]))) << AsDouble(values[0]);
    EXPECT_EQ(values[1], 16u * 16u * 4u * 64u) << "the pipeline statistic beside it";
    const std::string message = LastMessage();
    EXPECT_NE(message.find("have no value (NaN)"), std::string::npos) << message;
    EXPECT_NE(message.find("missing"), std::string::npos) << message;
}

}  // namespace
}  // namespace ogpa::vktest
