// GPA_GetDeviceID / GPA_GetDeviceDesc on Vulkan: the device's name, and its PCI device id where the vendor
// is a PCI vendor (Khronos-assigned vendor ids, such as Mesa's 0x10005 for lavapipe, have no PCI id).
#pragma once

#include <vulkan/vulkan.h>

#include "core/backend.h"

namespace gpa::vk {

DeviceDescription DescribeDevice(const VkPhysicalDeviceProperties& properties);

}  // namespace gpa::vk
