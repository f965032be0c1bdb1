/* Several kernels on several threads, each thread with its own queue: data transfers of every kind,
 * kernels with and without work-group sizes, local memory, 1D and 2D ranges, non-idempotent kernels
 * (an in-place scale and an atomic counter, so that a dispatch replayed without restoring its memory
 * gives wrong results), perf markers. Checks every result; exit 0 only when all are right.
 * With --svm each thread also increments an SVM allocation in place (through a pointer into it).
 * With --resume, the program calls gpaprofResume() once its setup is done (for gpaprof --startdisabled).
 *   multi_kernel_threads [--threads N] [--iterations N] [--svm] [--resume] [--probe] */
#include <pthread.h>

#include <gpa/gpaprof_markers.h>

#include "app_common.h"

static const char* kSource =
    "__kernel void vector_add(__global const float* a, __global const float* b, __global float* c) {\n"
    "    size_t i = get_global_id(0);\n"
    "    c[i] = a[i] + b[i];\n"
    "}\n"
    "__kernel void scale_in_place(__global float* data, float factor) {\n"
    "    size_t i = get_global_id(0);\n"
    "    data[i] = data[i] * factor;\n"
    "}\n"
    "__kernel void block_sum(__global const float* in, __global float* out, __local float* scratch) {\n"
    "    size_t lid = get_local_id(0);\n"
    "    scratch[lid] = in[get_global_id(0)];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    if (lid == 0) {\n"
    "        float sum = 0.0f;\n"
    "        for (size_t j = 0; j < get_local_size(0); ++j) sum += scratch[j];\n"
    "        out[get_group_id(0)] = sum;\n"
    "    }\n"
    "}\n"
    "__kernel void fill_2d(__global int* out, int width) {\n"
    "    int x = get_global_id(0), y = get_global_id(1);\n"
    "    out[y * width + x] = y * 1000 + x;\n"
    "}\n"
    "__kernel void count_items(__global volatile int* counter) {\n"
    "    atomic_inc(counter);\n"
    "}\n"
    "__kernel void svm_increment(__global int* data) {\n"
    "    data[get_global_id(0)] += 1;\n"
    "}\n";

enum { kCount = 1024, kGroup = 64, kWidth = 32 };

typedef struct {
    AppDevice* app;
    cl_program program;
    int index;
    int iterations;
    int useSvm;
    int failures;
} Worker;

static pthread_mutex_t g_svmCalls = PTHREAD_MUTEX_INITIALIZER;

static void Fail(Worker* worker, const char* what, double got, double expected) {
    fprintf(stderr, "thread %d: %s is %g, expected %g\n", worker->index, what, got, expected);
    worker->failures++;
}

