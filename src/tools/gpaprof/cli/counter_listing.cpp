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
std::vector<CodeplayCounter> CodeplayCounters(GetDeviceInfo getDeviceInfo, void* device) {
    size_t bytes = 0;
    if (!getDeviceInfo || getDeviceInfo(device, kDevicePerformanceCountersCodeplay, 0, nullptr, &bytes) != 0) return {};
    std::vector<CodeplayCounter> counters(bytes / sizeof(CodeplayCounter));
    if (counters.empty() || getDeviceInfo(device, kDevicePerformanceCountersCodeplay, counters.size() * sizeof counters[0],
                                          counters.data(), nullptr) != 0) {
        return {};
    }
    return counters;
}

struct OpenClDevice {
    std::string name, platform;
    std::vector<CodeplayCounter> extensionCounters;
};

// The OpenCL devices of this machine, through the ICD loader loaded at run time; false (with `why`) when there
// is no loader or no platform.
bool OpenClDevices(std::vector<OpenClDevice>* found, std::string* why) {
    void* library = dlopen("libOpenCL.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        *why = "no ICD loader (libOpenCL.so.1) on this machine";
        return false;
    }
    auto getPlatforms = Symbol<GetPlatformIDs>(library, "clGetPlatformIDs");
    auto getPlatformInfo = Symbol<GetPlatformInfo>(library, "clGetPlatformInfo");
    auto getDevices = Symbol<GetDeviceIDs>(library, "clGetDeviceIDs");
    auto getDeviceInfo = Symbol<GetDeviceInfo>(library, "clGetDeviceInfo");
    unsigned platformCount = 0;
    if (!getPlatforms || !getDevices || getPlatforms(0, nullptr, &platformCount) != 0 || platformCount == 0) {
        *why = "no platform found";
        return false;
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
            found->push_back(OpenClDevice{deviceName, platformName, CodeplayCounters(getDeviceInfo, device)});
        }
    }
    return true;
}

}  // namespace

int ListCounters() {
    std::printf("Counters of gpaprof -p (default set: ");
    const std::vector<std::string> defaults = ocl::DefaultOpenClCounters();
    for (size_t i = 0; i < defaults.size(); ++i) std::printf("%s%s", i ? ", " : "", defaults[i].c_str());
    std::printf(")\n");
    std::vector<OpenClDevice> devices;
    std::string why;
    if (!OpenClDevices(&devices, &why)) {
        std::printf("  OpenCL: %s; the counters of any OpenCL device:\n", why.c_str());
        PrintCounters();
        return 0;
    }
    for (const OpenClDevice& device : devices) {
        std::printf("  OpenCL device %s (%s):\n", device.name.c_str(), device.platform.c_str());
        PrintCounters();
        if (device.extensionCounters.empty()) continue;
        std::printf("    and its cl_codeplay_performance_counters counters (--counters names them):\n");
        for (const CodeplayCounter& counter : device.extensionCounters) {
            std::printf("    %-12.256s %-10.256s %.256s\n", counter.name, counter.category, counter.description);
        }
    }
    std::printf("  Dispatch statistics (always in the .csv): Method, ExecutionOrder, ThreadID, CallIndex, "
                "GlobalWorkSize, WorkGroupSize, Time, LocalMemSize, VGPRs, SGPRs, ScratchRegs, KernelOccupancy\n");
    std::printf("  CUDA: `gpa-counters --chip <chip>` lists the GPA counters of an NVIDIA chip and, with --hardware, "
                "the NVIDIA metric names --counters takes\n");
    return 0;
}

std::vector<std::string> OpenClDeviceCounterNames() {
    std::vector<OpenClDevice> devices;
    std::string why;
    std::vector<std::string> names;
    if (!OpenClDevices(&devices, &why)) return names;
    for (const OpenClDevice& device : devices) {
        for (const CodeplayCounter& counter : device.extensionCounters) names.emplace_back(counter.name);
    }
    return names;
}

}  // namespace gpaprof::cli
