/*
 * A small OpenCL application for gpaprof to profile (the README's main job): an image pipeline of four
 * kernels run for several frames, with uploads, downloads and perf markers. It knows nothing of
 * gpaprof or GPA: `gpaprof -t -p -O -o out -- image_pipeline_opencl` profiles it unchanged.
 *
 * Usage: image_pipeline_opencl [frames] [width] [height]   (defaults 8 512 512)
 * Runs on the first OpenCL device (CL_DEVICE_TYPE_DEFAULT); exits 1 if a result is wrong.
 */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <gpa/gpaprof_markers.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static const char* kSource =
    "__kernel void generate(__global float* image, int width, int frame) {\n"
    "  int x = get_global_id(0), y = get_global_id(1);\n"
    "  image[y * width + x] = (float)((x * 7 + y * 13 + frame) % 256);\n"
    "}\n"
    "__kernel void blur_rows(__global const float* in, __global float* out, int width) {\n"
    "  int x = get_global_id(0), y = get_global_id(1);\n"
    "  int l = x > 0 ? x - 1 : x, r = x < width - 1 ? x + 1 : x;\n"
    "  out[y * width + x] = (in[y * width + l] + in[y * width + x] + in[y * width + r]) / 3.0f;\n"
    "}\n"
    "__kernel void blur_columns(__global const float* in, __global float* out, int width, int height) {\n"
    "  int x = get_global_id(0), y = get_global_id(1);\n"
    "  int u = y > 0 ? y - 1 : y, d = y < height - 1 ? y + 1 : y;\n"
    "  out[y * width + x] = (in[u * width + x] + in[y * width + x] + in[d * width + x]) / 3.0f;\n"
    "}\n"
    "__kernel void histogram(__global const float* in, __global uint* bins, int count, __local uint* local_bins) {\n"
    "  for (int i = get_local_id(0); i < 16; i += get_local_size(0)) local_bins[i] = 0;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  for (int i = get_global_id(0); i < count; i += get_global_size(0))\n"
    "    atomic_inc(&local_bins[min(15, (int)(in[i] / 16.0f))]);\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  for (int i = get_local_id(0); i < 16; i += get_local_size(0)) atomic_add(&bins[i], local_bins[i]);\n"
    "}\n";

