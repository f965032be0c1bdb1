// The devices the application uses, as the layer learns them through the table below it: what decides
// their sensors, and their counters (built at a device's first use and kept for the process).
#pragma once

#include <memory>
#include <optional>

#include "layers/opencl/device_counters.h"

namespace gpa::cl_layer {

// The facts of an OpenCL device; null for an invalid device.
std::optional<DeviceFacts> QueryDeviceFacts(cl_device_id device);

// A device's counters; null for an invalid device.
std::shared_ptr<const DeviceCounters> CountersOf(cl_device_id device);

}  // namespace gpa::cl_layer
