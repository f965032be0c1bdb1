// The OpenCL API-type enumeration of the .atp timestamp section (first column of every line), published
// in docs/profiler_files.md. Numbers never change once published: new APIs get new numbers.
// Ranges: 0-99 calls that enqueue nothing, 100-199 calls that enqueue a command (a reader recognises the
// enqueue calls by this range), 200-299 reserved for OpenCL extensions.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace gpaprof::ocl {

#define GPAPROF_OPENCL_APIS(X)                                                                              \
    X(clGetPlatformIDs, 0) X(clGetPlatformInfo, 1) X(clGetDeviceIDs, 2) X(clGetDeviceInfo, 3)             \
    X(clCreateContext, 4) X(clCreateContextFromType, 5) X(clRetainContext, 6) X(clReleaseContext, 7)      \
    X(clGetContextInfo, 8) X(clCreateCommandQueue, 9) X(clRetainCommandQueue, 10)                         \
    X(clReleaseCommandQueue, 11) X(clGetCommandQueueInfo, 12) X(clSetCommandQueueProperty, 13)            \
    X(clCreateBuffer, 14) X(clCreateImage2D, 15) X(clCreateImage3D, 16) X(clRetainMemObject, 17)          \
    X(clReleaseMemObject, 18) X(clGetSupportedImageFormats, 19) X(clGetMemObjectInfo, 20)                 \
    X(clGetImageInfo, 21) X(clCreateSampler, 22) X(clRetainSampler, 23) X(clReleaseSampler, 24)           \
    X(clGetSamplerInfo, 25) X(clCreateProgramWithSource, 26) X(clCreateProgramWithBinary, 27)             \
    X(clRetainProgram, 28) X(clReleaseProgram, 29) X(clBuildProgram, 30) X(clUnloadCompiler, 31)          \
    X(clGetProgramInfo, 32) X(clGetProgramBuildInfo, 33) X(clCreateKernel, 34)                            \
    X(clCreateKernelsInProgram, 35) X(clRetainKernel, 36) X(clReleaseKernel, 37) X(clSetKernelArg, 38)    \
    X(clGetKernelInfo, 39) X(clGetKernelWorkGroupInfo, 40) X(clWaitForEvents, 41) X(clGetEventInfo, 42)   \
    X(clRetainEvent, 43) X(clReleaseEvent, 44) X(clGetEventProfilingInfo, 45) X(clFlush, 46)              \
    X(clFinish, 47) X(clGetExtensionFunctionAddress, 48) X(clCreateSubBuffer, 49)                         \
    X(clSetMemObjectDestructorCallback, 50) X(clCreateUserEvent, 51) X(clSetUserEventStatus, 52)          \
    X(clSetEventCallback, 53) X(clCreateSubDevices, 54) X(clRetainDevice, 55) X(clReleaseDevice, 56)      \
    X(clCreateImage, 57) X(clCreateProgramWithBuiltInKernels, 58) X(clCompileProgram, 59)                 \
    X(clLinkProgram, 60) X(clUnloadPlatformCompiler, 61) X(clGetKernelArgInfo, 62)                        \
    X(clGetExtensionFunctionAddressForPlatform, 63) X(clCreateCommandQueueWithProperties, 64)             \
    X(clCreatePipe, 65) X(clGetPipeInfo, 66) X(clSVMAlloc, 67) X(clSVMFree, 68)                           \
    X(clCreateSamplerWithProperties, 69) X(clSetKernelArgSVMPointer, 70) X(clSetKernelExecInfo, 71)       \
    X(clSetDefaultDeviceCommandQueue, 72) X(clGetDeviceAndHostTimer, 73) X(clGetHostTimer, 74)            \
    X(clCreateProgramWithIL, 75) X(clCloneKernel, 76) X(clGetKernelSubGroupInfo, 77)                      \
    X(clSetProgramReleaseCallback, 78) X(clSetProgramSpecializationConstant, 79)                          \
    X(clCreateBufferWithProperties, 80) X(clCreateImageWithProperties, 81)                                \
    X(clSetContextDestructorCallback, 82)                                                                 \
    X(clEnqueueReadBuffer, 100) X(clEnqueueReadBufferRect, 101) X(clEnqueueWriteBuffer, 102)              \
    X(clEnqueueWriteBufferRect, 103) X(clEnqueueCopyBuffer, 104) X(clEnqueueCopyBufferRect, 105)          \
    X(clEnqueueFillBuffer, 106) X(clEnqueueReadImage, 107) X(clEnqueueWriteImage, 108)                    \
    X(clEnqueueCopyImage, 109) X(clEnqueueFillImage, 110) X(clEnqueueCopyImageToBuffer, 111)              \
    X(clEnqueueCopyBufferToImage, 112) X(clEnqueueMapBuffer, 113) X(clEnqueueMapImage, 114)               \
    X(clEnqueueUnmapMemObject, 115) X(clEnqueueMigrateMemObjects, 116) X(clEnqueueNDRangeKernel, 117)     \
    X(clEnqueueTask, 118) X(clEnqueueNativeKernel, 119) X(clEnqueueMarker, 120)                           \
    X(clEnqueueWaitForEvents, 121) X(clEnqueueBarrier, 122) X(clEnqueueMarkerWithWaitList, 123)           \
    X(clEnqueueBarrierWithWaitList, 124) X(clEnqueueSVMFree, 125) X(clEnqueueSVMMemcpy, 126)              \
    X(clEnqueueSVMMemFill, 127) X(clEnqueueSVMMap, 128) X(clEnqueueSVMUnmap, 129)                         \
    X(clEnqueueSVMMigrateMem, 130)

enum class Api : uint32_t {
#define GPAPROF_OPENCL_API_ENUM(name, number) name = number,
    GPAPROF_OPENCL_APIS(GPAPROF_OPENCL_API_ENUM)
#undef GPAPROF_OPENCL_API_ENUM
};

inline constexpr uint32_t kFirstEnqueueApi = 100;
inline constexpr uint32_t kLastEnqueueApi = 199;

inline constexpr bool IsEnqueueApi(uint32_t type) { return type >= kFirstEnqueueApi && type <= kLastEnqueueApi; }
bool IsKernelDispatchApi(uint32_t type);
bool IsDataTransferApi(uint32_t type);

const char* ApiName(Api api);
std::optional<Api> ApiFromName(std::string_view name);
std::optional<Api> ApiFromNumber(uint32_t number);

// Every API of the enumeration, in number order.
const Api* AllApis(size_t* count);

// CL_COMMAND_* values and names (cl_command_type), for the command columns of enqueue lines.
const char* CommandTypeName(uint32_t commandType);

}  // namespace gpaprof::ocl
