#include "tools/gpaprof/cli/counter_listing.h"

#include <cstdio>
#include <string>
#include <vector>

#include <dlfcn.h>

#include "tools/gpaprof/opencl/opencl_counters.h"

namespace gpaprof::cli {
namespace {

// The few OpenCL entry points the listing needs, from the ICD loader loaded at run time (gpaprof itself
// does not link OpenCL).
using GetPlatformIDs = int (*)(unsigned, void**, unsigned*);
using GetPlatformInfo = int (*)(void*, unsigned, size_t, void*, size_t*);
using GetDeviceIDs = int (*)(void*, unsigned long, unsigned, void**, unsigned*);
using GetDeviceInfo = int (*)(void*, unsigned, size_t, void*, size_t*);
constexpr unsigned kPlatformName = 0x0902;
constexpr unsigned long kDeviceTypeAll = 0xFFFFFFFF;
constexpr unsigned kDeviceName = 0x102B;
// cl_codeplay_performance_counters (include/CL/cl_codeplay_performance_counters.h, not included: gpaprof is
// built without OpenCL headers too): the query and the layout of one counter.
constexpr unsigned kDevicePerformanceCountersCodeplay = 0x4260;
struct CodeplayCounter {
    unsigned unit, storage, uuid;
    char name[256], category[256], description[256];
};

template <typename T>
T Symbol(void* library, const char* name) {
    void* address = dlsym(library, name);
    T function = nullptr;
    static_assert(sizeof function == sizeof address);
    __builtin_memcpy(&function, &address, sizeof function);
    return function;
}

void PrintCounters() {
    for (const auto& counter : ocl::OpenClDerivedCounters()) {
        std::printf("    %-12s %-10s %s\n", counter.name.c_str(), counter.group.c_str(), counter.description.c_str());
    }
}

// The device's counters of cl_codeplay_performance_counters (OpenGPA's OpenCL layer gives every device some).
void PrintCodeplayCounters(GetDeviceInfo getDeviceInfo, void* device) {
    size_t bytes = 0;
    if (!getDeviceInfo || getDeviceInfo(device, kDevicePerformanceCountersCodeplay, 0, nullptr, &bytes) != 0) return;
    std::vector<CodeplayCounter> counters(bytes / sizeof(CodeplayCounter));
    if (counters.empty() || getDeviceInfo(device, kDevicePerformanceCountersCodeplay, counters.size() * sizeof counters[0],
                                          counters.data(), nullptr) != 0) {
        return;
    }
    std::printf("    and its cl_codeplay_performance_counters counters (--counters names them):\n");
    for (const CodeplayCounter& counter : counters) {
        std::printf("    %-12.256s %-10.256s %.256s\n", counter.name, counter.category, counter.description);
    }
}

}  // namespace

int ListCounters() {
    std::printf("Counters of gpaprof -p (default set: ");
    const std::vector<std::string> defaults = ocl::DefaultOpenClCounters();
    for (size_t i = 0; i < defaults.size(); ++i) std::printf("%s%s", i ? ", " : "", defaults[i].c_str());
    std::printf(")\n");
    void* library = dlopen("libOpenCL.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        std::printf("  OpenCL: no ICD loader (libOpenCL.so.1) on this machine; the counters of any OpenCL device:\n");
        PrintCounters();
        return 0;
    }
    auto getPlatforms = Symbol<GetPlatformIDs>(library, "clGetPlatformIDs");
    auto getPlatformInfo = Symbol<GetPlatformInfo>(library, "clGetPlatformInfo");
    auto getDevices = Symbol<GetDeviceIDs>(library, "clGetDeviceIDs");
    auto getDeviceInfo = Symbol<GetDeviceInfo>(library, "clGetDeviceInfo");
    unsigned platformCount = 0;
    if (!getPlatforms || !getDevices || getPlatforms(0, nullptr, &platformCount) != 0 || platformCount == 0) {
        std::printf("  OpenCL: no platform found; the counters of any OpenCL device:\n");
        PrintCounters();
        return 0;
    }
    std::vector<void*> platforms(platformCount);
    getPlatforms(platformCount, platforms.data(), nullptr);
    for (void* platform : platforms) {
        char platformName[256] = "";
        if (getPlatformInfo) getPlatformInfo(platform, kPlatformName, sizeof platformName, platformName, nullptr);
        unsigned deviceCount = 0;
        if (getDevices(platform, kDeviceTypeAll, 0, nullptr, &deviceCount) != 0) continue;
        std::vector<void*> devices(deviceCount);
        getDevices(platform, kDeviceTypeAll, deviceCount, devices.data(), nullptr);
        for (void* device : devices) {
            char deviceName[256] = "";
            if (getDeviceInfo) getDeviceInfo(device, kDeviceName, sizeof deviceName, deviceName, nullptr);
            std::printf("  OpenCL device %s (%s):\n", deviceName, platformName);
            PrintCounters();
            PrintCodeplayCounters(getDeviceInfo, device);
        }
    }
    std::printf("  Dispatch statistics (always in the .csv): Method, ExecutionOrder, ThreadID, CallIndex, "
                "GlobalWorkSize, WorkGroupSize, Time, LocalMemSize, VGPRs, SGPRs, ScratchRegs, KernelOccupancy\n");
    return 0;
}

}  // namespace gpaprof::cli
