/* OpenCL features an unknown application may use: an out-of-order queue with event dependencies, a kernel
 * waiting for a user event set later, clEnqueueTask, images, sub-buffers, host-pointer buffers, event
 * callbacks, a second context, marker and barrier commands. Checks its results; exit 0 when all are right.
 *   mixed_features [--probe] */
#include <pthread.h>

#include "app_common.h"

static const char* kSource =
    "__kernel void add_one(__global int* data) { data[get_global_id(0)] += 1; }\n"
    "__kernel void single_task(__global int* data) { data[0] = 4242; }\n"
    "__constant sampler_t kNearest = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;\n"
    "__kernel void copy_image(__read_only image2d_t in, __write_only image2d_t out) {\n"
    "    int2 at = (int2)(get_global_id(0), get_global_id(1));\n"
    "    write_imagef(out, at, read_imagef(in, kNearest, at) * 2.0f);\n"
    "}\n";

static volatile int g_callbacks = 0;
static void CL_CALLBACK Completed(cl_event event, cl_int status, void* data) {
    (void)event;
    (void)data;
    if (status == CL_COMPLETE) __atomic_add_fetch(&g_callbacks, 1, __ATOMIC_SEQ_CST);
}

int main(int argc, char** argv) {
    if (AppProbe(argc, argv)) return 0;
    AppDevice app = AppOpenDevice();
    int failures = 0;
    cl_int error = CL_SUCCESS;
    cl_queue_properties properties[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
    cl_command_queue queue = clCreateCommandQueueWithProperties(app.context, app.device, properties, &error);
    CHECK(error);
    cl_program program = AppBuild(&app, kSource);
    cl_kernel addOne = AppKernel(program, "add_one");
    cl_kernel task = AppKernel(program, "single_task");

    /* Host-pointer buffer and a sub-buffer of it; a chain of dependent commands on an out-of-order queue. */
    int host[256];
    for (int i = 0; i < 256; ++i) host[i] = i;
    cl_mem whole = AppBuffer(&app, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, sizeof host, host);
    cl_buffer_region region = {128 * sizeof(int), 128 * sizeof(int)};
    cl_mem upper = clCreateSubBuffer(whole, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region, &error);
    CHECK(error);
    cl_event gate = clCreateUserEvent(app.context, &error);
    CHECK(error);
    size_t count = 128;
    cl_event first, second, third;
    CHECK(clSetKernelArg(addOne, 0, sizeof upper, &upper));
    CHECK(clEnqueueNDRangeKernel(queue, addOne, 1, NULL, &count, NULL, 1, &gate, &first));
    CHECK(clSetEventCallback(first, CL_COMPLETE, Completed, NULL));
    CHECK(clEnqueueNDRangeKernel(queue, addOne, 1, NULL, &count, NULL, 1, &first, &second));
    CHECK(clSetKernelArg(task, 0, sizeof whole, &whole));
    CHECK(clEnqueueTask(queue, task, 1, &second, &third));
    CHECK(clSetUserEventStatus(gate, CL_COMPLETE));
    cl_event marker;
    CHECK(clEnqueueMarkerWithWaitList(queue, 1, &third, &marker));
    CHECK(clEnqueueBarrierWithWaitList(queue, 1, &marker, NULL));
    int result[256];
    CHECK(clEnqueueReadBuffer(queue, whole, CL_TRUE, 0, sizeof result, result, 1, &marker, NULL));
    if (result[0] != 4242) { fprintf(stderr, "task result %d\n", result[0]); failures++; }
    if (result[5] != 5) { fprintf(stderr, "result[5] %d\n", result[5]); failures++; }
    if (result[200] != 202) { fprintf(stderr, "result[200] %d, expected 202\n", result[200]); failures++; }

    /* Images, when the device has them. */
    cl_bool images = CL_FALSE;
    CHECK(clGetDeviceInfo(app.device, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, NULL));
    if (images) {
        cl_image_format format = {CL_RGBA, CL_FLOAT};
        cl_image_desc desc;
        memset(&desc, 0, sizeof desc);
        desc.image_type = CL_MEM_OBJECT_IMAGE2D;
        desc.image_width = 16;
        desc.image_height = 8;
        float pixels[16 * 8 * 4];
        for (int i = 0; i < 16 * 8 * 4; ++i) pixels[i] = (float)i;
        cl_mem in = clCreateImage(app.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &format, &desc, pixels, &error);
        CHECK(error);
        cl_mem out = clCreateImage(app.context, CL_MEM_WRITE_ONLY, &format, &desc, NULL, &error);
        CHECK(error);
        cl_kernel copy = AppKernel(program, "copy_image");
        CHECK(clSetKernelArg(copy, 0, sizeof in, &in));
        CHECK(clSetKernelArg(copy, 1, sizeof out, &out));
        size_t size[2] = {16, 8}, origin[3] = {0, 0, 0}, extent[3] = {16, 8, 1};
        cl_event copied;
        CHECK(clEnqueueNDRangeKernel(queue, copy, 2, NULL, size, NULL, 0, NULL, &copied));
        float back[16 * 8 * 4];
        CHECK(clEnqueueReadImage(queue, out, CL_TRUE, origin, extent, 0, 0, back, 1, &copied, NULL));
        if (back[100] != 200.0f) { fprintf(stderr, "image %g\n", back[100]); failures++; }
        clReleaseEvent(copied);
        clReleaseKernel(copy);
        clReleaseMemObject(in);
        clReleaseMemObject(out);
    }
    CHECK(clFinish(queue));
    if (g_callbacks != 1) { fprintf(stderr, "callbacks %d\n", g_callbacks); failures++; }

    /* A second context with its own in-order queue. */
    cl_context other = clCreateContext(NULL, 1, &app.device, NULL, NULL, &error);
    CHECK(error);
    cl_command_queue otherQueue = clCreateCommandQueueWithProperties(other, app.device, NULL, &error);
    CHECK(error);
    cl_mem scratch = clCreateBuffer(other, CL_MEM_READ_WRITE, 4096, NULL, &error);
    CHECK(error);
    const char pattern = 7;
    CHECK(clEnqueueFillBuffer(otherQueue, scratch, &pattern, 1, 0, 4096, 0, NULL, NULL));
    CHECK(clFinish(otherQueue));

    clReleaseMemObject(scratch);
    clReleaseCommandQueue(otherQueue);
    clReleaseContext(other);
    clReleaseEvent(first);
    clReleaseEvent(second);
    clReleaseEvent(third);
    clReleaseEvent(marker);
    clReleaseEvent(gate);
    clReleaseMemObject(upper);
    clReleaseMemObject(whole);
    clReleaseKernel(addOne);
    clReleaseKernel(task);
    clReleaseProgram(program);
    clReleaseCommandQueue(queue);
    clReleaseContext(app.context);
    if (failures) return 1;
    printf("mixed_features: OK\n");
    return 0;
}
