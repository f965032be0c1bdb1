// NVIDIA GPU sensors through NVML (libnvidia-ml.so.1, loaded at run time: the layer neither needs nor links
// it elsewhere): board power, temperature, SM and memory clocks of the GPU at one PCI address.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "layers/opencl/layer_counters.h"

namespace gpa::cl_layer {

class NvmlSensors {
public:
    // The GPU at "dddd:bb:dd.f" (hex), or null with the reason (no NVML, NVML failed to start, no such GPU).
    // `library` is the NVML to load (tests load a stand-in).
    static std::unique_ptr<NvmlSensors> Open(const std::string& pciAddress, std::string* whyNot,
                                             const char* library = "libnvidia-ml.so.1");
    ~NvmlSensors();
    NvmlSensors(const NvmlSensors&) = delete;
    NvmlSensors& operator=(const NvmlSensors&) = delete;

    // Whether NVML answered the counter's query when the GPU was opened (GPUPower, GPUTemperature,
    // GPUSMClock, GPUMemoryClock); the reason otherwise.
    bool Offers(CounterId counter, std::string* whyNot = nullptr) const;
    // The counter's current value in its unit (W, K, Hz); null when NVML does not answer.
    std::optional<double> Read(CounterId counter) const;

private:
    struct Api;
    NvmlSensors() = default;

    std::unique_ptr<Api> api_;
    void* device_ = nullptr;  // nvmlDevice_t
};

}  // namespace gpa::cl_layer
