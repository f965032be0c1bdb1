// The module-scope variables a kernel can write (__device__ globals), read from a cubin's ELF symbol table:
// data objects in the .nv.global sections (.nv.global: zero-initialised, .nv.global.init: initialised).
// Constant memory (.nv.constant*) cannot be written by kernels; shared and local memory do not outlive a
// launch. gpaprof's own replay saves and restores these variables (their addresses come from
// cuModuleGetGlobal / cuLibraryGetGlobal), because CUPTI's module-loaded callback gives the cubin but not
// where the driver placed it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpaprof::cuda {

struct CubinGlobal {
    std::string name;     // as the symbol table has it (cuModuleGetGlobal takes this name)
    uint64_t offset = 0;  // in its section
    uint64_t size = 0;    // bytes
};

// One writable data section of a cubin and the variables in it. The driver places a section as one block,
// so the address of any one variable gives the whole section (which also covers variables whose names
// cuModuleGetGlobal does not know, such as file-scope statics).
struct CubinDataSection {
    std::string name;  // ".nv.global" (zero-initialised) or ".nv.global.init" (initialised)
    uint64_t size = 0;
    std::vector<CubinGlobal> globals;
};

// What own replay needs of a cubin: its writable data sections (those of size 0 left out) and the functions it
// defines, kernels among them (a kernel writes its own module's variables by name; another module's only through an
// address the application asked for, which gpaprof sees: DeviceMemoryMap::GlobalSeen).
struct CubinContents {
    std::vector<CubinDataSection> sections;
    std::vector<std::string> functions;  // symbol names, as cuFuncGetName gives them
};

// nullopt with *problem when the image is not an ELF64 little-endian file or its tables are cut short.
std::optional<CubinContents> ReadCubinContents(const void* image, size_t size, std::string* problem);

}  // namespace gpaprof::cuda
