#include "layers/vulkan/clock_control.h"

#include <dlfcn.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <vector>

#include "layers/vulkan/layer_state.h"

namespace ogpa::vklayer {

namespace {

constexpr uint32_t kNvidiaVendorId = 0x10DE;

// The part of NVML's C interface the layer uses (declared here so that no NVML header is needed).
using nvmlReturn_t = int;
using nvmlDevice_t = struct nvmlDevice_st*;
constexpr int kNvmlSuccess = 0;
constexpr int kNvmlClockGraphics = 0;
constexpr int kNvmlClockMemory = 2;

struct Nvml {
    nvmlReturn_t (*Init)() = nullptr;
    const char* (*ErrorString)(nvmlReturn_t) = nullptr;
    nvmlReturn_t (*GetHandleByUUID)(const char*, nvmlDevice_t*) = nullptr;
    nvmlReturn_t (*GetClockInfo)(nvmlDevice_t, int, unsigned*) = nullptr;
    nvmlReturn_t (*GetMaxClockInfo)(nvmlDevice_t, int, unsigned*) = nullptr;
    nvmlReturn_t (*GetDefaultApplicationsClock)(nvmlDevice_t, int, unsigned*) = nullptr;
    nvmlReturn_t (*GetSupportedMemoryClocks)(nvmlDevice_t, unsigned*, unsigned*) = nullptr;
    nvmlReturn_t (*GetSupportedGraphicsClocks)(nvmlDevice_t, unsigned, unsigned*, unsigned*) = nullptr;
    nvmlReturn_t (*SetGpuLockedClocks)(nvmlDevice_t, unsigned, unsigned) = nullptr;
    nvmlReturn_t (*ResetGpuLockedClocks)(nvmlDevice_t) = nullptr;
    nvmlReturn_t (*SetMemoryLockedClocks)(nvmlDevice_t, unsigned, unsigned) = nullptr;
    nvmlReturn_t (*ResetMemoryLockedClocks)(nvmlDevice_t) = nullptr;
    std::string problem;  // why NVML cannot be used, when it cannot

    std::string Error(const char* call, nvmlReturn_t code) const {
        return std::string(call) + " failed: " + (ErrorString ? ErrorString(code) : "NVML error " + std::to_string(code));
    }
};

template <typename F>
bool Resolve(void* library, const char* name, F* slot) {
    *slot = reinterpret_cast<F>(dlsym(library, name));
    return *slot != nullptr;
}

// Loaded and initialised once per process, kept until exit (NVML is reference counted per process).
const Nvml& LoadNvml() {
    static const Nvml nvml = [] {
        Nvml n;
        void* library = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
        if (library == nullptr) {
            n.problem = std::string("NVML (libnvidia-ml.so.1) could not be loaded: ") + dlerror();
            return n;
        }
        const bool ok = Resolve(library, "nvmlInit_v2", &n.Init) && Resolve(library, "nvmlErrorString", &n.ErrorString) &&
                        Resolve(library, "nvmlDeviceGetHandleByUUID", &n.GetHandleByUUID) &&
                        Resolve(library, "nvmlDeviceGetClockInfo", &n.GetClockInfo) &&
                        Resolve(library, "nvmlDeviceGetMaxClockInfo", &n.GetMaxClockInfo);
        if (!ok) {
            n.problem = "libnvidia-ml.so.1 lacks the clock functions";
            n.Init = nullptr;
            return n;
        }
        // Optional: clock locking (newer drivers, permission needed at run time).
        Resolve(library, "nvmlDeviceGetDefaultApplicationsClock", &n.GetDefaultApplicationsClock);
        Resolve(library, "nvmlDeviceGetSupportedMemoryClocks", &n.GetSupportedMemoryClocks);
        Resolve(library, "nvmlDeviceGetSupportedGraphicsClocks", &n.GetSupportedGraphicsClocks);
        Resolve(library, "nvmlDeviceSetGpuLockedClocks", &n.SetGpuLockedClocks);
        Resolve(library, "nvmlDeviceResetGpuLockedClocks", &n.ResetGpuLockedClocks);
        Resolve(library, "nvmlDeviceSetMemoryLockedClocks", &n.SetMemoryLockedClocks);
        Resolve(library, "nvmlDeviceResetMemoryLockedClocks", &n.ResetMemoryLockedClocks);
        const nvmlReturn_t status = n.Init();
        if (status != kNvmlSuccess) {
            n.problem = n.Error("nvmlInit_v2", status);
            n.Init = nullptr;
        }
        return n;
    }();
    return nvml;
}

std::string NvmlUuid(const uint8_t* uuid) {
    char text[64];
    std::snprintf(text, sizeof text, "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", uuid[0],
                  uuid[1], uuid[2], uuid[3], uuid[4], uuid[5], uuid[6], uuid[7], uuid[8], uuid[9], uuid[10], uuid[11],
                  uuid[12], uuid[13], uuid[14], uuid[15]);
    return text;
}

// kHz from a cpufreq file, 0 when absent.
uint32_t CpufreqMHz(const char* file) {
    std::ifstream in(std::string("/sys/devices/system/cpu/cpu0/cpufreq/") + file);
    unsigned long kHz = 0;
    return (in >> kHz) ? static_cast<uint32_t>(kHz / 1000) : 0;
}

uint32_t ProcCpuinfoMHz() {
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("cpu MHz", 0) != 0) continue;
        const size_t colon = line.find(':');
        if (colon == std::string::npos) continue;
        std::istringstream value(line.substr(colon + 1));
        double mhz = 0;
        if (value >> mhz) return static_cast<uint32_t>(mhz + 0.5);
    }
    return 0;
}

