// What GPA_GetDeviceDesc and GPA_GetDeviceID report for a GL context: GL_RENDERER, and the PCI device id where
// EGL names the display's DRM device (EGL_EXT_device_query + EGL_EXT_device_drm: /dev/dri/cardN, whose sysfs entry
// has the id). Software renderers (llvmpipe) and GLX contexts have no honest id: none is reported.
#pragma once

#include <optional>
#include <string>

#include "backends/gl/gl_functions.h"
#include "core/backend.h"

namespace gpa::gl {

// "/dev/dri/card1" -> "/sys/class/drm/card1/device/device"; nullopt when the path is not a DRM card node.
std::optional<std::string> SysfsDeviceIdFile(const std::string& drmDeviceFile);

DeviceDescription DescribeDevice(const GlFunctions& gl);

}  // namespace gpa::gl
