#include "backends/cuda/device_identity.h"

#include <cstdio>
#include <fstream>
#include <mutex>

#include "backends/cuda/dynamic_library.h"

namespace gpa::cuda {

namespace {

// The few NVML declarations used (nvml.h is not part of the CUDA toolkit everywhere). Layout of
// nvmlPciInfo_t as of nvmlDeviceGetPciInfo_v3.
struct NvmlPciInfo {
    char busIdLegacy[16];
    unsigned int domain;
    unsigned int bus;
    unsigned int device;
    unsigned int pciDeviceId;  // device id in the high 16 bits, vendor id (0x10de) in the low 16 bits
    unsigned int pciSubSystemId;
    char busId[32];
};
using NvmlDevice = void*;
using NvmlInit = int (*)();
using NvmlHandleByBusId = int (*)(const char*, NvmlDevice*);
using NvmlPciInfoQuery = int (*)(NvmlDevice, NvmlPciInfo*);

struct Nvml {
    DynamicLibrary library;
    NvmlHandleByBusId handleByBusId = nullptr;
    NvmlPciInfoQuery pciInfo = nullptr;
    bool ready = false;
};

Nvml& LoadNvml() {
    static Nvml nvml;
    static std::once_flag once;
    std::call_once(once, [] {
        if (!nvml.library.Open({"libnvidia-ml.so.1"}, nullptr)) return;
        auto init = reinterpret_cast<NvmlInit>(nvml.library.Symbol("nvmlInit_v2"));
        nvml.handleByBusId = reinterpret_cast<NvmlHandleByBusId>(nvml.library.Symbol("nvmlDeviceGetHandleByPciBusId_v2"));
        nvml.pciInfo = reinterpret_cast<NvmlPciInfoQuery>(nvml.library.Symbol("nvmlDeviceGetPciInfo_v3"));
        nvml.ready = init != nullptr && nvml.handleByBusId != nullptr && nvml.pciInfo != nullptr && init() == 0;
    });
    return nvml;
}

std::optional<uint32_t> FromNvml(const std::string& busId) {
    Nvml& nvml = LoadNvml();
    if (!nvml.ready) return std::nullopt;
    NvmlDevice device = nullptr;
    if (nvml.handleByBusId(busId.c_str(), &device) != 0) return std::nullopt;
    NvmlPciInfo info{};
    if (nvml.pciInfo(device, &info) != 0) return std::nullopt;
    if ((info.pciDeviceId & 0xffffu) != 0x10deu) return std::nullopt;  // not the layout expected
    return info.pciDeviceId >> 16;
}

std::optional<uint32_t> FromSysfs(const std::string& busId) {
    unsigned domain = 0, bus = 0, slot = 0, function = 0;
    if (std::sscanf(busId.c_str(), "%x:%x:%x.%x", &domain, &bus, &slot, &function) != 4) return std::nullopt;
    char path[96];
    std::snprintf(path, sizeof path, "/sys/bus/pci/devices/%04x:%02x:%02x.%x/device", domain, bus, slot, function);
    std::ifstream file(path);
    unsigned id = 0;
    if (!(file >> std::hex >> id)) return std::nullopt;
    return id;
}

}  // namespace

std::optional<uint32_t> PciDeviceId(const DriverApi& driver, CUdevice device) {
    char busId[64] = {};
    if (driver.cuDeviceGetPCIBusId(busId, sizeof busId, device) != CUDA_SUCCESS) return std::nullopt;
    if (std::optional<uint32_t> id = FromNvml(busId)) return id;
    return FromSysfs(busId);
}

std::string DeviceName(const DriverApi& driver, CUdevice device) {
    char name[256] = {};
    if (driver.cuDeviceGetName(name, sizeof name, device) != CUDA_SUCCESS) return {};
    return name;
}

}  // namespace gpa::cuda
