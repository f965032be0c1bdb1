/* Runs two kernels to completion, reads the result, then dies: "segv" writes to a page it may not access,
 * "abort" calls abort(). Whatever ran before must be in the files.
 *   crash_mid_run segv|abort [--probe] */
#include <signal.h>
#include <sys/mman.h>

#include "app_common.h"

static const char* kSource =
    "__kernel void first_kernel(__global int* data) { data[get_global_id(0)] = (int)get_global_id(0); }\n"
    "__kernel void second_kernel(__global int* data) { data[get_global_id(0)] *= 2; }\n";

int main(int argc, char** argv) {
    if (AppProbe(argc, argv)) return 0;
    if (argc < 2 || (strcmp(argv[1], "segv") != 0 && strcmp(argv[1], "abort") != 0)) {
        fprintf(stderr, "usage: crash_mid_run segv|abort\n");
        return 2;
    }
    AppDevice app = AppOpenDevice();
    cl_int error = CL_SUCCESS;
    cl_command_queue queue = clCreateCommandQueueWithProperties(app.context, app.device, NULL, &error);
    CHECK(error);
    cl_program program = AppBuild(&app, kSource);
    cl_kernel first = AppKernel(program, "first_kernel");
    cl_kernel second = AppKernel(program, "second_kernel");
    cl_mem buffer = AppBuffer(&app, CL_MEM_READ_WRITE, 256 * sizeof(int), NULL);
    size_t global = 256;
    CHECK(clSetKernelArg(first, 0, sizeof buffer, &buffer));
    CHECK(clSetKernelArg(second, 0, sizeof buffer, &buffer));
    CHECK(clEnqueueNDRangeKernel(queue, first, 1, NULL, &global, NULL, 0, NULL, NULL));
    CHECK(clFinish(queue));
    CHECK(clEnqueueNDRangeKernel(queue, second, 1, NULL, &global, NULL, 0, NULL, NULL));
    CHECK(clFinish(queue));
    int result[256];
    CHECK(clEnqueueReadBuffer(queue, buffer, CL_TRUE, 0, sizeof result, result, 0, NULL, NULL));
    printf("crash_mid_run: result[10] = %d; now %s\n", result[10], argv[1]);
    fflush(stdout);
    if (strcmp(argv[1], "segv") == 0) {
        /* A real access fault (a page without access), which no sanitizer reports before the kernel does. */
        volatile int* forbidden = (volatile int*)mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        *forbidden = 1;
    }
    abort();
}
