// The twelve functions of VK_AMD_gpa_interface as the layer implements them, and the layer's own functions
// that describe events: each checks its handles and arguments (a refusal returns an error VkResult, or for
// void functions records nothing, and says why in a message), then hands the work to the session
// (gpa_session.h), the device's clocks (clock_control.h) or the event tables (counter_blocks.h,
// khr_performance_counters.h).
#include <algorithm>
#include <cstring>
#include <mutex>
#include <type_traits>

#include "layers/vulkan/clock_control.h"
#include "layers/vulkan/gpa_session.h"
#include "layers/vulkan/khr_sample_plan.h"
#include "layers/vulkan/layer_hooks.h"
#include "layers/vulkan/layer_messages.h"
#include "layers/vulkan/profiling_lock.h"

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

void CopyName(char (&to)[VK_MAX_DESCRIPTION_SIZE], const char* from) {
    const size_t length = strnlen(from, VK_MAX_DESCRIPTION_SIZE - 1);
    std::memcpy(to, from, length);
    to[length] = '\0';
}

// Bit i: queue family i has `flags` (any of them).
uint32_t FamiliesWith(const DeviceData& device, VkQueueFlags flags) {
    uint32_t mask = 0;
    for (uint32_t i = 0; i < device.queueFamilies.size() && i < 32; ++i) {
        if ((device.queueFamilies[i].flags & flags) != 0) mask |= 1u << i;
    }
    return mask;
}

// The events of `block` on `device`, in event id order (empty when the block is not offered).
std::vector<VkGpaPerfEventPropertiesOPENGPA> DescribeEvents(const DeviceData& device, VkGpaPerfBlockAMD block) {
    std::vector<VkGpaPerfEventPropertiesOPENGPA> events;
    if (block == VK_GPA_PERF_BLOCK_PM_SAMPLING_OPENGPA) return DescribePmEvents(device);
    if (block == VK_GPA_PERF_BLOCK_KHR_PERFORMANCE_QUERY_OPENGPA) {
        for (uint32_t id = 0; id < device.khr.counters.size(); ++id) {
            const KhrCounter& counter = device.khr.counters[id];
            VkGpaPerfEventPropertiesOPENGPA event{};
            event.blockType = block;
            event.eventID = id;
            CopyName(event.name, counter.description.name);
            CopyName(event.category, counter.description.category);
            CopyName(event.description, counter.description.description);
            event.unit = counter.counter.unit;
            event.storage = counter.counter.storage;
            event.scope = counter.counter.scope;
            for (uint32_t family = 0; family < counter.indexInFamily.size() && family < 32; ++family) {
                if (counter.indexInFamily[family] != kNotInFamily) event.queueFamilyMask |= 1u << family;
            }
            std::memcpy(event.uuid, counter.counter.uuid, VK_UUID_SIZE);
            events.push_back(event);
        }
        return events;
    }
    for (const EventDefinition& definition : AllEvents()) {
        if (definition.block != block || !FindEvent(device.counters, block, definition.eventId)) continue;
        VkGpaPerfEventPropertiesOPENGPA event{};
        event.blockType = block;
        event.eventID = definition.eventId;
        CopyName(event.name, definition.name);
        CopyName(event.category, definition.source == EventSource::kOcclusion ? "Vulkan occlusion query" : "Vulkan pipeline statistics query");
        CopyName(event.description, definition.description);
        event.unit = VK_PERFORMANCE_COUNTER_UNIT_GENERIC_KHR;
        event.storage = VK_PERFORMANCE_COUNTER_STORAGE_UINT64_KHR;
        event.scope = VK_PERFORMANCE_COUNTER_SCOPE_COMMAND_KHR;
        event.queueFamilyMask = FamiliesWith(device, definition.needsGraphicsQueue ? VK_QUEUE_GRAPHICS_BIT
                                                                                   : VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT);
        events.push_back(event);
    }
    return events;
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
        AcquireProfilingLock(*data, kName);  // if another holder kept it from vkCreateDevice
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

VKAPI_ATTR VkResult VKAPI_CALL EnumerateGpaPerfEventsOPENGPA(VkDevice device, VkGpaPerfBlockAMD blockType, uint32_t* pEventCount,
                                                             VkGpaPerfEventPropertiesOPENGPA* pEvents) {
    constexpr const char* kName = "vkEnumerateGpaPerfEventsOPENGPA";
    return Guarded([&]() -> VkResult {
        DeviceData* data = EnabledDevice(kName, device);
        if (data == nullptr) return VK_ERROR_VALIDATION_FAILED_EXT;
        if (pEventCount == nullptr) return Refuse(data->instance, VK_ERROR_VALIDATION_FAILED_EXT, std::string(kName) + ": pEventCount is NULL");
        const std::vector<VkGpaPerfEventPropertiesOPENGPA> events = DescribeEvents(*data, blockType);
        if (events.empty()) {
            const std::string why = blockType == VK_GPA_PERF_BLOCK_KHR_PERFORMANCE_QUERY_OPENGPA ? " (" + data->khr.absentReason + ")"
                                    : blockType == VK_GPA_PERF_BLOCK_PM_SAMPLING_OPENGPA     ? " (" + data->pm.absentReason + ")"
                                                                                              : "";
            return Refuse(data->instance, VK_ERROR_FEATURE_NOT_PRESENT,
                          std::string(kName) + ": this device does not offer block " + std::to_string(static_cast<int>(blockType)) +
                              why + "; VkPhysicalDeviceGpaPropertiesAMD lists the blocks it offers");
        }
        if (pEvents == nullptr) {
            *pEventCount = static_cast<uint32_t>(events.size());
            return VK_SUCCESS;
        }
        const uint32_t written = std::min<uint32_t>(*pEventCount, static_cast<uint32_t>(events.size()));
        std::copy(events.begin(), events.begin() + written, pEvents);
        *pEventCount = written;
        return written < events.size() ? VK_INCOMPLETE : VK_SUCCESS;
    });
}

VKAPI_ATTR VkResult VKAPI_CALL GetGpaPerfEventPassCountOPENGPA(VkDevice device, uint32_t queueFamilyIndex, uint32_t counterCount,
                                                               const VkGpaPerfCounterAMD* pCounters, uint32_t* pPassCount) {
    constexpr const char* kName = "vkGetGpaPerfEventPassCountOPENGPA";
    return Guarded([&]() -> VkResult {
        DeviceData* data = EnabledDevice(kName, device);
        if (data == nullptr) return VK_ERROR_VALIDATION_FAILED_EXT;
        if (pPassCount == nullptr || (counterCount > 0 && pCounters == nullptr) || queueFamilyIndex >= data->queueFamilies.size()) {
            return Refuse(data->instance, VK_ERROR_VALIDATION_FAILED_EXT,
                          std::string(kName) + ": pPassCount must not be NULL, pCounters must hold counterCount counters, and "
                                               "queueFamilyIndex must be a queue family of the device");
        }
        KhrSamplePlan plan(queueFamilyIndex);
        for (uint32_t i = 0; i < counterCount; ++i) {
            if (pCounters[i].blockType != VK_GPA_PERF_BLOCK_KHR_PERFORMANCE_QUERY_OPENGPA) continue;  // queries: no passes of their own
            std::string problem;
            uint32_t position = 0;
            const VkResult result = AddKhrEvent(*data, pCounters[i], "pCounters[" + std::to_string(i) + "]", &plan, &position, &problem);
            if (result != VK_SUCCESS) return Conclude(kName, data, result, problem);
        }
        *pPassCount = PassCount(*data, plan);
        return VK_SUCCESS;
    });
}

}  // namespace ogpa::vklayer
