// Entry points of the OpenCL calls on programs, kernels and events, and the extension entry points
// (traced_objects_internal.h). Each forwards to the next layer, keeps what the profiler needs to know about
// the objects, and writes its trace record.
#include "tools/gpaprof/opencl/traced_objects_internal.h"

#include <cstring>
#include <vector>

#include "tools/gpaprof/opencl/api_call.h"
#include "tools/gpaprof/opencl/enqueue.h"

namespace gpaprof::ocl {
namespace {

using object_entries::HandleArray;

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
    if (ret == CL_SUCCESS && call.agent()) {
        // No value: a __local argument's size, or a NULL memory object. The driver tells them apart where it keeps
        // the kernel's argument information; where it does not, the size counts as local memory.
        bool local = !value;
        cl_kernel_arg_address_qualifier qualifier = 0;
        if (local && Next().clGetKernelArgInfo &&
            Next().clGetKernelArgInfo(kernel, index, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof qualifier, &qualifier,
                                      nullptr) == CL_SUCCESS) {
            local = qualifier == CL_KERNEL_ARG_ADDRESS_LOCAL;
        }
        LayerState::Get().SetKernelArg(kernel, index, size, value, local);
    }
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

void object_entries::FillProgramAndEventEntries(cl_icd_dispatch* table) {
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
