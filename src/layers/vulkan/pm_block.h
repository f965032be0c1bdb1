// OpenGPA's block of NVIDIA metrics from device-level PM sampling, VK_GPA_PERF_BLOCK_PM_SAMPLING_OPENGPA
// (docs/vulkan_layer.md, "The PM-sampling block"). Offered on a device whose GPU DeviceSampling samples
// (pm_sampling/device_sampling.h: NVIDIA, CUDA and CUPTI present, the chip has PM sampling, no other profiler holds
// it) and whose driver calibrates its timestamps against CLOCK_MONOTONIC (VK_KHR/EXT_calibrated_timestamps): the
// samples' windows are the GPU timestamps the layer writes, put on the PM samples' clock. Elsewhere it is absent,
// and absentReason says why (also in trace samples' refusals).
//
// Built where CUPTI's headers are (CMake option OPENGPA_LAYER_PM_SAMPLING); without them the block is never offered.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "layers/vulkan/gpu_clock_conversion.h"
#include "vulkan/vk_amd_gpa_interface.h"

namespace gpa::pm_sampling {
class DeviceSampling;
}

namespace ogpa::vklayer {

struct InstanceData;
struct DeviceData;

struct PmBlockSupport {
    bool examined = false;
    std::shared_ptr<gpa::pm_sampling::DeviceSampling> sampling;  // null: the block is not offered
    std::string absentReason;
    std::string calibrationExtension;  // VK_KHR_calibrated_timestamps or VK_EXT_calibrated_timestamps
    std::vector<std::string> metrics;  // the events, in event id order (DeviceSampling::metrics())
    uint64_t intervalNs = 0;
    std::string chip;
    bool offered() const { return sampling != nullptr; }
};

// Looks at `physicalDevice` (its vendor, UUID and time domains), then starts (or joins) the sampling of its GPU.
// `extensions` are the device extensions below the layer.
PmBlockSupport ExaminePmBlock(InstanceData* instance, VkPhysicalDevice physicalDevice, uint32_t vendorId,
                              const uint8_t (&uuid)[VK_UUID_SIZE], const std::vector<VkExtensionProperties>& extensions);

// The block as VkPhysicalDeviceGpaPropertiesAMD lists it.
VkGpaPerfBlockPropertiesAMD PmBlockProperties(const PmBlockSupport& pm);

// The block's events (name = the metric; unit; storage float64).
std::vector<VkGpaPerfEventPropertiesOPENGPA> DescribePmEvents(const DeviceData& device);

// Pairs the device's timestamp with CLOCK_MONOTONIC now; `validBits` of the queue family that wrote the timestamps.
VkResult CalibrateGpuClock(const DeviceData& device, uint32_t validBits, GpuClockCalibration* calibration,
                           std::string* problem);

}  // namespace ogpa::vklayer
