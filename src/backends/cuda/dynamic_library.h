// A shared library opened at run time (dlopen), so that OpenGPA's CUDA pieces load and report a clear
// reason on machines without the NVIDIA driver or CUPTI instead of failing to start.
#pragma once

#include <string>
#include <vector>

namespace gpa::cuda {

class DynamicLibrary {
public:
    DynamicLibrary() = default;
    DynamicLibrary(const DynamicLibrary&) = delete;
    DynamicLibrary& operator=(const DynamicLibrary&) = delete;
    // NVIDIA's libraries are never unloaded: they keep threads and callbacks alive until the process ends.
    ~DynamicLibrary() = default;

    // Tries each candidate (a soname or a path) in order; on failure *error lists why each one failed.
    bool Open(const std::vector<std::string>& candidates, std::string* error);
    bool IsOpen() const { return handle_ != nullptr; }
    const std::string& path() const { return path_; }  // the candidate that opened

    void* Symbol(const char* name) const;

private:
    void* handle_ = nullptr;
    std::string path_;
};

}  // namespace gpa::cuda
