// Command queues with counters: clCreateCommandQueueWithProperties and the layer's
// clCreateCommandQueueWithPropertiesKHR accept CL_QUEUE_PERFORMANCE_COUNTERS_CODEPLAY; the queue's info
// answers as the application created it. Contexts are followed for their error callback, through which the
// layer says why it refused a queue (layer_messages.h).
#include <cstring>
#include <string>

#include <dlfcn.h>

#include "layers/opencl/command_tracker.h"
#include "layers/opencl/device_facts.h"
#include "layers/opencl/dispatch.h"
#include "layers/opencl/info_answer.h"
#include "layers/opencl/layer_entries.h"
#include "layers/opencl/layer_messages.h"
#include "layers/opencl/queue_request.h"

namespace gpa::cl_layer {

namespace {

cl_context CL_API_CALL CreateContext(const cl_context_properties* properties, cl_uint deviceCount,
                                     const cl_device_id* devices, ContextNotify notify, void* userData,
                                     cl_int* error) {
    cl_context context = Next().clCreateContext(properties, deviceCount, devices, notify, userData, error);
    RememberContext(context, notify, userData);
    return context;
}

cl_context CL_API_CALL CreateContextFromType(const cl_context_properties* properties, cl_device_type type,
                                             ContextNotify notify, void* userData, cl_int* error) {
    cl_context context = Next().clCreateContextFromType(properties, type, notify, userData, error);
    RememberContext(context, notify, userData);
    return context;
}

cl_int CL_API_CALL ReleaseContext(cl_context context) {
    cl_uint references = 0;
    Next().clGetContextInfo(context, CL_CONTEXT_REFERENCE_COUNT, sizeof references, &references, nullptr);
    const cl_int status = Next().clReleaseContext(context);
    if (status == CL_SUCCESS && references == 1) ForgetContext(context);
    return status;
}

bool NamesCounters(const cl_queue_properties* properties) {
    for (size_t i = 0; properties && properties[i] != 0; i += 2) {
        if (properties[i] == CL_QUEUE_PERFORMANCE_COUNTERS_CODEPLAY) return true;
    }
    return false;
}

// The queue on the driver. A driver without clCreateCommandQueueWithProperties (OpenCL 1.x) gets
// clCreateCommandQueue with what that can express (CL_QUEUE_PROPERTIES).
cl_command_queue CreateOnDriver(cl_context context, cl_device_id device, const cl_queue_properties* properties,
                                cl_int* error) {
    if (Next().clCreateCommandQueueWithProperties) {
        return Next().clCreateCommandQueueWithProperties(context, device, properties, error);
    }
    cl_command_queue_properties flags = 0;
    for (size_t i = 0; properties && properties[i] != 0; i += 2) {
        if (properties[i] != CL_QUEUE_PROPERTIES) {
            Report(context, "clCreateCommandQueueWithProperties: the driver is an OpenCL 1.x driver, whose queues "
                            "take only CL_QUEUE_PROPERTIES");
            if (error) *error = CL_INVALID_VALUE;
            return nullptr;
        }
        flags = properties[i + 1];
    }
    return Next().clCreateCommandQueue(context, device, flags, error);
}

// A queue without counters. Its handle may be one the driver reuses after a queue with counters whose last
// release the layer did not recognise (the driver's own references showed in CL_QUEUE_REFERENCE_COUNT): that
// queue is forgotten now.
cl_command_queue Uncounted(cl_command_queue queue) {
    if (queue) CommandTracker::Get().ForgetQueue(queue);
    return queue;
}

cl_command_queue CL_API_CALL CreateCommandQueue(cl_context context, cl_device_id device,
                                                cl_command_queue_properties properties, cl_int* error) {
    return Uncounted(Next().clCreateCommandQueue(context, device, properties, error));
}

cl_command_queue CL_API_CALL CreateCommandQueueWithProperties(cl_context context, cl_device_id device,
                                                              const cl_queue_properties* properties, cl_int* error) {
    if (!NamesCounters(properties)) return Uncounted(CreateOnDriver(context, device, properties, error));
    auto fail = [&](cl_int status) -> cl_command_queue {
        if (error) *error = status;
        return nullptr;
    };
    const std::shared_ptr<const DeviceCounters> counters = CountersOf(device);
    if (!counters) return fail(CL_INVALID_DEVICE);
    QueueRequest request;
    std::string problem;
    const cl_int check = ReadQueueRequest(
        properties, [&](cl_uint uuid) { return counters->Offers(uuid); }, &request, &problem);
    if (check != CL_SUCCESS) {
        Report(context, "clCreateCommandQueueWithProperties: " + problem);
        return fail(check);
    }
    cl_int status = CL_SUCCESS;
    cl_command_queue queue = CreateOnDriver(context, device, request.driverProperties.data(), &status);
    if (!queue) return fail(status);

    auto counted = std::make_shared<CountedQueue>();
    counted->queue = queue;
    counted->context = context;
    counted->device = counters;
    counted->enabled = request.enabled;
    for (CounterId id : request.enabled) {
        counted->mask.set(IndexOf(id));
        counted->descs.push_back(cl_performance_counter_desc_codeplay{static_cast<cl_uint>(id), nullptr});
    }
    counted->spanCounters = (counted->mask & SpanCounters()).any();
    counted->applicationProfiling = (request.queueFlags & CL_QUEUE_PROFILING_ENABLE) != 0;
    counted->config.count = static_cast<cl_uint>(counted->descs.size());
    counted->config.descs = counted->descs.data();
    counted->properties = request.appProperties;
    for (size_t i = 0; counted->properties[i] != 0; i += 2) {
        if (counted->properties[i] == CL_QUEUE_PERFORMANCE_COUNTERS_CODEPLAY) {
            counted->properties[i + 1] = reinterpret_cast<cl_queue_properties>(&counted->config);
        }
    }
    CommandTracker::Get().AddQueue(counted);
    if (error) *error = CL_SUCCESS;
    return queue;
}

// clCreateCommandQueueWithPropertiesKHR is the core entry point called from the top, so that layers above
// this one (gpaprof's) see the queue being created as they would any other.
cl_command_queue CL_API_CALL CreateCommandQueueWithPropertiesKhr(cl_context context, cl_device_id device,
                                                                 const cl_queue_properties_khr* properties,
                                                                 cl_int* error) {
    using Create = cl_command_queue(CL_API_CALL*)(cl_context, cl_device_id, const cl_queue_properties*, cl_int*);
    static const Create top = [] {
        void* symbol = dlsym(RTLD_DEFAULT, "clCreateCommandQueueWithProperties");
        if (!symbol) {
            if (void* loader = dlopen("libOpenCL.so.1", RTLD_LAZY | RTLD_NOLOAD)) {
                symbol = dlsym(loader, "clCreateCommandQueueWithProperties");
                dlclose(loader);
            }
        }
        return symbol ? reinterpret_cast<Create>(symbol) : &CreateCommandQueueWithProperties;
    }();
    return top(context, device, properties, error);
}

cl_int CL_API_CALL GetCommandQueueInfo(cl_command_queue queue, cl_command_queue_info param, size_t size, void* value,
                                       size_t* sizeRet) {
    const std::shared_ptr<CountedQueue> counted = CommandTracker::Get().Queue(queue);
    if (counted && param == CL_QUEUE_PROPERTIES_ARRAY) {
        return AnswerInfo(counted->properties.data(), counted->properties.size() * sizeof(cl_queue_properties), size,
                          value, sizeRet);
    }
    const cl_int status = Next().clGetCommandQueueInfo(queue, param, size, value, sizeRet);
    if (counted && status == CL_SUCCESS && param == CL_QUEUE_PROPERTIES && value &&
        size >= sizeof(cl_command_queue_properties) && !counted->applicationProfiling) {
        // The layer enabled profiling for its timing counters; the application did not.
        *static_cast<cl_command_queue_properties*>(value) &= ~static_cast<cl_command_queue_properties>(CL_QUEUE_PROFILING_ENABLE);
    }
    return status;
}

cl_int CL_API_CALL ReleaseCommandQueue(cl_command_queue queue) {
    CommandTracker& tracker = CommandTracker::Get();
    tracker.ReleaseDeferred();
    if (!tracker.Queue(queue)) return Next().clReleaseCommandQueue(queue);
    cl_uint references = 0;
    Next().clGetCommandQueueInfo(queue, CL_QUEUE_REFERENCE_COUNT, sizeof references, &references, nullptr);
    const cl_int status = Next().clReleaseCommandQueue(queue);
    if (status == CL_SUCCESS && references == 1) tracker.ForgetQueue(queue);
    return status;
}

}  // namespace

void* KhrCreateQueueEntry() { return reinterpret_cast<void*>(&CreateCommandQueueWithPropertiesKhr); }

void FillQueueEntries(cl_icd_dispatch* table) {
    table->clCreateContext = CreateContext;
    table->clCreateContextFromType = CreateContextFromType;
    table->clReleaseContext = ReleaseContext;
    table->clCreateCommandQueue = CreateCommandQueue;
    table->clCreateCommandQueueWithProperties = CreateCommandQueueWithProperties;
    table->clGetCommandQueueInfo = GetCommandQueueInfo;
    table->clReleaseCommandQueue = ReleaseCommandQueue;
}

}  // namespace gpa::cl_layer
