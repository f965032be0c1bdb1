// What the tests that load the built OpenCL layer as the ICD loader would share: this process made a profiled one
// (its agent configuration and spool in a scratch directory), then the layer's clInitLayer.
#pragma once

#include <cstdlib>
#include <fstream>
#include <string>

#include <dlfcn.h>

#include "tools/gpaprof/opencl/cl_headers.h"
#include "tools/gpaprof/spool/agent_config.h"

namespace gpaprof::test {

using InitLayer = cl_int (*)(cl_uint, const cl_icd_dispatch*, cl_uint*, const cl_icd_dispatch**);

// Makes this process a traced one, its files under a new directory named from `scratchPrefix` (set in *scratch),
// and returns the layer's clInitLayer, or nullptr with the reason in *problem.
inline InitLayer LoadTracingLayer(const std::string& scratchPrefix, std::string* scratch, std::string* problem) {
    std::string pattern = scratchPrefix + "XXXXXX";
    if (!mkdtemp(pattern.data())) {
        *problem = "mkdtemp failed";
        return nullptr;
    }
    *scratch = pattern;
    AgentConfig config;
    config.trace = true;
    config.spoolDirectory = *scratch;
    config.outputTemplate = *scratch + "/out";
    const std::string configPath = *scratch + "/config";
    std::ofstream(configPath) << config.Serialize();
    setenv(kConfigEnv, configPath.c_str(), 1);
    void* layer = dlopen(GPAPROF_OPENCL_LAYER, RTLD_NOW | RTLD_LOCAL);
    if (!layer) {
        *problem = dlerror();
        return nullptr;
    }
    auto init = reinterpret_cast<InitLayer>(dlsym(layer, "clInitLayer"));
    if (!init) *problem = "the layer has no clInitLayer";
    return init;
}

}  // namespace gpaprof::test
