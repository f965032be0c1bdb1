/* Runs a kernel, then starts itself again as a child process that runs another kernel, and waits for it:
 * gpaprof must follow the child and write its own files. With --launcher the parent runs no kernel (it only
 * counts the platforms), as launchers such as torchrun do; with --ranks N it starts N children at once, each with
 * RANK set to its index, as torchrun does (for gpaprof --ranks).
 *   spawns_child [--child | --launcher [--ranks N]] [--probe] */
#include <stdlib.h>
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

/* N children at once, RANK=0 .. N-1, each running child_kernel; 0 when all succeed. */
static int LaunchRanks(const char* self, int ranks) {
    fflush(stdout);
    for (int rank = 0; rank < ranks; ++rank) {
        if (fork() == 0) {
            char value[16];
            snprintf(value, sizeof value, "%d", rank);
            setenv("RANK", value, 1);
            char* args[] = {(char*)self, (char*)"--child", NULL};
            execv("/proc/self/exe", args);
            _exit(127);
        }
    }
    int failed = 0;
    for (int rank = 0; rank < ranks; ++rank) {
        int status = 0;
        if (wait(&status) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) failed = 1;
    }
    if (failed) fprintf(stderr, "a rank failed\n");
    printf("spawns_child: launcher %d, %d ranks\n", (int)getpid(), ranks);
    return failed;
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
        if (argc > 3 && strcmp(argv[2], "--ranks") == 0) return LaunchRanks(argv[0], atoi(argv[3]));
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