#define CHECK(call)                                                                       \
    do {                                                                                  \
        cl_int check_err_ = (call);                                                       \
        if (check_err_ != CL_SUCCESS) {                                                   \
            fprintf(stderr, "%s failed with OpenCL error %d (line %d)\n", #call, check_err_, __LINE__); \
            exit(2);                                                                      \
        }                                                                                 \
    } while (0)

int main(int argc, char** argv) {
    const int frames = argc > 1 ? atoi(argv[1]) : 8;
    const int width = argc > 2 ? atoi(argv[2]) : 512;
    const int height = argc > 3 ? atoi(argv[3]) : 512;
    const int count = width * height;
    cl_int err;
    cl_platform_id platform;
    cl_device_id device;
    CHECK(clGetPlatformIDs(1, &platform, NULL));
    CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_DEFAULT, 1, &device, NULL));
    char name[256] = "";
    clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof name, name, NULL);
    printf("image_pipeline_opencl: %d frames of %dx%d on %s\n", frames, width, height, name);

    cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK(err);
    cl_command_queue queue = clCreateCommandQueue(context, device, 0, &err);  // no profiling: gpaprof adds it
    CHECK(err);
    cl_program program = clCreateProgramWithSource(context, 1, &kSource, NULL, &err);
    CHECK(err);
    if (clBuildProgram(program, 1, &device, "", NULL, NULL) != CL_SUCCESS) {
        char log[4096] = "";
        clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        fprintf(stderr, "build failed:\n%s\n", log);
        return 2;
    }
    cl_kernel generate = clCreateKernel(program, "generate", &err);
    CHECK(err);
    cl_kernel rows = clCreateKernel(program, "blur_rows", &err);
    CHECK(err);
    cl_kernel columns = clCreateKernel(program, "blur_columns", &err);
    CHECK(err);
    cl_kernel histogram = clCreateKernel(program, "histogram", &err);
    CHECK(err);
    const size_t bytes = sizeof(float) * (size_t)count;
    cl_mem a = clCreateBuffer(context, CL_MEM_READ_WRITE, bytes, NULL, &err);
    CHECK(err);
    cl_mem b = clCreateBuffer(context, CL_MEM_READ_WRITE, bytes, NULL, &err);
    CHECK(err);
    cl_mem bins = clCreateBuffer(context, CL_MEM_READ_WRITE, 16 * sizeof(cl_uint), NULL, &err);
    CHECK(err);

    const size_t global2d[2] = {(size_t)width, (size_t)height};
    const size_t local2d[2] = {16, 16};
    const size_t histogramGlobal = 1024, histogramLocal = 64;
    cl_uint result[16];
    int failures = 0;
    for (int frame = 0; frame < frames; ++frame) {
        gpaprofBeginMarker("frame", "pipeline");
        const cl_uint zeros[16] = {0};
        CHECK(clEnqueueWriteBuffer(queue, bins, CL_FALSE, 0, sizeof zeros, zeros, 0, NULL, NULL));
        CHECK(clSetKernelArg(generate, 0, sizeof a, &a));
        CHECK(clSetKernelArg(generate, 1, sizeof width, &width));
        CHECK(clSetKernelArg(generate, 2, sizeof frame, &frame));
        CHECK(clEnqueueNDRangeKernel(queue, generate, 2, NULL, global2d, local2d, 0, NULL, NULL));
        CHECK(clSetKernelArg(rows, 0, sizeof a, &a));
        CHECK(clSetKernelArg(rows, 1, sizeof b, &b));
        CHECK(clSetKernelArg(rows, 2, sizeof width, &width));
        CHECK(clEnqueueNDRangeKernel(queue, rows, 2, NULL, global2d, local2d, 0, NULL, NULL));
        CHECK(clSetKernelArg(columns, 0, sizeof b, &b));
        CHECK(clSetKernelArg(columns, 1, sizeof a, &a));
        CHECK(clSetKernelArg(columns, 2, sizeof width, &width));
        CHECK(clSetKernelArg(columns, 3, sizeof height, &height));
        CHECK(clEnqueueNDRangeKernel(queue, columns, 2, NULL, global2d, local2d, 0, NULL, NULL));
        CHECK(clSetKernelArg(histogram, 0, sizeof a, &a));
        CHECK(clSetKernelArg(histogram, 1, sizeof bins, &bins));
        CHECK(clSetKernelArg(histogram, 2, sizeof count, &count));
        CHECK(clSetKernelArg(histogram, 3, 16 * sizeof(cl_uint), NULL));
        CHECK(clEnqueueNDRangeKernel(queue, histogram, 1, NULL, &histogramGlobal, &histogramLocal, 0, NULL, NULL));
        CHECK(clEnqueueReadBuffer(queue, bins, CL_TRUE, 0, sizeof result, result, 0, NULL, NULL));
        gpaprofEndMarker();
        cl_uint total = 0;
        for (int i = 0; i < 16; ++i) total += result[i];
        if (total != (cl_uint)count) {
            fprintf(stderr, "frame %d: histogram counts %u pixels, expected %d\n", frame, total, count);
            ++failures;
        }
    }
    CHECK(clFinish(queue));
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    clReleaseMemObject(bins);
    clReleaseKernel(generate);
    clReleaseKernel(rows);
    clReleaseKernel(columns);
    clReleaseKernel(histogram);
    clReleaseProgram(program);
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
    printf("image_pipeline_opencl: %s\n", failures == 0 ? "results correct" : "RESULTS WRONG");
    return failures == 0 ? 0 : 1;
}
