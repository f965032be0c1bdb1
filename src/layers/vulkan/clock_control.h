// Clock information and clock modes of a device, from where the device's clocks can be read:
//  - NVIDIA GPUs: NVML (libnvidia-ml.so.1, loaded at run time), the GPU found by its Vulkan device UUID.
//    Setting a mode other than DEFAULT locks the graphics (or memory) clock with NVML, which needs the
//    permission to change clocks (root, and a GPU that allows it); without it the mode is refused.
//  - CPU devices (lavapipe): the CPU's current and maximum frequency (cpufreq, or /proc/cpuinfo); no modes.
//  - anything else: no clock source; clock information is refused.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "vulkan/vk_amd_gpa_interface.h"

namespace ogpa::vklayer {

struct PhysicalDeviceSupport;
struct NvmlDevice;

class ClockControl {
public:
    static std::shared_ptr<ClockControl> For(const PhysicalDeviceSupport& support);
    ~ClockControl();

    // VkPhysicalDeviceGpaFeaturesAMD::clockModes: modes other than DEFAULT and QUERY can be attempted.
    bool CanSetModes() const;
    const char* SourceName() const;

    // vkGetGpaDeviceClockInfoAMD. On failure, *problem says why.
    VkResult GetInfo(VkGpaDeviceGetClockInfoAMD* info, std::string* problem);
    // vkSetGpaDeviceClockModeAMD: QUERY fills the two ratios; DEFAULT undoes what the layer set.
    VkResult SetMode(VkGpaDeviceClockModeInfoAMD* info, std::string* problem);

private:
    ClockControl() = default;
    struct Reading {
        uint32_t engineMHz = 0, memoryMHz = 0;        // 0: unknown
        uint32_t engineMaxMHz = 0, memoryMaxMHz = 0;  // 0: unknown
    };
    bool Read(Reading* reading, std::string* problem);
    VkResult LockNvml(VkGpaDeviceClockModeAMD mode, std::string* problem);

    enum class Source { kNone, kNvml, kCpu } source_ = Source::kNone;
    std::string noSourceReason_;
    std::unique_ptr<NvmlDevice> nvml_;
    bool graphicsLocked_ = false;
    bool memoryLocked_ = false;
};

}  // namespace ogpa::vklayer
