/* Runs a kernel, then starts itself again as a child process that runs another kernel, and waits for it:
 * gpaprof must follow the child and write its own files. With --launcher the parent runs no kernel (it only
 * counts the platforms), as launchers such as torchrun do.
 *   spawns_child [--child | --launcher] [--probe] */
#include <sys/wait.h>
#include <unistd.h>

#include "app_common.h"

static const char* kSource = "__kernel void %s(__global int* data) { data[get_global_id(0)] = 7; }\n";

static void RunKernel(const char* name) {
    AppDevice app = AppOpenDevice();
    cl_int error = CL_SUCCESS;
    cl_command_queue queue = clCreateCommandQueueWithProperties(app.context, app.device, NULL, &error);
    CHECK(error);
    char source[256];
    snprintf(source, sizeof source, kSource, name);
    cl_program program = AppBuild(&app, source);
    cl_kernel kernel = AppKernel(program, name);
    cl_mem buffer = AppBuffer(&app, CL_MEM_READ_WRITE, 64 * sizeof(int), NULL);
    CHECK(clSetKernelArg(kernel, 0, sizeof buffer, &buffer));
    size_t global = 64;
    CHECK(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, NULL, 0, NULL, NULL));
    CHECK(clFinish(queue));
    clReleaseMemObject(buffer);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
    clReleaseCommandQueue(queue);
    clReleaseContext(app.context);
}

int main(int argc, char** argv) {
    if (AppProbe(argc, argv)) return 0;
    if (argc > 1 && strcmp(argv[1], "--child") == 0) {
        RunKernel("child_kernel");
        return 0;
    }
    if (argc > 1 && strcmp(argv[1], "--launcher") == 0) {
        cl_uint platforms = 0;
        CHECK(clGetPlatformIDs(0, NULL, &platforms));
    } else {
        RunKernel("parent_kernel");
    }
    fflush(stdout);
    pid_t child = fork();
    if (child == 0) {
        char* args[] = {argv[0], (char*)"--child", NULL};
        execv("/proc/self/exe", args);
        _exit(127);
    }
    int status = 0;
    waitpid(child, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "child failed\n");
        return 1;
    }
    printf("spawns_child: parent %d, child %d\n", (int)getpid(), (int)child);
    return 0;
}
