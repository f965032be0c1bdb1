// OGPA_SetCommandList on Vulkan: every documented status, and what samples do without it.
#include "vulkan_backend_fixture.h"

namespace ogpa::vktest {
namespace {

class CommandList : public VulkanBackendTest {
protected:
    std::string LastError() { return OGPA_GetLastErrorMessage(); }
};

TEST_F(CommandList, NullIsRefused) {
    EXPECT_EQ(OGPA_SetCommandList(nullptr), GPA_STATUS_ERROR_NULL_POINTER);
    EXPECT_NE(LastError().find("pCommandList"), std::string::npos) << LastError();
}

TEST_F(CommandList, NeedsAnOpenContext) {
    ASSERT_GPA_OK(GPA_CloseContext());
    VkCommandBuffer cb = env().Allocate();
    EXPECT_EQ(OGPA_SetCommandList(cb), GPA_STATUS_ERROR_COUNTERS_NOT_OPEN);
    vkFreeCommandBuffers(env().device, env().pool, 1, &cb);
}

TEST_F(CommandList, CommandBufferOfAnotherDevice) {
    std::string skip, failure;
    std::unique_ptr<VulkanEnv> other = VulkanEnv::Create(EnvOptions{}, &skip, &failure);
    ASSERT_NE(other, nullptr) << failure << skip;
    VkCommandBuffer foreign = other->Allocate();
    EXPECT_EQ(OGPA_SetCommandList(foreign), GPA_STATUS_ERROR_FAILED);
    EXPECT_NE(LastError().find("not a VkCommandBuffer of the VkDevice given to GPA_OpenContext"), std::string::npos) << LastError();
    vkFreeCommandBuffers(other->device, other->pool, 1, &foreign);
    other->Close();
}

TEST_F(CommandList, SampleWithoutACommandList) {
    ASSERT_GPA_OK(GPA_EnableCounterStr("GPUTime"));
    gpa_uint32 session = 0;
    ASSERT_GPA_OK(GPA_BeginSession(&session));
    ASSERT_GPA_OK(GPA_BeginPass());
    EXPECT_EQ(GPA_BeginSample(0), GPA_STATUS_ERROR_FAILED);
    EXPECT_NE(LastError().find("OGPA_SetCommandList"), std::string::npos) << LastError();
    ASSERT_GPA_OK(GPA_EndPass());
    ASSERT_GPA_OK(GPA_EndSession());
}

TEST_F(CommandList, SwitchingDuringACumulativeSampleIsRefused) {
    ASSERT_GPA_OK(GPA_EnableCounterStr("CSInvocations"));
    gpa_uint32 session = 0;
    ASSERT_GPA_OK(GPA_BeginSession(&session));
    ASSERT_GPA_OK(GPA_BeginPass());
    VkCommandBuffer first = env().Begin();
    VkCommandBuffer second = env().Begin();
    ASSERT_GPA_OK(OGPA_SetCommandList(first));
    ASSERT_GPA_OK(GPA_BeginSample(0));
    work().Dispatch(first, 1, 1, 1, 1);
    EXPECT_EQ(OGPA_SetCommandList(second), GPA_STATUS_ERROR_SAMPLE_NOT_ENDED);
    EXPECT_NE(LastError().find("one command buffer"), std::string::npos) << LastError();
    ASSERT_GPA_OK(OGPA_SetCommandList(first)) << "naming the same one again is fine";
    ASSERT_GPA_OK(GPA_EndSample());
    ASSERT_GPA_OK(OGPA_SetCommandList(second)) << "after GPA_EndSample it may change";
    ASSERT_GPA_OK(GPA_EndPass());  // ends the pass in `second`
    env().Submit(first);
    env().Submit(second);
    ASSERT_GPA_OK(GPA_EndSession());
    env().WaitIdle();
    EXPECT_EQ(UInt64(session, 0, "CSInvocations"), kInvocationsPerWorkgroup);
}

TEST_F(CommandList, TimingSamplesMaySpanCommandBuffers) {
    ASSERT_GPA_OK(GPA_EnableCounterStr("GPUTime"));
    gpa_uint32 session = 0;
    ASSERT_GPA_OK(GPA_BeginSession(&session));
    ASSERT_GPA_OK(GPA_BeginPass());
    VkCommandBuffer first = env().Begin();
    VkCommandBuffer second = env().Begin();
    ASSERT_GPA_OK(OGPA_SetCommandList(first));
    ASSERT_GPA_OK(GPA_BeginSample(0));
    work().Dispatch(first, 4, 1, 1, 1000);
    ASSERT_GPA_OK(OGPA_SetCommandList(second));
    work().Dispatch(second, 4, 1, 1, 1000);
    ASSERT_GPA_OK(GPA_EndSample());
    ASSERT_GPA_OK(GPA_EndPass());
    env().Submit(first);
    env().Submit(second);
    ASSERT_GPA_OK(GPA_EndSession());
    env().WaitIdle();
    EXPECT_GT(Float64(session, 0, "GPUTime"), 0.0);
}

}  // namespace
}  // namespace ogpa::vktest
