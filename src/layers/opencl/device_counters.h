// The counters one device lists (CL_DEVICE_PERFORMANCE_COUNTERS_CODEPLAY) and the sensors behind them. Every
// device has the counters of its commands; GPUs that NVML knows have its sensors; CPU devices have the host's
// sensors and perf events where the machine lets the process read them. What is not listed has a reason.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "layers/opencl/cl_headers.h"
#include "layers/opencl/layer_counters.h"
#include "layers/opencl/sensor_sampler.h"

namespace gpa::cl_layer {

// What decides a device's sensors.
struct DeviceFacts {
    cl_device_type type = 0;
    cl_uint vendorId = 0;
    std::optional<std::string> pciAddress;  // "dddd:bb:dd.f", where the driver tells
    std::string name;
};

// Where the sensors are read from (tests point these elsewhere).
struct SensorPaths {
    std::string sysfsRoot = "/sys";
    std::string nvmlLibrary = "libnvidia-ml.so.1";
};

struct DeviceCounters {
    std::vector<CounterId> offered;   // in uuid order
    std::vector<std::string> absent;  // "GPUPower: <why>" for each counter not offered
    SensorSampler sampler;

    bool Offers(cl_uint uuid) const;
    // The list clGetDeviceInfo(CL_DEVICE_PERFORMANCE_COUNTERS_CODEPLAY) returns.
    std::vector<cl_performance_counter_codeplay> Descriptions() const;
};

// The counters of a device with these facts, probing its sensors.
std::unique_ptr<DeviceCounters> BuildDeviceCounters(const DeviceFacts& facts, const SensorPaths& paths = {});

// With OPENGPA_CL_LAYER_LOG=1: which counters the device lists and why the others are absent.
void LogDeviceCounters(const DeviceFacts& facts, const DeviceCounters& counters);

}  // namespace gpa::cl_layer
