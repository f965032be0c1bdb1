#include "backends/cuda/cuda_driver_loader.h"

#include <mutex>

#include "backends/cuda/dynamic_library.h"

// cuda.h maps some names to versioned symbols (cuCtxPushCurrent -> cuCtxPushCurrent_v2); the symbol looked
// up is the mapped one.
#define OPENGPA_STRINGIFY2(x) #x
#define OPENGPA_STRINGIFY(x) OPENGPA_STRINGIFY2(x)

namespace gpa::cuda {

std::string DriverApi::Describe(CUresult result) const {
    const char* name = nullptr;
    const char* text = nullptr;
    if (cuGetErrorName != nullptr) cuGetErrorName(result, &name);
    if (cuGetErrorString != nullptr) cuGetErrorString(result, &text);
    std::string description = name != nullptr ? name : "CUDA error";
    if (text != nullptr) description += std::string(": ") + text;
    return description + " (" + std::to_string(static_cast<int>(result)) + ")";
}

Outcome DriverApi::Failure(const char* what, CUresult result, GPA_Status status) const {
    return Fail(status, std::string(what) + " failed: " + Describe(result));
}

namespace {

struct LoadedDriver {
    DynamicLibrary library;
    DriverApi api;
    Outcome outcome;
};

LoadedDriver& Load() {
    static LoadedDriver loaded;
    static std::once_flag once;
    std::call_once(once, [] {
        std::string error;
        if (!loaded.library.Open({"libcuda.so.1", "libcuda.so"}, &error)) {
            loaded.outcome = Fail(GPA_STATUS_ERROR_HARDWARE_NOT_SUPPORTED,
                                  "the NVIDIA driver (libcuda.so.1) is not installed or not on the loader's path, so "
                                  "there is no CUDA device to profile (" + error + ")");
            return;
        }
        loaded.api.path = loaded.library.path();
        std::string missing;
#define OPENGPA_RESOLVE(name)                                                                                   \
    loaded.api.name = reinterpret_cast<decltype(&::name)>(loaded.library.Symbol(OPENGPA_STRINGIFY(name)));     \
    if (loaded.api.name == nullptr) missing += std::string(missing.empty() ? "" : ", ") + OPENGPA_STRINGIFY(name);
        OPENGPA_DRIVER_FUNCTIONS(OPENGPA_RESOLVE)
#undef OPENGPA_RESOLVE
        if (!missing.empty()) {
            loaded.outcome = Fail(GPA_STATUS_ERROR_HARDWARE_NOT_SUPPORTED,
                                  "the NVIDIA driver at " + loaded.api.path + " is too old: it lacks " + missing);
            return;
        }
        const CUresult init = loaded.api.cuInit(0);
        if (init != CUDA_SUCCESS) {
            loaded.outcome = loaded.api.Failure("cuInit (the NVIDIA driver found no usable GPU)", init,
                                                GPA_STATUS_ERROR_HARDWARE_NOT_SUPPORTED);
            return;
        }
        loaded.api.cuDriverGetVersion(&loaded.api.version);
        loaded.outcome = Outcome::Ok();
    });
    return loaded;
}

}  // namespace

Outcome LoadDriver(const DriverApi** api) {
    LoadedDriver& loaded = Load();
    if (!loaded.outcome.ok()) return loaded.outcome;
    *api = &loaded.api;
    return Outcome::Ok();
}

ScopedContext::ScopedContext(const DriverApi& driver, CUcontext context) : driver_(driver) {
    // Most calls come from the thread that already has this context current (GPA_BeginSample and
    // GPA_EndSample around the application's own launches): a push/pop pair there is pure overhead.
    CUcontext current = nullptr;
    if (driver_.cuCtxGetCurrent(&current) == CUDA_SUCCESS && current == context) return;
    const CUresult result = driver_.cuCtxPushCurrent(context);
    if (result != CUDA_SUCCESS) {
        outcome_ = driver_.Failure("cuCtxPushCurrent", result);
        return;
    }
    pushed_ = true;
}

ScopedContext::~ScopedContext() {
    if (pushed_) {
        CUcontext popped = nullptr;
        driver_.cuCtxPopCurrent(&popped);
    }
}

}  // namespace gpa::cuda
