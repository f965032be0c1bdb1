// gpaprof -p with the counters of cl_codeplay_performance_counters (docs/opencl_layer.md): where a device
// offers the extension (OpenGPA's OpenCL layer, loaded below this one, gives it to every driver), the names
// given with --counters that are not gpaprof's own are enabled on the application's queues and read from
// each dispatch's event.
#pragma once

#include <string>
#include <vector>

#include "CL/cl_codeplay_performance_counters.h"
#include "tools/gpaprof/opencl/cl_headers.h"

namespace gpaprof::ocl {

// The device's counters of the extension (none without it).
std::vector<cl_performance_counter_codeplay> CodeplayCountersOf(cl_device_id device);

// The properties that create a queue collecting those of `wanted` the device offers, on top of the
// application's properties.
class CodeplayQueueRequest {
public:
    // `properties`: zero-terminated, or null. False when the device offers none of `wanted`, or the
    // application enables counters itself (its choice stands).
    bool Prepare(cl_device_id device, const cl_queue_properties* properties, const std::vector<std::string>& wanted);
    const cl_queue_properties* Properties() const { return properties_.data(); }
    // The counters the queue collects, in enable order.
    const std::vector<cl_performance_counter_codeplay>& Enabled() const { return enabled_; }

private:
    std::vector<cl_queue_properties> properties_;
    std::vector<cl_performance_counter_desc_codeplay> descs_;
    cl_performance_counter_config_codeplay config_{};
    std::vector<cl_performance_counter_codeplay> enabled_;
};

// The value of each of `enabled` (a queue's counters, in enable order) for a finished command; none when
// the results cannot be read.
std::vector<double> CodeplayValues(cl_event event, const std::vector<cl_performance_counter_codeplay>& enabled);

}  // namespace gpaprof::ocl
