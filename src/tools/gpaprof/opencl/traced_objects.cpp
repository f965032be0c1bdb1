// Entry points of the OpenCL calls that enqueue nothing: platforms, devices, contexts, queues, memory
// objects, samplers, programs, kernels, events. Each forwards to the next layer, keeps what the profiler
// needs to know about the objects, and writes its trace record.
#include "tools/gpaprof/opencl/traced_entries.h"

#include <cstring>
#include <vector>

#include "tools/gpaprof/opencl/api_call.h"
#include "tools/gpaprof/opencl/codeplay_counters.h"
#include "tools/gpaprof/opencl/enqueue.h"
#include "tools/gpaprof/opencl/opencl_counters.h"

namespace gpaprof::ocl {
namespace {

#define FINISH(returnText, ...)                \
    do {                                       \
        if (call.record()) {                   \
            Args a;                            \
            a __VA_ARGS__;                     \
            call.Finish(returnText, a);        \
        }                                      \
    } while (0)

template <typename T>
const void* const* HandleArray(T* const* list) {
    return reinterpret_cast<const void* const*>(list);
}
template <typename T>
const void* const* HandleArray(const T* list) {
    return reinterpret_cast<const void* const*>(list);
}
template <typename T>
const void* const* OutHandle(T* handle) {
    return reinterpret_cast<const void* const*>(handle);
}

cl_uint ReferenceCount(cl_mem memory) {
    cl_uint count = 0;
    Next().clGetMemObjectInfo(memory, CL_MEM_REFERENCE_COUNT, sizeof count, &count, nullptr);
    return count;
}

bool Profiled() {
    agent::Agent* agent = LayerState::Get().agent();
    return agent && (agent->config().trace || agent->config().counters);
}

// The --counters names that may be counters of cl_codeplay_performance_counters (none without -p).
std::vector<std::string> WantedCodeplayCounters(agent::Agent* agent) {
    if (!agent->config().counters) return {};
    return ExtensionCounterNames(agent->config().counterNames);
}

void RememberMemory(cl_mem memory, cl_context context, cl_mem_flags flags, size_t size, cl_mem_object_type type) {
    if (!memory || !LayerState::Get().agent()) return;
    MemoryInfo info;
    info.context = context;
    info.flags = flags;
    info.size = size;
    info.type = type;
    LayerState::Get().AddMemory(memory, info);
}

void RememberImage(cl_mem image, cl_context context, cl_mem_flags flags) {
    if (!image || !LayerState::Get().agent()) return;
    cl_mem_object_type type = CL_MEM_OBJECT_IMAGE2D;
    size_t size = 0;
    Next().clGetMemObjectInfo(image, CL_MEM_TYPE, sizeof type, &type, nullptr);
    Next().clGetMemObjectInfo(image, CL_MEM_SIZE, sizeof size, &size, nullptr);
    RememberMemory(image, context, flags, size, type);
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

// ---- memory objects

cl_mem CL_API_CALL CreateBuffer(cl_context context, cl_mem_flags flags, size_t size, void* host, cl_int* error) {
    TracedCall call(Api::clCreateBuffer);
    const cl_mem ret = call.Run([&] { return Next().clCreateBuffer(context, flags, size, host, error); });
    RememberMemory(ret, context, flags, size, CL_MEM_OBJECT_BUFFER);
    FINISH(HandleText(ret), .Handle(context).Flags(FlagKind::MemFlags, flags).Unsigned(size).Handle(host).OutError(error));
    return ret;
}

cl_mem CL_API_CALL CreateBufferWithProperties(cl_context context, const cl_mem_properties* properties, cl_mem_flags flags,
                                              size_t size, void* host, cl_int* error) {
    TracedCall call(Api::clCreateBufferWithProperties);
    const cl_mem ret =
        call.Run([&] { return Next().clCreateBufferWithProperties(context, properties, flags, size, host, error); });
    RememberMemory(ret, context, flags, size, CL_MEM_OBJECT_BUFFER);
    FINISH(HandleText(ret), .Handle(context).Properties64(EnumKind::MemInfo, properties).Flags(FlagKind::MemFlags, flags)
                                .Unsigned(size).Handle(host).OutError(error));
    return ret;
}

cl_mem CL_API_CALL CreateSubBuffer(cl_mem buffer, cl_mem_flags flags, cl_buffer_create_type type, const void* info,
                                   cl_int* error) {
    TracedCall call(Api::clCreateSubBuffer);
    const cl_mem ret = call.Run([&] { return Next().clCreateSubBuffer(buffer, flags, type, info, error); });
    if (ret && call.agent()) {
        std::optional<MemoryInfo> parent = LayerState::Get().Memory(buffer);
        size_t size = 0;
        Next().clGetMemObjectInfo(ret, CL_MEM_SIZE, sizeof size, &size, nullptr);
        cl_mem_flags effective = flags;
        if (parent && (flags & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY)) == 0) {
            effective |= parent->flags & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY);
        }
        RememberMemory(ret, parent ? parent->context : nullptr, effective, size, CL_MEM_OBJECT_BUFFER);
    }
    std::string region = "NULL";
    if (info && type == CL_BUFFER_CREATE_TYPE_REGION) {
        const auto* r = static_cast<const cl_buffer_region*>(info);
        region = "{" + std::to_string(r->origin) + "," + std::to_string(r->size) + "}";
    }
    FINISH(HandleText(ret), .Handle(buffer).Flags(FlagKind::MemFlags, flags).Enum(EnumKind::BufferCreateType, type)
                                .Text(region).OutError(error));
    return ret;
}

cl_mem CL_API_CALL CreateImage(cl_context context, cl_mem_flags flags, const cl_image_format* format,
                               const cl_image_desc* desc, void* host, cl_int* error) {
    TracedCall call(Api::clCreateImage);
    const cl_mem ret = call.Run([&] { return Next().clCreateImage(context, flags, format, desc, host, error); });
    RememberImage(ret, context, flags);
    FINISH(HandleText(ret), .Handle(context).Flags(FlagKind::MemFlags, flags).ImageFormat(format).ImageDesc(desc)
                                .Handle(host).OutError(error));
    return ret;
}

cl_mem CL_API_CALL CreateImageWithProperties(cl_context context, const cl_mem_properties* properties, cl_mem_flags flags,
                                             const cl_image_format* format, const cl_image_desc* desc, void* host,
                                             cl_int* error) {
    TracedCall call(Api::clCreateImageWithProperties);
    const cl_mem ret = call.Run(
        [&] { return Next().clCreateImageWithProperties(context, properties, flags, format, desc, host, error); });
    RememberImage(ret, context, flags);
    FINISH(HandleText(ret), .Handle(context).Properties64(EnumKind::MemInfo, properties).Flags(FlagKind::MemFlags, flags)
                                .ImageFormat(format).ImageDesc(desc).Handle(host).OutError(error));
    return ret;
}

cl_mem CL_API_CALL CreateImage2D(cl_context context, cl_mem_flags flags, const cl_image_format* format, size_t width,
                                 size_t height, size_t rowPitch, void* host, cl_int* error) {
    TracedCall call(Api::clCreateImage2D);
    const cl_mem ret =
        call.Run([&] { return Next().clCreateImage2D(context, flags, format, width, height, rowPitch, host, error); });
    RememberImage(ret, context, flags);
    FINISH(HandleText(ret), .Handle(context).Flags(FlagKind::MemFlags, flags).ImageFormat(format).Unsigned(width)
                                .Unsigned(height).Unsigned(rowPitch).Handle(host).OutError(error));
    return ret;
}

cl_mem CL_API_CALL CreateImage3D(cl_context context, cl_mem_flags flags, const cl_image_format* format, size_t width,
                                 size_t height, size_t depth, size_t rowPitch, size_t slicePitch, void* host,
                                 cl_int* error) {
    TracedCall call(Api::clCreateImage3D);
    const cl_mem ret = call.Run([&] {
        return Next().clCreateImage3D(context, flags, format, width, height, depth, rowPitch, slicePitch, host, error);
    });
    RememberImage(ret, context, flags);
    FINISH(HandleText(ret), .Handle(context).Flags(FlagKind::MemFlags, flags).ImageFormat(format).Unsigned(width)
                                .Unsigned(height).Unsigned(depth).Unsigned(rowPitch).Unsigned(slicePitch).Handle(host)
                                .OutError(error));
    return ret;
}

cl_mem CL_API_CALL CreatePipe(cl_context context, cl_mem_flags flags, cl_uint packetSize, cl_uint maxPackets,
                              const cl_pipe_properties* properties, cl_int* error) {
    TracedCall call(Api::clCreatePipe);
    const cl_mem ret =
        call.Run([&] { return Next().clCreatePipe(context, flags, packetSize, maxPackets, properties, error); });
    RememberMemory(ret, context, flags, static_cast<size_t>(packetSize) * maxPackets, CL_MEM_OBJECT_PIPE);
    FINISH(HandleText(ret), .Handle(context).Flags(FlagKind::MemFlags, flags).Unsigned(packetSize).Unsigned(maxPackets)
                                .Handle(properties).OutError(error));
    return ret;
}

cl_int CL_API_CALL RetainMemObject(cl_mem memory) {
    TracedCall call(Api::clRetainMemObject);
    const cl_int ret = call.Run([&] { return Next().clRetainMemObject(memory); });
    FINISH(ErrorName(ret), .Handle(memory));
    return ret;
}

cl_int CL_API_CALL ReleaseMemObject(cl_mem memory) {
    TracedCall call(Api::clReleaseMemObject);
    const cl_uint count = call.agent() ? ReferenceCount(memory) : 0;
    const cl_int ret = call.Run([&] { return Next().clReleaseMemObject(memory); });
    if (ret == CL_SUCCESS && count == 1) LayerState::Get().ForgetMemory(memory);
    FINISH(ErrorName(ret), .Handle(memory));
    return ret;
}

cl_int CL_API_CALL GetSupportedImageFormats(cl_context context, cl_mem_flags flags, cl_mem_object_type type,
                                            cl_uint numEntries, cl_image_format* formats, cl_uint* numFormats) {
    TracedCall call(Api::clGetSupportedImageFormats);
    const cl_int ret =
        call.Run([&] { return Next().clGetSupportedImageFormats(context, flags, type, numEntries, formats, numFormats); });
    FINISH(ErrorName(ret), .Handle(context).Flags(FlagKind::MemFlags, flags).Enum(EnumKind::MemObjectType, type)
                               .Unsigned(numEntries).Handle(formats).OutUnsigned(numFormats));
    return ret;
}

cl_int CL_API_CALL GetMemObjectInfo(cl_mem memory, cl_mem_info param, size_t size, void* value, size_t* sizeRet) {
    TracedCall call(Api::clGetMemObjectInfo);
    const cl_int ret = call.Run([&] { return Next().clGetMemObjectInfo(memory, param, size, value, sizeRet); });
    FINISH(ErrorName(ret), .Handle(memory).Enum(EnumKind::MemInfo, param).Unsigned(size)
                               .InfoValue(EnumKind::MemInfo, param, value, size, sizeRet, ret == CL_SUCCESS).OutSize(sizeRet));
    return ret;
}

cl_int CL_API_CALL GetImageInfo(cl_mem image, cl_image_info param, size_t size, void* value, size_t* sizeRet) {
    TracedCall call(Api::clGetImageInfo);
    const cl_int ret = call.Run([&] { return Next().clGetImageInfo(image, param, size, value, sizeRet); });
    FINISH(ErrorName(ret), .Handle(image).Enum(EnumKind::ImageInfo, param).Unsigned(size)
                               .InfoValue(EnumKind::ImageInfo, param, value, size, sizeRet, ret == CL_SUCCESS).OutSize(sizeRet));
    return ret;
}

cl_int CL_API_CALL GetPipeInfo(cl_mem pipe, cl_pipe_info param, size_t size, void* value, size_t* sizeRet) {
    TracedCall call(Api::clGetPipeInfo);
    const cl_int ret = call.Run([&] { return Next().clGetPipeInfo(pipe, param, size, value, sizeRet); });
    FINISH(ErrorName(ret), .Handle(pipe).Enum(EnumKind::PipeInfo, param).Unsigned(size)
                               .InfoValue(EnumKind::PipeInfo, param, value, size, sizeRet, ret == CL_SUCCESS).OutSize(sizeRet));
    return ret;
}

cl_int CL_API_CALL SetMemObjectDestructorCallback(cl_mem memory, void(CL_CALLBACK* notify)(cl_mem, void*), void* userData) {
    TracedCall call(Api::clSetMemObjectDestructorCallback);
    const cl_int ret = call.Run([&] { return Next().clSetMemObjectDestructorCallback(memory, notify, userData); });
    FINISH(ErrorName(ret), .Handle(memory).Handle(reinterpret_cast<const void*>(notify)).Handle(userData));
    return ret;
}

void* CL_API_CALL SVMAlloc(cl_context context, cl_svm_mem_flags flags, size_t size, cl_uint alignment) {
    TracedCall call(Api::clSVMAlloc);
    void* ret = call.Run([&] { return Next().clSVMAlloc(context, flags, size, alignment); });
    if (ret && call.agent()) LayerState::Get().AddSvm(ret, SvmAllocation{context, size});
    FINISH(HandleText(ret), .Handle(context).Flags(FlagKind::SvmMemFlags, flags).Unsigned(size).Unsigned(alignment));
    return ret;
}

void CL_API_CALL SVMFree(cl_context context, void* pointer) {
    TracedCall call(Api::clSVMFree);
    call.Run([&] { Next().clSVMFree(context, pointer); });
    if (call.agent()) LayerState::Get().ForgetSvm(pointer);
    FINISH(std::nullopt, .Handle(context).Handle(pointer));
}

// ---- samplers

cl_sampler CL_API_CALL CreateSampler(cl_context context, cl_bool normalized, cl_addressing_mode addressing,
                                     cl_filter_mode filter, cl_int* error) {
    TracedCall call(Api::clCreateSampler);
    const cl_sampler ret = call.Run([&] { return Next().clCreateSampler(context, normalized, addressing, filter, error); });
    FINISH(HandleText(ret), .Handle(context).Bool(normalized).Enum(EnumKind::AddressingMode, addressing)
                                .Enum(EnumKind::FilterMode, filter).OutError(error));
    return ret;
}

cl_sampler CL_API_CALL CreateSamplerWithProperties(cl_context context, const cl_sampler_properties* properties,
                                                   cl_int* error) {
    TracedCall call(Api::clCreateSamplerWithProperties);
    const cl_sampler ret = call.Run([&] { return Next().clCreateSamplerWithProperties(context, properties, error); });
    FINISH(HandleText(ret), .Handle(context).Properties64(EnumKind::SamplerProperty, properties).OutError(error));
    return ret;
}

cl_int CL_API_CALL RetainSampler(cl_sampler sampler) {
    TracedCall call(Api::clRetainSampler);
    const cl_int ret = call.Run([&] { return Next().clRetainSampler(sampler); });
    FINISH(ErrorName(ret), .Handle(sampler));
    return ret;
}

cl_int CL_API_CALL ReleaseSampler(cl_sampler sampler) {
    TracedCall call(Api::clReleaseSampler);
    const cl_int ret = call.Run([&] { return Next().clReleaseSampler(sampler); });
    FINISH(ErrorName(ret), .Handle(sampler));
    return ret;
}

cl_int CL_API_CALL GetSamplerInfo(cl_sampler sampler, cl_sampler_info param, size_t size, void* value, size_t* sizeRet) {
    TracedCall call(Api::clGetSamplerInfo);
    const cl_int ret = call.Run([&] { return Next().clGetSamplerInfo(sampler, param, size, value, sizeRet); });
    FINISH(ErrorName(ret), .Handle(sampler).Enum(EnumKind::SamplerInfo, param).Unsigned(size)
                               .InfoValue(EnumKind::SamplerInfo, param, value, size, sizeRet, ret == CL_SUCCESS)
                               .OutSize(sizeRet));
    return ret;
}

// ---- programs

cl_program CL_API_CALL CreateProgramWithSource(cl_context context, cl_uint count, const char** strings,
                                               const size_t* lengths, cl_int* error) {
    TracedCall call(Api::clCreateProgramWithSource);
    const cl_program ret = call.Run([&] { return Next().clCreateProgramWithSource(context, count, strings, lengths, error); });
    FINISH(HandleText(ret), .Handle(context).Unsigned(count).Strings(count, strings, lengths).Sizes(count, lengths)
                                .OutError(error));
    return ret;
}

cl_program CL_API_CALL CreateProgramWithBinary(cl_context context, cl_uint numDevices, const cl_device_id* devices,
                                               const size_t* lengths, const unsigned char** binaries,
                                               cl_int* binaryStatus, cl_int* error) {
    TracedCall call(Api::clCreateProgramWithBinary);
    const cl_program ret = call.Run([&] {
        return Next().clCreateProgramWithBinary(context, numDevices, devices, lengths, binaries, binaryStatus, error);
    });
    FINISH(HandleText(ret), .Handle(context).Unsigned(numDevices).Handles(numDevices, HandleArray(devices))
                                .Sizes(numDevices, lengths).Handle(binaries).Handle(binaryStatus).OutError(error));
    return ret;
}

cl_program CL_API_CALL CreateProgramWithBuiltInKernels(cl_context context, cl_uint numDevices,
                                                       const cl_device_id* devices, const char* names, cl_int* error) {
    TracedCall call(Api::clCreateProgramWithBuiltInKernels);
    const cl_program ret =
        call.Run([&] { return Next().clCreateProgramWithBuiltInKernels(context, numDevices, devices, names, error); });
    FINISH(HandleText(ret), .Handle(context).Unsigned(numDevices).Handles(numDevices, HandleArray(devices)).String(names)
                                .OutError(error));
    return ret;
}

cl_program CL_API_CALL CreateProgramWithIL(cl_context context, const void* il, size_t length, cl_int* error) {
    TracedCall call(Api::clCreateProgramWithIL);
    const cl_program ret = call.Run([&] { return Next().clCreateProgramWithIL(context, il, length, error); });
    FINISH(HandleText(ret), .Handle(context).Handle(il).Unsigned(length).OutError(error));
    return ret;
}

cl_int CL_API_CALL RetainProgram(cl_program program) {
    TracedCall call(Api::clRetainProgram);
    const cl_int ret = call.Run([&] { return Next().clRetainProgram(program); });
    FINISH(ErrorName(ret), .Handle(program));
    return ret;
}

cl_int CL_API_CALL ReleaseProgram(cl_program program) {
    TracedCall call(Api::clReleaseProgram);
    const cl_int ret = call.Run([&] { return Next().clReleaseProgram(program); });
    FINISH(ErrorName(ret), .Handle(program));
    return ret;
}

cl_int CL_API_CALL BuildProgram(cl_program program, cl_uint numDevices, const cl_device_id* devices, const char* options,
                                void(CL_CALLBACK* notify)(cl_program, void*), void* userData) {
    TracedCall call(Api::clBuildProgram);
    const cl_int ret =
        call.Run([&] { return Next().clBuildProgram(program, numDevices, devices, options, notify, userData); });
    FINISH(ErrorName(ret), .Handle(program).Unsigned(numDevices).Handles(numDevices, HandleArray(devices)).String(options)
                               .Handle(reinterpret_cast<const void*>(notify)).Handle(userData));
    return ret;
}

cl_int CL_API_CALL CompileProgram(cl_program program, cl_uint numDevices, const cl_device_id* devices,
                                  const char* options, cl_uint numHeaders, const cl_program* headers,
                                  const char** headerNames, void(CL_CALLBACK* notify)(cl_program, void*),
                                  void* userData) {
    TracedCall call(Api::clCompileProgram);
    const cl_int ret = call.Run([&] {
        return Next().clCompileProgram(program, numDevices, devices, options, numHeaders, headers, headerNames, notify,
                                       userData);
    });
    FINISH(ErrorName(ret), .Handle(program).Unsigned(numDevices).Handles(numDevices, HandleArray(devices)).String(options)
                               .Unsigned(numHeaders).Handles(numHeaders, HandleArray(headers))
                               .Strings(numHeaders, headerNames, nullptr).Handle(reinterpret_cast<const void*>(notify))
                               .Handle(userData));
    return ret;
}

cl_program CL_API_CALL LinkProgram(cl_context context, cl_uint numDevices, const cl_device_id* devices,
                                   const char* options, cl_uint numPrograms, const cl_program* programs,
                                   void(CL_CALLBACK* notify)(cl_program, void*), void* userData, cl_int* error) {
    TracedCall call(Api::clLinkProgram);
    const cl_program ret = call.Run([&] {
        return Next().clLinkProgram(context, numDevices, devices, options, numPrograms, programs, notify, userData, error);
    });
    FINISH(HandleText(ret), .Handle(context).Unsigned(numDevices).Handles(numDevices, HandleArray(devices))
                                .String(options).Unsigned(numPrograms).Handles(numPrograms, HandleArray(programs))
                                .Handle(reinterpret_cast<const void*>(notify)).Handle(userData).OutError(error));
    return ret;
}

cl_int CL_API_CALL UnloadCompiler() {
    TracedCall call(Api::clUnloadCompiler);
    const cl_int ret = call.Run([&] { return Next().clUnloadCompiler(); });
    if (call.record()) {
        Args a;
        call.Finish(ErrorName(ret), a);
    }
    return ret;
}

cl_int CL_API_CALL UnloadPlatformCompiler(cl_platform_id platform) {
    TracedCall call(Api::clUnloadPlatformCompiler);
    const cl_int ret = call.Run([&] { return Next().clUnloadPlatformCompiler(platform); });
    FINISH(ErrorName(ret), .Handle(platform));
    return ret;
}

cl_int CL_API_CALL GetProgramInfo(cl_program program, cl_program_info param, size_t size, void* value, size_t* sizeRet) {
    TracedCall call(Api::clGetProgramInfo);
    const cl_int ret = call.Run([&] { return Next().clGetProgramInfo(program, param, size, value, sizeRet); });
    FINISH(ErrorName(ret), .Handle(program).Enum(EnumKind::ProgramInfo, param).Unsigned(size)
                               .InfoValue(EnumKind::ProgramInfo, param, value, size, sizeRet, ret == CL_SUCCESS)
                               .OutSize(sizeRet));
    return ret;
}

cl_int CL_API_CALL GetProgramBuildInfo(cl_program program, cl_device_id device, cl_program_build_info param, size_t size,
                                       void* value, size_t* sizeRet) {
    TracedCall call(Api::clGetProgramBuildInfo);
    const cl_int ret =
        call.Run([&] { return Next().clGetProgramBuildInfo(program, device, param, size, value, sizeRet); });
    FINISH(ErrorName(ret), .Handle(program).Handle(device).Enum(EnumKind::ProgramBuildInfo, param).Unsigned(size)
                               .InfoValue(EnumKind::ProgramBuildInfo, param, value, size, sizeRet, ret == CL_SUCCESS)
                               .OutSize(sizeRet));
    return ret;
}

cl_int CL_API_CALL SetProgramReleaseCallback(cl_program program, void(CL_CALLBACK* notify)(cl_program, void*),
                                             void* userData) {
    TracedCall call(Api::clSetProgramReleaseCallback);
    const cl_int ret = call.Run([&] { return Next().clSetProgramReleaseCallback(program, notify, userData); });
    FINISH(ErrorName(ret), .Handle(program).Handle(reinterpret_cast<const void*>(notify)).Handle(userData));
    return ret;
}

cl_int CL_API_CALL SetProgramSpecializationConstant(cl_program program, cl_uint id, size_t size, const void* value) {
    TracedCall call(Api::clSetProgramSpecializationConstant);
    const cl_int ret = call.Run([&] { return Next().clSetProgramSpecializationConstant(program, id, size, value); });
    FINISH(ErrorName(ret), .Handle(program).Unsigned(id).Unsigned(size).Handle(value));
    return ret;
}

// ---- kernels

std::string KernelName(cl_kernel kernel) {
    size_t size = 0;
    if (Next().clGetKernelInfo(kernel, CL_KERNEL_FUNCTION_NAME, 0, nullptr, &size) != CL_SUCCESS || size == 0) return {};
    std::string name(size, '\0');
    Next().clGetKernelInfo(kernel, CL_KERNEL_FUNCTION_NAME, size, name.data(), nullptr);
    name.resize(strnlen(name.c_str(), size));
    return name;
}

cl_kernel CL_API_CALL CreateKernel(cl_program program, const char* name, cl_int* error) {
    TracedCall call(Api::clCreateKernel);
    const cl_kernel ret = call.Run([&] { return Next().clCreateKernel(program, name, error); });
    if (ret && call.agent()) LayerState::Get().AddKernel(ret, name ? name : KernelName(ret));
    FINISH(HandleText(ret), .Handle(program).String(name).OutError(error));
    return ret;
}

cl_int CL_API_CALL CreateKernelsInProgram(cl_program program, cl_uint numKernels, cl_kernel* kernels,
                                          cl_uint* numKernelsRet) {
    TracedCall call(Api::clCreateKernelsInProgram);
    const cl_int ret = call.Run([&] { return Next().clCreateKernelsInProgram(program, numKernels, kernels, numKernelsRet); });
    cl_uint created = 0;
    if (ret == CL_SUCCESS && kernels) {
        created = numKernelsRet ? std::min(numKernels, *numKernelsRet) : numKernels;
        if (call.agent()) {
            for (cl_uint i = 0; i < created; ++i) LayerState::Get().AddKernel(kernels[i], KernelName(kernels[i]));
        }
    }
    FINISH(ErrorName(ret), .Handle(program).Unsigned(numKernels).OutHandles(HandleArray(kernels), created)
                               .OutUnsigned(numKernelsRet));
    return ret;
}

cl_kernel CL_API_CALL CloneKernel(cl_kernel source, cl_int* error) {
    TracedCall call(Api::clCloneKernel);
    const cl_kernel ret = call.Run([&] { return Next().clCloneKernel(source, error); });
    if (ret && call.agent()) LayerState::Get().CloneKernel(source, ret);
    FINISH(HandleText(ret), .Handle(source).OutError(error));
    return ret;
}

cl_int CL_API_CALL RetainKernel(cl_kernel kernel) {
    TracedCall call(Api::clRetainKernel);
    const cl_int ret = call.Run([&] { return Next().clRetainKernel(kernel); });
    FINISH(ErrorName(ret), .Handle(kernel));
    return ret;
}

cl_int CL_API_CALL ReleaseKernel(cl_kernel kernel) {
    TracedCall call(Api::clReleaseKernel);
    cl_uint count = 0;
    if (call.agent()) Next().clGetKernelInfo(kernel, CL_KERNEL_REFERENCE_COUNT, sizeof count, &count, nullptr);
    const cl_int ret = call.Run([&] { return Next().clReleaseKernel(kernel); });
    if (ret == CL_SUCCESS && count == 1) LayerState::Get().ForgetKernel(kernel);
    FINISH(ErrorName(ret), .Handle(kernel));
    return ret;
}

cl_int CL_API_CALL SetKernelArg(cl_kernel kernel, cl_uint index, size_t size, const void* value) {
    TracedCall call(Api::clSetKernelArg);
    const cl_int ret = call.Run([&] { return Next().clSetKernelArg(kernel, index, size, value); });
    if (ret == CL_SUCCESS && call.agent()) LayerState::Get().SetKernelArg(kernel, index, size, value);
    std::string shown = "NULL";
    if (value && size == sizeof(void*)) {
        const void* pointer = nullptr;
        std::memcpy(&pointer, value, sizeof pointer);
        shown = "[" + HandleText(pointer) + "]";
    } else if (value && size == sizeof(cl_int)) {
        cl_int number;
        std::memcpy(&number, value, sizeof number);
        shown = "[" + std::to_string(number) + "]";
    } else if (value) {
        shown = HandleText(value);
    }
    FINISH(ErrorName(ret), .Handle(kernel).Unsigned(index).Unsigned(size).Text(shown));
    return ret;
}

cl_int CL_API_CALL SetKernelArgSVMPointer(cl_kernel kernel, cl_uint index, const void* value) {
    TracedCall call(Api::clSetKernelArgSVMPointer);
    const cl_int ret = call.Run([&] { return Next().clSetKernelArgSVMPointer(kernel, index, value); });
    if (ret == CL_SUCCESS && call.agent()) LayerState::Get().SetKernelArgSvm(kernel, index, value);
    FINISH(ErrorName(ret), .Handle(kernel).Unsigned(index).Handle(value));
    return ret;
}

cl_int CL_API_CALL SetKernelExecInfo(cl_kernel kernel, cl_kernel_exec_info param, size_t size, const void* value) {
    TracedCall call(Api::clSetKernelExecInfo);
    const cl_int ret = call.Run([&] { return Next().clSetKernelExecInfo(kernel, param, size, value); });
    if (ret == CL_SUCCESS && call.agent() && param == CL_KERNEL_EXEC_INFO_SVM_PTRS && value) {
        const auto* pointers = static_cast<void* const*>(value);
        LayerState::Get().SetKernelExecSvm(kernel, std::vector<void*>(pointers, pointers + size / sizeof(void*)));
    }
    FINISH(ErrorName(ret), .Handle(kernel).Enum(EnumKind::KernelExecInfo, param).Unsigned(size).Handle(value));
    return ret;
}

cl_int CL_API_CALL GetKernelInfo(cl_kernel kernel, cl_kernel_info param, size_t size, void* value, size_t* sizeRet) {
    TracedCall call(Api::clGetKernelInfo);
    const cl_int ret = call.Run([&] { return Next().clGetKernelInfo(kernel, param, size, value, sizeRet); });
    FINISH(ErrorName(ret), .Handle(kernel).Enum(EnumKind::KernelInfo, param).Unsigned(size)
                               .InfoValue(EnumKind::KernelInfo, param, value, size, sizeRet, ret == CL_SUCCESS)
                               .OutSize(sizeRet));
    return ret;
}

cl_int CL_API_CALL GetKernelArgInfo(cl_kernel kernel, cl_uint index, cl_kernel_arg_info param, size_t size, void* value,
                                    size_t* sizeRet) {
    TracedCall call(Api::clGetKernelArgInfo);
    const cl_int ret = call.Run([&] { return Next().clGetKernelArgInfo(kernel, index, param, size, value, sizeRet); });
    FINISH(ErrorName(ret), .Handle(kernel).Unsigned(index).Enum(EnumKind::KernelArgInfo, param).Unsigned(size)
                               .InfoValue(EnumKind::KernelArgInfo, param, value, size, sizeRet, ret == CL_SUCCESS)
                               .OutSize(sizeRet));
    return ret;
}

cl_int CL_API_CALL GetKernelWorkGroupInfo(cl_kernel kernel, cl_device_id device, cl_kernel_work_group_info param,
                                          size_t size, void* value, size_t* sizeRet) {
    TracedCall call(Api::clGetKernelWorkGroupInfo);
    const cl_int ret =
        call.Run([&] { return Next().clGetKernelWorkGroupInfo(kernel, device, param, size, value, sizeRet); });
    FINISH(ErrorName(ret), .Handle(kernel).Handle(device).Enum(EnumKind::KernelWorkGroupInfo, param).Unsigned(size)
                               .InfoValue(EnumKind::KernelWorkGroupInfo, param, value, size, sizeRet, ret == CL_SUCCESS)
                               .OutSize(sizeRet));
    return ret;
}

cl_int CL_API_CALL GetKernelSubGroupInfo(cl_kernel kernel, cl_device_id device, cl_kernel_sub_group_info param,
                                         size_t inputSize, const void* input, size_t size, void* value,
                                         size_t* sizeRet) {
    TracedCall call(Api::clGetKernelSubGroupInfo);
    const cl_int ret = call.Run([&] {
        return Next().clGetKernelSubGroupInfo(kernel, device, param, inputSize, input, size, value, sizeRet);
    });
    FINISH(ErrorName(ret), .Handle(kernel).Handle(device).Enum(EnumKind::KernelSubGroupInfo, param).Unsigned(inputSize)
                               .Handle(input).Unsigned(size)
                               .InfoValue(EnumKind::KernelSubGroupInfo, param, value, size, sizeRet, ret == CL_SUCCESS)
                               .OutSize(sizeRet));
    return ret;
}

// ---- events and synchronisation

cl_int CL_API_CALL WaitForEvents(cl_uint count, const cl_event* events) {
    TracedCall call(Api::clWaitForEvents);
    const cl_int ret = call.Run([&] { return Next().clWaitForEvents(count, events); });
    FINISH(ErrorName(ret), .Unsigned(count).Handles(count, HandleArray(events)));
    return ret;
}

cl_int CL_API_CALL GetEventInfo(cl_event event, cl_event_info param, size_t size, void* value, size_t* sizeRet) {
    TracedCall call(Api::clGetEventInfo);
    const cl_int ret = call.Run([&] { return Next().clGetEventInfo(event, param, size, value, sizeRet); });
    std::string shown;
    if (ret == CL_SUCCESS && value && param == CL_EVENT_COMMAND_TYPE && size >= sizeof(cl_command_type)) {
        cl_command_type type;
        std::memcpy(&type, value, sizeof type);
        shown = "[" + EnumName(EnumKind::CommandType, type) + "]";
    } else if (ret == CL_SUCCESS && value && param == CL_EVENT_COMMAND_EXECUTION_STATUS && size >= sizeof(cl_int)) {
        cl_int status;
        std::memcpy(&status, value, sizeof status);
        const char* names[] = {"CL_COMPLETE", "CL_RUNNING", "CL_SUBMITTED", "CL_QUEUED"};
        shown = "[" + (status >= 0 && status <= 3 ? std::string(names[status]) : ErrorName(status)) + "]";
    }
    if (call.record()) {
        Args a;
        a.Handle(event).Enum(EnumKind::EventInfo, param).Unsigned(size);
        if (shown.empty()) a.InfoValue(EnumKind::EventInfo, param, value, size, sizeRet, ret == CL_SUCCESS);
        else a.Text(shown);
        a.OutSize(sizeRet);
        call.Finish(ErrorName(ret), a);
    }
    return ret;
}

cl_event CL_API_CALL CreateUserEvent(cl_context context, cl_int* error) {
    TracedCall call(Api::clCreateUserEvent);
    const cl_event ret = call.Run([&] { return Next().clCreateUserEvent(context, error); });
    if (ret && call.agent()) LayerState::Get().AddUserEvent(ret);
    FINISH(HandleText(ret), .Handle(context).OutError(error));
    return ret;
}

cl_int CL_API_CALL SetUserEventStatus(cl_event event, cl_int status) {
    TracedCall call(Api::clSetUserEventStatus);
    const cl_int ret = call.Run([&] { return Next().clSetUserEventStatus(event, status); });
    if (ret == CL_SUCCESS && call.agent()) LayerState::Get().UserEventSet(event);
    FINISH(ErrorName(ret), .Handle(event).Text(status == CL_COMPLETE ? std::string("CL_COMPLETE") : ErrorName(status)));
    return ret;
}

cl_int CL_API_CALL SetEventCallback(cl_event event, cl_int type, void(CL_CALLBACK* notify)(cl_event, cl_int, void*),
                                    void* userData) {
    TracedCall call(Api::clSetEventCallback);
    const cl_int ret = call.Run([&] { return Next().clSetEventCallback(event, type, notify, userData); });
    const char* names[] = {"CL_COMPLETE", "CL_RUNNING", "CL_SUBMITTED", "CL_QUEUED"};
    FINISH(ErrorName(ret), .Handle(event).Text(type >= 0 && type <= 3 ? names[type] : std::to_string(type))
                               .Handle(reinterpret_cast<const void*>(notify)).Handle(userData));
    return ret;
}

cl_int CL_API_CALL RetainEvent(cl_event event) {
    TracedCall call(Api::clRetainEvent);
    const cl_int ret = call.Run([&] { return Next().clRetainEvent(event); });
    FINISH(ErrorName(ret), .Handle(event));
    return ret;
}

cl_int CL_API_CALL ReleaseEvent(cl_event event) {
    TracedCall call(Api::clReleaseEvent);
    const cl_int ret = call.Run([&] { return Next().clReleaseEvent(event); });
    FINISH(ErrorName(ret), .Handle(event));
    return ret;
}

cl_int CL_API_CALL GetEventProfilingInfo(cl_event event, cl_profiling_info param, size_t size, void* value,
                                         size_t* sizeRet) {
    TracedCall call(Api::clGetEventProfilingInfo);
    const cl_int ret = call.Run([&] { return Next().clGetEventProfilingInfo(event, param, size, value, sizeRet); });
    FINISH(ErrorName(ret), .Handle(event).Enum(EnumKind::ProfilingInfo, param).Unsigned(size)
                               .InfoValue(EnumKind::ProfilingInfo, param, value, size, sizeRet, ret == CL_SUCCESS)
                               .OutSize(sizeRet));
    return ret;
}

cl_int CL_API_CALL Flush(cl_command_queue queue) {
    TracedCall call(Api::clFlush);
    const cl_int ret = call.Run([&] { return Next().clFlush(queue); });
    FINISH(ErrorName(ret), .Handle(queue));
    return ret;
}

cl_int CL_API_CALL Finish(cl_command_queue queue) {
    TracedCall call(Api::clFinish);
    const cl_int ret = call.Run([&] { return Next().clFinish(queue); });
    FINISH(ErrorName(ret), .Handle(queue));
    return ret;
}

// ---- extension entry points: handed out unchanged (their calls are not traced)

void* CL_API_CALL GetExtensionFunctionAddress(const char* name) {
    TracedCall call(Api::clGetExtensionFunctionAddress);
    void* ret = call.Run([&] { return Next().clGetExtensionFunctionAddress(name); });
    FINISH(HandleText(ret), .String(name));
    return ret;
}

void* CL_API_CALL GetExtensionFunctionAddressForPlatform(cl_platform_id platform, const char* name) {
    TracedCall call(Api::clGetExtensionFunctionAddressForPlatform);
    void* ret = call.Run([&] { return Next().clGetExtensionFunctionAddressForPlatform(platform, name); });
    FINISH(HandleText(ret), .Handle(platform).String(name));
    return ret;
}

#undef FINISH

}  // namespace

