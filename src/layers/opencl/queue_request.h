// What an application asks for when it creates a command queue with CL_QUEUE_PERFORMANCE_COUNTERS_CODEPLAY:
// the properties are checked against the device's counters and split into what the driver gets (the same
// properties without the extension's, with CL_QUEUE_PROFILING_ENABLE, which the timing counters need) and
// the counters to collect. Pure data handling, unit-tested without a device.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "layers/opencl/cl_headers.h"
#include "layers/opencl/layer_counters.h"

namespace gpa::cl_layer {

struct QueueRequest {
    bool countersRequested = false;             // the properties name CL_QUEUE_PERFORMANCE_COUNTERS_CODEPLAY
    std::vector<CounterId> enabled;             // in the order of the application's descs
    std::vector<cl_queue_properties> driverProperties;  // zero-terminated; for the driver (counters requested)
    std::vector<cl_queue_properties> appProperties;     // zero-terminated copy of the application's array
    cl_command_queue_properties queueFlags = 0;         // the application's CL_QUEUE_PROPERTIES value
};

// Reads a clCreateCommandQueueWithProperties(KHR) properties array (null: none). `deviceOffers` says whether
// the device lists a uuid. CL_SUCCESS, or CL_INVALID_VALUE with the reason in *problem for a configuration
// the extension cannot accept: a null config, count 0, null descs, a uuid the device does not list, a desc
// with data (this implementation defines no per-counter configuration), the key given twice, or counters on
// an on-device queue.
cl_int ReadQueueRequest(const cl_queue_properties* properties, const std::function<bool(cl_uint)>& deviceOffers,
                        QueueRequest* request, std::string* problem);

}  // namespace gpa::cl_layer
