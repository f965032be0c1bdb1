#include "backends/gl/gl_driver_functions.h"

#include <EGL/egl.h>

#include <mutex>

namespace gpa::gl {

namespace {

std::mutex& LoaderMutex() {
    static std::mutex mutex;
    return mutex;
}
DriverCounterFunctionsLoader& Loader() {
    static DriverCounterFunctionsLoader loader;
    return loader;
}

template <typename Function>
void Resolve(Function* function, const char* name) {
    *function = reinterpret_cast<Function>(eglGetProcAddress(name));
}

}  // namespace

void SetDriverCounterFunctionsLoaderForTesting(DriverCounterFunctionsLoader loader) {
    std::lock_guard<std::mutex> lock(LoaderMutex());
    Loader() = std::move(loader);
}

DriverCounterFunctions LoadDriverCounterFunctions(const std::set<std::string>& extensions) {
    {
        std::lock_guard<std::mutex> lock(LoaderMutex());
        if (Loader()) return Loader()(extensions);
    }
    DriverCounterFunctions functions;
    std::string missing;
#define OPENGPA_DRIVER_RESOLVE(type, member, name) \
    Resolve(&table.member, name);                  \
    if (!table.member && missing.empty()) missing = name;
    if (extensions.count("GL_AMD_performance_monitor")) {
        AmdPerfMonitorFunctions& table = functions.amd;
        OPENGPA_AMD_PERFMON_FUNCTIONS(OPENGPA_DRIVER_RESOLVE)
        table.loaded = missing.empty();
        if (!table.loaded) {
            functions.why += "GL_AMD_performance_monitor is listed but " + missing + " is missing; ";
            table = AmdPerfMonitorFunctions{};
        }
    } else {
        functions.why += "the context does not list GL_AMD_performance_monitor; ";
    }
    missing.clear();
    if (extensions.count("GL_INTEL_performance_query")) {
        IntelPerfQueryFunctions& table = functions.intel;
        OPENGPA_INTEL_PERFQUERY_FUNCTIONS(OPENGPA_DRIVER_RESOLVE)
        table.loaded = missing.empty();
        if (!table.loaded) {
            functions.why += "GL_INTEL_performance_query is listed but " + missing + " is missing";
            table = IntelPerfQueryFunctions{};
        }
    } else {
        functions.why += "the context does not list GL_INTEL_performance_query";
    }
#undef OPENGPA_DRIVER_RESOLVE
    return functions;
}

}  // namespace gpa::gl
