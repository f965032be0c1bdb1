// Which OpenCL ICD loader an application started by gpaprof would get, and whether it loads layers. gpaprof's
// OpenCL part reaches a program through the loader's layers (OPENCL_LAYERS) and through its preload shim; where the
// shim is off (GPAPROF_OPENCL_INJECTION=layer, or a platform the shim is not built for) and the loader has no layers
// (the CUDA toolkit's libOpenCL.so.1), no OpenCL call would be recorded, so gpaprof says so before the run.
#pragma once

#include <string>

namespace gpaprof::cli {

// The path of the libOpenCL.so.1 the dynamic linker finds from here (gpaprof's LD_LIBRARY_PATH and cache, which the
// application inherits), empty where there is none. Opens it without calling it (a loader reads its ICDs on its first
// call, not when loaded).
std::string FindIcdLoader();

// Whether the loader at `path` reads OPENCL_LAYERS: the variable's name is in its file where it does (the Khronos
// loader and ocl-icd), not where it does not. False for a file that cannot be read.
bool IcdLoaderReadsLayers(const std::string& path);

}  // namespace gpaprof::cli
