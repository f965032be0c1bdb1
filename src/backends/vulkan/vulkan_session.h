// One GPA session on Vulkan: one VkGpaSessionAMD per pass. The pass's VkGpaSessionAMD begins in the command
// buffer of its first sample and ends, at GPA_EndPass, in the command buffer named last with
// OGPA_SetCommandList (so GPA_EndPass comes before that command buffer's vkEndCommandBuffer). Each GPA sample
// is one VK_AMD_gpa_interface sample: a timing sample in the GPUTime pass, a cumulative sample of the pass's
// events otherwise. Results are read once the extension says the session is ready (the application submitted
// the command buffers and they completed).
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "backends/vulkan/vulkan_context.h"
#include "core/backend.h"

namespace gpa::vk {

class VulkanSession : public BackendSession {
public:
    VulkanSession(const DeviceProfile& profile, CommandListState& commandList, PassPlan plan);
    ~VulkanSession() override;
    VulkanSession(const VulkanSession&) = delete;
    VulkanSession& operator=(const VulkanSession&) = delete;

    Outcome BeginPass(uint32_t pass) override;
    Outcome EndPass(uint32_t pass) override;
    Outcome BeginSample(uint32_t pass, uint32_t sampleId) override;
    Outcome EndSample(uint32_t pass, uint32_t sampleId) override;
    Outcome End() override;

    bool IsReady() override;
    Outcome WaitUntilReady() override;
    Outcome ReadSample(uint32_t sampleId, std::vector<double>* values) override;
    std::string MissingValueReason(uint32_t sampleId) override;

private:
    std::map<uint32_t, std::string> missingWhy_;  // samples whose PM counters have no value, and why
    struct Pass {
        VkGpaSessionAMD session = VK_NULL_HANDLE;
        bool begun = false;  // vkCmdBeginGpaSessionAMD recorded
        bool ended = false;
        bool timing = false;
        std::vector<uint32_t> hardwareCounters;  // the pass's counters, in the order of pPerfCounters
        std::vector<VkGpaPerfCounterAMD> events;
        std::map<uint32_t, uint32_t> samples;  // GPA sample id -> VK_AMD_gpa_interface sample id
    };

    Outcome SampleResults(const Pass& pass, uint32_t sampleId, std::vector<uint64_t>* results) const;

    const DeviceProfile& profile_;
    CommandListState& commandList_;
    const PassPlan plan_;
    std::vector<Pass> passes_;
};

// How long GPA_GetSample* waits for results before it reports that they did not come:
// OPENGPA_VK_RESULT_TIMEOUT_S seconds (default 60).
double ResultTimeoutSeconds();

}  // namespace gpa::vk
