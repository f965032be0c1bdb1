// What identifies a CUDA device to GPA: its name and PCI device id.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "backends/cuda/cuda_driver_loader.h"

namespace gpa::cuda {

// The PCI device id (e.g. 0x2330 for an H100 SXM) from NVML (libnvidia-ml.so.1, opened at run time) when
// it is installed, else from /sys/bus/pci; nullopt when neither says.
std::optional<uint32_t> PciDeviceId(const DriverApi& driver, CUdevice device);

// "NVIDIA H100 80GB HBM3"; empty when the driver does not say.
std::string DeviceName(const DriverApi& driver, CUdevice device);

}  // namespace gpa::cuda
