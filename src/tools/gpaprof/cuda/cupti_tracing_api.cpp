#include "tools/gpaprof/cuda/cupti_tracing_api.h"

#include <cstdlib>
#include <mutex>

#include <dlfcn.h>

#include "backends/cuda/cupti_loader.h"

namespace gpaprof::cuda {
namespace {

template <typename T>
void Resolve(void* library, const char* name, T* slot) {
    void* symbol = dlsym(library, name);
    static_assert(sizeof(T) == sizeof symbol);
    __builtin_memcpy(slot, &symbol, sizeof symbol);
}

}  // namespace

std::string TracingApi::Describe(CUptiResult result) const {
    const char* text = nullptr;
    if (!cuptiGetResultString || cuptiGetResultString(result, &text) != CUPTI_SUCCESS || !text) text = "unknown CUPTI error";
    return std::string(text) + " (" + std::to_string(static_cast<int>(result)) + ")";
}

const TracingApi* LoadTracingApi(std::string* problem) {
    static TracingApi api;
    static std::string reason;
    static bool loaded = false;
    static std::once_flag once;
    std::call_once(once, [] {
        void* cuptiLibrary = nullptr;
        void* driver = nullptr;
        std::string cuptiPath;
        uint32_t cuptiVersion = 0;
        if (const char* standIn = std::getenv("GPAPROF_CUDA_TRACING_LIBRARY"); standIn && *standIn) {
            // Tests without a GPU: one library stands in for CUPTI's tracing functions and the driver
            // (tests/tools/gpaprof/cuda/fake_cuda), so that the whole CUDA part runs on callbacks it makes up.
            cuptiLibrary = driver = dlopen(standIn, RTLD_NOW);
            if (!cuptiLibrary) {
                reason = std::string("cannot open GPAPROF_CUDA_TRACING_LIBRARY ") + standIn + ": " + dlerror();
                return;
            }
            cuptiPath = standIn;
        } else {
            const gpa::cuda::CuptiApi* cupti = nullptr;
            const gpa::Outcome outcome = gpa::cuda::LoadCupti(&cupti);
            if (!outcome.ok()) {
                reason = outcome.reason();
                return;
            }
            // The same library the backend opened: RTLD_NOLOAD hands back its handle.
            cuptiLibrary = dlopen(cupti->path.c_str(), RTLD_NOW | RTLD_NOLOAD);
            if (!cuptiLibrary) cuptiLibrary = dlopen(cupti->path.c_str(), RTLD_NOW);
            driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
            if (!driver) driver = dlopen("libcuda.so.1", RTLD_NOW);
            if (!cuptiLibrary || !driver) {
                reason = !cuptiLibrary ? "cannot open " + cupti->path : std::string("cannot open libcuda.so.1");
                return;
            }
            cuptiPath = cupti->path;
            cuptiVersion = cupti->version;
        }
        std::string missing;
#define GPAPROF_RESOLVE_REQUIRED(name, library)                                       \
    Resolve(library, #name, &api.name);                                               \
    if (!api.name) missing += std::string(missing.empty() ? "" : ", ") + #name;
#define GPAPROF_RESOLVE_CUPTI(name) GPAPROF_RESOLVE_REQUIRED(name, cuptiLibrary)
#define GPAPROF_RESOLVE_DRIVER(name) GPAPROF_RESOLVE_REQUIRED(name, driver)
#define GPAPROF_RESOLVE_CUPTI_OPTIONAL(name) Resolve(cuptiLibrary, #name, &api.name);
#define GPAPROF_RESOLVE_DRIVER_OPTIONAL(name) Resolve(driver, #name, &api.name);
        GPAPROF_CUPTI_TRACING_FUNCTIONS(GPAPROF_RESOLVE_CUPTI)
        GPAPROF_CUPTI_OPTIONAL_FUNCTIONS(GPAPROF_RESOLVE_CUPTI_OPTIONAL)
        GPAPROF_DRIVER_FUNCTIONS(GPAPROF_RESOLVE_DRIVER)
        GPAPROF_DRIVER_OPTIONAL_FUNCTIONS(GPAPROF_RESOLVE_DRIVER_OPTIONAL)
#undef GPAPROF_RESOLVE_REQUIRED
#undef GPAPROF_RESOLVE_CUPTI
#undef GPAPROF_RESOLVE_DRIVER
#undef GPAPROF_RESOLVE_CUPTI_OPTIONAL
#undef GPAPROF_RESOLVE_DRIVER_OPTIONAL
        if (!missing.empty()) {
            reason = "the CUPTI at " + cuptiPath + " or the CUDA driver lacks " + missing;
            return;
        }
        api.cuptiPath = cuptiPath;
        api.cuptiVersion = cuptiVersion;
        loaded = true;
    });
    if (!loaded) {
        if (problem) *problem = reason;
        return nullptr;
    }
    return &api;
}

}  // namespace gpaprof::cuda
