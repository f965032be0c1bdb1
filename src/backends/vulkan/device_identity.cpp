#include "backends/vulkan/device_identity.h"

namespace gpa::vk {

DeviceDescription DescribeDevice(const VkPhysicalDeviceProperties& properties) {
    DeviceDescription device;
    device.name = properties.deviceName;
    // PCI vendor ids are 16 bits; the ids Khronos assigns to vendors without one start at 0x10000.
    if (properties.vendorID <= 0xFFFF) device.deviceId = properties.deviceID;
    return device;
}

}  // namespace gpa::vk
