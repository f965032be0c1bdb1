#include "tools/gpaprof/cuda/waiting_kernels.h"

namespace gpaprof::cuda {

WaitingKernels::WaitingKernels(const char* pattern, std::string* error) {
    if (!pattern || !*pattern) return;
    try {
        pattern_.emplace(pattern, std::regex::ECMAScript | std::regex::optimize);
    } catch (const std::regex_error& e) {
        if (error) *error = std::string("GPAPROF_CUDA_WAITING_KERNELS=") + pattern + " is not a regular expression (" + e.what() + "): ignored";
    }
}

bool WaitingKernels::Waits(const std::string& kernelName) const {
    // NCCL names its kernels ncclDevKernel_<collective>_... (2.19 and later) or ncclKernel_... (earlier); both
    // may come mangled (_Z...ncclDevKernel_...).
    if (kernelName.find("ncclDevKernel_") != std::string::npos || kernelName.find("ncclKernel_") != std::string::npos) {
        return true;
    }
    return pattern_ && std::regex_search(kernelName, *pattern_);
}

}  // namespace gpaprof::cuda
