/*
 * A C program outside OpenGPA's tree, built with pkg-config against the installed library:
 *   cc gpa_consumer.c $(pkg-config --cflags --libs opengpa-cl) -lOpenCL
 * It times one kernel with GPUTime on the first OpenCL device and prints "GPUTime = <ms> ms".
 */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>

#include "GPUPerfAPI.h"

static const char* kSource =
    "__kernel void scale(__global float* x) { size_t i = get_global_id(0); x[i] = 2.0f * x[i] + 1.0f; }";

#define CHECK_CL(call)                                                          \
    do {                                                                        \
        cl_int e_ = (call);                                                     \
        if (e_ != CL_SUCCESS) {                                                 \
            fprintf(stderr, "%s failed with OpenCL error %d\n", #call, (int)e_); \
            return 1;                                                           \
        }                                                                       \
    } while (0)
#define CHECK_GPA(call)                                                                              \
    do {                                                                                             \
        GPA_Status s_ = (call);                                                                      \
        if (s_ != GPA_STATUS_OK) {                                                                   \
            fprintf(stderr, "%s: %s: %s\n", #call, GPA_GetStatusAsStr(s_), OGPA_GetLastErrorMessage()); \
            return 1;                                                                                \
        }                                                                                            \
    } while (0)

int main(void) {
    cl_platform_id platform;
    cl_device_id device;
    cl_int error;
    CHECK_CL(clGetPlatformIDs(1, &platform, NULL));
    CHECK_CL(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL));
    cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &error);
    CHECK_CL(error);
    cl_command_queue queue = clCreateCommandQueue(context, device, CL_QUEUE_PROFILING_ENABLE, &error);
    CHECK_CL(error);
    cl_program program = clCreateProgramWithSource(context, 1, &kSource, NULL, &error);
    CHECK_CL(error);
    CHECK_CL(clBuildProgram(program, 1, &device, NULL, NULL, NULL));
    cl_kernel kernel = clCreateKernel(program, "scale", &error);
    CHECK_CL(error);
    const size_t count = 1 << 20;
    cl_mem buffer = clCreateBuffer(context, CL_MEM_READ_WRITE, count * sizeof(float), NULL, &error);
    CHECK_CL(error);
    CHECK_CL(clSetKernelArg(kernel, 0, sizeof buffer, &buffer));

    CHECK_GPA(GPA_Initialize());
    CHECK_GPA(GPA_OpenContext((void*)queue, GPA_OPENCONTEXT_DEFAULT_BIT));
    CHECK_GPA(GPA_EnableCounterStr("GPUTime"));
    gpa_uint32 session, passes;
    CHECK_GPA(GPA_BeginSession(&session));
    CHECK_GPA(GPA_GetPassCount(&passes));
    for (gpa_uint32 pass = 0; pass < passes; ++pass) {
        CHECK_GPA(GPA_BeginPass());
        CHECK_GPA(GPA_BeginSample(0));
        CHECK_CL(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &count, NULL, 0, NULL, NULL));
        CHECK_GPA(GPA_EndSample());
        CHECK_GPA(GPA_EndPass());
    }
    CHECK_GPA(GPA_EndSession());
    gpa_uint32 index;
    gpa_float64 milliseconds = 0;
    CHECK_GPA(GPA_GetCounterIndex("GPUTime", &index));
    CHECK_GPA(GPA_GetSampleFloat64(session, 0, index, &milliseconds));
    CHECK_GPA(GPA_CloseContext());
    CHECK_GPA(GPA_Destroy());
    printf("passes = %u\nGPUTime = %.6f ms\n", passes, milliseconds);

    clReleaseMemObject(buffer);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
    return milliseconds > 0 ? 0 : 1;
}
