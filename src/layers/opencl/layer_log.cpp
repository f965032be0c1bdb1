#include "layers/opencl/layer_log.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace gpa::cl_layer {

bool LogEnabled() {
    static const bool enabled = [] {
        const char* value = std::getenv("OPENGPA_CL_LAYER_LOG");
        return value && *value && std::strcmp(value, "0") != 0;
    }();
    return enabled;
}

void Log(const std::string& message) {
    if (LogEnabled()) std::fprintf(stderr, "opengpa-cl-layer: %s\n", message.c_str());
}

}  // namespace gpa::cl_layer
