// Entry points of the OpenCL calls on memory objects and samplers (traced_objects_internal.h).
// Each forwards to the next layer, keeps what the profiler needs to know about the objects, and writes its
// trace record.
#include "tools/gpaprof/opencl/traced_objects_internal.h"

#include "tools/gpaprof/opencl/api_call.h"
#include "tools/gpaprof/opencl/enqueue.h"

namespace gpaprof::ocl {
namespace {

cl_uint ReferenceCount(cl_mem memory) {
    cl_uint count = 0;
    Next().clGetMemObjectInfo(memory, CL_MEM_REFERENCE_COUNT, sizeof count, &count, nullptr);
    return count;
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
    void* ret = call.Run([&] {
        std::lock_guard<std::mutex> serialised(LayerState::Get().SvmCalls());
        return Next().clSVMAlloc(context, flags, size, alignment);
    });
    if (ret && call.agent()) LayerState::Get().AddSvm(ret, SvmAllocation{context, size});
    FINISH(HandleText(ret), .Handle(context).Flags(FlagKind::SvmMemFlags, flags).Unsigned(size).Unsigned(alignment));
    return ret;
}

void CL_API_CALL SVMFree(cl_context context, void* pointer) {
    TracedCall call(Api::clSVMFree);
    call.Run([&] {
        std::lock_guard<std::mutex> serialised(LayerState::Get().SvmCalls());
        Next().clSVMFree(context, pointer);
    });
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

#undef FINISH

}  // namespace

void object_entries::FillMemoryObjectEntries(cl_icd_dispatch* table) {
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
}

}  // namespace gpaprof::ocl