static void* Run(void* argument) {
    Worker* worker = (Worker*)argument;
    AppDevice* app = worker->app;
    cl_int error = CL_SUCCESS;
    cl_command_queue queue = clCreateCommandQueueWithProperties(app->context, app->device, NULL, &error);
    CHECK(error);
    cl_kernel add = AppKernel(worker->program, "vector_add");
    cl_kernel scale = AppKernel(worker->program, "scale_in_place");
    cl_kernel sum = AppKernel(worker->program, "block_sum");
    cl_kernel fill = AppKernel(worker->program, "fill_2d");
    cl_kernel count = AppKernel(worker->program, "count_items");

    float a[kCount], b[kCount], c[kCount], sums[kCount / kGroup];
    for (int i = 0; i < kCount; ++i) {
        a[i] = (float)i;
        b[i] = (float)(2 * i);
    }
    cl_mem bufferA = AppBuffer(app, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof a, a);
    cl_mem bufferB = AppBuffer(app, CL_MEM_READ_ONLY, sizeof b, NULL);
    cl_mem bufferC = AppBuffer(app, CL_MEM_READ_WRITE, sizeof c, NULL);
    cl_mem bufferSums = AppBuffer(app, CL_MEM_WRITE_ONLY, sizeof sums, NULL);
    cl_mem bufferGrid = AppBuffer(app, CL_MEM_WRITE_ONLY, sizeof(int) * kWidth * kWidth, NULL);
    cl_mem bufferCounter = AppBuffer(app, CL_MEM_READ_WRITE, sizeof(int), NULL);
    cl_mem bufferCopy = AppBuffer(app, CL_MEM_READ_WRITE, sizeof c, NULL);

    for (int iteration = 0; iteration < worker->iterations; ++iteration) {
        gpaprofBeginMarker("iteration", "multi_kernel_threads");
        CHECK(clEnqueueWriteBuffer(queue, bufferB, CL_FALSE, 0, sizeof b, b, 0, NULL, NULL));
        const int zero = 0;
        CHECK(clEnqueueFillBuffer(queue, bufferCounter, &zero, sizeof zero, 0, sizeof zero, 0, NULL, NULL));

        size_t global = kCount, local = kGroup;
        CHECK(clSetKernelArg(add, 0, sizeof bufferA, &bufferA));
        CHECK(clSetKernelArg(add, 1, sizeof bufferB, &bufferB));
        CHECK(clSetKernelArg(add, 2, sizeof bufferC, &bufferC));
        CHECK(clEnqueueNDRangeKernel(queue, add, 1, NULL, &global, NULL, 0, NULL, NULL));

        const float factor = 3.0f;
        CHECK(clSetKernelArg(scale, 0, sizeof bufferC, &bufferC));
        CHECK(clSetKernelArg(scale, 1, sizeof factor, &factor));
        cl_event scaled;
        CHECK(clEnqueueNDRangeKernel(queue, scale, 1, NULL, &global, &local, 0, NULL, &scaled));

        CHECK(clSetKernelArg(sum, 0, sizeof bufferC, &bufferC));
        CHECK(clSetKernelArg(sum, 1, sizeof bufferSums, &bufferSums));
        CHECK(clSetKernelArg(sum, 2, sizeof(float) * kGroup, NULL));
        CHECK(clEnqueueNDRangeKernel(queue, sum, 1, NULL, &global, &local, 1, &scaled, NULL));
        CHECK(clReleaseEvent(scaled));

        const int width = kWidth;
        size_t grid[2] = {kWidth, kWidth}, tile[2] = {8, 8};
        CHECK(clSetKernelArg(fill, 0, sizeof bufferGrid, &bufferGrid));
        CHECK(clSetKernelArg(fill, 1, sizeof width, &width));
        CHECK(clEnqueueNDRangeKernel(queue, fill, 2, NULL, grid, tile, 0, NULL, NULL));

        size_t items = 256, group = 32;
        CHECK(clSetKernelArg(count, 0, sizeof bufferCounter, &bufferCounter));
        CHECK(clEnqueueNDRangeKernel(queue, count, 1, NULL, &items, &group, 0, NULL, NULL));

        CHECK(clEnqueueCopyBuffer(queue, bufferC, bufferCopy, 0, 0, sizeof c, 0, NULL, NULL));
        CHECK(clEnqueueReadBuffer(queue, bufferCopy, CL_TRUE, 0, sizeof c, c, 0, NULL, NULL));
        CHECK(clEnqueueReadBuffer(queue, bufferSums, CL_TRUE, 0, sizeof sums, sums, 0, NULL, NULL));
        int counted = 0;
        CHECK(clEnqueueReadBuffer(queue, bufferCounter, CL_TRUE, 0, sizeof counted, &counted, 0, NULL, NULL));
        int* mapped = (int*)clEnqueueMapBuffer(queue, bufferGrid, CL_TRUE, CL_MAP_READ, 0, sizeof(int) * kWidth * kWidth,
                                               0, NULL, NULL, &error);
        CHECK(error);
        if (mapped[5 * kWidth + 7] != 5007) Fail(worker, "grid[5][7]", mapped[5 * kWidth + 7], 5007);
        CHECK(clEnqueueUnmapMemObject(queue, bufferGrid, mapped, 0, NULL, NULL));
        CHECK(clFinish(queue));
        gpaprofEndMarker();

        for (int i = 0; i < kCount; ++i) {
            if (c[i] != 9.0f * (float)i) {
                Fail(worker, "c[i] (scaled once)", c[i], 9.0 * i);
                break;
            }
        }
        for (int g = 0; g < kCount / kGroup; ++g) {
            double expected = 0.0;
            for (int j = 0; j < kGroup; ++j) expected += 9.0 * (g * kGroup + j);
            if (sums[g] != (float)expected) {
                Fail(worker, "block sum", sums[g], expected);
                break;
            }
        }
        if (counted != 256) Fail(worker, "atomic counter (incremented once per item)", counted, 256);
    }

    if (worker->useSvm) {
        /* An SVM allocation incremented in place, reached through a pointer into its middle. */
        /* One thread at a time: NVIDIA's driver (580.159.04, 2026-11-30) returned NULL for some of the clSVMAlloc
         * calls that threads made at once (4 threads: 4 runs of 10), without gpaprof as with it. */
        pthread_mutex_lock(&g_svmCalls);
        int* svm = (int*)clSVMAlloc(app->context, CL_MEM_READ_WRITE, 512 * sizeof(int), 0);
        pthread_mutex_unlock(&g_svmCalls);
        if (!svm) {
            Fail(worker, "clSVMAlloc", 0, 1);
        } else {
            CHECK(clEnqueueSVMMap(queue, CL_TRUE, CL_MAP_WRITE, svm, 512 * sizeof(int), 0, NULL, NULL));
            for (int i = 0; i < 512; ++i) svm[i] = i;
            CHECK(clEnqueueSVMUnmap(queue, svm, 0, NULL, NULL));
            cl_kernel increment = AppKernel(worker->program, "svm_increment");
            CHECK(clSetKernelArgSVMPointer(increment, 0, svm + 256));
            size_t half = 256;
            CHECK(clEnqueueNDRangeKernel(queue, increment, 1, NULL, &half, NULL, 0, NULL, NULL));
            CHECK(clEnqueueSVMMap(queue, CL_TRUE, CL_MAP_READ, svm, 512 * sizeof(int), 0, NULL, NULL));
            if (svm[10] != 10) Fail(worker, "svm[10] (untouched)", svm[10], 10);
            if (svm[300] != 301) Fail(worker, "svm[300] (incremented once)", svm[300], 301);
            CHECK(clEnqueueSVMUnmap(queue, svm, 0, NULL, NULL));
            CHECK(clFinish(queue));
            clReleaseKernel(increment);
            pthread_mutex_lock(&g_svmCalls);
            clSVMFree(app->context, svm);
            pthread_mutex_unlock(&g_svmCalls);
        }
    }

    clReleaseMemObject(bufferA);
    clReleaseMemObject(bufferB);
    clReleaseMemObject(bufferC);
    clReleaseMemObject(bufferSums);
    clReleaseMemObject(bufferGrid);
    clReleaseMemObject(bufferCounter);
    clReleaseMemObject(bufferCopy);
    clReleaseKernel(add);
    clReleaseKernel(scale);
    clReleaseKernel(sum);
    clReleaseKernel(fill);
    clReleaseKernel(count);
    clReleaseCommandQueue(queue);
    return NULL;
}

