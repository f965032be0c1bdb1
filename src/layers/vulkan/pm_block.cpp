#include "layers/vulkan/pm_block.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "layers/vulkan/layer_state.h"
#include "layers/vulkan/pm_test_source.h"
#include "pm_sampling/device_sampling.h"
#include "pm_sampling/sample_window.h"

namespace ogpa::vklayer {

namespace {

constexpr uint32_t kNvidiaVendorId = 0x10DE;
constexpr const char* kKhrCalibrated = "VK_KHR_calibrated_timestamps";
constexpr const char* kExtCalibrated = "VK_EXT_calibrated_timestamps";

bool Lists(const std::vector<VkExtensionProperties>& extensions, const char* name) {
    return std::any_of(extensions.begin(), extensions.end(),
                       [&](const VkExtensionProperties& e) { return std::strcmp(e.extensionName, name) == 0; });
}

[[maybe_unused]] std::string Hex(uint32_t value) {
    char text[16];
    std::snprintf(text, sizeof text, "0x%X", value);
    return text;
}

// Whether the driver pairs device timestamps with CLOCK_MONOTONIC; the extension that does, or why none.
bool MonotonicCalibration(InstanceData* instance, VkPhysicalDevice physicalDevice,
                          const std::vector<VkExtensionProperties>& extensions, std::string* extension, std::string* why) {
    // The EXT first where the driver has both (NVIDIA's 580 does): layers older than the KHR's promotion (the
    // Khronos validation layer of Vulkan SDK 1.3.239, measured on an H200, 2026-11-28) warn that they do not know
    // VK_KHR_calibrated_timestamps on every device the layer enables it on.
    if (Lists(extensions, kExtCalibrated)) {
        *extension = kExtCalibrated;
    } else if (Lists(extensions, kKhrCalibrated)) {
        *extension = kKhrCalibrated;
    } else {
        *why = "the driver has neither VK_KHR_calibrated_timestamps nor VK_EXT_calibrated_timestamps, needed to put the "
               "samples' GPU timestamps on the PM samples' clock (CLOCK_MONOTONIC)";
        return false;
    }
    const auto domains = instance->next.GetPhysicalDeviceCalibrateableTimeDomains;
    if (domains == nullptr) {
        *why = "the instance does not give vkGetPhysicalDeviceCalibrateableTimeDomainsKHR/EXT";
        return false;
    }
    uint32_t count = 0;
    std::vector<VkTimeDomainEXT> found;
    if (domains(physicalDevice, &count, nullptr) == VK_SUCCESS && count > 0) {
        found.resize(count);
        if (domains(physicalDevice, &count, found.data()) < 0) count = 0;
        found.resize(count);
    }
    const bool device = std::find(found.begin(), found.end(), VK_TIME_DOMAIN_DEVICE_EXT) != found.end();
    const bool monotonic = std::find(found.begin(), found.end(), VK_TIME_DOMAIN_CLOCK_MONOTONIC_EXT) != found.end();
    if (!device || !monotonic) {
        *why = "the driver's " + *extension + " does not calibrate the device's timestamps against CLOCK_MONOTONIC";
        return false;
    }
    return true;
}

VkPerformanceCounterUnitKHR UnitOf(const std::string& metric) {
    if (metric.find("bytes") != std::string::npos) return VK_PERFORMANCE_COUNTER_UNIT_BYTES_KHR;
    if (metric.find("pct_of_peak") != std::string::npos) return VK_PERFORMANCE_COUNTER_UNIT_PERCENTAGE_KHR;
    return VK_PERFORMANCE_COUNTER_UNIT_GENERIC_KHR;
}

void Copy(char (&to)[VK_MAX_DESCRIPTION_SIZE], const std::string& from) {
    const size_t length = std::min<size_t>(from.size(), VK_MAX_DESCRIPTION_SIZE - 1);
    std::memcpy(to, from.data(), length);
    to[length] = '\0';
}

}  // namespace

PmBlockSupport ExaminePmBlock(InstanceData* instance, VkPhysicalDevice physicalDevice, uint32_t vendorId,
                              const uint8_t (&uuid)[VK_UUID_SIZE], const std::vector<VkExtensionProperties>& extensions) {
    PmBlockSupport pm;
    pm.examined = true;
    if (std::shared_ptr<gpa::pm_sampling::DeviceSampling> fake = PmTestSource()) {  // the test hook, never otherwise
        if (!MonotonicCalibration(instance, physicalDevice, extensions, &pm.calibrationExtension, &pm.absentReason)) return pm;
        pm.sampling = fake;
        pm.metrics = fake->metrics();
        pm.intervalNs = fake->intervalNs();
        pm.chip = fake->chip();
        return pm;
    }
#ifndef OPENGPA_LAYER_PM_SAMPLING
    static_cast<void>(instance), static_cast<void>(physicalDevice), static_cast<void>(vendorId), static_cast<void>(uuid),
        static_cast<void>(extensions);
    pm.absentReason = "the layer was built without CUPTI's headers (CMake option OPENGPA_LAYER_PM_SAMPLING OFF), so it "
                      "has no PM sampling";
    return pm;
#else
    if (const char* off = std::getenv("OPENGPA_VK_PM_SAMPLING"); off != nullptr && std::strcmp(off, "0") == 0) {
        pm.absentReason = "OPENGPA_VK_PM_SAMPLING=0 turned PM sampling off";
        return pm;
    }
    if (vendorId != kNvidiaVendorId) {
        pm.absentReason = "not an NVIDIA GPU (vendorID " + Hex(vendorId) + "): PM sampling is NVIDIA's, through CUPTI";
        return pm;
    }
    std::array<uint8_t, 16> id{};
    std::memcpy(id.data(), uuid, id.size());
    if (std::all_of(id.begin(), id.end(), [](uint8_t b) { return b == 0; })) {
        pm.absentReason = "the device's UUID is not known (VkPhysicalDeviceIDProperties needs an instance of Vulkan 1.1 "
                          "or later), so the CUDA device that is this GPU cannot be found";
        return pm;
    }
    if (!MonotonicCalibration(instance, physicalDevice, extensions, &pm.calibrationExtension, &pm.absentReason)) return pm;
    std::shared_ptr<gpa::pm_sampling::DeviceSampling> sampling;
    const gpa::Outcome started = gpa::pm_sampling::DeviceSampling::ForDevice(id, {}, &sampling);
    if (!started.ok()) {
        pm.absentReason = started.reason();
        return pm;
    }
    pm.sampling = sampling;
    pm.metrics = sampling->metrics();
    pm.intervalNs = sampling->intervalNs();
    pm.chip = sampling->chip();
    return pm;
#endif
}

VkGpaPerfBlockPropertiesAMD PmBlockProperties(const PmBlockSupport& pm) {
    VkGpaPerfBlockPropertiesAMD block{};
    block.blockType = VK_GPA_PERF_BLOCK_PM_SAMPLING_OPENGPA;
    block.instanceCount = 1;
    const uint32_t events = static_cast<uint32_t>(pm.metrics.size());
    block.maxEventID = events - 1;
    // The sampler reads every metric of the set in every sample: any subset, cumulative or streaming, at once.
    block.maxGlobalOnlyCounters = events;
    block.maxGlobalSharedCounters = events;
    block.maxStreamingCounters = events;
    return block;
}

std::vector<VkGpaPerfEventPropertiesOPENGPA> DescribePmEvents(const DeviceData& device) {
    std::vector<VkGpaPerfEventPropertiesOPENGPA> events;
    if (!device.pm.offered()) return events;
    uint32_t families = 0;
    for (uint32_t i = 0; i < device.queueFamilies.size() && i < 32; ++i) {
        if (device.queueFamilies[i].timestampValidBits > 0) families |= 1u << i;
    }
    for (uint32_t id = 0; id < device.pm.metrics.size(); ++id) {
        const std::string& metric = device.pm.metrics[id];
        VkGpaPerfEventPropertiesOPENGPA event{};
        event.blockType = VK_GPA_PERF_BLOCK_PM_SAMPLING_OPENGPA;
        event.eventID = id;
        Copy(event.name, metric);
        Copy(event.category, "NVIDIA PM sampling (" + device.pm.chip + ", device-wide)");
        const bool sum = gpa::pm_sampling::IntegrationOf(metric) == gpa::pm_sampling::Integration::Sum;
        Copy(event.description, std::string(sum ? "Sum over the sample's time" : "Mean over the sample's time") +
                                    " of the GPU's PM samples (every " + std::to_string(device.pm.intervalNs / 1000) +
                                    " us, all work on the GPU)");
        event.unit = UnitOf(metric);
        event.storage = VK_PERFORMANCE_COUNTER_STORAGE_FLOAT64_KHR;
        event.scope = VK_PERFORMANCE_COUNTER_SCOPE_COMMAND_KHR;
        event.queueFamilyMask = families;
        events.push_back(event);
    }
    return events;
}

VkResult CalibrateGpuClock(const DeviceData& device, uint32_t validBits, GpuClockCalibration* calibration,
                           std::string* problem) {
    if (device.getCalibratedTimestamps == nullptr) {
        *problem = "the device has no vkGetCalibratedTimestampsKHR/EXT";
        return VK_ERROR_FEATURE_NOT_PRESENT;
    }
    VkCalibratedTimestampInfoEXT infos[2] = {};
    infos[0].sType = VK_STRUCTURE_TYPE_CALIBRATED_TIMESTAMP_INFO_EXT;
    infos[0].timeDomain = VK_TIME_DOMAIN_DEVICE_EXT;
    infos[1].sType = VK_STRUCTURE_TYPE_CALIBRATED_TIMESTAMP_INFO_EXT;
    infos[1].timeDomain = VK_TIME_DOMAIN_CLOCK_MONOTONIC_EXT;
    uint64_t timestamps[2] = {};
    uint64_t deviation = 0;
    const VkResult result = device.getCalibratedTimestamps(device.handle, 2, infos, timestamps, &deviation);
    if (result != VK_SUCCESS) {
        *problem = "vkGetCalibratedTimestamps failed with VkResult " + std::to_string(result);
        return result;
    }
    calibration->gpuTicks = timestamps[0];
    calibration->monotonicNs = timestamps[1];
    calibration->periodNs = device.timestampPeriod;
    calibration->validBits = validBits;
    calibration->maxDeviationNs = deviation;
    return VK_SUCCESS;
}

}  // namespace ogpa::vklayer