float Ratio(uint32_t current, uint32_t maximum) {
    return maximum == 0 ? 0.0f : static_cast<float>(current) / static_cast<float>(maximum);
}

const char* ModeName(VkGpaDeviceClockModeAMD mode) {
    switch (mode) {
        case VK_GPA_DEVICE_CLOCK_MODE_DEFAULT_AMD: return "DEFAULT";
        case VK_GPA_DEVICE_CLOCK_MODE_QUERY_AMD: return "QUERY";
        case VK_GPA_DEVICE_CLOCK_MODE_PROFILING_AMD: return "PROFILING";
        case VK_GPA_DEVICE_CLOCK_MODE_MIN_MEMORY_AMD: return "MIN_MEMORY";
        case VK_GPA_DEVICE_CLOCK_MODE_MIN_ENGINE_AMD: return "MIN_ENGINE";
        case VK_GPA_DEVICE_CLOCK_MODE_PEAK_AMD: return "PEAK";
        default: return nullptr;
    }
}

}  // namespace

struct NvmlDevice {
    nvmlDevice_t handle = nullptr;
};

std::shared_ptr<ClockControl> ClockControl::For(const PhysicalDeviceSupport& support) {
    std::shared_ptr<ClockControl> control(new ClockControl());
    if (support.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU) {
        control->source_ = Source::kCpu;
    } else if (support.vendorId == kNvidiaVendorId) {
        const Nvml& nvml = LoadNvml();
        nvmlDevice_t handle = nullptr;
        nvmlReturn_t status = 0;
        if (nvml.Init == nullptr) {
            control->noSourceReason_ = nvml.problem;
        } else if ((status = nvml.GetHandleByUUID(NvmlUuid(support.deviceUuid).c_str(), &handle)) != kNvmlSuccess) {
            control->noSourceReason_ = nvml.Error("nvmlDeviceGetHandleByUUID", status) +
                                       " (the Vulkan instance needs API version 1.1 for the device UUID)";
        } else {
            control->source_ = Source::kNvml;
            control->nvml_ = std::make_unique<NvmlDevice>();
            control->nvml_->handle = handle;
        }
    } else {
        control->noSourceReason_ = "the layer reads clocks only of NVIDIA GPUs (through NVML) and of CPU devices";
    }
    return control;
}

ClockControl::~ClockControl() = default;

bool ClockControl::CanSetModes() const {
    return source_ == Source::kNvml && LoadNvml().SetGpuLockedClocks != nullptr && LoadNvml().ResetGpuLockedClocks != nullptr;
}

const char* ClockControl::SourceName() const {
    switch (source_) {
        case Source::kNvml: return "NVML";
        case Source::kCpu: return "the CPU's frequency";
        case Source::kNone: break;
    }
    return "none";
}

