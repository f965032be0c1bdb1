// The fixture of libGPUPerfAPIVK.so's tests: GPA initialized, a Vulkan device with OpenGPA's layer (and the
// validation layer below it), GPA_OpenContext on it, and helpers that record GPA sessions the way an
// application does: per pass a command buffer named with OGPA_SetCommandList, GPA_EndPass before
// vkEndCommandBuffer, then a submission.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "GPUPerfAPI-Vk.h"
#include "GPUPerfAPI.h"
#include "vulkan_test_env.h"
#include "vulkan_workloads.h"

namespace ogpa::vktest {

#define EXPECT_GPA_OK(call) EXPECT_EQ((call), GPA_STATUS_OK) << #call << ": " << OGPA_GetLastErrorMessage()
#define ASSERT_GPA_OK(call) ASSERT_EQ((call), GPA_STATUS_OK) << #call << ": " << OGPA_GetLastErrorMessage()

class VulkanBackendTest : public ::testing::Test {
protected:
    static constexpr uint32_t kWidth = 64, kHeight = 48;

    void SetUp() override { Open(EnvOptions{}); }

    // The Vulkan device, GPA_Initialize and (if `openContext`) GPA_OpenContext.
    void Open(const EnvOptions& options, bool openContext = true) {
        std::string skip, failure;
        env_ = VulkanEnv::Create(options, &skip, &failure);
        if (!failure.empty()) FAIL() << failure;
        if (env_ == nullptr) GTEST_SKIP() << skip;
        info_ = GPA_vkContextOpenInfo{env_->instance, env_->physicalDevice, env_->device};
        ASSERT_GPA_OK(GPA_Initialize());
        initialized_ = true;
        if (openContext) {
            ASSERT_GPA_OK(GPA_OpenContext(&info_, GPA_OPENCONTEXT_DEFAULT_BIT));
        }
    }

    void TearDown() override {
        if (initialized_) {
            EXPECT_GPA_OK(GPA_Destroy());  // closes the context, destroying its VkGpaSessionAMDs
        }
        initialized_ = false;
        if (env_ == nullptr) return;
        work_.reset();
        env_->Close();
        EXPECT_TRUE(env_->ValidationMessages().empty()) << "the validation layer reported:\n" << Joined(env_->ValidationMessages());
    }

    static std::string Joined(const std::vector<std::string>& lines) {
        std::string text;
        for (const std::string& line : lines) text += line + "\n";
        return text;
    }

    VulkanEnv& env() { return *env_; }
    Workloads& work() {
        if (work_ == nullptr) work_ = std::make_unique<Workloads>(*env_, kWidth, kHeight);
        return *work_;
    }

    static gpa_uint32 Index(const char* name) {
        gpa_uint32 index = UINT32_MAX;
        EXPECT_GPA_OK(GPA_GetCounterIndex(name, &index)) << name;
        return index;
    }

    // One GPA session: for each pass a fresh command buffer, OGPA_SetCommandList, `record(commandBuffer,
    // sampleId)` for each sample id inside GPA_BeginSample/GPA_EndSample (inside a render pass when
    // `renderPass`), GPA_EndPass, then submission. Returns the session id (0 on failure).
    gpa_uint32 RecordSession(const std::vector<gpa_uint32>& samples, bool renderPass,
                             const std::function<void(VkCommandBuffer, gpa_uint32)>& record) {
        gpa_uint32 session = 0, passes = 0;
        EXPECT_GPA_OK(GPA_BeginSession(&session));
        EXPECT_GPA_OK(GPA_GetPassCount(&passes));
        for (gpa_uint32 pass = 0; pass < passes; ++pass) {
            EXPECT_GPA_OK(GPA_BeginPass());
            VkCommandBuffer cb = env().Begin();
            EXPECT_GPA_OK(OGPA_SetCommandList(cb));
            if (renderPass) work().BeginRenderPass(cb);
            for (gpa_uint32 sample : samples) {
                EXPECT_GPA_OK(GPA_BeginSample(sample));
                record(cb, sample);
                EXPECT_GPA_OK(GPA_EndSample());
            }
            if (renderPass) work().EndRenderPass(cb);
            EXPECT_GPA_OK(GPA_EndPass());
            env().Submit(cb);
        }
        EXPECT_GPA_OK(GPA_EndSession());
        env().WaitIdle();
        return session;
    }

    uint64_t UInt64(gpa_uint32 session, gpa_uint32 sample, const char* counter) {
        uint64_t value = 0;
        EXPECT_GPA_OK(GPA_GetSampleUInt64(session, sample, Index(counter), &value)) << counter;
        return value;
    }
    double Float64(gpa_uint32 session, gpa_uint32 sample, const char* counter) {
        double value = -1;
        EXPECT_GPA_OK(GPA_GetSampleFloat64(session, sample, Index(counter), &value)) << counter;
        return value;
    }

    std::unique_ptr<VulkanEnv> env_;
    std::unique_ptr<Workloads> work_;
    GPA_vkContextOpenInfo info_{};
    bool initialized_ = false;
};

inline bool IsLlvmpipe(const VulkanEnv& env) { return std::string(env.properties.deviceName).find("llvmpipe") != std::string::npos; }

}  // namespace ogpa::vktest
