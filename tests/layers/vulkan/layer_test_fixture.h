// The fixture of the layer's tests: a device with VK_AMD_gpa_interface from VK_LAYER_OPENGPA_gpa_interface,
// validated by the Khronos validation layer below it; every test ends with no validation message. The
// extension's functions are called as a tool written for the extension calls them.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "vulkan_test_env.h"
#include "vulkan_workloads.h"

namespace ogpa::vktest {

inline constexpr VkGpaPerfCounterAMD kIAVertices{VK_GPA_PERF_BLOCK_IA_AMD, 0, 0};
inline constexpr VkGpaPerfCounterAMD kIAPrimitives{VK_GPA_PERF_BLOCK_IA_AMD, 0, 1};
inline constexpr VkGpaPerfCounterAMD kVSInvocations{VK_GPA_PERF_BLOCK_VGT_AMD, 0, 0};
inline constexpr VkGpaPerfCounterAMD kGSInvocations{VK_GPA_PERF_BLOCK_VGT_AMD, 0, 1};
inline constexpr VkGpaPerfCounterAMD kGSPrimitives{VK_GPA_PERF_BLOCK_VGT_AMD, 0, 2};
inline constexpr VkGpaPerfCounterAMD kHSPatches{VK_GPA_PERF_BLOCK_VGT_AMD, 0, 3};
inline constexpr VkGpaPerfCounterAMD kDSInvocations{VK_GPA_PERF_BLOCK_VGT_AMD, 0, 4};
inline constexpr VkGpaPerfCounterAMD kCInvocations{VK_GPA_PERF_BLOCK_PA_AMD, 0, 0};
inline constexpr VkGpaPerfCounterAMD kCPrimitives{VK_GPA_PERF_BLOCK_PA_AMD, 0, 1};
inline constexpr VkGpaPerfCounterAMD kPSInvocations{VK_GPA_PERF_BLOCK_SPI_AMD, 0, 0};
inline constexpr VkGpaPerfCounterAMD kCSInvocations{VK_GPA_PERF_BLOCK_SPI_AMD, 0, 1};
inline constexpr VkGpaPerfCounterAMD kSamplesPassed{VK_GPA_PERF_BLOCK_DB_AMD, 0, 0};

inline VkGpaSampleBeginInfoAMD TimingSample(VkPipelineStageFlags pre = VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
                                            VkPipelineStageFlags post = VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT) {
    VkGpaSampleBeginInfoAMD info{};
    info.sType = VK_STRUCTURE_TYPE_GPA_SAMPLE_BEGIN_INFO_AMD;
    info.sampleType = VK_GPA_SAMPLE_TYPE_TIMING_AMD;
    info.timingPreSample = pre;
    info.timingPostSample = post;
    return info;
}

// `counters` must outlive the returned structure's use.
inline VkGpaSampleBeginInfoAMD CumulativeSample(const std::vector<VkGpaPerfCounterAMD>& counters) {
    VkGpaSampleBeginInfoAMD info{};
    info.sType = VK_STRUCTURE_TYPE_GPA_SAMPLE_BEGIN_INFO_AMD;
    info.sampleType = VK_GPA_SAMPLE_TYPE_CUMULATIVE_AMD;
    info.cacheFlushOnCounterCollection = VK_TRUE;
    info.perfCounterCount = static_cast<uint32_t>(counters.size());
    info.pPerfCounters = counters.data();
    return info;
}

// Mesa's CPU driver (lavapipe), whose fragment shader invocation statistic is coarse (see the tests).
inline bool IsLlvmpipe(const VulkanEnv& env) { return std::string(env.properties.deviceName).find("llvmpipe") != std::string::npos; }

class LayerTest : public ::testing::Test {
protected:
    void SetUp() override { Open(EnvOptions{}); }

    void Open(const EnvOptions& options) {
        std::string skip, failure;
        env_ = VulkanEnv::Create(options, &skip, &failure);
        if (!failure.empty()) FAIL() << failure;
        if (env_ == nullptr) GTEST_SKIP() << skip;
    }

    void TearDown() override {
        if (env_ == nullptr) return;
        for (VkGpaSessionAMD session : sessions_) env_->gpa.DestroyGpaSession(env_->device, session, nullptr);
        sessions_.clear();
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
    const GpaFunctions& gpa() { return env_->gpa; }
    Workloads& work() {
        if (work_ == nullptr) work_ = std::make_unique<Workloads>(*env_, kWidth, kHeight);
        return *work_;
    }

    // A session destroyed at the end of the test.
    VkGpaSessionAMD NewSession(VkGpaSessionAMD copySource = VK_NULL_HANDLE) {
        VkGpaSessionCreateInfoAMD info{};
        info.sType = VK_STRUCTURE_TYPE_GPA_SESSION_CREATE_INFO_AMD;
        info.secondaryCopySource = copySource;
        VkGpaSessionAMD session = VK_NULL_HANDLE;
        EXPECT_EQ(gpa().CreateGpaSession(env_->device, &info, nullptr, &session), VK_SUCCESS) << LastMessage();
        if (session != VK_NULL_HANDLE) sessions_.push_back(session);
        return session;
    }

    std::string LastMessage() { return gpa().GetLastMessage ? gpa().GetLastMessage(env_->device) : "(no layer)"; }

    // The status once the queue is idle.
    VkResult StatusAfterIdle(VkGpaSessionAMD session) {
        vkQueueWaitIdle(env_->queue);
        return gpa().GetGpaSessionStatus(env_->device, session);
    }

    std::vector<uint64_t> Results(VkGpaSessionAMD session, uint32_t sampleId) {
        std::vector<uint64_t> values;
        EXPECT_EQ(ReadResults(*env_, session, sampleId, &values), VK_SUCCESS) << LastMessage();
        return values;
    }

    static constexpr uint32_t kWidth = 64, kHeight = 48;

    std::unique_ptr<VulkanEnv> env_;
    std::unique_ptr<Workloads> work_;
    std::vector<VkGpaSessionAMD> sessions_;
};

}  // namespace ogpa::vktest
