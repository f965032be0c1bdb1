// Deprecated calls: OpenCL 1.x entry points deprecated by the version the platform implements, and CUDA
// runtime calls NVIDIA deprecated. An OpenCL call counts only when the trace's platform version is at
// least the version that deprecated it (an OpenCL 1.1 platform has no clCreateImage to use instead);
// when the header names no platform version, the check says so and still lists the calls.
#include <map>

#include "tools/gpaprof/report/best_practices.h"
#include "tools/gpaprof/files/text_fields.h"

namespace gpaprof::report {
namespace {

struct Deprecation {
    const char* api;
    const char* function;
    int sinceMajor, sinceMinor;  // version that deprecated it (OpenCL); 0.0 for CUDA
    const char* replacement;
};

constexpr Deprecation kDeprecations[] = {
    {"ocl", "clSetCommandQueueProperty", 1, 1, "the properties argument of clCreateCommandQueueWithProperties"},
    {"ocl", "clCreateImage2D", 1, 2, "clCreateImage"},
    {"ocl", "clCreateImage3D", 1, 2, "clCreateImage"},
    {"ocl", "clEnqueueMarker", 1, 2, "clEnqueueMarkerWithWaitList"},
    {"ocl", "clEnqueueBarrier", 1, 2, "clEnqueueBarrierWithWaitList"},
    {"ocl", "clEnqueueWaitForEvents", 1, 2, "clEnqueueBarrierWithWaitList"},
    {"ocl", "clUnloadCompiler", 1, 2, "clUnloadPlatformCompiler"},
    {"ocl", "clGetExtensionFunctionAddress", 1, 2, "clGetExtensionFunctionAddressForPlatform"},
    {"ocl", "clCreateCommandQueue", 2, 0, "clCreateCommandQueueWithProperties"},
    {"ocl", "clCreateSampler", 2, 0, "clCreateSamplerWithProperties"},
    {"ocl", "clEnqueueTask", 2, 0, "clEnqueueNDRangeKernel with one work-item"},
    {"cuda", "cudaThreadSynchronize", 0, 0, "cudaDeviceSynchronize"},
    {"cuda", "cudaThreadExit", 0, 0, "cudaDeviceReset"},
    {"cuda", "cudaThreadSetLimit", 0, 0, "cudaDeviceSetLimit"},
    {"cuda", "cudaThreadGetLimit", 0, 0, "cudaDeviceGetLimit"},
    {"cuda", "cudaThreadSetCacheConfig", 0, 0, "cudaDeviceSetCacheConfig"},
    {"cuda", "cudaThreadGetCacheConfig", 0, 0, "cudaDeviceGetCacheConfig"},
    {"cuda", "cudaMemcpyToArray", 0, 0, "cudaMemcpy2DToArray"},
    {"cuda", "cudaMemcpyFromArray", 0, 0, "cudaMemcpy2DFromArray"},
    {"cuda", "cudaMemcpyArrayToArray", 0, 0, "cudaMemcpy2DArrayToArray"},
    {"cuda", "cudaMemcpyToArrayAsync", 0, 0, "cudaMemcpy2DToArrayAsync"},
    {"cuda", "cudaMemcpyFromArrayAsync", 0, 0, "cudaMemcpy2DFromArrayAsync"},
    {"cuda", "cudaSetDoubleForDevice", 0, 0, "nothing (it has no effect)"},
    {"cuda", "cudaSetDoubleForHost", 0, 0, "nothing (it has no effect)"},
};

// "OpenCL 3.0 PoCL ..." -> {3, 0}.
std::optional<std::pair<int, int>> OpenClVersion(const std::string& text) {
    const size_t at = text.find("OpenCL ");
    if (at == std::string::npos) return std::nullopt;
    std::string_view rest = std::string_view(text).substr(at + 7);
    const size_t dot = rest.find('.');
    if (dot == std::string_view::npos) return std::nullopt;
    size_t minorEnd = dot + 1;
    while (minorEnd < rest.size() && rest[minorEnd] >= '0' && rest[minorEnd] <= '9') ++minorEnd;
    std::optional<uint64_t> major = ParseUnsigned(rest.substr(0, dot));
    std::optional<uint64_t> minor = ParseUnsigned(rest.substr(dot + 1, minorEnd - dot - 1));
    if (!major || !minor || *major > 99 || *minor > 99) return std::nullopt;
    return std::make_pair(static_cast<int>(*major), static_cast<int>(*minor));
}

}  // namespace

CheckResult CheckDeprecatedCalls(const CheckInput& input) {
    CheckResult result;
    result.id = "deprecated-calls";
    result.title = "Deprecated calls";
    result.rule = "OpenCL calls deprecated in a version the platform implements (clCreateImage2D/3D, clEnqueueMarker, "
                  "clEnqueueBarrier, clEnqueueWaitForEvents, clUnloadCompiler and clGetExtensionFunctionAddress since "
                  "1.2; clCreateCommandQueue, clCreateSampler and clEnqueueTask since 2.0), and deprecated CUDA "
                  "runtime calls (cudaThread*, cudaMemcpy*Array, ...).";
    result.advice = "Use the replacement named in each finding; deprecated calls may be removed or slower.";
    result.severity = Severity::Advice;
    if (input.timeline.calls.empty()) {
        result.status = CheckStatus::NotDecidable;
        result.notes.push_back("the trace has no API calls");
        return result;
    }

    // The lowest OpenCL version among the platforms (a call is only deprecated where every platform has the
    // replacement).
    std::optional<std::pair<int, int>> platform;
    for (const DeviceHeader& device : input.atp.session.devices) {
        std::optional<std::pair<int, int>> version = OpenClVersion(device.platformVersion);
        if (version && (!platform || *version < *platform)) platform = version;
    }
    bool openClSeen = false;
    struct Group {
        uint64_t count = 0;
        const HostCall* first = nullptr;
    };
    std::map<const Deprecation*, Group> groups;
    for (size_t index : CallsInTimeOrder(input.timeline)) {
        const HostCall& host = input.timeline.calls[index];
        openClSeen = openClSeen || host.api == "ocl";
        for (const Deprecation& deprecation : kDeprecations) {
            if (host.api != deprecation.api || host.call->name != deprecation.function) continue;
            if (host.api == "ocl" && platform &&
                *platform < std::make_pair(deprecation.sinceMajor, deprecation.sinceMinor)) {
                continue;
            }
            Group& group = groups[&deprecation];
            if (group.count++ == 0) group.first = &host;
        }
    }
    if (openClSeen) {
        if (platform) {
            result.notes.push_back("platform version from the trace header: OpenCL " + std::to_string(platform->first) +
                                   "." + std::to_string(platform->second));
        } else {
            result.notes.push_back("the trace header names no OpenCL platform version: OpenCL calls are listed "
                                   "whatever version deprecated them");
        }
    }
    for (const Deprecation& deprecation : kDeprecations) {
        auto found = groups.find(&deprecation);
        if (found == groups.end()) continue;
        const Group& group = found->second;
        std::string since = deprecation.api == std::string("ocl")
                                ? " (deprecated since OpenCL " + std::to_string(deprecation.sinceMajor) + "." +
                                      std::to_string(deprecation.sinceMinor) + ")"
                                : " (deprecated by NVIDIA)";
        std::string text = std::string(deprecation.function) + since + " called " + std::to_string(group.count) +
                           (group.count == 1 ? " time" : " times") + ", first at " + group.first->Where() + "; use " +
                           deprecation.replacement;
        result.Add(Evidence{group.first->api, group.first->threadId, group.first->index, text});
    }
    return result;
}

}  // namespace gpaprof::report
