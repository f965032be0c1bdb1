// Every clEnqueue* of the dispatch table: on a queue with counters the command is followed (with what its
// arguments say: work-items and work-groups of a kernel, bytes of a transfer); on any other queue the call
// goes straight through.
#include <optional>

#include "layers/opencl/command_tracker.h"
#include "layers/opencl/dispatch.h"
#include "layers/opencl/layer_entries.h"

namespace gpa::cl_layer {

namespace {

// Runs `call` (blocking, wait count, wait list, event) -> cl_int on `queue`; `shape` () -> CommandShape is
// only asked for on a queue with counters.
template <typename Shape, typename Call>
cl_int Run(cl_command_queue queue, cl_bool blocking, cl_uint waitCount, const cl_event* waitList, cl_event* event,
           Shape shape, Call call) {
    CommandTracker& tracker = CommandTracker::Get();
    const std::shared_ptr<CountedQueue> counted = tracker.Queue(queue);
    if (!counted) return call(blocking, waitCount, waitList, event);
    return tracker.Enqueue(counted, shape(), blocking, waitCount, waitList, event, call);
}

CommandShape Of(CommandKind kind) {
    CommandShape shape;
    shape.kind = kind;
    return shape;
}

CommandShape Transfer(uint64_t bytes) {
    CommandShape shape = Of(CommandKind::kTransfer);
    shape.bytes = bytes;
    return shape;
}

uint64_t Volume(const size_t* region) { return region ? uint64_t{region[0]} * region[1] * region[2] : 0; }

// Bytes of an image region: its pixels times the image's element size.
uint64_t ImageBytes(cl_mem image, const size_t* region) {
    size_t element = 0;
    if (Next().clGetImageInfo(image, CL_IMAGE_ELEMENT_SIZE, sizeof element, &element, nullptr) != CL_SUCCESS) return 0;
    return Volume(region) * element;
}

CommandShape KernelShape(cl_command_queue queue, cl_kernel kernel, cl_uint dimensions, const size_t* global,
                         const size_t* local) {
    CommandShape shape = Of(CommandKind::kKernel);
    if (!global || dimensions == 0 || dimensions > 3) return shape;
    size_t localSize[3] = {0, 0, 0};
    bool localKnown = local != nullptr;
    if (local) {
        for (cl_uint d = 0; d < dimensions; ++d) localSize[d] = local[d];
    } else {
        // A kernel with reqd_work_group_size runs with that size when the application gives none.
        cl_device_id device = nullptr;
        size_t required[3] = {0, 0, 0};
        if (Next().clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof device, &device, nullptr) == CL_SUCCESS &&
            Next().clGetKernelWorkGroupInfo(kernel, device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof required,
                                            required, nullptr) == CL_SUCCESS &&
            required[0] != 0) {
            localKnown = true;
            for (cl_uint d = 0; d < dimensions; ++d) localSize[d] = required[d];
        }
    }
    uint64_t items = 1;
    uint64_t groups = 1;
    for (cl_uint d = 0; d < dimensions; ++d) {
        items *= global[d];
        if (localKnown && localSize[d] != 0) groups *= (global[d] + localSize[d] - 1) / localSize[d];
    }
    shape.workItems = items;
    shape.workGroups = localKnown ? std::optional<uint64_t>(groups) : std::nullopt;
    return shape;
}

cl_int CL_API_CALL EnqueueReadBuffer(cl_command_queue q, cl_mem buffer, cl_bool blocking, size_t offset, size_t size,
                                     void* pointer, cl_uint n, const cl_event* list, cl_event* event) {
    return Run(q, blocking, n, list, event, [&] { return Transfer(size); },
               [&](cl_bool b, cl_uint c, const cl_event* l, cl_event* e) {
                   return Next().clEnqueueReadBuffer(q, buffer, b, offset, size, pointer, c, l, e);
               });
}

cl_int CL_API_CALL EnqueueReadBufferRect(cl_command_queue q, cl_mem buffer, cl_bool blocking, const size_t* bufferOrigin,
                                         const size_t* hostOrigin, const size_t* region, size_t bufferRowPitch,
                                         size_t bufferSlicePitch, size_t hostRowPitch, size_t hostSlicePitch,
                                         void* pointer, cl_uint n, const cl_event* list, cl_event* event) {
    return Run(q, blocking, n, list, event, [&] { return Transfer(Volume(region)); },
               [&](cl_bool b, cl_uint c, const cl_event* l, cl_event* e) {
                   return Next().clEnqueueReadBufferRect(q, buffer, b, bufferOrigin, hostOrigin, region, bufferRowPitch,
                                                         bufferSlicePitch, hostRowPitch, hostSlicePitch, pointer, c, l, e);
               });
}

cl_int CL_API_CALL EnqueueWriteBuffer(cl_command_queue q, cl_mem buffer, cl_bool blocking, size_t offset, size_t size,
                                      const void* pointer, cl_uint n, const cl_event* list, cl_event* event) {
    return Run(q, blocking, n, list, event, [&] { return Transfer(size); },
               [&](cl_bool b, cl_uint c, const cl_event* l, cl_event* e) {
                   return Next().clEnqueueWriteBuffer(q, buffer, b, offset, size, pointer, c, l, e);
               });
}

cl_int CL_API_CALL EnqueueWriteBufferRect(cl_command_queue q, cl_mem buffer, cl_bool blocking,
                                          const size_t* bufferOrigin, const size_t* hostOrigin, const size_t* region,
                                          size_t bufferRowPitch, size_t bufferSlicePitch, size_t hostRowPitch,
                                          size_t hostSlicePitch, const void* pointer, cl_uint n, const cl_event* list,
                                          cl_event* event) {
    return Run(q, blocking, n, list, event, [&] { return Transfer(Volume(region)); },
               [&](cl_bool b, cl_uint c, const cl_event* l, cl_event* e) {
                   return Next().clEnqueueWriteBufferRect(q, buffer, b, bufferOrigin, hostOrigin, region, bufferRowPitch,
                                                          bufferSlicePitch, hostRowPitch, hostSlicePitch, pointer, c, l,
                                                          e);
               });
}

cl_int CL_API_CALL EnqueueFillBuffer(cl_command_queue q, cl_mem buffer, const void* pattern, size_t patternSize,
                                     size_t offset, size_t size, cl_uint n, const cl_event* list, cl_event* event) {
    return Run(q, CL_FALSE, n, list, event, [&] { return Transfer(size); },
               [&](cl_bool, cl_uint c, const cl_event* l, cl_event* e) {
                   return Next().clEnqueueFillBuffer(q, buffer, pattern, patternSize, offset, size, c, l, e);
               });
}

cl_int CL_API_CALL EnqueueCopyBuffer(cl_command_queue q, cl_mem source, cl_mem target, size_t sourceOffset,
                                     size_t targetOffset, size_t size, cl_uint n, const cl_event* list, cl_event* event) {
    return Run(q, CL_FALSE, n, list, event, [&] { return Transfer(size); },
               [&](cl_bool, cl_uint c, const cl_event* l, cl_event* e) {
                   return Next().clEnqueueCopyBuffer(q, source, target, sourceOffset, targetOffset, size, c, l, e);
               });
}

cl_int CL_API_CALL EnqueueCopyBufferRect(cl_command_queue q, cl_mem source, cl_mem target, const size_t* sourceOrigin,
                                         const size_t* targetOrigin, const size_t* region, size_t sourceRowPitch,
                                         size_t sourceSlicePitch, size_t targetRowPitch, size_t targetSlicePitch,
                                         cl_uint n, const cl_event* list, cl_event* event) {
    return Run(q, CL_FALSE, n, list, event, [&] { return Transfer(Volume(region)); },
               [&](cl_bool, cl_uint c, const cl_event* l, cl_event* e) {
                   return Next().clEnqueueCopyBufferRect(q, source, target, sourceOrigin, targetOrigin, region,
                                                         sourceRowPitch, sourceSlicePitch, targetRowPitch,
                                                         targetSlicePitch, c, l, e);
               });
}

cl_int CL_API_CALL EnqueueReadImage(cl_command_queue q, cl_mem image, cl_bool blocking, const size_t* origin,
                                    const size_t* region, size_t rowPitch, size_t slicePitch, void* pointer, cl_uint n,
                                    const cl_event* list, cl_event* event) {
    return Run(q, blocking, n, list, event, [&] { return Transfer(ImageBytes(image, region)); },
               [&](cl_bool b, cl_uint c, const cl_event* l, cl_event* e) {
                   return Next().clEnqueueReadImage(q, image, b, origin, region, rowPitch, slicePitch, pointer, c, l, e);
               });
}

cl_int CL_API_CALL EnqueueWriteImage(cl_command_queue q, cl_mem image, cl_bool blocking, const size_t* origin,
                                     const size_t* region, size_t rowPitch, size_t slicePitch, const void* pointer,
                                     cl_uint n, const cl_event* list, cl_event* event) {
    return Run(q, blocking, n, list, event, [&] { return Transfer(ImageBytes(image, region)); },
               [&](cl_bool b, cl_uint c, const cl_event* l, cl_event* e) {
                   return Next().clEnqueueWriteImage(q, image, b, origin, region, rowPitch, slicePitch, pointer, c, l, e);
               });
}

cl_int CL_API_CALL EnqueueFillImage(cl_command_queue q, cl_mem image, const void* color, const size_t* origin,
                                    const size_t* region, cl_uint n, const cl_event* list, cl_event* event) {
    return Run(q, CL_FALSE, n, list, event, [&] { return Transfer(ImageBytes(image, region)); },
               [&](cl_bool, cl_uint c, const cl_event* l, cl_event* e) {
                   return Next().clEnqueueFillImage(q, image, color, origin, region, c, l, e);
               });
}

cl_int CL_API_CALL EnqueueCopyImage(cl_command_queue q, cl_mem source, cl_mem target, const size_t* sourceOrigin,
                                    const size_t* targetOrigin, const size_t* region, cl_uint n, const cl_event* list,
                                    cl_event* event) {
    return Run(q, CL_FALSE, n, list, event, [&] { return Transfer(ImageBytes(source, region)); },
               [&](cl_bool, cl_uint c, const cl_event* l, cl_event* e) {
                   return Next().clEnqueueCopyImage(q, source, target, sourceOrigin, targetOrigin, region, c, l, e);
               });
}

cl_int CL_API_CALL EnqueueCopyImageToBuffer(cl_command_queue q, cl_mem image, cl_mem buffer, const size_t* origin,
                                            const size_t* region, size_t offset, cl_uint n, const cl_event* list,
                                            cl_event* event) {
    return Run(q, CL_FALSE, n, list, event, [&] { return Transfer(ImageBytes(image, region)); },
               [&](cl_bool, cl_uint c, const cl_event* l, cl_event* e) {
                   return Next().clEnqueueCopyImageToBuffer(q, image, buffer, origin, region, offset, c, l, e);
               });
}

cl_int CL_API_CALL EnqueueCopyBufferToImage(cl_command_queue q, cl_mem buffer, cl_mem image, size_t offset,
                                            const size_t* origin, const size_t* region, cl_uint n, const cl_event* list,
                                            cl_event* event) {
    return Run(q, CL_FALSE, n, list, event, [&] { return Transfer(ImageBytes(image, region)); },
               [&](cl_bool, cl_uint c, const cl_event* l, cl_event* e) {
                   return Next().clEnqueueCopyBufferToImage(q, buffer, image, offset, origin, region, c, l, e);
               });
}

void* CL_API_CALL EnqueueMapBuffer(cl_command_queue q, cl_mem buffer, cl_bool blocking, cl_map_flags flags,
                                   size_t offset, size_t size, cl_uint n, const cl_event* list, cl_event* event,
                                   cl_int* error) {
    void* mapped = nullptr;
    const cl_int status = Run(q, blocking, n, list, event, [] { return Of(CommandKind::kOther); },
                              [&](cl_bool b, cl_uint c, const cl_event* l, cl_event* e) {
                                  cl_int result = CL_SUCCESS;
                                  mapped = Next().clEnqueueMapBuffer(q, buffer, b, flags, offset, size, c, l, e, &result);
                                  return result;
                              });
    if (error) *error = status;
    return status == CL_SUCCESS ? mapped : nullptr;
}

void* CL_API_CALL EnqueueMapImage(cl_command_queue q, cl_mem image, cl_bool blocking, cl_map_flags flags,
                                  const size_t* origin, const size_t* region, size_t* rowPitch, size_t* slicePitch,
                                  cl_uint n, const cl_event* list, cl_event* event, cl_int* error) {
    void* mapped = nullptr;
    const cl_int status = Run(q, blocking, n, list, event, [] { return Of(CommandKind::kOther); },
                              [&](cl_bool b, cl_uint c, const cl_event* l, cl_event* e) {
                                  cl_int result = CL_SUCCESS;
                                  mapped = Next().clEnqueueMapImage(q, image, b, flags, origin, region, rowPitch,
                                                                    slicePitch, c, l, e, &result);
                                  return result;
                              });
    if (error) *error = status;
    return status == CL_SUCCESS ? mapped : nullptr;
}

cl_int CL_API_CALL EnqueueUnmapMemObject(cl_command_queue q, cl_mem memory, void* pointer, cl_uint n,
                                         const cl_event* list, cl_event* event) {
    return Run(q, CL_FALSE, n, list, event, [] { return Of(CommandKind::kOther); },
               [&](cl_bool, cl_uint c, const cl_event* l, cl_event* e) {
                   return Next().clEnqueueUnmapMemObject(q, memory, pointer, c, l, e);
               });
}

cl_int CL_API_CALL EnqueueMigrateMemObjects(cl_command_queue q, cl_uint count, const cl_mem* objects,
                                            cl_mem_migration_flags flags, cl_uint n, const cl_event* list,
                                            cl_event* event) {
    return Run(q, CL_FALSE, n, list, event, [] { return Of(CommandKind::kOther); },
               [&](cl_bool, cl_uint c, const cl_event* l, cl_event* e) {
                   return Next().clEnqueueMigrateMemObjects(q, count, objects, flags, c, l, e);
               });
}

cl_int CL_API_CALL EnqueueNDRangeKernel(cl_command_queue q, cl_kernel kernel, cl_uint dimensions, const size_t* offset,
                                        const size_t* global, const size_t* local, cl_uint n, const cl_event* list,
                                        cl_event* event) {
    return Run(q, CL_FALSE, n, list, event, [&] { return KernelShape(q, kernel, dimensions, global, local); },
               [&](cl_bool, cl_uint c, const cl_event* l, cl_event* e) {
                   return Next().clEnqueueNDRangeKernel(q, kernel, dimensions, offset, global, local, c, l, e);
               });
}

cl_int CL_API_CALL EnqueueTask(cl_command_queue q, cl_kernel kernel, cl_uint n, const cl_event* list, cl_event* event) {
    return Run(q, CL_FALSE, n, list, event,
               [&] {
                   const size_t one[1] = {1};
                   return KernelShape(q, kernel, 1, one, one);
               },
               [&](cl_bool, cl_uint c, const cl_event* l, cl_event* e) { return Next().clEnqueueTask(q, kernel, c, l, e); });
}

cl_int CL_API_CALL EnqueueNativeKernel(cl_command_queue q, void(CL_CALLBACK* function)(void*), void* arguments,
                                       size_t argumentsSize, cl_uint memoryCount, const cl_mem* memoryList,
                                       const void** memoryLocations, cl_uint n, const cl_event* list, cl_event* event) {
    return Run(q, CL_FALSE, n, list, event, [] { return Of(CommandKind::kOther); },
               [&](cl_bool, cl_uint c, const cl_event* l, cl_event* e) {
                   return Next().clEnqueueNativeKernel(q, function, arguments, argumentsSize, memoryCount, memoryList,
                                                       memoryLocations, c, l, e);
               });
}

cl_int CL_API_CALL EnqueueMarker(cl_command_queue q, cl_event* event) {
    if (!event) return Next().clEnqueueMarker(q, event);  // the driver's CL_INVALID_VALUE: OpenCL 1.1 needs the event
    return Run(q, CL_FALSE, 0, nullptr, event, [] { return Of(CommandKind::kSynchronization); },
               [&](cl_bool, cl_uint, const cl_event*, cl_event* e) { return Next().clEnqueueMarker(q, e); });
}

cl_int CL_API_CALL EnqueueMarkerWithWaitList(cl_command_queue q, cl_uint n, const cl_event* list, cl_event* event) {
    return Run(q, CL_FALSE, n, list, event, [] { return Of(CommandKind::kSynchronization); },
               [&](cl_bool, cl_uint c, const cl_event* l, cl_event* e) {
                   return Next().clEnqueueMarkerWithWaitList(q, c, l, e);
               });
}

cl_int CL_API_CALL EnqueueBarrierWithWaitList(cl_command_queue q, cl_uint n, const cl_event* list, cl_event* event) {
    return Run(q, CL_FALSE, n, list, event, [] { return Of(CommandKind::kSynchronization); },
               [&](cl_bool, cl_uint c, const cl_event* l, cl_event* e) {
                   return Next().clEnqueueBarrierWithWaitList(q, c, l, e);
               });
}

cl_int CL_API_CALL EnqueueSVMFree(cl_command_queue q, cl_uint count, void* pointers[],
                                  void(CL_CALLBACK* free)(cl_command_queue, cl_uint, void*[], void*), void* userData,
                                  cl_uint n, const cl_event* list, cl_event* event) {
    return Run(q, CL_FALSE, n, list, event, [] { return Of(CommandKind::kOther); },
               [&](cl_bool, cl_uint c, const cl_event* l, cl_event* e) {
                   return Next().clEnqueueSVMFree(q, count, pointers, free, userData, c, l, e);
               });
}

cl_int CL_API_CALL EnqueueSVMMemcpy(cl_command_queue q, cl_bool blocking, void* target, const void* source, size_t size,
                                    cl_uint n, const cl_event* list, cl_event* event) {
    return Run(q, blocking, n, list, event, [&] { return Transfer(size); },
               [&](cl_bool b, cl_uint c, const cl_event* l, cl_event* e) {
                   return Next().clEnqueueSVMMemcpy(q, b, target, source, size, c, l, e);
               });
}

cl_int CL_API_CALL EnqueueSVMMemFill(cl_command_queue q, void* target, const void* pattern, size_t patternSize,
                                     size_t size, cl_uint n, const cl_event* list, cl_event* event) {
    return Run(q, CL_FALSE, n, list, event, [&] { return Transfer(size); },
               [&](cl_bool, cl_uint c, const cl_event* l, cl_event* e) {
                   return Next().clEnqueueSVMMemFill(q, target, pattern, patternSize, size, c, l, e);
               });
}

cl_int CL_API_CALL EnqueueSVMMap(cl_command_queue q, cl_bool blocking, cl_map_flags flags, void* pointer, size_t size,
                                 cl_uint n, const cl_event* list, cl_event* event) {
    return Run(q, blocking, n, list, event, [] { return Of(CommandKind::kOther); },
               [&](cl_bool b, cl_uint c, const cl_event* l, cl_event* e) {
                   return Next().clEnqueueSVMMap(q, b, flags, pointer, size, c, l, e);
               });
}

cl_int CL_API_CALL EnqueueSVMUnmap(cl_command_queue q, void* pointer, cl_uint n, const cl_event* list, cl_event* event) {
    return Run(q, CL_FALSE, n, list, event, [] { return Of(CommandKind::kOther); },
               [&](cl_bool, cl_uint c, const cl_event* l, cl_event* e) {
                   return Next().clEnqueueSVMUnmap(q, pointer, c, l, e);
               });
}

cl_int CL_API_CALL EnqueueSVMMigrateMem(cl_command_queue q, cl_uint count, const void** pointers, const size_t* sizes,
                                        cl_mem_migration_flags flags, cl_uint n, const cl_event* list, cl_event* event) {
    return Run(q, CL_FALSE, n, list, event, [] { return Of(CommandKind::kOther); },
               [&](cl_bool, cl_uint c, const cl_event* l, cl_event* e) {
                   return Next().clEnqueueSVMMigrateMem(q, count, pointers, sizes, flags, c, l, e);
               });
}

}  // namespace

