// Small typed wrappers over the clGet*Info queries the backend makes.
#pragma once

#include <string>
#include <vector>

#include "backends/opencl/cl_headers.h"

namespace gpa::cl {

// A variable-size clGet*Info query (size first, then the value) into raw bytes.
template <typename Query, typename Object, typename Name>
cl_int QueryBytes(Query query, Object object, Name name, std::vector<unsigned char>* bytes) {
    size_t size = 0;
    cl_int error = query(object, name, 0, nullptr, &size);
    if (error != CL_SUCCESS) return error;
    bytes->assign(size, 0);
    if (size == 0) return CL_SUCCESS;
    return query(object, name, size, bytes->data(), nullptr);
}

// A string device query ("" when the query fails).
std::string DeviceString(cl_device_id device, cl_device_info query);

// Whether `name` is one of the space-separated CL_DEVICE_EXTENSIONS of the device.
bool HasExtension(cl_device_id device, const char* name);

// The major.minor of an OpenCL version string ("OpenCL 3.0 PoCL ..."); 0.0 when it has none.
struct Version {
    int major = 0;
    int minor = 0;
    bool AtLeast(int wantMajor, int wantMinor) const {
        return major > wantMajor || (major == wantMajor && minor >= wantMinor);
    }
};
Version ParseVersion(const std::string& text);

}  // namespace gpa::cl
