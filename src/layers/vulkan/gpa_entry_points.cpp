// The twelve functions of VK_AMD_gpa_interface as the layer implements them: each checks its handles and
// arguments (a refusal returns an error VkResult, or for void functions records nothing, and says why in a
// message), then hands the work to the session (gpa_session.h) or the device's clocks (clock_control.h).
#include <mutex>
#include <type_traits>

#include "layers/vulkan/clock_control.h"
#include "layers/vulkan/gpa_session.h"
#include "layers/vulkan/layer_hooks.h"
#include "layers/vulkan/layer_messages.h"

namespace ogpa::vklayer {

namespace {

LayerState& State() { return LayerState::Get(); }

// Runs `body` under the layer's lock, then delivers its messages.
template <typename Body>
auto Guarded(Body&& body) {
    using Result = decltype(body());
    if constexpr (std::is_void_v<Result>) {
        {
            std::lock_guard<std::recursive_mutex> lock(State().mutex);
            body();
        }
        FlushMessages();
    } else {
        Result result;
        {
            std::lock_guard<std::recursive_mutex> lock(State().mutex);
            result = body();
        }
        FlushMessages();
        return result;
    }
}

// The device of a device-level call, or NULL after reporting why there is none.
DeviceData* EnabledDevice(const char* function, VkDevice device) {
    DeviceData* data = State().FindDevice(device);
    if (data == nullptr) {
        Report(nullptr, Severity::kError, std::string(function) + ": device is VK_NULL_HANDLE or not a device created with the layer");
        return nullptr;
    }
    if (!data->gpaEnabled) {
        Report(data->instance, Severity::kError,
               std::string(function) + ": VK_AMD_gpa_interface was not enabled on this device; add it to "
                                       "VkDeviceCreateInfo::ppEnabledExtensionNames");
        return nullptr;
    }
    return data;
}

struct Recording {
    DeviceData* device = nullptr;
    CommandBufferInfo* buffer = nullptr;
};

// The device and recording state of a command buffer, or {} after reporting why there are none.
Recording RecordingOf(const char* function, VkCommandBuffer commandBuffer) {
    if (commandBuffer == VK_NULL_HANDLE) {
        Report(nullptr, Severity::kError, std::string(function) + ": commandBuffer is VK_NULL_HANDLE");
        return {};
    }
    DeviceData* device = EnabledDevice(function, reinterpret_cast<VkDevice>(commandBuffer));
    if (device == nullptr) return {};
    auto it = device->commandBuffers.find(commandBuffer);
    if (it == device->commandBuffers.end()) {
        Report(device->instance, Severity::kError,
               std::string(function) + ": commandBuffer was not allocated with vkAllocateCommandBuffers on this device "
                                       "(or was freed)");
        return {};
    }
    return {device, &it->second};
}

GpaSession* SessionOf(const char* function, DeviceData* device, VkGpaSessionAMD session) {
    GpaSession* found = State().FindSession(device, session);
    if (found == nullptr) {
        Report(device->instance, Severity::kError,
               std::string(function) + ": gpaSession (" + std::to_string(reinterpret_cast<uint64_t>(session)) +
                   ") is not a VkGpaSessionAMD of this device: VK_NULL_HANDLE, destroyed, or created on another device");
    }
    return found;
}

// Reports `problem` prefixed with the function when `result` is an error (or VK_INCOMPLETE, already reported).
VkResult Conclude(const char* function, DeviceData* device, VkResult result, const std::string& problem) {
    if (result < 0) Report(device->instance, Severity::kError, std::string(function) + ": " + problem);
    return result;
}

}  // namespace

VKAPI_ATTR VkResult VKAPI_CALL CreateGpaSessionAMD(VkDevice device, const VkGpaSessionCreateInfoAMD* pCreateInfo,
                                                   const VkAllocationCallbacks*, VkGpaSessionAMD* pGpaSession) {
    constexpr const char* kName = "vkCreateGpaSessionAMD";
    return Guarded([&]() -> VkResult {
        DeviceData* data = EnabledDevice(kName, device);
        if (data == nullptr) return VK_ERROR_VALIDATION_FAILED_EXT;
        if (pCreateInfo == nullptr || pCreateInfo->sType != VK_STRUCTURE_TYPE_GPA_SESSION_CREATE_INFO_AMD || pGpaSession == nullptr) {
            return Refuse(data->instance, VK_ERROR_VALIDATION_FAILED_EXT,
                          std::string(kName) + ": pCreateInfo must point to a VkGpaSessionCreateInfoAMD "
                                               "(sType VK_STRUCTURE_TYPE_GPA_SESSION_CREATE_INFO_AMD) and pGpaSession must not be NULL");
        }
        const uint64_t handle = State().nextSessionHandle++;
        auto session = std::make_unique<GpaSession>(*data, handle);
        if (pCreateInfo->secondaryCopySource != VK_NULL_HANDLE) {
            GpaSession* source = SessionOf(kName, data, pCreateInfo->secondaryCopySource);
            if (source == nullptr) return VK_ERROR_VALIDATION_FAILED_EXT;
            std::string problem;
            const VkResult result = session->MakeCopyTarget(*source, &problem);
            if (result != VK_SUCCESS) return Conclude(kName, data, result, problem);
        }
        State().sessions.emplace(handle, std::move(session));
        *pGpaSession = reinterpret_cast<VkGpaSessionAMD>(handle);
        return VK_SUCCESS;
    });
}

VKAPI_ATTR void VKAPI_CALL DestroyGpaSessionAMD(VkDevice device, VkGpaSessionAMD gpaSession, const VkAllocationCallbacks*) {
    Guarded([&] {
        DeviceData* data = EnabledDevice("vkDestroyGpaSessionAMD", device);
        if (data == nullptr || gpaSession == VK_NULL_HANDLE) return;
        if (SessionOf("vkDestroyGpaSessionAMD", data, gpaSession) != nullptr) {
            State().sessions.erase(reinterpret_cast<uint64_t>(gpaSession));
        }
    });
}

VKAPI_ATTR VkResult VKAPI_CALL SetGpaDeviceClockModeAMD(VkDevice device, VkGpaDeviceClockModeInfoAMD* pInfo) {
    constexpr const char* kName = "vkSetGpaDeviceClockModeAMD";
    return Guarded([&]() -> VkResult {
        DeviceData* data = EnabledDevice(kName, device);
        if (data == nullptr) return VK_ERROR_VALIDATION_FAILED_EXT;
        if (pInfo == nullptr || pInfo->sType != VK_STRUCTURE_TYPE_GPA_DEVICE_CLOCK_MODE_INFO_AMD) {
            return Refuse(data->instance, VK_ERROR_VALIDATION_FAILED_EXT,
                          std::string(kName) + ": pInfo must point to a VkGpaDeviceClockModeInfoAMD "
                                               "(sType VK_STRUCTURE_TYPE_GPA_DEVICE_CLOCK_MODE_INFO_AMD)");
        }
        const bool setsClocks = pInfo->clockMode != VK_GPA_DEVICE_CLOCK_MODE_DEFAULT_AMD &&
                                pInfo->clockMode != VK_GPA_DEVICE_CLOCK_MODE_QUERY_AMD;
        if (setsClocks && data->gpaFeaturesGiven && data->gpaFeatures.clockModes != VK_TRUE) {
            return Refuse(data->instance, VK_ERROR_VALIDATION_FAILED_EXT,
                          std::string(kName) + ": the device was created with VkPhysicalDeviceGpaFeaturesAMD::clockModes "
                                               "VK_FALSE, so clock modes cannot be set");
        }
        std::string problem;
        return Conclude(kName, data, data->clocks->SetMode(pInfo, &problem), problem);
    });
}

VKAPI_ATTR VkResult VKAPI_CALL GetGpaDeviceClockInfoAMD(VkDevice device, VkGpaDeviceGetClockInfoAMD* pInfo) {
    constexpr const char* kName = "vkGetGpaDeviceClockInfoAMD";
    return Guarded([&]() -> VkResult {
        DeviceData* data = EnabledDevice(kName, device);
        if (data == nullptr) return VK_ERROR_VALIDATION_FAILED_EXT;
        if (pInfo == nullptr || pInfo->sType != VK_STRUCTURE_TYPE_GPA_DEVICE_GET_CLOCK_INFO_AMD) {
            return Refuse(data->instance, VK_ERROR_VALIDATION_FAILED_EXT,
                          std::string(kName) + ": pInfo must point to a VkGpaDeviceGetClockInfoAMD "
                                               "(sType VK_STRUCTURE_TYPE_GPA_DEVICE_GET_CLOCK_INFO_AMD)");
        }
        std::string problem;
        return Conclude(kName, data, data->clocks->GetInfo(pInfo, &problem), problem);
    });
}

VKAPI_ATTR VkResult VKAPI_CALL CmdBeginGpaSessionAMD(VkCommandBuffer commandBuffer, VkGpaSessionAMD gpaSession) {
    constexpr const char* kName = "vkCmdBeginGpaSessionAMD";
    return Guarded([&]() -> VkResult {
        Recording recording = RecordingOf(kName, commandBuffer);
        if (recording.device == nullptr) return VK_ERROR_VALIDATION_FAILED_EXT;
        GpaSession* session = SessionOf(kName, recording.device, gpaSession);
        if (session == nullptr) return VK_ERROR_VALIDATION_FAILED_EXT;
        std::string problem;
        return Conclude(kName, recording.device, session->Begin(&problem), problem);
    });
}

VKAPI_ATTR VkResult VKAPI_CALL CmdEndGpaSessionAMD(VkCommandBuffer commandBuffer, VkGpaSessionAMD gpaSession) {
    constexpr const char* kName = "vkCmdEndGpaSessionAMD";
    return Guarded([&]() -> VkResult {
        Recording recording = RecordingOf(kName, commandBuffer);
        if (recording.device == nullptr) return VK_ERROR_VALIDATION_FAILED_EXT;
        GpaSession* session = SessionOf(kName, recording.device, gpaSession);
        if (session == nullptr) return VK_ERROR_VALIDATION_FAILED_EXT;
        std::string problem;
        return Conclude(kName, recording.device, session->End(&problem), problem);
    });
}

VKAPI_ATTR VkResult VKAPI_CALL CmdBeginGpaSampleAMD(VkCommandBuffer commandBuffer, VkGpaSessionAMD gpaSession,
                                                    const VkGpaSampleBeginInfoAMD* pGpaSampleBeginInfo, uint32_t* pSampleID) {
    constexpr const char* kName = "vkCmdBeginGpaSampleAMD";
    return Guarded([&]() -> VkResult {
        Recording recording = RecordingOf(kName, commandBuffer);
        if (recording.device == nullptr) return VK_ERROR_VALIDATION_FAILED_EXT;
        GpaSession* session = SessionOf(kName, recording.device, gpaSession);
        if (session == nullptr) return VK_ERROR_VALIDATION_FAILED_EXT;
        const InstanceData* instance = recording.device->instance;
        if (pGpaSampleBeginInfo == nullptr || pGpaSampleBeginInfo->sType != VK_STRUCTURE_TYPE_GPA_SAMPLE_BEGIN_INFO_AMD ||
            pSampleID == nullptr) {
            return Refuse(instance, VK_ERROR_VALIDATION_FAILED_EXT,
                          std::string(kName) + ": pGpaSampleBeginInfo must point to a VkGpaSampleBeginInfoAMD "
                                               "(sType VK_STRUCTURE_TYPE_GPA_SAMPLE_BEGIN_INFO_AMD) and pSampleID must not be NULL");
        }
        if (pGpaSampleBeginInfo->sampleType == VK_GPA_SAMPLE_TYPE_CUMULATIVE_AMD && recording.device->gpaFeaturesGiven &&
            recording.device->gpaFeatures.perfCounters != VK_TRUE) {
            return Refuse(instance, VK_ERROR_VALIDATION_FAILED_EXT,
                          std::string(kName) + ": the device was created with VkPhysicalDeviceGpaFeaturesAMD::perfCounters "
                                               "VK_FALSE, so cumulative samples cannot be recorded");
        }
        std::string problem;
        const VkResult result =
            session->BeginSample(commandBuffer, *recording.buffer, *pGpaSampleBeginInfo, pSampleID, &problem);
        return Conclude(kName, recording.device, result, problem);
    });
}

VKAPI_ATTR void VKAPI_CALL CmdEndGpaSampleAMD(VkCommandBuffer commandBuffer, VkGpaSessionAMD gpaSession, uint32_t sampleID) {
    constexpr const char* kName = "vkCmdEndGpaSampleAMD";
    Guarded([&] {
        Recording recording = RecordingOf(kName, commandBuffer);
        if (recording.device == nullptr) return;
        GpaSession* session = SessionOf(kName, recording.device, gpaSession);
        if (session == nullptr) return;
        std::string problem;
        Conclude(kName, recording.device, session->EndSample(commandBuffer, *recording.buffer, sampleID, &problem), problem);
    });
}

VKAPI_ATTR VkResult VKAPI_CALL GetGpaSessionStatusAMD(VkDevice device, VkGpaSessionAMD gpaSession) {
    constexpr const char* kName = "vkGetGpaSessionStatusAMD";
    return Guarded([&]() -> VkResult {
        DeviceData* data = EnabledDevice(kName, device);
        if (data == nullptr) return VK_ERROR_VALIDATION_FAILED_EXT;
        GpaSession* session = SessionOf(kName, data, gpaSession);
        if (session == nullptr) return VK_ERROR_VALIDATION_FAILED_EXT;
        std::string problem;
        return Conclude(kName, data, session->Status(&problem), problem);
    });
}

VKAPI_ATTR VkResult VKAPI_CALL GetGpaSessionResultsAMD(VkDevice device, VkGpaSessionAMD gpaSession, uint32_t sampleID,
                                                       size_t* pSizeInBytes, void* pData) {
    constexpr const char* kName = "vkGetGpaSessionResultsAMD";
    return Guarded([&]() -> VkResult {
        DeviceData* data = EnabledDevice(kName, device);
        if (data == nullptr) return VK_ERROR_VALIDATION_FAILED_EXT;
        GpaSession* session = SessionOf(kName, data, gpaSession);
        if (session == nullptr) return VK_ERROR_VALIDATION_FAILED_EXT;
        std::string problem;
        return Conclude(kName, data, session->Results(sampleID, pSizeInBytes, pData, &problem), problem);
    });
}

VKAPI_ATTR VkResult VKAPI_CALL ResetGpaSessionAMD(VkDevice device, VkGpaSessionAMD gpaSession) {
    constexpr const char* kName = "vkResetGpaSessionAMD";
    return Guarded([&]() -> VkResult {
        DeviceData* data = EnabledDevice(kName, device);
        if (data == nullptr) return VK_ERROR_VALIDATION_FAILED_EXT;
        GpaSession* session = SessionOf(kName, data, gpaSession);
        if (session == nullptr) return VK_ERROR_VALIDATION_FAILED_EXT;
        std::string problem;
        return Conclude(kName, data, session->Reset(&problem), problem);
    });
}

VKAPI_ATTR void VKAPI_CALL CmdCopyGpaSessionResultsAMD(VkCommandBuffer commandBuffer, VkGpaSessionAMD gpaSession) {
    constexpr const char* kName = "vkCmdCopyGpaSessionResultsAMD";
    Guarded([&] {
        Recording recording = RecordingOf(kName, commandBuffer);
        if (recording.device == nullptr) return;
        GpaSession* session = SessionOf(kName, recording.device, gpaSession);
        if (session == nullptr) return;
        std::string problem;
        Conclude(kName, recording.device, session->RecordCopy(commandBuffer, *recording.buffer, &problem), problem);
    });
}

VKAPI_ATTR const char* VKAPI_CALL GetGpaInterfaceLastMessageOPENGPA(VkDevice) { return LastMessage(); }

}  // namespace ogpa::vklayer
