/* Creates its queues without CL_QUEUE_PROFILING_ENABLE, the old way and the new way, and checks that it
 * still sees the properties it asked for (gpaprof turns profiling on underneath and hides it).
 *   queue_without_profiling [--probe] */
#include "app_common.h"

static const char* kSource = "__kernel void plain_kernel(__global int* data) { data[get_global_id(0)] += 1; }\n";

static int CheckProperties(cl_command_queue queue, const char* which) {
    cl_command_queue_properties properties = 0;
    CHECK(clGetCommandQueueInfo(queue, CL_QUEUE_PROPERTIES, sizeof properties, &properties, NULL));
    if (properties & CL_QUEUE_PROFILING_ENABLE) {
        fprintf(stderr, "%s: CL_QUEUE_PROPERTIES reports profiling the application did not ask for\n", which);
        return 1;
    }
    return 0;
}

int main(int argc, char** argv) {
    if (AppProbe(argc, argv)) return 0;
    AppDevice app = AppOpenDevice();
    cl_int error = CL_SUCCESS;
    cl_command_queue old = clCreateCommandQueue(app.context, app.device, 0, &error);
    CHECK(error);
    cl_command_queue modern = clCreateCommandQueueWithProperties(app.context, app.device, NULL, &error);
    CHECK(error);
    int failures = CheckProperties(old, "clCreateCommandQueue") + CheckProperties(modern, "clCreateCommandQueueWithProperties");
    cl_program program = AppBuild(&app, kSource);
    cl_kernel kernel = AppKernel(program, "plain_kernel");
    int data[128] = {0};
    cl_mem buffer = AppBuffer(&app, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof data, data);
    size_t global = 128;
    CHECK(clSetKernelArg(kernel, 0, sizeof buffer, &buffer));
    CHECK(clEnqueueNDRangeKernel(old, kernel, 1, NULL, &global, NULL, 0, NULL, NULL));
    CHECK(clFinish(old));
    CHECK(clEnqueueNDRangeKernel(modern, kernel, 1, NULL, &global, NULL, 0, NULL, NULL));
    CHECK(clEnqueueReadBuffer(modern, buffer, CL_TRUE, 0, sizeof data, data, 0, NULL, NULL));
    if (data[0] != 2 || data[127] != 2) {
        fprintf(stderr, "data is %d, expected 2\n", data[0]);
        failures++;
    }
    clReleaseMemObject(buffer);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
    clReleaseCommandQueue(old);
    clReleaseCommandQueue(modern);
    clReleaseContext(app.context);
    if (failures) return 1;
    printf("queue_without_profiling: OK\n");
    return 0;
}