void FillEnqueueEntries(cl_icd_dispatch* table) {
    table->clEnqueueReadBuffer = EnqueueReadBuffer;
    table->clEnqueueReadBufferRect = EnqueueReadBufferRect;
    table->clEnqueueWriteBuffer = EnqueueWriteBuffer;
    table->clEnqueueWriteBufferRect = EnqueueWriteBufferRect;
    table->clEnqueueFillBuffer = EnqueueFillBuffer;
    table->clEnqueueCopyBuffer = EnqueueCopyBuffer;
    table->clEnqueueCopyBufferRect = EnqueueCopyBufferRect;
    table->clEnqueueReadImage = EnqueueReadImage;
    table->clEnqueueWriteImage = EnqueueWriteImage;
    table->clEnqueueFillImage = EnqueueFillImage;
    table->clEnqueueCopyImage = EnqueueCopyImage;
    table->clEnqueueCopyImageToBuffer = EnqueueCopyImageToBuffer;
    table->clEnqueueCopyBufferToImage = EnqueueCopyBufferToImage;
    table->clEnqueueMapBuffer = EnqueueMapBuffer;
    table->clEnqueueMapImage = EnqueueMapImage;
    table->clEnqueueUnmapMemObject = EnqueueUnmapMemObject;
    table->clEnqueueMigrateMemObjects = EnqueueMigrateMemObjects;
    table->clEnqueueNDRangeKernel = EnqueueNDRangeKernel;
    table->clEnqueueTask = EnqueueTask;
    table->clEnqueueNativeKernel = EnqueueNativeKernel;
    table->clEnqueueMarker = EnqueueMarker;
    table->clEnqueueMarkerWithWaitList = EnqueueMarkerWithWaitList;
    table->clEnqueueBarrierWithWaitList = EnqueueBarrierWithWaitList;
    table->clEnqueueSVMFree = EnqueueSVMFree;
    table->clEnqueueSVMMemcpy = EnqueueSVMMemcpy;
    table->clEnqueueSVMMemFill = EnqueueSVMMemFill;
    table->clEnqueueSVMMap = EnqueueSVMMap;
    table->clEnqueueSVMUnmap = EnqueueSVMUnmap;
    table->clEnqueueSVMMigrateMem = EnqueueSVMMigrateMem;
}

}  // namespace gpa::cl_layer
