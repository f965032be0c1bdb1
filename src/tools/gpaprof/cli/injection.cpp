#include "tools/gpaprof/cli/injection.h"

#include <climits>
#include <cstdlib>

#include <dlfcn.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
extern "C" void __asan_init();
#endif

#include "tools/gpaprof/cli/icd_loader.h"
#include "tools/gpaprof/spool/agent_config.h"

namespace gpaprof::cli {
namespace {

bool Readable(const std::string& path) { return access(path.c_str(), R_OK) == 0; }

std::string Directory(const std::string& path) {
    const size_t slash = path.rfind('/');
    return slash == std::string::npos ? std::string(".") : path.substr(0, slash);
}

// The sanitizer runtime this gpaprof was built with (then so were the applications of its tests), which must
// be the first library of a process; empty in a normal build.
std::string SanitizerRuntime() {
#if defined(__SANITIZE_ADDRESS__)
    Dl_info info;
    if (dladdr(reinterpret_cast<const void*>(&__asan_init), &info) && info.dli_fname) return info.dli_fname;
#endif
    return {};
}

}  // namespace

std::string LibraryDirectory() {
    if (const char* custom = std::getenv("GPAPROF_LIB_DIR"); custom && *custom) return custom;
    char executable[PATH_MAX];
    const ssize_t length = readlink("/proc/self/exe", executable, sizeof executable - 1);
    if (length <= 0) return "lib";
    executable[length] = '\0';
    std::string candidate = Directory(Directory(executable)) + "/lib";  // the build tree: bin/ and lib/
#ifdef GPAPROF_INSTALLED_LIB_DIR
    // Installed: GNUInstallDirs' library directory relative to bin/ (../lib/x86_64-linux-gnu on Debian's /usr).
    const std::string installed = GPAPROF_INSTALLED_LIB_DIR;
    const std::string installedCandidate =
        installed.front() == '/' ? installed : Directory(executable) + "/" + installed;
    if (!Readable(candidate + "/libgpaprof_agent.so") && Readable(installedCandidate + "/libgpaprof_agent.so"))
        candidate = installedCandidate;
#endif
    char resolved[PATH_MAX];
    return realpath(candidate.c_str(), resolved) ? std::string(resolved) : candidate;
}

std::vector<InjectionPart> FindInjectionParts(const std::string& libraryDirectory, const std::vector<std::string>& apis) {
    std::vector<InjectionPart> parts;
    auto wanted = [&](const char* api) {
        if (apis.empty()) return true;
        for (const std::string& name : apis) {
            if (name == api) return true;
        }
        return false;
    };
    if (wanted("opencl")) {
        InjectionPart part;
        part.api = "opencl";
        part.library = libraryDirectory + "/libgpaprof_opencl_layer.so";
        part.available = Readable(part.library);
        if (!part.available) part.problem = "the OpenCL layer " + part.library + " is missing";
        const std::string preload = libraryDirectory + "/libgpaprof_opencl_preload.so";
        if (Readable(preload)) part.preload = preload;
        const char* route = std::getenv("GPAPROF_OPENCL_INJECTION");
        const std::string only = route ? route : "";
        if (only == "layer") part.preload.clear();
        if (only == "preload") {
            if (part.preload.empty()) {
                part.available = false;
                part.problem = "GPAPROF_OPENCL_INJECTION=preload, but " + preload + " is missing";
            } else {
                part.library.clear();
            }
        }
        if (part.available && part.preload.empty()) {
            // The layer alone: only a loader with layers reaches it.
            if (const std::string loader = FindIcdLoader(); !loader.empty() && !IcdLoaderReadsLayers(loader)) {
                part.warning = "OpenCL calls will not be recorded: the ICD loader " + loader +
                               " does not load layers (it never reads OPENCL_LAYERS), and " +
                               (only == "layer" ? std::string("GPAPROF_OPENCL_INJECTION=layer turns gpaprof's other "
                                                              "route off (unset it)")
                                                : preload + " (the route for loaders without layers) is missing") +
                               "; or put a loader with layers (ocl-icd, the Khronos ICD loader) first in LD_LIBRARY_PATH";
            }
        }
        parts.push_back(part);
    }
    if (wanted("cuda")) {
        InjectionPart part;
        part.api = "cuda";
        part.library = libraryDirectory + "/libgpaprof_cuda_injection.so";
        part.available = Readable(part.library);
        if (!part.available) part.problem = "CUDA profiling is not part of this build (" + part.library + " is missing)";
        parts.push_back(part);
    }
    return parts;
}

void AddInjectionEnvironment(const std::vector<InjectionPart>& parts, const std::string& agentLibrary,
                             const std::string& configPath, std::map<std::string, std::string>* environment,
                             std::vector<std::string>* warnings) {
    (*environment)[kConfigEnv] = configPath;
    (*environment)[kAgentLibEnv] = agentLibrary;
    // Preloaded libraries come before the application's own; a sanitizer runtime must come first.
    std::vector<std::string> preloads;
    const std::string exitHooks = Directory(agentLibrary) + "/libgpaprof_exit.so";
    if (Readable(exitHooks)) {
        preloads.push_back(exitHooks);
    } else {
        warnings->push_back(exitHooks + " is missing: what is pending when a process ends is written at atexit, "
                            "after thread_local objects are destroyed (dispatches may be lost)");
    }
    for (const InjectionPart& part : parts) {
        if (part.available && part.api == "opencl" && !part.preload.empty()) preloads.push_back(part.preload);
        if (part.available && !part.warning.empty()) warnings->push_back(part.warning);
    }
    if (!preloads.empty()) {
        const std::string sanitizer = SanitizerRuntime();
        std::string joined = sanitizer;
        for (const std::string& preload : preloads) joined += (joined.empty() ? "" : ":") + preload;
        std::string& existing = (*environment)["LD_PRELOAD"];
        existing = existing.empty() ? joined : joined + ":" + existing;
        if (!sanitizer.empty()) {
            // The preload reaches every process the application starts, tools that are not ours among them
            // (PoCL runs the linker for each kernel), and those leak at exit by design: a leak report would
            // fail them. Memory errors are still caught.
            std::string& options = (*environment)["ASAN_OPTIONS"];
            options += (options.empty() ? "" : ":") + std::string("detect_leaks=0");
        }
    }
    for (const InjectionPart& part : parts) {
        if (!part.available) continue;
        if (part.api == "opencl") {
            // The ICD loader calls the last layer of the list first: gpaprof goes last, nearest the application.
            if (!part.library.empty()) {
                std::string& layers = (*environment)["OPENCL_LAYERS"];
                layers = layers.empty() ? part.library : layers + ":" + part.library;
            }
        } else if (part.api == "cuda") {
            std::string& injection = (*environment)["CUDA_INJECTION64_PATH"];
            if (!injection.empty() && injection != part.library) {
                warnings->push_back("CUDA_INJECTION64_PATH was " + injection + "; gpaprof replaces it with its own");
            }
            injection = part.library;
            // The same library receives NVTX push/pop ranges (perf markers) from the application's NVTX.
            std::string& nvtx = (*environment)["NVTX_INJECTION64_PATH"];
            if (!nvtx.empty() && nvtx != part.library) {
                warnings->push_back("NVTX_INJECTION64_PATH was " + nvtx + "; gpaprof replaces it with its own");
            }
            nvtx = part.library;
        }
    }
}

}  // namespace gpaprof::cli
