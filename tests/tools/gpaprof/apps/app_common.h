/* Shared by gpaprof's end-to-end test programs: device selection, program build, error checks.
 * Every program accepts --probe: exit 0 when an OpenCL device exists, 77 when not (the tests then skip). */
#ifndef GPAPROF_TEST_APP_COMMON_H
#define GPAPROF_TEST_APP_COMMON_H

#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define APP_NO_DEVICE 77

#define CHECK(call)                                                                          \
    do {                                                                                     \
        cl_int check_status_ = (call);                                                       \
        if (check_status_ != CL_SUCCESS) {                                                   \
            fprintf(stderr, "%s:%d: %s failed: %d\n", __FILE__, __LINE__, #call, check_status_); \
            exit(1);                                                                         \
        }                                                                                    \
    } while (0)

typedef struct {
    cl_platform_id platform;
    cl_device_id device;
    cl_context context;
} AppDevice;

/* The first device of the first platform that has one; exits with APP_NO_DEVICE when there is none. */
static inline AppDevice AppOpenDevice(void) {
    AppDevice app;
    memset(&app, 0, sizeof app);
    cl_uint count = 0;
    if (clGetPlatformIDs(0, NULL, &count) != CL_SUCCESS || count == 0) {
        fprintf(stderr, "no OpenCL platform\n");
        exit(APP_NO_DEVICE);
    }
    cl_platform_id platforms[8];
    if (count > 8) count = 8;
    CHECK(clGetPlatformIDs(count, platforms, NULL));
    for (cl_uint i = 0; i < count; ++i) {
        if (clGetDeviceIDs(platforms[i], CL_DEVICE_TYPE_ALL, 1, &app.device, NULL) == CL_SUCCESS) {
            app.platform = platforms[i];
            break;
        }
    }
    if (!app.device) {
        fprintf(stderr, "no OpenCL device\n");
        exit(APP_NO_DEVICE);
    }
    cl_int error = CL_SUCCESS;
    app.context = clCreateContext(NULL, 1, &app.device, NULL, NULL, &error);
    CHECK(error);
    return app;
}

static inline cl_program AppBuild(const AppDevice* app, const char* source) {
    cl_int error = CL_SUCCESS;
    cl_program program = clCreateProgramWithSource(app->context, 1, &source, NULL, &error);
    CHECK(error);
    if (clBuildProgram(program, 1, &app->device, "", NULL, NULL) != CL_SUCCESS) {
        char log[8192] = "";
        clGetProgramBuildInfo(program, app->device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        fprintf(stderr, "build failed:\n%s\n", log);
        exit(1);
    }
    return program;
}

static inline cl_kernel AppKernel(cl_program program, const char* name) {
    cl_int error = CL_SUCCESS;
    cl_kernel kernel = clCreateKernel(program, name, &error);
    CHECK(error);
    return kernel;
}

static inline cl_mem AppBuffer(const AppDevice* app, cl_mem_flags flags, size_t size, void* host) {
    cl_int error = CL_SUCCESS;
    cl_mem buffer = clCreateBuffer(app->context, flags, size, host, &error);
    CHECK(error);
    return buffer;
}

static inline int AppProbe(int argc, char** argv) {
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--probe") == 0) {
            AppDevice app = AppOpenDevice();
            /* The tests hold a CPU device (its clock is the host's) to stricter timing checks. */
            cl_device_type type = 0;
            CHECK(clGetDeviceInfo(app.device, CL_DEVICE_TYPE, sizeof type, &type, NULL));
            printf("device type: %s\n", (type & CL_DEVICE_TYPE_CPU) ? "CPU" : "other");
            clReleaseContext(app.context);
            return 1;
        }
    }
    return 0;
}

#endif
