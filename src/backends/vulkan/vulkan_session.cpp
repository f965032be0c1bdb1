#include "backends/vulkan/vulkan_session.h"

#include <limits>
#include <algorithm>
#include <bit>
#include <chrono>
#include <cstdlib>
#include <string>
#include <thread>

#include "backends/vulkan/vulkan_counters.h"

namespace gpa::vk {

namespace {

Outcome Failed(const GpaInterface& gpa, const char* call, VkResult result) {
    return Fail(GPA_STATUS_ERROR_FAILED, gpa.Failure(call, result));
}

std::string PassName(uint32_t pass) { return "pass " + std::to_string(pass); }

}  // namespace

double ResultTimeoutSeconds() {
    if (const char* text = std::getenv("OPENGPA_VK_RESULT_TIMEOUT_S")) {
        char* end = nullptr;
        const double seconds = std::strtod(text, &end);
        if (end != text && seconds > 0) return seconds;
    }
    return 60.0;
}

VulkanSession::VulkanSession(const DeviceProfile& profile, CommandListState& commandList, PassPlan plan)
    : profile_(profile), commandList_(commandList), plan_(std::move(plan)) {
    passes_.resize(plan_.passCount);
    for (uint32_t p = 0; p < plan_.passCount && p < plan_.passes.size(); ++p) {
        Pass& pass = passes_[p];
        pass.hardwareCounters = plan_.passes[p];
        for (uint32_t counter : pass.hardwareCounters) {
            if (counter == kTimingCounter) pass.timing = true;
            else pass.events.push_back(profile_.events.at(counter - 1));
        }
    }
}

VulkanSession::~VulkanSession() {
    // The extension forbids destroying a session the device may still write: give pending work a moment.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
    while (!IsReady() && std::chrono::steady_clock::now() < deadline) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    for (Pass& pass : passes_) {
        if (pass.session != VK_NULL_HANDLE) profile_.gpa.DestroyGpaSession(profile_.gpa.device, pass.session, nullptr);
    }
}

Outcome VulkanSession::BeginPass(uint32_t pass) {
    VkGpaSessionCreateInfoAMD info{};
    info.sType = VK_STRUCTURE_TYPE_GPA_SESSION_CREATE_INFO_AMD;
    const VkResult result = profile_.gpa.CreateGpaSession(profile_.gpa.device, &info, nullptr, &passes_.at(pass).session);
    return result == VK_SUCCESS ? Outcome::Ok() : Failed(profile_.gpa, "vkCreateGpaSessionAMD", result);
}

Outcome VulkanSession::BeginSample(uint32_t passIndex, uint32_t sampleId) {
    Pass& pass = passes_.at(passIndex);
    const VkCommandBuffer commandBuffer = commandList_.commandBuffer;
    if (commandBuffer == VK_NULL_HANDLE) {
        return Fail(GPA_STATUS_ERROR_FAILED, "no command buffer to record the sample into: call "
                                             "OGPA_SetCommandList((void*)commandBuffer) first (GPUPerfAPI-Vk.h)");
    }
    if (pass.ended) return Fail(GPA_STATUS_ERROR_FAILED, PassName(passIndex) + " has ended");
    if (!pass.begun) {
        const VkResult result = profile_.gpa.CmdBeginGpaSession(commandBuffer, pass.session);
        if (result != VK_SUCCESS) return Failed(profile_.gpa, "vkCmdBeginGpaSessionAMD", result);
        pass.begun = true;
    }
    VkGpaSampleBeginInfoAMD info{};
    info.sType = VK_STRUCTURE_TYPE_GPA_SAMPLE_BEGIN_INFO_AMD;
    if (pass.timing) {
        info.sampleType = VK_GPA_SAMPLE_TYPE_TIMING_AMD;
        info.timingPreSample = VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT;
        info.timingPostSample = VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT;
    } else {
        info.sampleType = VK_GPA_SAMPLE_TYPE_CUMULATIVE_AMD;
        info.cacheFlushOnCounterCollection = VK_TRUE;
        info.perfCounterCount = static_cast<uint32_t>(pass.events.size());
        info.pPerfCounters = pass.events.data();
    }
    uint32_t extensionId = 0;
    const VkResult result = profile_.gpa.CmdBeginGpaSample(commandBuffer, pass.session, &info, &extensionId);
    if (result != VK_SUCCESS) return Failed(profile_.gpa, "vkCmdBeginGpaSampleAMD", result);
    pass.samples[sampleId] = extensionId;
    commandList_.cumulativeSampleOpen = !pass.timing;
    return Outcome::Ok();
}

Outcome VulkanSession::EndSample(uint32_t passIndex, uint32_t sampleId) {
    Pass& pass = passes_.at(passIndex);
    auto it = pass.samples.find(sampleId);
    if (it == pass.samples.end()) return Fail(GPA_STATUS_ERROR_FAILED, "internal error: sample " + std::to_string(sampleId) + " was not begun");
    profile_.gpa.CmdEndGpaSample(commandList_.commandBuffer, pass.session, it->second);
    commandList_.cumulativeSampleOpen = false;
    return Outcome::Ok();
}

Outcome VulkanSession::EndPass(uint32_t passIndex) {
    Pass& pass = passes_.at(passIndex);
    pass.ended = true;
    if (!pass.begun) return Outcome::Ok();  // no sample: nothing was recorded
    if (commandList_.commandBuffer == VK_NULL_HANDLE) {
        return Fail(GPA_STATUS_ERROR_FAILED, "no command buffer to end " + PassName(passIndex) + " in");
    }
    const VkResult result = profile_.gpa.CmdEndGpaSession(commandList_.commandBuffer, pass.session);
    return result == VK_SUCCESS ? Outcome::Ok() : Failed(profile_.gpa, "vkCmdEndGpaSessionAMD", result);
}

Outcome VulkanSession::End() { return Outcome::Ok(); }

bool VulkanSession::IsReady() {
    return std::all_of(passes_.begin(), passes_.end(), [&](const Pass& pass) {
        // A failure is "ready" too: reading the results reports it.
        return !pass.begun || profile_.gpa.GetGpaSessionStatus(profile_.gpa.device, pass.session) != VK_NOT_READY;
    });
}

Outcome VulkanSession::WaitUntilReady() {
    const double timeout = ResultTimeoutSeconds();
    const auto start = std::chrono::steady_clock::now();
    auto pause = std::chrono::microseconds(50);
    for (uint32_t p = 0; p < passes_.size(); ++p) {
        const Pass& pass = passes_[p];
        if (!pass.begun) continue;
        for (;;) {
            const VkResult status = profile_.gpa.GetGpaSessionStatus(profile_.gpa.device, pass.session);
            if (status == VK_SUCCESS) break;
            if (status != VK_NOT_READY) return Failed(profile_.gpa, "vkGetGpaSessionStatusAMD", status);
            if (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > timeout) {
                return Fail(GPA_STATUS_ERROR_FAILED,
                            "the results of " + PassName(p) + " were not ready after " + std::to_string(timeout) +
                                " s: submit the command buffers the session recorded into (vkQueueSubmit) and let them "
                                "complete; OPENGPA_VK_RESULT_TIMEOUT_S sets how long to wait");
            }
            std::this_thread::sleep_for(pause);
            pause = std::min(pause * 2, std::chrono::microseconds(10000));
        }
    }
    return Outcome::Ok();
}

Outcome VulkanSession::SampleResults(const Pass& pass, uint32_t sampleId, std::vector<uint64_t>* results) const {
    auto it = pass.samples.find(sampleId);
    if (it == pass.samples.end()) return Fail(GPA_STATUS_ERROR_FAILED, "sample " + std::to_string(sampleId) + " was not recorded");
    size_t size = 0;
    // OpenGPA's layer answers VK_NOT_READY while the PM samples of a sample's window are not decoded yet (it waits
    // up to 1 s per call): asked again until the results timeout.
    const auto start = std::chrono::steady_clock::now();
    VkResult result = VK_NOT_READY;
    for (;;) {
        result = profile_.gpa.GetGpaSessionResults(profile_.gpa.device, pass.session, it->second, &size, nullptr);
        if (result != VK_NOT_READY ||
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > ResultTimeoutSeconds()) {
            break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    if (result != VK_SUCCESS) return Failed(profile_.gpa, "vkGetGpaSessionResultsAMD", result);
    results->assign(size / sizeof(uint64_t), 0);
    result = profile_.gpa.GetGpaSessionResults(profile_.gpa.device, pass.session, it->second, &size, results->data());
    if (result != VK_SUCCESS) return Failed(profile_.gpa, "vkGetGpaSessionResultsAMD", result);
    const size_t expected = pass.timing ? 2 : pass.events.size();
    if (results->size() != expected) {
        return Fail(GPA_STATUS_ERROR_FAILED, "vkGetGpaSessionResultsAMD gave " + std::to_string(results->size()) +
                                                 " values for sample " + std::to_string(sampleId) + ", expected " +
                                                 std::to_string(expected));
    }
    return Outcome::Ok();
}

Outcome VulkanSession::ReadSample(uint32_t sampleId, std::vector<double>* values) {
    std::vector<uint64_t> results;
    for (uint32_t p = 0; p < passes_.size(); ++p) {
        const Pass& pass = passes_[p];
        if (pass.hardwareCounters.empty()) continue;
        if (Outcome o = SampleResults(pass, sampleId, &results); !o.ok()) return o;
        if (pass.timing) {
            if (results[1] < results[0]) {
                return Fail(GPA_STATUS_ERROR_FAILED, "the end timestamp of sample " + std::to_string(sampleId) +
                                                         " is before its begin timestamp");
            }
            (*values)[kTimingCounter] = static_cast<double>(results[1] - results[0]) * profile_.nanosecondsPerTick;
            continue;
        }
        for (size_t i = 0; i < pass.hardwareCounters.size(); ++i) {
            const uint32_t counter = pass.hardwareCounters[i];
            const std::optional<double> value = DecodeResult(results[i], profile_.encodings.at(counter - 1));
            if (!value) {
                // NaN: the counters computed from it fail to read with this reason; the others read as usual.
                std::string reason = "the layer has no value of hardware counter " + std::to_string(counter) +
                                     " (a PM. counter) for sample " + std::to_string(sampleId) +
                                     ": the PM samples of its GPU time window were refused or do not integrate it";
                if (profile_.gpa.GetLastMessage != nullptr) {
                    const char* message = profile_.gpa.GetLastMessage(profile_.gpa.device);
                    if (message != nullptr && message[0] != '\0') reason += std::string(" (the layer: ") + message + ")";
                }
                missingWhy_[sampleId] = reason;
                (*values)[counter] = std::numeric_limits<double>::quiet_NaN();
                continue;
            }
            (*values)[counter] = *value;
        }
    }
    return Outcome::Ok();
}

std::string VulkanSession::MissingValueReason(uint32_t sampleId) {
    const auto it = missingWhy_.find(sampleId);
    return it == missingWhy_.end() ? std::string() : it->second;
}

}  // namespace gpa::vk
