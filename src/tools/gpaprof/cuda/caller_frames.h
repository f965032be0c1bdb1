// --sym on CUDA: the application frame that called a CUDA function. CUPTI calls gpaprof from inside the
// driver, so the stack holds, from the top: gpaprof, CUPTI, the driver, then the CUDA runtime, which nvcc
// links into the application statically by default. The runtime's frames are recognised by their symbols
// (cuda*, __cuda*, cudart::*, nvcc's __device_stub_* launch stubs and the kernels' host wrappers that call
// them, read from the module's ELF symbol table)
// and skipped too, so that the frame recorded is the application's own code.
#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "tools/gpaprof/spool/spool_records.h"

namespace gpaprof::cuda {

// Whether a function name belongs to the CUDA runtime or to nvcc's launch glue.
bool IsCudaRuntimeSymbol(const std::string& name);

// The host function that calls nvcc's launch stub `name` ("_Z24__device_stub__Z6kernelPfPf" -> "_Z6kernelPf");
// empty when `name` is no launch stub.
std::string KernelOfLaunchStub(const std::string& name);

// The address range [begin, end) of the function `name` in an ELF file (relative like CudaRuntimeRanges);
// {0, 0} when the file does not define it.
std::pair<uint64_t, uint64_t> FunctionRange(const std::string& path, const std::string& name);

// Address ranges [begin, end) of the runtime's functions in an ELF file, relative to its load base when
// `relative` (position-independent files); absolute otherwise.
std::vector<std::pair<uint64_t, uint64_t>> CudaRuntimeRanges(const std::string& path, bool* relative);

class CallerLocator {
public:
    // Modules whose frames are never the caller, by an address inside them or a part of their file name.
    void SkipModuleOf(const void* address);
    void SkipModuleNamed(std::string part);

    // The caller of the current CUDA call (`skipSymbol`: a host function that is not the caller either, such
    // as the kernel's own host stub), as a spool record without thread and index.
    std::optional<spool::SourceRecord> Locate(const std::string& apiName, const std::string& skipSymbol);

    // Whether the current CUDA call was made by the CUDA runtime (its static copy in the application, or
    // libcudart.so) rather than by the application: the driver calls the runtime makes while it starts.
    bool CalledByCudaRuntime();
    // Whether a module whose file path `matches` is among the callers of the current CUDA call (anywhere on the
    // stack: a library may reach the driver through the runtime).
    bool CalledFromModule(bool (*matches)(std::string_view path));
    // Whether a module whose file path `matches` is loaded in the process: a scan of the loaded objects, made
    // again only after the dynamic linker has loaded more (so that a call can afford to ask before a stack walk).
    bool ModuleLoaded(bool (*matches)(std::string_view path));
    // The file names of the modules on the stack, outermost last, each once in a row (GPAPROF_CUDA_DEBUG=memory).
    static std::string ModulesOnStack();

private:
    struct Module {
        bool skipped = false;
        bool runtime = false;  // the CUDA runtime's own shared library
        bool relative = true;
        std::string path;
        std::vector<std::pair<uint64_t, uint64_t>> runtimeRanges;
        std::unordered_map<std::string, std::pair<uint64_t, uint64_t>> namedRanges;  // looked up by name, cached
    };
    Module& ModuleAt(uintptr_t base, const char* path);
    static bool InRanges(const std::vector<std::pair<uint64_t, uint64_t>>& ranges, uint64_t address);

    std::mutex mutex_;
    unsigned long long scannedAdds_ = 0;  // ModuleLoaded: the dynamic linker's count of loaded objects at the last scan
    bool (*scannedFor_)(std::string_view) = nullptr;
    bool scannedLoaded_ = false;
    std::vector<uintptr_t> skippedBases_;
    std::vector<std::string> skippedNames_;
    std::unordered_map<uintptr_t, Module> modules_;
};

}  // namespace gpaprof::cuda
