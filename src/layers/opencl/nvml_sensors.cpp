#include "layers/opencl/nvml_sensors.h"

#include <dlfcn.h>

namespace gpa::cl_layer {

// The few NVML entry points the layer uses, with NVML's C ABI (nvml.h is not needed to build the layer).
struct NvmlSensors::Api {
    using Return = int;  // nvmlReturn_t; NVML_SUCCESS = 0
    using Device = void*;
    Return (*init)() = nullptr;
    Return (*byPciBusId)(const char*, Device*) = nullptr;
    Return (*powerUsage)(Device, unsigned*) = nullptr;             // milliwatts
    Return (*temperature)(Device, int, unsigned*) = nullptr;      // degrees Celsius
    Return (*clockInfo)(Device, int, unsigned*) = nullptr;        // MHz
    const char* (*errorString)(Return) = nullptr;
    void* library = nullptr;
};

namespace {

constexpr int kTemperatureGpu = 0;  // NVML_TEMPERATURE_GPU
constexpr int kClockSm = 1;         // NVML_CLOCK_SM
constexpr int kClockMemory = 2;     // NVML_CLOCK_MEM

template <typename T>
bool Resolve(void* library, const char* name, T* function) {
    void* symbol = dlsym(library, name);
    *function = reinterpret_cast<T>(symbol);
    return symbol != nullptr;
}

std::string NvmlError(const char* (*errorString)(int), int code) {
    const char* text = errorString ? errorString(code) : nullptr;
    return "NVML error " + std::to_string(code) + (text ? std::string(" (") + text + ")" : std::string());
}

}  // namespace

std::unique_ptr<NvmlSensors> NvmlSensors::Open(const std::string& pciAddress, std::string* whyNot, const char* library) {
    auto api = std::make_unique<Api>();
    api->library = dlopen(library, RTLD_NOW | RTLD_LOCAL);
    if (!api->library) {
        *whyNot = std::string("NVML (") + library + ") cannot be loaded: " + dlerror();
        return nullptr;
    }
    if (!Resolve(api->library, "nvmlInit_v2", &api->init) ||
        !Resolve(api->library, "nvmlDeviceGetHandleByPciBusId_v2", &api->byPciBusId) ||
        !Resolve(api->library, "nvmlDeviceGetPowerUsage", &api->powerUsage) ||
        !Resolve(api->library, "nvmlDeviceGetTemperature", &api->temperature) ||
        !Resolve(api->library, "nvmlDeviceGetClockInfo", &api->clockInfo)) {
        *whyNot = std::string(library) + " lacks an NVML entry point the layer needs";
        dlclose(api->library);
        return nullptr;
    }
    Resolve(api->library, "nvmlErrorString", &api->errorString);
    // nvmlInit_v2 counts its callers; the layer never shuts NVML down (other users in the process may need it).
    if (int code = api->init(); code != 0) {
        *whyNot = "nvmlInit_v2 failed: " + NvmlError(api->errorString, code);
        return nullptr;
    }
    std::unique_ptr<NvmlSensors> sensors(new NvmlSensors());
    if (int code = api->byPciBusId(pciAddress.c_str(), &sensors->device_); code != 0 || !sensors->device_) {
        *whyNot = "NVML has no GPU at PCI address " + pciAddress + ": " + NvmlError(api->errorString, code);
        return nullptr;
    }
    sensors->api_ = std::move(api);
    return sensors;
}

NvmlSensors::~NvmlSensors() = default;  // the library stays loaded: NVML keeps state for the process

bool NvmlSensors::Offers(CounterId counter, std::string* whyNot) const {
    unsigned value = 0;
    int code = -1;
    switch (counter) {
        case CounterId::kGpuPower: code = api_->powerUsage(device_, &value); break;
        case CounterId::kGpuTemperature: code = api_->temperature(device_, kTemperatureGpu, &value); break;
        case CounterId::kGpuSmClock: code = api_->clockInfo(device_, kClockSm, &value); break;
        case CounterId::kGpuMemoryClock: code = api_->clockInfo(device_, kClockMemory, &value); break;
        default:
            if (whyNot) *whyNot = "not an NVML counter";
            return false;
    }
    if (code != 0 && whyNot) *whyNot = "NVML does not answer for this GPU: " + NvmlError(api_->errorString, code);
    return code == 0;
}

std::optional<double> NvmlSensors::Read(CounterId counter) const {
    unsigned value = 0;
    switch (counter) {
        case CounterId::kGpuPower:
            if (api_->powerUsage(device_, &value) != 0) return std::nullopt;
            return value / 1000.0;  // mW
        case CounterId::kGpuTemperature:
            if (api_->temperature(device_, kTemperatureGpu, &value) != 0) return std::nullopt;
            return value + 273.15;  // degrees Celsius
        case CounterId::kGpuSmClock:
            if (api_->clockInfo(device_, kClockSm, &value) != 0) return std::nullopt;
            return value * 1e6;  // MHz
        case CounterId::kGpuMemoryClock:
            if (api_->clockInfo(device_, kClockMemory, &value) != 0) return std::nullopt;
            return value * 1e6;
        default: return std::nullopt;
    }
}

}  // namespace gpa::cl_layer
