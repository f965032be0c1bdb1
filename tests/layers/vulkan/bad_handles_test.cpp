// The extension's functions called with handles and arguments a tool should not pass: each is refused with
// an error VkResult (or, for void functions, nothing is recorded) and a message that names the function and
// the problem; nothing crashes, and the validation layer below sees nothing invalid.
#include "layer_test_fixture.h"

namespace ogpa::vktest {
namespace {

class BadHandles : public LayerTest {
protected:
    // The last message mentions every part of `parts`.
    void ExpectMessage(std::initializer_list<const char*> parts) {
        const std::string message = LastMessage();
        for (const char* part : parts) EXPECT_NE(message.find(part), std::string::npos) << "'" << part << "' not in: " << message;
    }
    static VkGpaSessionAMD Bogus() { return reinterpret_cast<VkGpaSessionAMD>(uint64_t{0xdead0000}); }
};

TEST_F(BadHandles, NullAndUnknownDevice) {
    VkGpaSessionCreateInfoAMD info{VK_STRUCTURE_TYPE_GPA_SESSION_CREATE_INFO_AMD, nullptr, VK_NULL_HANDLE};
    VkGpaSessionAMD session = VK_NULL_HANDLE;
    EXPECT_EQ(gpa().CreateGpaSession(VK_NULL_HANDLE, &info, nullptr, &session), VK_ERROR_VALIDATION_FAILED_EXT);
    ExpectMessage({"vkCreateGpaSessionAMD", "device"});
    EXPECT_EQ(gpa().GetGpaSessionStatus(VK_NULL_HANDLE, Bogus()), VK_ERROR_VALIDATION_FAILED_EXT);
    EXPECT_EQ(gpa().ResetGpaSession(VK_NULL_HANDLE, Bogus()), VK_ERROR_VALIDATION_FAILED_EXT);
    size_t size = 0;
    EXPECT_EQ(gpa().GetGpaSessionResults(VK_NULL_HANDLE, Bogus(), 0, &size, nullptr), VK_ERROR_VALIDATION_FAILED_EXT);
    VkGpaDeviceGetClockInfoAMD clock{VK_STRUCTURE_TYPE_GPA_DEVICE_GET_CLOCK_INFO_AMD, nullptr, 0, 0, 0, 0};
    EXPECT_EQ(gpa().GetGpaDeviceClockInfo(VK_NULL_HANDLE, &clock), VK_ERROR_VALIDATION_FAILED_EXT);
    gpa().DestroyGpaSession(VK_NULL_HANDLE, Bogus(), nullptr);
}

TEST_F(BadHandles, CreateInfoMustBeRight) {
    VkGpaSessionAMD session = VK_NULL_HANDLE;
    EXPECT_EQ(gpa().CreateGpaSession(env().device, nullptr, nullptr, &session), VK_ERROR_VALIDATION_FAILED_EXT);
    ExpectMessage({"vkCreateGpaSessionAMD", "pCreateInfo"});
    VkGpaSessionCreateInfoAMD wrongType{VK_STRUCTURE_TYPE_APPLICATION_INFO, nullptr, VK_NULL_HANDLE};
    EXPECT_EQ(gpa().CreateGpaSession(env().device, &wrongType, nullptr, &session), VK_ERROR_VALIDATION_FAILED_EXT);
    VkGpaSessionCreateInfoAMD info{VK_STRUCTURE_TYPE_GPA_SESSION_CREATE_INFO_AMD, nullptr, VK_NULL_HANDLE};
    EXPECT_EQ(gpa().CreateGpaSession(env().device, &info, nullptr, nullptr), VK_ERROR_VALIDATION_FAILED_EXT);
    info.secondaryCopySource = Bogus();
    EXPECT_EQ(gpa().CreateGpaSession(env().device, &info, nullptr, &session), VK_ERROR_VALIDATION_FAILED_EXT);
    ExpectMessage({"gpaSession", "not a VkGpaSessionAMD of this device"});
    EXPECT_EQ(session, VK_NULL_HANDLE) << "nothing was created";
}

TEST_F(BadHandles, UnknownAndDestroyedSessions) {
    VkGpaSessionAMD destroyed = NewSession();
    gpa().DestroyGpaSession(env().device, destroyed, nullptr);
    sessions_.clear();
    for (VkGpaSessionAMD session : {Bogus(), destroyed, VkGpaSessionAMD{VK_NULL_HANDLE}}) {
        EXPECT_EQ(gpa().GetGpaSessionStatus(env().device, session), VK_ERROR_VALIDATION_FAILED_EXT);
        ExpectMessage({"vkGetGpaSessionStatusAMD", "not a VkGpaSessionAMD of this device"});
        EXPECT_EQ(gpa().ResetGpaSession(env().device, session), VK_ERROR_VALIDATION_FAILED_EXT);
        size_t size = 0;
        EXPECT_EQ(gpa().GetGpaSessionResults(env().device, session, 0, &size, nullptr), VK_ERROR_VALIDATION_FAILED_EXT);
        VkCommandBuffer cb = env().Begin();
        EXPECT_EQ(gpa().CmdBeginGpaSession(cb, session), VK_ERROR_VALIDATION_FAILED_EXT);
        EXPECT_EQ(gpa().CmdEndGpaSession(cb, session), VK_ERROR_VALIDATION_FAILED_EXT);
        const VkGpaSampleBeginInfoAMD info = TimingSample();
        uint32_t sample = 0;
        EXPECT_EQ(gpa().CmdBeginGpaSample(cb, session, &info, &sample), VK_ERROR_VALIDATION_FAILED_EXT);
        gpa().CmdEndGpaSample(cb, session, 0);
        ExpectMessage({"vkCmdEndGpaSampleAMD"});
        gpa().CmdCopyGpaSessionResults(cb, session);
        ExpectMessage({"vkCmdCopyGpaSessionResultsAMD"});
        env().SubmitAndWait(cb);  // nothing was recorded: the command buffer is still valid
    }
    gpa().DestroyGpaSession(env().device, VK_NULL_HANDLE, nullptr);  // allowed: nothing happens
    gpa().DestroyGpaSession(env().device, destroyed, nullptr);
    ExpectMessage({"vkDestroyGpaSessionAMD"});
    EXPECT_FALSE(env().LayerMessages().empty()) << "messages reach the application's debug messenger";
}

TEST_F(BadHandles, SessionOfAnotherDevice) {
    std::string skip, failure;
    std::unique_ptr<VulkanEnv> other = VulkanEnv::Create(EnvOptions{}, &skip, &failure);
    ASSERT_NE(other, nullptr) << failure << skip;
    VkGpaSessionCreateInfoAMD info{VK_STRUCTURE_TYPE_GPA_SESSION_CREATE_INFO_AMD, nullptr, VK_NULL_HANDLE};
    VkGpaSessionAMD foreign = VK_NULL_HANDLE;
    ASSERT_EQ(other->gpa.CreateGpaSession(other->device, &info, nullptr, &foreign), VK_SUCCESS);
    EXPECT_EQ(gpa().GetGpaSessionStatus(env().device, foreign), VK_ERROR_VALIDATION_FAILED_EXT);
    ExpectMessage({"created on another device"});
    VkCommandBuffer cb = env().Begin();
    EXPECT_EQ(gpa().CmdBeginGpaSession(cb, foreign), VK_ERROR_VALIDATION_FAILED_EXT);
    env().SubmitAndWait(cb);
    other->gpa.DestroyGpaSession(other->device, foreign, nullptr);
    other->Close();
    EXPECT_TRUE(other->ValidationMessages().empty()) << Joined(other->ValidationMessages());
}

TEST_F(BadHandles, NullCommandBuffer) {
    // (A freed command buffer cannot be checked: its handle points to freed memory, as with any Vulkan call.)
    VkGpaSessionAMD session = NewSession();
    EXPECT_EQ(gpa().CmdBeginGpaSession(VK_NULL_HANDLE, session), VK_ERROR_VALIDATION_FAILED_EXT);
    ExpectMessage({"vkCmdBeginGpaSessionAMD", "commandBuffer is VK_NULL_HANDLE"});
    const VkGpaSampleBeginInfoAMD info = TimingSample();
    uint32_t sample = 0;
    EXPECT_EQ(gpa().CmdBeginGpaSample(VK_NULL_HANDLE, session, &info, &sample), VK_ERROR_VALIDATION_FAILED_EXT);
    gpa().CmdEndGpaSample(VK_NULL_HANDLE, session, 0);
    ExpectMessage({"vkCmdEndGpaSampleAMD", "commandBuffer is VK_NULL_HANDLE"});
    gpa().CmdCopyGpaSessionResults(VK_NULL_HANDLE, session);
    ExpectMessage({"vkCmdCopyGpaSessionResultsAMD", "commandBuffer is VK_NULL_HANDLE"});
}

TEST_F(BadHandles, SampleBeginInfoMustBeRight) {
    VkGpaSessionAMD session = NewSession();
    VkCommandBuffer cb = env().Begin();
    ASSERT_EQ(gpa().CmdBeginGpaSession(cb, session), VK_SUCCESS);
    uint32_t sample = 0;
    EXPECT_EQ(gpa().CmdBeginGpaSample(cb, session, nullptr, &sample), VK_ERROR_VALIDATION_FAILED_EXT);
    ExpectMessage({"pGpaSampleBeginInfo"});
    VkGpaSampleBeginInfoAMD info = TimingSample();
    EXPECT_EQ(gpa().CmdBeginGpaSample(cb, session, &info, nullptr), VK_ERROR_VALIDATION_FAILED_EXT);
    info.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
    EXPECT_EQ(gpa().CmdBeginGpaSample(cb, session, &info, &sample), VK_ERROR_VALIDATION_FAILED_EXT);
    info = TimingSample();
    info.sampleType = static_cast<VkGpaSampleTypeAMD>(7);
    EXPECT_EQ(gpa().CmdBeginGpaSample(cb, session, &info, &sample), VK_ERROR_VALIDATION_FAILED_EXT);
    ExpectMessage({"sampleType 7"});

    const std::vector<VkGpaPerfCounterAMD> none;
    info = CumulativeSample(none);
    EXPECT_EQ(gpa().CmdBeginGpaSample(cb, session, &info, &sample), VK_ERROR_VALIDATION_FAILED_EXT);
    ExpectMessage({"perfCounterCount"});
    struct Case {
        VkGpaPerfCounterAMD counter;
        VkResult expected;
        const char* says;
    };
    for (const Case& c : {Case{{VK_GPA_PERF_BLOCK_CPF_AMD, 0, 0}, VK_ERROR_FEATURE_NOT_PRESENT, "does not offer the block"},
                          Case{{VK_GPA_PERF_BLOCK_SQ_AMD, 0, 4}, VK_ERROR_FEATURE_NOT_PRESENT, "does not offer the block"},
                          Case{{VK_GPA_PERF_BLOCK_IA_AMD, 0, 2}, VK_ERROR_VALIDATION_FAILED_EXT, "maxEventID"},
                          Case{{VK_GPA_PERF_BLOCK_DB_AMD, 0, 9}, VK_ERROR_VALIDATION_FAILED_EXT, "maxEventID"},
                          Case{{VK_GPA_PERF_BLOCK_IA_AMD, 1, 0}, VK_ERROR_VALIDATION_FAILED_EXT, "blockInstance 1"},
                          Case{{static_cast<VkGpaPerfBlockAMD>(999), 0, 0}, VK_ERROR_FEATURE_NOT_PRESENT, "block 999"}}) {
        const std::vector<VkGpaPerfCounterAMD> counters = {kIAPrimitives, c.counter};
        info = CumulativeSample(counters);
        EXPECT_EQ(gpa().CmdBeginGpaSample(cb, session, &info, &sample), c.expected) << c.says;
        ExpectMessage({"pPerfCounters[1]", c.says});
    }
    // Trace samples: no thread trace or streaming counter hardware behind these drivers.
    info = TimingSample();
    info.sampleType = VK_GPA_SAMPLE_TYPE_TRACE_AMD;
    info.sqThreadTraceEnable = VK_TRUE;
    EXPECT_EQ(gpa().CmdBeginGpaSample(cb, session, &info, &sample), VK_ERROR_FEATURE_NOT_PRESENT);
    ExpectMessage({"trace samples", "sqThreadTracing"});
    // None of the refusals left anything open: the session ends and the command buffer runs.
    ASSERT_EQ(gpa().CmdEndGpaSession(cb, session), VK_SUCCESS) << LastMessage();
    env().SubmitAndWait(cb);
    EXPECT_EQ(gpa().GetGpaSessionStatus(env().device, session), VK_SUCCESS);
}

TEST_F(BadHandles, ResultArgumentsMustBeRight) {
    VkGpaSessionAMD session = NewSession();
    VkCommandBuffer cb = env().Begin();
    ASSERT_EQ(gpa().CmdBeginGpaSession(cb, session), VK_SUCCESS);
    ASSERT_EQ(gpa().CmdEndGpaSession(cb, session), VK_SUCCESS);
    env().SubmitAndWait(cb);
    EXPECT_EQ(gpa().GetGpaSessionStatus(env().device, session), VK_SUCCESS) << "an empty session is ready at once";
    size_t size = 0;
    EXPECT_EQ(gpa().GetGpaSessionResults(env().device, session, 0, &size, nullptr), VK_ERROR_VALIDATION_FAILED_EXT);
    ExpectMessage({"has no sample 0"});
    EXPECT_EQ(gpa().GetGpaSessionResults(env().device, session, 0, nullptr, nullptr), VK_ERROR_VALIDATION_FAILED_EXT);
    ExpectMessage({"pSizeInBytes is NULL"});
}

}  // namespace
}  // namespace ogpa::vktest
