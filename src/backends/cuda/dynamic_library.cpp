#include "backends/cuda/dynamic_library.h"

#include <dlfcn.h>

namespace gpa::cuda {

bool DynamicLibrary::Open(const std::vector<std::string>& candidates, std::string* error) {
    std::string failures;
    for (const std::string& candidate : candidates) {
        void* handle = dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (handle != nullptr) {
            handle_ = handle;
            path_ = candidate;
            return true;
        }
        const char* why = dlerror();
        failures += (failures.empty() ? "" : "; ") + std::string(why != nullptr ? why : candidate + ": not loadable");
    }
    if (error != nullptr) *error = failures;
    return false;
}

void* DynamicLibrary::Symbol(const char* name) const {
    return handle_ != nullptr ? dlsym(handle_, name) : nullptr;
}

}  // namespace gpa::cuda
