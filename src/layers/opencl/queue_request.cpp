#include "layers/opencl/queue_request.h"

#include <cstdint>

namespace gpa::cl_layer {

namespace {

cl_int Invalid(std::string* problem, std::string why) {
    *problem = std::move(why);
    return CL_INVALID_VALUE;
}

}  // namespace

cl_int ReadQueueRequest(const cl_queue_properties* properties, const std::function<bool(cl_uint)>& deviceOffers,
                        QueueRequest* request, std::string* problem) {
    *request = QueueRequest{};
    const cl_performance_counter_config_codeplay* config = nullptr;
    bool hasFlags = false;
    for (size_t i = 0; properties && properties[i] != 0; i += 2) {
        const cl_queue_properties key = properties[i];
        const cl_queue_properties value = properties[i + 1];
        request->appProperties.push_back(key);
        request->appProperties.push_back(value);
        if (key == CL_QUEUE_PERFORMANCE_COUNTERS_CODEPLAY) {
            if (request->countersRequested) {
                return Invalid(problem, "CL_QUEUE_PERFORMANCE_COUNTERS_CODEPLAY is given twice in the properties");
            }
            request->countersRequested = true;
            config = reinterpret_cast<const cl_performance_counter_config_codeplay*>(static_cast<uintptr_t>(value));
            continue;
        }
        if (key == CL_QUEUE_PROPERTIES) {
            hasFlags = true;
            request->queueFlags = value;
        }
        request->driverProperties.push_back(key);
        request->driverProperties.push_back(value);
    }
    request->appProperties.push_back(0);
    if (!request->countersRequested) return CL_SUCCESS;

    if (config == nullptr) {
        return Invalid(problem, "the value of CL_QUEUE_PERFORMANCE_COUNTERS_CODEPLAY is a null pointer; it must point "
                                "to a cl_performance_counter_config_codeplay");
    }
    if (config->count == 0) {
        return Invalid(problem, "cl_performance_counter_config_codeplay.count is 0; enable at least one counter");
    }
    if (config->descs == nullptr) {
        return Invalid(problem, "cl_performance_counter_config_codeplay.descs is null; it must point to count (" +
                                    std::to_string(config->count) + ") cl_performance_counter_desc_codeplay");
    }
    if ((request->queueFlags & CL_QUEUE_ON_DEVICE) != 0) {
        return Invalid(problem, "performance counters cannot be enabled on an on-device queue (CL_QUEUE_ON_DEVICE): "
                                "its commands are enqueued by kernels, which the layer does not see");
    }
    for (cl_uint k = 0; k < config->count; ++k) {
        const cl_performance_counter_desc_codeplay& desc = config->descs[k];
        const std::optional<CounterId> counter = CounterFromUuid(desc.uuid);
        if (!counter || !deviceOffers(desc.uuid)) {
            return Invalid(problem, "descs[" + std::to_string(k) + "].uuid " + std::to_string(desc.uuid) +
                                        " is not a counter of this device; its uuids are listed by "
                                        "clGetDeviceInfo(CL_DEVICE_PERFORMANCE_COUNTERS_CODEPLAY)");
        }
        if (desc.data != nullptr) {
            return Invalid(problem, "descs[" + std::to_string(k) + "].data is not null; this implementation defines "
                                        "no per-counter configuration, so data must be null");
        }
        request->enabled.push_back(*counter);
    }
    if (hasFlags) {
        for (size_t i = 0; i < request->driverProperties.size(); i += 2) {
            if (request->driverProperties[i] == CL_QUEUE_PROPERTIES) {
                request->driverProperties[i + 1] |= CL_QUEUE_PROFILING_ENABLE;
            }
        }
    } else {
        request->driverProperties.push_back(CL_QUEUE_PROPERTIES);
        request->driverProperties.push_back(CL_QUEUE_PROFILING_ENABLE);
    }
    request->driverProperties.push_back(0);
    return CL_SUCCESS;
}

}  // namespace gpa::cl_layer
