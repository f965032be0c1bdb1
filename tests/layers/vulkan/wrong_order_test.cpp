// The extension's functions called in an order the extension does not allow: each is refused with a message
// saying what to do, and what was refused leaves the command buffer valid (the validation layer below the
// layer checks it when it runs).
#include "layer_test_fixture.h"

namespace ogpa::vktest {
namespace {

class WrongOrder : public LayerTest {
protected:
    void ExpectMessage(std::initializer_list<const char*> parts) {
        const std::string message = LastMessage();
        for (const char* part : parts) EXPECT_NE(message.find(part), std::string::npos) << "'" << part << "' not in: " << message;
    }
    const std::vector<VkGpaPerfCounterAMD> counters_ = {kIAPrimitives, kSamplesPassed};
};

TEST_F(WrongOrder, SessionBeginAndEnd) {
    VkGpaSessionAMD session = NewSession();
    VkCommandBuffer cb = env().Begin();
    EXPECT_EQ(gpa().CmdEndGpaSession(cb, session), VK_ERROR_VALIDATION_FAILED_EXT);
    ExpectMessage({"vkCmdEndGpaSessionAMD", "not begun"});
    const VkGpaSampleBeginInfoAMD info = TimingSample();
    uint32_t sample = 0;
    EXPECT_EQ(gpa().CmdBeginGpaSample(cb, session, &info, &sample), VK_ERROR_VALIDATION_FAILED_EXT);
    ExpectMessage({"is not begun", "vkCmdBeginGpaSessionAMD"});
    ASSERT_EQ(gpa().CmdBeginGpaSession(cb, session), VK_SUCCESS);
    EXPECT_EQ(gpa().CmdBeginGpaSession(cb, session), VK_ERROR_VALIDATION_FAILED_EXT);
    ExpectMessage({"already begun"});
    EXPECT_EQ(gpa().GetGpaSessionStatus(env().device, session), VK_ERROR_VALIDATION_FAILED_EXT);
    ExpectMessage({"has not been ended"});
    ASSERT_EQ(gpa().CmdEndGpaSession(cb, session), VK_SUCCESS);
    EXPECT_EQ(gpa().CmdBeginGpaSample(cb, session, &info, &sample), VK_ERROR_VALIDATION_FAILED_EXT);
    ExpectMessage({"has ended"});
    EXPECT_EQ(gpa().CmdBeginGpaSession(cb, session), VK_ERROR_VALIDATION_FAILED_EXT);
    ExpectMessage({"vkResetGpaSessionAMD"});
    env().SubmitAndWait(cb);
    ASSERT_EQ(gpa().ResetGpaSession(env().device, session), VK_SUCCESS);
    cb = env().Begin();
    EXPECT_EQ(gpa().CmdBeginGpaSession(cb, session), VK_SUCCESS) << "after a reset it begins again";
    EXPECT_EQ(gpa().CmdEndGpaSession(cb, session), VK_SUCCESS);
    env().SubmitAndWait(cb);
}

TEST_F(WrongOrder, SamplesOpenAtTheEndOfTheSession) {
    VkGpaSessionAMD session = NewSession();
    const VkGpaSampleBeginInfoAMD info = CumulativeSample(counters_);
    VkCommandBuffer cb = env().Begin();
    ASSERT_EQ(gpa().CmdBeginGpaSession(cb, session), VK_SUCCESS);
    work().BeginRenderPass(cb);
    uint32_t sample = 0;
    ASSERT_EQ(gpa().CmdBeginGpaSample(cb, session, &info, &sample), VK_SUCCESS);
    EXPECT_EQ(gpa().CmdEndGpaSession(cb, session), VK_ERROR_VALIDATION_FAILED_EXT);
    ExpectMessage({"sample 0", "still open"});
    size_t size = 0;
    uint64_t values[2];
    size = sizeof values;
    EXPECT_EQ(gpa().GetGpaSessionResults(env().device, session, sample, &size, values), VK_ERROR_VALIDATION_FAILED_EXT);
    work().DrawTriangles(cb, 5);
    gpa().CmdEndGpaSample(cb, session, sample + 1);
    ExpectMessage({"has no sample 1"});
    gpa().CmdEndGpaSample(cb, session, sample);
    gpa().CmdEndGpaSample(cb, session, sample);
    ExpectMessage({"already ended"});
    work().EndRenderPass(cb);
    ASSERT_EQ(gpa().CmdEndGpaSession(cb, session), VK_SUCCESS);
    env().SubmitAndWait(cb);
    EXPECT_EQ(Results(session, sample).at(0), 5u);
}

TEST_F(WrongOrder, CumulativeSampleEndsInItsCommandBufferAndSubpass) {
    VkGpaSessionAMD session = NewSession();
    const VkGpaSampleBeginInfoAMD info = CumulativeSample(counters_);
    VkCommandBuffer cb = env().Begin();
    VkCommandBuffer other = env().Begin();
    ASSERT_EQ(gpa().CmdBeginGpaSession(cb, session), VK_SUCCESS);
    uint32_t sample = 0;
    ASSERT_EQ(gpa().CmdBeginGpaSample(cb, session, &info, &sample), VK_SUCCESS);  // outside a render pass
    gpa().CmdEndGpaSample(other, session, sample);
    ExpectMessage({"began in another command buffer"});
    work().BeginRenderPass(cb);
    work().DrawTriangles(cb, 2);
    gpa().CmdEndGpaSample(cb, session, sample);
    ExpectMessage({"began outside a render pass", "end the sample there"});
    work().EndRenderPass(cb);
    gpa().CmdEndGpaSample(cb, session, sample);  // where it began
    EXPECT_EQ(gpa().CmdEndGpaSession(cb, session), VK_SUCCESS) << LastMessage();
    env().Submit(cb);
    env().SubmitAndWait(other);
    EXPECT_EQ(Results(session, sample).at(0), 2u);
}

TEST_F(WrongOrder, OverlappingCumulativeSamplesInOneCommandBuffer) {
    VkGpaSessionAMD session = NewSession();
    const VkGpaSampleBeginInfoAMD info = CumulativeSample(counters_);
    const std::vector<VkGpaPerfCounterAMD> compute = {kCSInvocations};
    const VkGpaSampleBeginInfoAMD computeInfo = CumulativeSample(compute);
    VkCommandBuffer cb = env().Begin();
    ASSERT_EQ(gpa().CmdBeginGpaSession(cb, session), VK_SUCCESS);
    uint32_t first = 0, second = 0;
    ASSERT_EQ(gpa().CmdBeginGpaSample(cb, session, &info, &first), VK_SUCCESS);
    EXPECT_EQ(gpa().CmdBeginGpaSample(cb, session, &computeInfo, &second), VK_ERROR_VALIDATION_FAILED_EXT);
    ExpectMessage({"one active query of each type per command buffer"});
    gpa().CmdEndGpaSample(cb, session, first);
    ASSERT_EQ(gpa().CmdBeginGpaSample(cb, session, &computeInfo, &second), VK_SUCCESS) << "after the first ended";
    work().Dispatch(cb, 1, 1, 1, 1);
    gpa().CmdEndGpaSample(cb, session, second);
    ASSERT_EQ(gpa().CmdEndGpaSession(cb, session), VK_SUCCESS);
    env().SubmitAndWait(cb);
    EXPECT_EQ(Results(session, second).at(0), kInvocationsPerWorkgroup);
}

TEST_F(WrongOrder, CopyTargets) {
    VkGpaSessionAMD source = NewSession();
    VkGpaSessionCreateInfoAMD info{VK_STRUCTURE_TYPE_GPA_SESSION_CREATE_INFO_AMD, nullptr, source};
    VkGpaSessionAMD target = VK_NULL_HANDLE;
    EXPECT_EQ(gpa().CreateGpaSession(env().device, &info, nullptr, &target), VK_ERROR_VALIDATION_FAILED_EXT);
    ExpectMessage({"must have been begun and ended"});

    VkCommandBuffer cb = env().Begin();
    ASSERT_EQ(gpa().CmdBeginGpaSession(cb, source), VK_SUCCESS);
    ASSERT_EQ(gpa().CmdEndGpaSession(cb, source), VK_SUCCESS);
    target = NewSession(source);
    EXPECT_EQ(gpa().GetGpaSessionStatus(env().device, target), VK_ERROR_VALIDATION_FAILED_EXT);
    ExpectMessage({"no vkCmdCopyGpaSessionResultsAMD"});
    EXPECT_EQ(gpa().CmdBeginGpaSession(cb, target), VK_ERROR_VALIDATION_FAILED_EXT);
    ExpectMessage({"only receives copies"});
    gpa().CmdCopyGpaSessionResults(cb, source);
    ExpectMessage({"is not a copy target"});
    info.secondaryCopySource = target;
    VkGpaSessionAMD chained = VK_NULL_HANDLE;
    EXPECT_EQ(gpa().CreateGpaSession(env().device, &info, nullptr, &chained), VK_ERROR_VALIDATION_FAILED_EXT);
    ExpectMessage({"is itself a copy target"});
    work().BeginRenderPass(cb);
    gpa().CmdCopyGpaSessionResults(cb, target);
    ExpectMessage({"inside a render pass"});
    work().EndRenderPass(cb);
    gpa().CmdCopyGpaSessionResults(cb, target);
    env().SubmitAndWait(cb);
    EXPECT_EQ(gpa().GetGpaSessionStatus(env().device, target), VK_SUCCESS) << LastMessage();

    // The source reset and recorded again with more samples: its copy target no longer fits.
    ASSERT_EQ(gpa().ResetGpaSession(env().device, source), VK_SUCCESS);
    cb = env().Begin();
    ASSERT_EQ(gpa().CmdBeginGpaSession(cb, source), VK_SUCCESS);
    const VkGpaSampleBeginInfoAMD timing = TimingSample();
    uint32_t sample = 0;
    ASSERT_EQ(gpa().CmdBeginGpaSample(cb, source, &timing, &sample), VK_SUCCESS);
    gpa().CmdEndGpaSample(cb, source, sample);
    ASSERT_EQ(gpa().CmdEndGpaSession(cb, source), VK_SUCCESS);
    gpa().CmdCopyGpaSessionResults(cb, target);
    ExpectMessage({"reset and recorded again"});
    env().SubmitAndWait(cb);

    // A destroyed source.
    gpa().DestroyGpaSession(env().device, source, nullptr);
    sessions_.erase(sessions_.begin());
    cb = env().Begin();
    gpa().CmdCopyGpaSessionResults(cb, target);
    ExpectMessage({"was destroyed"});
    env().SubmitAndWait(cb);
}

}  // namespace
}  // namespace ogpa::vktest
