#include "tools/gpaprof/opencl/codeplay_counters.h"

#include <cstring>

#include "tools/gpaprof/opencl/layer_state.h"

namespace gpaprof::ocl {

namespace {

std::string Name(const cl_performance_counter_codeplay& counter) {
    return std::string(counter.name, strnlen(counter.name, sizeof counter.name));
}

double Value(const cl_performance_counter_result_codeplay& result, cl_uint storage) {
    switch (storage) {
        case CL_PERFORMANCE_COUNTER_RESULT_TYPE_INT32_CODEPLAY: return result.int32;
        case CL_PERFORMANCE_COUNTER_RESULT_TYPE_INT64_CODEPLAY: return static_cast<double>(result.int64);
        case CL_PERFORMANCE_COUNTER_RESULT_TYPE_UINT32_CODEPLAY: return result.uint32;
        case CL_PERFORMANCE_COUNTER_RESULT_TYPE_UINT64_CODEPLAY: return static_cast<double>(result.uint64);
        case CL_PERFORMANCE_COUNTER_RESULT_TYPE_FLOAT32_CODEPLAY: return result.float32;
        default: return result.float64;
    }
}

}  // namespace

std::vector<cl_performance_counter_codeplay> CodeplayCountersOf(cl_device_id device) {
    size_t bytes = 0;
    if (Next().clGetDeviceInfo(device, CL_DEVICE_PERFORMANCE_COUNTERS_CODEPLAY, 0, nullptr, &bytes) != CL_SUCCESS) {
        return {};
    }
    std::vector<cl_performance_counter_codeplay> counters(bytes / sizeof(cl_performance_counter_codeplay));
    if (!counters.empty() &&
        Next().clGetDeviceInfo(device, CL_DEVICE_PERFORMANCE_COUNTERS_CODEPLAY, counters.size() * sizeof counters[0],
                               counters.data(), nullptr) != CL_SUCCESS) {
        return {};
    }
    return counters;
}

bool CodeplayQueueRequest::Prepare(cl_device_id device, const cl_queue_properties* properties,
                                   const std::vector<std::string>& wanted) {
    if (wanted.empty() || !Next().clCreateCommandQueueWithProperties) return false;
    properties_.clear();
    for (size_t i = 0; properties && properties[i] != 0; i += 2) {
        if (properties[i] == CL_QUEUE_PERFORMANCE_COUNTERS_CODEPLAY) return false;
        properties_.push_back(properties[i]);
        properties_.push_back(properties[i + 1]);
    }
    const std::vector<cl_performance_counter_codeplay> offered = CodeplayCountersOf(device);
    for (const std::string& name : wanted) {
        for (const cl_performance_counter_codeplay& counter : offered) {
            if (Name(counter) != name) continue;
            enabled_.push_back(counter);
            descs_.push_back({counter.uuid, nullptr});
        }
    }
    if (descs_.empty()) return false;
    config_ = {static_cast<cl_uint>(descs_.size()), descs_.data()};
    properties_.push_back(CL_QUEUE_PERFORMANCE_COUNTERS_CODEPLAY);
    properties_.push_back(reinterpret_cast<cl_queue_properties>(&config_));
    properties_.push_back(0);
    return true;
}

std::vector<double> CodeplayValues(cl_event event, const std::vector<cl_performance_counter_codeplay>& enabled) {
    std::vector<cl_performance_counter_result_codeplay> results(enabled.size());
    if (enabled.empty() ||
        Next().clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_PERFORMANCE_COUNTERS_CODEPLAY,
                                       results.size() * sizeof results[0], results.data(), nullptr) != CL_SUCCESS) {
        return {};
    }
    std::vector<double> values;
    for (size_t i = 0; i < enabled.size(); ++i) values.push_back(Value(results[i], enabled[i].storage));
    return values;
}

}  // namespace gpaprof::ocl
