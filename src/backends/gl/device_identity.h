// What GPA_GetDeviceDesc and GPA_GetDeviceID report for a GL context: GL_RENDERER, and the PCI device id where
// EGL names the display's DRM device (EGL_EXT_device_query + EGL_EXT_device_drm: /dev/dri/cardN, whose sysfs entry
// has the id). Where EGL names none (NVIDIA's driver in a container without /dev/dri), an NVIDIA context (GL_VENDOR)
// takes the id every NVIDIA display controller in /sys/bus/pci/devices shares, when they all share one. Software
// renderers (llvmpipe) and GLX contexts otherwise have no honest id: none is reported.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "backends/gl/gl_functions.h"
#include "core/backend.h"

namespace gpa::gl {

// "/dev/dri/card1" -> "/sys/class/drm/card1/device/device"; nullopt when the path is not a DRM card node.
std::optional<std::string> SysfsDeviceIdFile(const std::string& drmDeviceFile);

// One PCI function as sysfs describes it.
struct PciFunction {
    uint32_t vendor = 0;     // .../vendor
    uint32_t classCode = 0;  // .../class (0x030000 VGA, 0x030200 3D controller)
    uint32_t device = 0;     // .../device
};
// The device id all of `vendor`'s display controllers (class 0x03xxxx) share; nullopt when there is none or they differ.
std::optional<uint32_t> SoleDisplayDeviceId(const std::vector<PciFunction>& functions, uint32_t vendor);

DeviceDescription DescribeDevice(const GlFunctions& gl);

}  // namespace gpa::gl
