// The OpenCL entry points the layer implements: one X(name) per cl_icd_dispatch member it fills. The
// dispatch table of the loader route is filled from the four groups below; the preload route exports a
// symbol of each name. A test checks that the list and the filled table agree.
#pragma once

#include "layers/opencl/cl_headers.h"

#define OPENGPA_CL_LAYER_ENTRIES(X)       \
    /* device_entries.cpp */              \
    X(clGetPlatformInfo)                  \
    X(clGetDeviceInfo)                    \
    X(clGetExtensionFunctionAddress)      \
    X(clGetExtensionFunctionAddressForPlatform) \
    /* queue_entries.cpp */               \
    X(clCreateContext)                    \
    X(clCreateContextFromType)            \
    X(clReleaseContext)                   \
    X(clCreateCommandQueue)               \
    X(clCreateCommandQueueWithProperties) \
    X(clGetCommandQueueInfo)              \
    X(clReleaseCommandQueue)              \
    /* enqueue_entries.cpp */             \
    X(clEnqueueReadBuffer)                \
    X(clEnqueueReadBufferRect)            \
    X(clEnqueueWriteBuffer)               \
    X(clEnqueueWriteBufferRect)           \
    X(clEnqueueFillBuffer)                \
    X(clEnqueueCopyBuffer)                \
    X(clEnqueueCopyBufferRect)            \
    X(clEnqueueReadImage)                 \
    X(clEnqueueWriteImage)                \
    X(clEnqueueFillImage)                 \
    X(clEnqueueCopyImage)                 \
    X(clEnqueueCopyImageToBuffer)         \
    X(clEnqueueCopyBufferToImage)         \
    X(clEnqueueMapBuffer)                 \
    X(clEnqueueMapImage)                  \
    X(clEnqueueUnmapMemObject)            \
    X(clEnqueueMigrateMemObjects)         \
    X(clEnqueueNDRangeKernel)             \
    X(clEnqueueTask)                      \
    X(clEnqueueNativeKernel)              \
    X(clEnqueueMarker)                    \
    X(clEnqueueMarkerWithWaitList)        \
    X(clEnqueueBarrierWithWaitList)       \
    X(clEnqueueSVMFree)                   \
    X(clEnqueueSVMMemcpy)                 \
    X(clEnqueueSVMMemFill)                \
    X(clEnqueueSVMMap)                    \
    X(clEnqueueSVMUnmap)                  \
    X(clEnqueueSVMMigrateMem)             \
    /* event_entries.cpp */               \
    X(clGetEventProfilingInfo)            \
    X(clRetainEvent)                      \
    X(clReleaseEvent)                     \
    X(clFinish)                           \
    X(clWaitForEvents)

// Entry points below the layer that it calls without implementing them (the preload route looks these up
// too).
#define OPENGPA_CL_LAYER_CALLS(X)   \
    X(clCreateUserEvent)           \
    X(clGetContextInfo)            \
    X(clGetEventInfo)              \
    X(clGetImageInfo)              \
    X(clGetKernelWorkGroupInfo)    \
    X(clSetEventCallback)          \
    X(clSetUserEventStatus)

namespace gpa::cl_layer {

void FillDeviceEntries(cl_icd_dispatch* table);
void FillQueueEntries(cl_icd_dispatch* table);
void FillEnqueueEntries(cl_icd_dispatch* table);
void FillEventEntries(cl_icd_dispatch* table);

// clCreateCommandQueueWithPropertiesKHR, which the layer provides (clGetExtensionFunctionAddress*).
void* KhrCreateQueueEntry();

}  // namespace gpa::cl_layer