bool ClockControl::Read(Reading* reading, std::string* problem) {
    if (source_ == Source::kCpu) {
        // lavapipe's "engine" is the CPU; it has no memory clock of its own to report (0: unknown).
        reading->engineMHz = CpufreqMHz("scaling_cur_freq");
        reading->engineMaxMHz = CpufreqMHz("cpuinfo_max_freq");
        if (reading->engineMHz == 0) reading->engineMHz = ProcCpuinfoMHz();
        if (reading->engineMHz == 0) {
            *problem = "the CPU's frequency is unknown (no cpufreq in /sys and no 'cpu MHz' in /proc/cpuinfo)";
            return false;
        }
        return true;
    }
    if (source_ == Source::kNvml) {
        const Nvml& nvml = LoadNvml();
        unsigned value = 0;
        nvmlReturn_t status = nvml.GetClockInfo(nvml_->handle, kNvmlClockGraphics, &value);
        if (status != kNvmlSuccess) return *problem = nvml.Error("nvmlDeviceGetClockInfo", status), false;
        reading->engineMHz = value;
        if (nvml.GetClockInfo(nvml_->handle, kNvmlClockMemory, &value) == kNvmlSuccess) reading->memoryMHz = value;
        if (nvml.GetMaxClockInfo(nvml_->handle, kNvmlClockGraphics, &value) == kNvmlSuccess) reading->engineMaxMHz = value;
        if (nvml.GetMaxClockInfo(nvml_->handle, kNvmlClockMemory, &value) == kNvmlSuccess) reading->memoryMaxMHz = value;
        return true;
    }
    *problem = "this device has no clock source the layer can read: " + noSourceReason_;
    return false;
}

VkResult ClockControl::GetInfo(VkGpaDeviceGetClockInfoAMD* info, std::string* problem) {
    Reading reading;
    if (!Read(&reading, problem)) return VK_ERROR_FEATURE_NOT_PRESENT;
    info->engineClockFrequency = reading.engineMHz;
    info->memoryClockFrequency = reading.memoryMHz;
    info->engineClockRatioToPeak = Ratio(reading.engineMHz, reading.engineMaxMHz);
    info->memoryClockRatioToPeak = Ratio(reading.memoryMHz, reading.memoryMaxMHz);
    return VK_SUCCESS;
}

VkResult ClockControl::LockNvml(VkGpaDeviceClockModeAMD mode, std::string* problem) {
    const Nvml& nvml = LoadNvml();
    const nvmlDevice_t device = nvml_->handle;
    unsigned engine = 0, memory = 0;
    nvmlReturn_t status = kNvmlSuccess;
    // The sustainable engine clock: the default application clock (the GPU's base clock).
    auto sustainable = [&](unsigned* mhz) {
        if (nvml.GetDefaultApplicationsClock == nullptr) return *problem = "NVML lacks nvmlDeviceGetDefaultApplicationsClock", false;
        status = nvml.GetDefaultApplicationsClock(device, kNvmlClockGraphics, mhz);
        if (status != kNvmlSuccess) return *problem = nvml.Error("nvmlDeviceGetDefaultApplicationsClock", status), false;
        return true;
    };
    auto supported = [&](bool memoryClocks, unsigned memoryMHz, std::vector<unsigned>* clocks) {
        unsigned count = 256;
        clocks->assign(count, 0);
        status = memoryClocks ? (nvml.GetSupportedMemoryClocks ? nvml.GetSupportedMemoryClocks(device, &count, clocks->data()) : -1)
                              : (nvml.GetSupportedGraphicsClocks
                                     ? nvml.GetSupportedGraphicsClocks(device, memoryMHz, &count, clocks->data())
                                     : -1);
        if (status != kNvmlSuccess || count == 0) {
            *problem = "NVML did not list the supported clocks (" +
                       (status == -1 ? std::string("function missing") : nvml.Error("nvmlDeviceGetSupported*Clocks", status)) + ")";
            return false;
        }
        clocks->resize(count);
        return true;
    };
    std::vector<unsigned> clocks;
    switch (mode) {
        case VK_GPA_DEVICE_CLOCK_MODE_PROFILING_AMD:
            if (!sustainable(&engine)) return VK_ERROR_FEATURE_NOT_PRESENT;
            break;
        case VK_GPA_DEVICE_CLOCK_MODE_PEAK_AMD:
            status = nvml.GetMaxClockInfo(device, kNvmlClockGraphics, &engine);
            if (status != kNvmlSuccess) return *problem = nvml.Error("nvmlDeviceGetMaxClockInfo", status), VK_ERROR_FEATURE_NOT_PRESENT;
            break;
        case VK_GPA_DEVICE_CLOCK_MODE_MIN_ENGINE_AMD:
            if (nvml.GetMaxClockInfo(device, kNvmlClockMemory, &memory) != kNvmlSuccess || !supported(false, memory, &clocks)) {
                return VK_ERROR_FEATURE_NOT_PRESENT;
            }
            engine = *std::min_element(clocks.begin(), clocks.end());
            break;
        case VK_GPA_DEVICE_CLOCK_MODE_MIN_MEMORY_AMD:
            if (nvml.SetMemoryLockedClocks == nullptr || nvml.ResetMemoryLockedClocks == nullptr) return *problem = "NVML cannot lock memory clocks", VK_ERROR_FEATURE_NOT_PRESENT;
            if (!supported(true, 0, &clocks) || !sustainable(&engine)) return VK_ERROR_FEATURE_NOT_PRESENT;
            memory = *std::min_element(clocks.begin(), clocks.end());
            break;
        default: return VK_ERROR_FEATURE_NOT_PRESENT;
    }
    status = nvml.SetGpuLockedClocks(device, engine, engine);
    if (status != kNvmlSuccess) {
        *problem = nvml.Error("nvmlDeviceSetGpuLockedClocks", status) +
                   " (locking clocks needs root and a GPU and driver that permit it)";
        return VK_ERROR_FEATURE_NOT_PRESENT;
    }
    graphicsLocked_ = true;
    if (memory != 0 && mode == VK_GPA_DEVICE_CLOCK_MODE_MIN_MEMORY_AMD) {
        status = nvml.SetMemoryLockedClocks(device, memory, memory);
        if (status != kNvmlSuccess) {
            *problem = nvml.Error("nvmlDeviceSetMemoryLockedClocks", status);
            return VK_ERROR_FEATURE_NOT_PRESENT;
        }
        memoryLocked_ = true;
    }
    return VK_SUCCESS;
}