int main(int argc, char** argv) {
    if (AppProbe(argc, argv)) return 0;
    int threads = 3, iterations = 2, useSvm = 0, resume = 0;
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--svm") == 0) useSvm = 1;
        if (strcmp(argv[i], "--resume") == 0) resume = 1;
    }
    for (int i = 1; i + 1 < argc; ++i) {
        if (strcmp(argv[i], "--threads") == 0) threads = atoi(argv[i + 1]);
        if (strcmp(argv[i], "--iterations") == 0) iterations = atoi(argv[i + 1]);
    }
    if (threads < 1 || threads > 16) threads = 3;
    AppDevice app = AppOpenDevice();
    if (useSvm) {
        /* NVIDIA's OpenCL, among others, has no SVM: say so (the tests read it) and go on without. */
        cl_device_svm_capabilities svm = 0;
        if (clGetDeviceInfo(app.device, CL_DEVICE_SVM_CAPABILITIES, sizeof svm, &svm, NULL) != CL_SUCCESS || svm == 0) {
            printf("multi_kernel_threads: the device has no SVM; --svm ignored\n");
            useSvm = 0;
        }
    }
    gpaprofBeginMarker("setup", "multi_kernel_threads");
    cl_program program = AppBuild(&app, kSource);
    gpaprofEndMarker();
    if (resume) {
        gpaprofResume();
        printf("profiling after resume: %d\n", gpaprofIsProfiling());
    }

    pthread_t ids[16];
    Worker workers[16];
    for (int t = 0; t < threads; ++t) {
        workers[t].app = &app;
        workers[t].program = program;
        workers[t].index = t;
        workers[t].iterations = iterations;
        workers[t].useSvm = useSvm;
        workers[t].failures = 0;
        if (pthread_create(&ids[t], NULL, Run, &workers[t]) != 0) {
            fprintf(stderr, "pthread_create failed\n");
            return 1;
        }
    }
    int failures = 0;
    for (int t = 0; t < threads; ++t) {
        pthread_join(ids[t], NULL);
        failures += workers[t].failures;
    }
    clReleaseProgram(program);
    clReleaseContext(app.context);
    if (failures) {
        fprintf(stderr, "%d wrong results\n", failures);
        return 1;
    }
    printf("multi_kernel_threads: %d threads x %d iterations OK\n", threads, iterations);
    return 0;
}
