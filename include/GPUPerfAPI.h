/*
 * The GPU Performance API (GPA 2.x interface), implemented by OpenGPA.
 * One shared library per graphics/compute API: libGPUPerfAPICL.so (OpenCL),
 * libGPUPerfAPICUDA.so (CUDA), libGPUPerfAPIVK.so (Vulkan). Link against one, or load it
 * with dlopen and resolve the functions through GPUPerfAPIFunctionTypes.h.
 *
 * GPA_OpenContext takes: OpenCL (void*)cl_command_queue, created with CL_QUEUE_PROFILING_ENABLE;
 * CUDA (void*)CUcontext.
 */
#ifndef GPUPERFAPI_H_
#define GPUPERFAPI_H_

#include "GPUPerfAPITypes.h"

#ifndef GPALIB_DECL
#ifdef __cplusplus
#define GPALIB_DECL extern "C"
#else
#define GPALIB_DECL extern
#endif
#endif

#define GPA_FUNCTION(ReturnType, Name, ParameterList, ArgumentList) GPALIB_DECL ReturnType Name ParameterList;
#define OGPA_EXTENSION_FUNCTION(ReturnType, Name, ParameterList, ArgumentList) GPALIB_DECL ReturnType Name ParameterList;
#include "GPUPerfAPIFunctionList.h"
#undef GPA_FUNCTION
#undef OGPA_EXTENSION_FUNCTION

#endif /* GPUPERFAPI_H_ */