VkResult ClockControl::SetMode(VkGpaDeviceClockModeInfoAMD* info, std::string* problem) {
    const char* name = ModeName(info->clockMode);
    if (name == nullptr) {
        *problem = "clockMode " + std::to_string(static_cast<int>(info->clockMode)) + " is not a VkGpaDeviceClockModeAMD value";
        return VK_ERROR_VALIDATION_FAILED_EXT;
    }
    switch (info->clockMode) {
        case VK_GPA_DEVICE_CLOCK_MODE_QUERY_AMD: {
            Reading reading;
            if (!Read(&reading, problem)) return VK_ERROR_FEATURE_NOT_PRESENT;
            info->engineClockRatioToPeak = Ratio(reading.engineMHz, reading.engineMaxMHz);
            info->memoryClockRatioToPeak = Ratio(reading.memoryMHz, reading.memoryMaxMHz);
            return VK_SUCCESS;
        }
        case VK_GPA_DEVICE_CLOCK_MODE_DEFAULT_AMD: {
            // Only what the layer locked is unlocked: clocks someone else set stay as they are.
            if (graphicsLocked_) LoadNvml().ResetGpuLockedClocks(nvml_->handle);
            if (memoryLocked_) LoadNvml().ResetMemoryLockedClocks(nvml_->handle);
            graphicsLocked_ = memoryLocked_ = false;
            return VK_SUCCESS;
        }
        default: break;
    }
    if (!CanSetModes()) {
        *problem = std::string("clock mode ") + name + " cannot be set on this device: " +
                   (source_ == Source::kCpu ? "it runs on the CPU, whose frequency the layer does not change"
                    : source_ == Source::kNvml ? "this NVML cannot lock clocks"
                                               : noSourceReason_) +
                   "; only DEFAULT and QUERY are available (VkPhysicalDeviceGpaFeaturesAMD::clockModes is VK_FALSE)";
        return VK_ERROR_FEATURE_NOT_PRESENT;
    }
    const VkResult result = LockNvml(info->clockMode, problem);
    if (result != VK_SUCCESS) *problem = std::string("clock mode ") + name + " could not be set: " + *problem;
    return result;
}

}  // namespace ogpa::vklayer
