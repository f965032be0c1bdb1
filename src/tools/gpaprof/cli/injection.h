// How gpaprof gets into an application without changing it, one API part at a time:
//   OpenCL: the ICD loader loads libgpaprof_opencl_layer.so as a layer (OPENCL_LAYERS), and
//           libgpaprof_opencl_preload.so is preloaded (LD_PRELOAD) for loaders without layers (the CUDA
//           toolkit's libOpenCL.so.1); the first of the two to initialise the layer traces, the other passes
//           calls on. GPAPROF_OPENCL_INJECTION=layer|preload (in gpaprof's environment) uses one only.
//   CUDA:   the CUDA driver loads libgpaprof_cuda_injection.so at cuInit (CUDA_INJECTION64_PATH), and the
//           application's NVTX loads it too (NVTX_INJECTION64_PATH), for NVTX ranges as perf markers. The
//           library is built by the CUDA part of gpaprof; when it is not installed, gpaprof says so and
//           profiles OpenCL only.
// Each part adds variables to the application's environment. Both load libgpaprof_agent.so, which reads
// the configuration that GPAPROF_CONFIG names and writes the spool.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace gpaprof::cli {

struct InjectionPart {
    std::string api;        // "opencl", "cuda"
    std::string library;    // absolute path
    std::string preload;    // absolute path of a library to preload as well, when there is one
    bool available = false;
    std::string problem;    // why not, when unavailable
    std::string warning;    // what it will not reach although available (said before the run)
};

// Where gpaprof's libraries are: $GPAPROF_LIB_DIR, else <directory of the gpaprof executable>/../lib (the
// build tree), else the installed library directory relative to the executable (GPAPROF_INSTALLED_LIB_DIR).
std::string LibraryDirectory();

// The parts asked for (all when `apis` is empty), with what is missing.
std::vector<InjectionPart> FindInjectionParts(const std::string& libraryDirectory, const std::vector<std::string>& apis);

// Adds what the available parts need to `environment` (existing values are kept and extended where the
// variable is a list, e.g. OPENCL_LAYERS).
void AddInjectionEnvironment(const std::vector<InjectionPart>& parts, const std::string& agentLibrary,
                             const std::string& configPath, std::map<std::string, std::string>* environment,
                             std::vector<std::string>* warnings);

}  // namespace gpaprof::cli
