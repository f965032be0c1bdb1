#include "backends/cuda/cupti_loader.h"

#include <cstdlib>
#include <mutex>
#include <vector>

#include "backends/cuda/dynamic_library.h"

#ifndef OPENGPA_CUPTI_BUILD_DIR
#define OPENGPA_CUPTI_BUILD_DIR ""
#endif

namespace gpa::cuda {

const char* const kCounterPermissionFix =
    "NVIDIA's performance counters are restricted to administrators on this system (ERR_NVGPUCTRPERM). "
    "Either run as root, or allow all users: add 'options nvidia NVreg_RestrictProfilingToAdminUsers=0' to a "
    "file in /etc/modprobe.d/, then reload the nvidia module or reboot (see "
    "https://developer.nvidia.com/ERR_NVGPUCTRPERM). In a container, start it with --cap-add=SYS_ADMIN";

std::string CuptiApi::Describe(CUptiResult result) const {
    const char* text = nullptr;
    if (cuptiGetResultString == nullptr || cuptiGetResultString(result, &text) != CUPTI_SUCCESS || text == nullptr) {
        text = "unknown CUPTI error";
    }
    std::string description = std::string(text) + " (" + std::to_string(static_cast<int>(result)) + ")";
    switch (result) {
        case CUPTI_ERROR_INSUFFICIENT_PRIVILEGES:
        case CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES:
            description += ". ";
            description += kCounterPermissionFix;
            break;
        case CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED:
            description += ". Another profiler (Nsight Compute, Nsight Systems, a CUPTI-based tool) is attached to "
                           "this process; profile with one tool at a time";
            break;
        case CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED:
            description += ". Profiling is not enabled for this virtual GPU; ask the host administrator to enable "
                           "profiling for the vGPU";
            break;
        case CUPTI_ERROR_MIG_DEVICE_NOT_SUPPORTED:
            description += ". Range profiling is not available on this MIG instance";
            break;
        case CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED:
            description += ". NVIDIA CMP devices do not support profiling";
            break;
        default:
            break;
    }
    return description;
}

Outcome CuptiApi::Failure(const char* what, CUptiResult result, GPA_Status status) const {
    if (result == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES || result == CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES) {
        status = GPA_STATUS_ERROR_HARDWARE_NOT_SUPPORTED;
    }
    return Fail(status, std::string(what) + " failed: " + Describe(result));
}

namespace {

// CUPTI opens libnvperf_host.so with RTLD_DEEPBIND, which AddressSanitizer's runtime refuses by ending the
// process; in a sanitizer build CUPTI is reported missing instead, with the reason.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kAddressSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kAddressSanitizer = true;
#else
constexpr bool kAddressSanitizer = false;
#endif
#else
constexpr bool kAddressSanitizer = false;
#endif

std::vector<std::string> CuptiCandidates() {
    std::vector<std::string> candidates;
    // An explicit path is the only candidate: the user said which CUPTI to use.
    if (const char* explicitPath = std::getenv("OPENGPA_CUPTI_LIBRARY"); explicitPath != nullptr && *explicitPath) {
        return {explicitPath};
    }
    candidates.emplace_back("libcupti.so.13");
    candidates.emplace_back("libcupti.so");
    std::vector<std::string> roots;
    for (const char* variable : {"CUDA_HOME", "CUDA_PATH", "CUDA_ROOT"}) {
        if (const char* root = std::getenv(variable); root != nullptr && *root) roots.emplace_back(root);
    }
    roots.emplace_back("/usr/local/cuda");
    for (const std::string& root : roots) {
        for (const char* sub : {"/lib64/", "/extras/CUPTI/lib64/", "/lib/", "/targets/x86_64-linux/lib/"}) {
            candidates.push_back(root + sub + "libcupti.so.13");
            candidates.push_back(root + sub + "libcupti.so");
        }
    }
    const std::string buildDir = OPENGPA_CUPTI_BUILD_DIR;
    if (!buildDir.empty()) candidates.push_back(buildDir + "/libcupti.so");
    return candidates;
}

struct LoadedCupti {
    DynamicLibrary library;
    CuptiApi api;
    Outcome outcome;
};

LoadedCupti& Load() {
    static LoadedCupti loaded;
    static std::once_flag once;
    std::call_once(once, [] {
        if (kAddressSanitizer) {
            loaded.outcome = Fail(GPA_STATUS_ERROR_HARDWARE_NOT_SUPPORTED,
                                  "CUPTI cannot run in a build with AddressSanitizer (it opens libnvperf_host.so with "
                                  "RTLD_DEEPBIND, which the sanitizer runtime refuses); use a build without "
                                  "OPENGPA_SANITIZE for NVIDIA counters");
            return;
        }
        std::string error;
        if (!loaded.library.Open(CuptiCandidates(), &error)) {
            loaded.outcome = Fail(GPA_STATUS_ERROR_HARDWARE_NOT_SUPPORTED,
                                  "CUPTI (libcupti.so from the CUDA toolkit, 12.6 or newer) could not be loaded, so "
                                  "NVIDIA counters are unavailable. Install the CUDA toolkit's CUPTI, add its "
                                  "directory to LD_LIBRARY_PATH, or set OPENGPA_CUPTI_LIBRARY to the library's path. "
                                  "Tried: " + error);
            return;
        }
        loaded.api.path = loaded.library.path();
        std::string missing;
#define OPENGPA_RESOLVE(name)                                                                      \
    loaded.api.name = reinterpret_cast<decltype(&::name)>(loaded.library.Symbol(#name));         \
    if (loaded.api.name == nullptr) missing += std::string(missing.empty() ? "" : ", ") + #name;
        OPENGPA_CUPTI_FUNCTIONS(OPENGPA_RESOLVE)
#undef OPENGPA_RESOLVE
        if (!missing.empty()) {
            loaded.outcome = Fail(GPA_STATUS_ERROR_HARDWARE_NOT_SUPPORTED,
                                  "the CUPTI at " + loaded.api.path + " lacks functions OpenGPA needs (" + missing +
                                      "); the range profiler needs CUPTI from CUDA 12.6 or newer");
            return;
        }
        loaded.api.legacyProfiler = true;
#define OPENGPA_RESOLVE_OPTIONAL(name)                                                             \
    loaded.api.name = reinterpret_cast<decltype(&::name)>(loaded.library.Symbol(#name));         \
    loaded.api.legacyProfiler = loaded.api.legacyProfiler && loaded.api.name != nullptr;
        OPENGPA_CUPTI_LEGACY_PROFILER_FUNCTIONS(OPENGPA_RESOLVE_OPTIONAL)
#undef OPENGPA_RESOLVE_OPTIONAL
        loaded.api.pmSampling = true;
#define OPENGPA_RESOLVE_PM_SAMPLING(name)                                                          \
    loaded.api.name = reinterpret_cast<decltype(&::name)>(loaded.library.Symbol(#name));         \
    loaded.api.pmSampling = loaded.api.pmSampling && loaded.api.name != nullptr;
        OPENGPA_CUPTI_PM_SAMPLING_FUNCTIONS(OPENGPA_RESOLVE_PM_SAMPLING)
#undef OPENGPA_RESOLVE_PM_SAMPLING
        loaded.api.cuptiGetVersion(&loaded.api.version);
        loaded.outcome = Outcome::Ok();
    });
    return loaded;
}

}  // namespace

Outcome LoadCupti(const CuptiApi** api) {
    LoadedCupti& loaded = Load();
    if (!loaded.outcome.ok()) return loaded.outcome;
    *api = &loaded.api;
    return Outcome::Ok();
}

}  // namespace gpa::cuda
