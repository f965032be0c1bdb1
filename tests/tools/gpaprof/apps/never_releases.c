/* Never releases anything and never waits for its last kernel: returns from main right after enqueueing
 * it. The files must still have the kernel, with its device times. Exits with code 3, which gpaprof must
 * return.
 *   never_releases [--probe] */
#include "app_common.h"

static const char* kSource =
    "__kernel void busy_kernel(__global float* data) {\n"
    "    size_t i = get_global_id(0);\n"
    "    float x = data[i];\n"
    "    for (int k = 0; k < 2000; ++k) x = x * 0.999f + 1.0f;\n"
    "    data[i] = x;\n"
    "}\n";

int main(int argc, char** argv) {
    if (AppProbe(argc, argv)) return 0;
    AppDevice app = AppOpenDevice();
    cl_int error = CL_SUCCESS;
    cl_command_queue queue = clCreateCommandQueueWithProperties(app.context, app.device, NULL, &error);
    CHECK(error);
    cl_program program = AppBuild(&app, kSource);
    cl_kernel kernel = AppKernel(program, "busy_kernel");
    cl_mem buffer = AppBuffer(&app, CL_MEM_READ_WRITE, 4096 * sizeof(float), NULL);
    CHECK(clSetKernelArg(kernel, 0, sizeof buffer, &buffer));
    size_t global = 4096;
    cl_event first;
    CHECK(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, NULL, 0, NULL, &first));
    CHECK(clWaitForEvents(1, &first));
    CHECK(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, NULL, 0, NULL, NULL));
    printf("never_releases: leaving with work in flight\n");
    return 3;
}
