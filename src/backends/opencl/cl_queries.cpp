#include "backends/opencl/cl_queries.h"

#include <cstdio>
#include <sstream>

namespace gpa::cl {

std::string DeviceString(cl_device_id device, cl_device_info query) {
    std::vector<unsigned char> bytes;
    if (QueryBytes(clGetDeviceInfo, device, query, &bytes) != CL_SUCCESS) return {};
    std::string text(bytes.begin(), bytes.end());
    while (!text.empty() && (text.back() == '\0' || text.back() == ' ')) text.pop_back();
    return text;
}

bool HasExtension(cl_device_id device, const char* name) {
    std::istringstream extensions(DeviceString(device, CL_DEVICE_EXTENSIONS));
    std::string extension;
    while (extensions >> extension) {
        if (extension == name) return true;
    }
    return false;
}

Version ParseVersion(const std::string& text) {
    Version version;
    if (std::sscanf(text.c_str(), "OpenCL %d.%d", &version.major, &version.minor) != 2) return {};
    return version;
}

}  // namespace gpa::cl
