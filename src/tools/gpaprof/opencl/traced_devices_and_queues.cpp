// Entry points of the OpenCL calls on platforms, devices, contexts and command queues (traced_objects_internal.h).
// Each forwards to the next layer, keeps what the profiler needs to know about the objects, and writes its
// trace record.
#include "tools/gpaprof/opencl/traced_objects_internal.h"

#include <cstring>
#include <vector>

#include "tools/gpaprof/opencl/api_call.h"
#include "tools/gpaprof/opencl/codeplay_counters.h"
#include "tools/gpaprof/opencl/enqueue.h"
#include "tools/gpaprof/opencl/opencl_counters.h"

namespace gpaprof::ocl {
namespace {

using object_entries::HandleArray;

bool Profiled() {
    agent::Agent* agent = LayerState::Get().agent();
    return agent && (agent->config().trace || agent->config().counters);
}

// The --counters names that may be counters of cl_codeplay_performance_counters (none without -p).
std::vector<std::string> WantedCodeplayCounters(agent::Agent* agent) {
    if (!agent->config().counters) return {};
    return ExtensionCounterNames(agent->config().counterNames);
}

// ---- platforms and devices

cl_int CL_API_CALL GetPlatformIDs(cl_uint numEntries, cl_platform_id* platforms, cl_uint* numPlatforms) {
    TracedCall call(Api::clGetPlatformIDs);
    const cl_int ret = call.Run([&] { return Next().clGetPlatformIDs(numEntries, platforms, numPlatforms); });
    const cl_uint written = ret == CL_SUCCESS && platforms ? (numPlatforms ? std::min(numEntries, *numPlatforms) : numEntries) : 0;
    FINISH(ErrorName(ret), .Unsigned(numEntries).OutHandles(HandleArray(platforms), written).OutUnsigned(numPlatforms));
    return ret;
}

cl_int CL_API_CALL GetPlatformInfo(cl_platform_id platform, cl_platform_info param, size_t size, void* value,
                                   size_t* sizeRet) {
    TracedCall call(Api::clGetPlatformInfo);
    const cl_int ret = call.Run([&] { return Next().clGetPlatformInfo(platform, param, size, value, sizeRet); });
    FINISH(ErrorName(ret), .Handle(platform).Enum(EnumKind::PlatformInfo, param).Unsigned(size)
                               .InfoValue(EnumKind::PlatformInfo, param, value, size, sizeRet, ret == CL_SUCCESS)
                               .OutSize(sizeRet));
    return ret;
}

cl_int CL_API_CALL GetDeviceIDs(cl_platform_id platform, cl_device_type type, cl_uint numEntries, cl_device_id* devices,
                                cl_uint* numDevices) {
    TracedCall call(Api::clGetDeviceIDs);
    const cl_int ret = call.Run([&] { return Next().clGetDeviceIDs(platform, type, numEntries, devices, numDevices); });
    const cl_uint written = ret == CL_SUCCESS && devices ? (numDevices ? std::min(numEntries, *numDevices) : numEntries) : 0;
    FINISH(ErrorName(ret), .Handle(platform).Flags(FlagKind::DeviceType, type).Unsigned(numEntries)
                               .OutHandles(HandleArray(devices), written).OutUnsigned(numDevices));
    return ret;
}

cl_int CL_API_CALL GetDeviceInfo(cl_device_id device, cl_device_info param, size_t size, void* value, size_t* sizeRet) {
    TracedCall call(Api::clGetDeviceInfo);
    const cl_int ret = call.Run([&] { return Next().clGetDeviceInfo(device, param, size, value, sizeRet); });
    FINISH(ErrorName(ret), .Handle(device).Enum(EnumKind::DeviceInfo, param).Unsigned(size)
                               .InfoValue(EnumKind::DeviceInfo, param, value, size, sizeRet, ret == CL_SUCCESS)
                               .OutSize(sizeRet));
    return ret;
}

cl_int CL_API_CALL CreateSubDevices(cl_device_id device, const cl_device_partition_property* properties,
                                    cl_uint numDevices, cl_device_id* devices, cl_uint* numDevicesRet) {
    TracedCall call(Api::clCreateSubDevices);
    const cl_int ret =
        call.Run([&] { return Next().clCreateSubDevices(device, properties, numDevices, devices, numDevicesRet); });
    const cl_uint written = ret == CL_SUCCESS && devices ? (numDevicesRet ? std::min(numDevices, *numDevicesRet) : numDevices) : 0;
    FINISH(ErrorName(ret), .Handle(device).Properties(EnumKind::PartitionProperty, properties).Unsigned(numDevices)
                               .OutHandles(HandleArray(devices), written).OutUnsigned(numDevicesRet));
    return ret;
}

cl_int CL_API_CALL RetainDevice(cl_device_id device) {
    TracedCall call(Api::clRetainDevice);
    const cl_int ret = call.Run([&] { return Next().clRetainDevice(device); });
    FINISH(ErrorName(ret), .Handle(device));
    return ret;
}

cl_int CL_API_CALL ReleaseDevice(cl_device_id device) {
    TracedCall call(Api::clReleaseDevice);
    const cl_int ret = call.Run([&] { return Next().clReleaseDevice(device); });
    FINISH(ErrorName(ret), .Handle(device));
    return ret;
}

cl_int CL_API_CALL GetDeviceAndHostTimer(cl_device_id device, cl_ulong* deviceTimestamp, cl_ulong* hostTimestamp) {
    TracedCall call(Api::clGetDeviceAndHostTimer);
    const cl_int ret = call.Run([&] { return Next().clGetDeviceAndHostTimer(device, deviceTimestamp, hostTimestamp); });
    FINISH(ErrorName(ret), .Handle(device).Text(deviceTimestamp ? "[" + std::to_string(*deviceTimestamp) + "]" : "NULL")
                               .Text(hostTimestamp ? "[" + std::to_string(*hostTimestamp) + "]" : "NULL"));
    return ret;
}

cl_int CL_API_CALL GetHostTimer(cl_device_id device, cl_ulong* hostTimestamp) {
    TracedCall call(Api::clGetHostTimer);
    const cl_int ret = call.Run([&] { return Next().clGetHostTimer(device, hostTimestamp); });
    FINISH(ErrorName(ret), .Handle(device).Text(hostTimestamp ? "[" + std::to_string(*hostTimestamp) + "]" : "NULL"));
    return ret;
}

// ---- contexts

cl_context CL_API_CALL CreateContext(const cl_context_properties* properties, cl_uint numDevices,
                                     const cl_device_id* devices,
                                     void(CL_CALLBACK* notify)(const char*, const void*, size_t, void*), void* userData,
                                     cl_int* error) {
    TracedCall call(Api::clCreateContext);
    const cl_context ret =
        call.Run([&] { return Next().clCreateContext(properties, numDevices, devices, notify, userData, error); });
    if (ret && call.agent()) LayerState::Get().AddContext(ret);
    FINISH(HandleText(ret), .Properties(EnumKind::ContextProperty, properties).Unsigned(numDevices)
                                .Handles(numDevices, HandleArray(devices)).Handle(reinterpret_cast<const void*>(notify))
                                .Handle(userData).OutError(error));
    return ret;
}

cl_context CL_API_CALL CreateContextFromType(const cl_context_properties* properties, cl_device_type type,
                                             void(CL_CALLBACK* notify)(const char*, const void*, size_t, void*),
                                             void* userData, cl_int* error) {
    TracedCall call(Api::clCreateContextFromType);
    const cl_context ret =
        call.Run([&] { return Next().clCreateContextFromType(properties, type, notify, userData, error); });
    if (ret && call.agent()) LayerState::Get().AddContext(ret);
    FINISH(HandleText(ret), .Properties(EnumKind::ContextProperty, properties).Flags(FlagKind::DeviceType, type)
                                .Handle(reinterpret_cast<const void*>(notify)).Handle(userData).OutError(error));
    return ret;
}

cl_int CL_API_CALL RetainContext(cl_context context) {
    TracedCall call(Api::clRetainContext);
    const cl_int ret = call.Run([&] { return Next().clRetainContext(context); });
    FINISH(ErrorName(ret), .Handle(context));
    return ret;
}

cl_int CL_API_CALL ReleaseContext(cl_context context) {
    TracedCall call(Api::clReleaseContext);
    const cl_int ret = call.Run([&] { return Next().clReleaseContext(context); });
    FINISH(ErrorName(ret), .Handle(context));
    return ret;
}

cl_int CL_API_CALL GetContextInfo(cl_context context, cl_context_info param, size_t size, void* value, size_t* sizeRet) {
    TracedCall call(Api::clGetContextInfo);
    const cl_int ret = call.Run([&] { return Next().clGetContextInfo(context, param, size, value, sizeRet); });
    FINISH(ErrorName(ret), .Handle(context).Enum(EnumKind::ContextInfo, param).Unsigned(size)
                               .InfoValue(EnumKind::ContextInfo, param, value, size, sizeRet, ret == CL_SUCCESS)
                               .OutSize(sizeRet));
    return ret;
}

cl_int CL_API_CALL SetContextDestructorCallback(cl_context context, void(CL_CALLBACK* notify)(cl_context, void*),
                                                void* userData) {
    TracedCall call(Api::clSetContextDestructorCallback);
    const cl_int ret = call.Run([&] { return Next().clSetContextDestructorCallback(context, notify, userData); });
    FINISH(ErrorName(ret), .Handle(context).Handle(reinterpret_cast<const void*>(notify)).Handle(userData));
    return ret;
}

// ---- command queues: profiling is turned on for every queue, so that commands have device times

cl_command_queue CL_API_CALL CreateCommandQueue(cl_context context, cl_device_id device,
                                                cl_command_queue_properties properties, cl_int* error) {
    TracedCall call(Api::clCreateCommandQueue);
    const bool force = Profiled() && !(properties & CL_QUEUE_PROFILING_ENABLE);
    // --counters naming counters of cl_codeplay_performance_counters: the queue collects those its device offers.
    const cl_queue_properties flags[] = {CL_QUEUE_PROPERTIES, properties | (force ? CL_QUEUE_PROFILING_ENABLE : 0), 0};
    CodeplayQueueRequest codeplay;
    const bool counting = call.agent() && codeplay.Prepare(device, flags, WantedCodeplayCounters(call.agent()));
    bool counted = false;
    cl_int status = CL_SUCCESS;
    cl_command_queue ret = call.Run([&] {
        cl_command_queue queue = nullptr;
        if (counting) queue = Next().clCreateCommandQueueWithProperties(context, device, codeplay.Properties(), &status);
        counted = queue != nullptr;
        if (!queue) {
            queue = Next().clCreateCommandQueue(context, device, properties | (force ? CL_QUEUE_PROFILING_ENABLE : 0),
                                                &status);
        }
        if (!queue && force) queue = Next().clCreateCommandQueue(context, device, properties, &status);
        return queue;
    });
    if (error) *error = status;
    if (ret && call.agent()) {
        LayerState::Get().AddQueue(ret, force, counted ? codeplay.Enabled() : std::vector<cl_performance_counter_codeplay>{});
        if (force && !LayerState::Get().Queue(ret)->profiling) {
            call.agent()->Note("the device refused CL_QUEUE_PROFILING_ENABLE; commands of queue " + HandleText(ret) +
                               " have no device times");
        }
    }
    FINISH(HandleText(ret), .Handle(context).Handle(device).Flags(FlagKind::QueueProperties, properties).OutError(error));
    return ret;
}

cl_command_queue CL_API_CALL CreateCommandQueueWithProperties(cl_context context, cl_device_id device,
                                                              const cl_queue_properties* properties, cl_int* error) {
    TracedCall call(Api::clCreateCommandQueueWithProperties);
    // The application's properties with CL_QUEUE_PROFILING_ENABLE added (not for on-device queues).
    std::vector<cl_queue_properties> forced;
    bool force = Profiled();
    bool hasProperties = false;
    if (properties) {
        for (size_t i = 0; properties[i] != 0; i += 2) {
            cl_queue_properties value = properties[i + 1];
            if (properties[i] == CL_QUEUE_PROPERTIES) {
                hasProperties = true;
                if (value & (CL_QUEUE_PROFILING_ENABLE | CL_QUEUE_ON_DEVICE)) force = false;
                value |= CL_QUEUE_PROFILING_ENABLE;
            }
            forced.push_back(properties[i]);
            forced.push_back(value);
        }
    }
    if (!hasProperties) {
        forced.push_back(CL_QUEUE_PROPERTIES);
        forced.push_back(CL_QUEUE_PROFILING_ENABLE);
    }
    forced.push_back(0);
    // --counters naming counters of cl_codeplay_performance_counters: the queue collects those its device offers.
    CodeplayQueueRequest codeplay;
    const bool counting = call.agent() && codeplay.Prepare(device, force ? forced.data() : properties,
                                                           WantedCodeplayCounters(call.agent()));
    bool counted = false;
    cl_int status = CL_SUCCESS;
    cl_command_queue ret = call.Run([&] {
        cl_command_queue queue = nullptr;
        if (counting) queue = Next().clCreateCommandQueueWithProperties(context, device, codeplay.Properties(), &status);
        counted = queue != nullptr;
        if (!queue) {
            queue = Next().clCreateCommandQueueWithProperties(context, device, force ? forced.data() : properties, &status);
        }
        if (!queue && force) queue = Next().clCreateCommandQueueWithProperties(context, device, properties, &status);
        return queue;
    });
    if (error) *error = status;
    if (ret && call.agent()) {
        LayerState::Get().AddQueue(ret, force, counted ? codeplay.Enabled() : std::vector<cl_performance_counter_codeplay>{});
    }
    FINISH(HandleText(ret), .Handle(context).Handle(device).Properties64(EnumKind::QueueProperty, properties).OutError(error));
    return ret;
}

cl_int CL_API_CALL RetainCommandQueue(cl_command_queue queue) {
    TracedCall call(Api::clRetainCommandQueue);
    const cl_int ret = call.Run([&] { return Next().clRetainCommandQueue(queue); });
    FINISH(ErrorName(ret), .Handle(queue));
    return ret;
}

cl_int CL_API_CALL ReleaseCommandQueue(cl_command_queue queue) {
    TracedCall call(Api::clReleaseCommandQueue);
    cl_uint count = 0;
    if (call.agent()) Next().clGetCommandQueueInfo(queue, CL_QUEUE_REFERENCE_COUNT, sizeof count, &count, nullptr);
    const cl_int ret = call.Run([&] { return Next().clReleaseCommandQueue(queue); });
    if (ret == CL_SUCCESS && count == 1) LayerState::Get().ForgetQueue(queue);
    FINISH(ErrorName(ret), .Handle(queue));
    return ret;
}

cl_int CL_API_CALL GetCommandQueueInfo(cl_command_queue queue, cl_command_queue_info param, size_t size, void* value,
                                       size_t* sizeRet) {
    TracedCall call(Api::clGetCommandQueueInfo);
    const cl_int ret = call.Run([&] { return Next().clGetCommandQueueInfo(queue, param, size, value, sizeRet); });
    if (ret == CL_SUCCESS && param == CL_QUEUE_PROPERTIES && value && size >= sizeof(cl_command_queue_properties) &&
        call.agent()) {
        // The application sees the properties it asked for.
        std::optional<QueueInfo> info = LayerState::Get().Queue(queue);
        if (info && info->forcedProfiling) {
            cl_command_queue_properties properties;
            std::memcpy(&properties, value, sizeof properties);
            properties &= ~static_cast<cl_command_queue_properties>(CL_QUEUE_PROFILING_ENABLE);
            std::memcpy(value, &properties, sizeof properties);
        }
    }
    FINISH(ErrorName(ret), .Handle(queue).Enum(EnumKind::QueueInfo, param).Unsigned(size)
                               .InfoValue(EnumKind::QueueInfo, param, value, size, sizeRet, ret == CL_SUCCESS)
                               .OutSize(sizeRet));
    return ret;
}

cl_int CL_API_CALL SetCommandQueueProperty(cl_command_queue queue, cl_command_queue_properties properties,
                                           cl_bool enable, cl_command_queue_properties* old) {
    TracedCall call(Api::clSetCommandQueueProperty);
    // Profiling stays on: only other properties are passed on when the application turns profiling off.
    cl_command_queue_properties passed = properties;
    if (!enable && Profiled()) passed &= ~static_cast<cl_command_queue_properties>(CL_QUEUE_PROFILING_ENABLE);
    const cl_int ret = call.Run([&] { return Next().clSetCommandQueueProperty(queue, passed, enable, old); });
    FINISH(ErrorName(ret), .Handle(queue).Flags(FlagKind::QueueProperties, properties).Bool(enable)
                               .Text(old ? "[" + FlagNames(FlagKind::QueueProperties, *old) + "]" : "NULL"));
    return ret;
}

cl_int CL_API_CALL SetDefaultDeviceCommandQueue(cl_context context, cl_device_id device, cl_command_queue queue) {
    TracedCall call(Api::clSetDefaultDeviceCommandQueue);
    const cl_int ret = call.Run([&] { return Next().clSetDefaultDeviceCommandQueue(context, device, queue); });
    FINISH(ErrorName(ret), .Handle(context).Handle(device).Handle(queue));
    return ret;
}

#undef FINISH

}  // namespace

void object_entries::FillDeviceAndQueueEntries(cl_icd_dispatch* table) {
    table->clGetPlatformIDs = GetPlatformIDs;
    table->clGetPlatformInfo = GetPlatformInfo;
    table->clGetDeviceIDs = GetDeviceIDs;
    table->clGetDeviceInfo = GetDeviceInfo;
    table->clCreateSubDevices = CreateSubDevices;
    table->clRetainDevice = RetainDevice;
    table->clReleaseDevice = ReleaseDevice;
    table->clGetDeviceAndHostTimer = GetDeviceAndHostTimer;
    table->clGetHostTimer = GetHostTimer;
    table->clCreateContext = CreateContext;
    table->clCreateContextFromType = CreateContextFromType;
    table->clRetainContext = RetainContext;
    table->clReleaseContext = ReleaseContext;
    table->clGetContextInfo = GetContextInfo;
    table->clSetContextDestructorCallback = SetContextDestructorCallback;
    table->clCreateCommandQueue = CreateCommandQueue;
    table->clCreateCommandQueueWithProperties = CreateCommandQueueWithProperties;
    table->clRetainCommandQueue = RetainCommandQueue;
    table->clReleaseCommandQueue = ReleaseCommandQueue;
    table->clGetCommandQueueInfo = GetCommandQueueInfo;
    table->clSetCommandQueueProperty = SetCommandQueueProperty;
    table->clSetDefaultDeviceCommandQueue = SetDefaultDeviceCommandQueue;
}

}  // namespace gpaprof::ocl