void FillObjectEntries(cl_icd_dispatch* table) {
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
    table->clCreateBuffer = CreateBuffer;
    table->clCreateBufferWithProperties = CreateBufferWithProperties;
    table->clCreateSubBuffer = CreateSubBuffer;
    table->clCreateImage = CreateImage;
    table->clCreateImageWithProperties = CreateImageWithProperties;
    table->clCreateImage2D = CreateImage2D;
    table->clCreateImage3D = CreateImage3D;
    table->clCreatePipe = CreatePipe;
    table->clRetainMemObject = RetainMemObject;
    table->clReleaseMemObject = ReleaseMemObject;
    table->clGetSupportedImageFormats = GetSupportedImageFormats;
    table->clGetMemObjectInfo = GetMemObjectInfo;
    table->clGetImageInfo = GetImageInfo;
    table->clGetPipeInfo = GetPipeInfo;
    table->clSetMemObjectDestructorCallback = SetMemObjectDestructorCallback;
    table->clSVMAlloc = SVMAlloc;
    table->clSVMFree = SVMFree;
    table->clCreateSampler = CreateSampler;
    table->clCreateSamplerWithProperties = CreateSamplerWithProperties;
    table->clRetainSampler = RetainSampler;
    table->clReleaseSampler = ReleaseSampler;
    table->clGetSamplerInfo = GetSamplerInfo;
    table->clCreateProgramWithSource = CreateProgramWithSource;
    table->clCreateProgramWithBinary = CreateProgramWithBinary;
    table->clCreateProgramWithBuiltInKernels = CreateProgramWithBuiltInKernels;
    table->clCreateProgramWithIL = CreateProgramWithIL;
    table->clRetainProgram = RetainProgram;
    table->clReleaseProgram = ReleaseProgram;
    table->clBuildProgram = BuildProgram;
    table->clCompileProgram = CompileProgram;
    table->clLinkProgram = LinkProgram;
    table->clUnloadCompiler = UnloadCompiler;
    table->clUnloadPlatformCompiler = UnloadPlatformCompiler;
    table->clGetProgramInfo = GetProgramInfo;
    table->clGetProgramBuildInfo = GetProgramBuildInfo;
    table->clSetProgramReleaseCallback = SetProgramReleaseCallback;
    table->clSetProgramSpecializationConstant = SetProgramSpecializationConstant;
    table->clCreateKernel = CreateKernel;
    table->clCreateKernelsInProgram = CreateKernelsInProgram;
    table->clCloneKernel = CloneKernel;
    table->clRetainKernel = RetainKernel;
    table->clReleaseKernel = ReleaseKernel;
    table->clSetKernelArg = SetKernelArg;
    table->clSetKernelArgSVMPointer = SetKernelArgSVMPointer;
    table->clSetKernelExecInfo = SetKernelExecInfo;
    table->clGetKernelInfo = GetKernelInfo;
    table->clGetKernelArgInfo = GetKernelArgInfo;
    table->clGetKernelWorkGroupInfo = GetKernelWorkGroupInfo;
    table->clGetKernelSubGroupInfo = GetKernelSubGroupInfo;
    table->clWaitForEvents = WaitForEvents;
    table->clGetEventInfo = GetEventInfo;
    table->clCreateUserEvent = CreateUserEvent;
    table->clSetUserEventStatus = SetUserEventStatus;
    table->clSetEventCallback = SetEventCallback;
    table->clRetainEvent = RetainEvent;
    table->clReleaseEvent = ReleaseEvent;
    table->clGetEventProfilingInfo = GetEventProfilingInfo;
    table->clFlush = Flush;
    table->clFinish = Finish;
    table->clGetExtensionFunctionAddress = GetExtensionFunctionAddress;
    table->clGetExtensionFunctionAddressForPlatform = GetExtensionFunctionAddressForPlatform;
}

}  // namespace gpaprof::ocl
