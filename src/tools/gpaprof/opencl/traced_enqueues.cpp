// Entry points of the OpenCL calls that enqueue commands: data transfers (with their sizes), kernel
// dispatches, markers and barriers, SVM commands.
#include <vector>

#include "tools/gpaprof/opencl/api_call.h"
#include "tools/gpaprof/opencl/enqueue.h"
#include "tools/gpaprof/opencl/finish_macro.h"
#include "tools/gpaprof/opencl/traced_entries.h"

namespace gpaprof::ocl {
namespace {

const void* const* EventArray(const cl_event* events) { return reinterpret_cast<const void* const*>(events); }
const void* const* EventOut(const cl_event* event) { return reinterpret_cast<const void* const*>(event); }

uint64_t RegionBytes(const size_t* region) { return region ? uint64_t{region[0]} * region[1] * region[2] : 0; }

uint64_t ImageBytes(cl_mem image, const size_t* region) {
    size_t element = 0;
    if (Next().clGetImageInfo(image, CL_IMAGE_ELEMENT_SIZE, sizeof element, &element, nullptr) != CL_SUCCESS) return 0;
    return element * RegionBytes(region);
}

uint64_t MemorySize(cl_mem memory) {
    size_t size = 0;
    Next().clGetMemObjectInfo(memory, CL_MEM_SIZE, sizeof size, &size, nullptr);
    return size;
}

// ---- buffers

cl_int CL_API_CALL EnqueueReadBuffer(cl_command_queue queue, cl_mem buffer, cl_bool blocking, size_t offset, size_t size,
                                     void* pointer, cl_uint waitCount, const cl_event* waitList, cl_event* event) {
    TracedCall call(Api::clEnqueueReadBuffer);
    EventCapture capture(call, event);
    const cl_int ret = call.Run([&] {
        return Next().clEnqueueReadBuffer(queue, buffer, blocking, offset, size, pointer, waitCount, waitList,
                                          capture.pointer());
    });
    capture.Commit(call, queue, ret == CL_SUCCESS, size);
    FINISH(ErrorName(ret), .Handle(queue).Handle(buffer).Bool(blocking).Unsigned(offset).Unsigned(size).Handle(pointer)
                               .Unsigned(waitCount).Handles(waitCount, EventArray(waitList)).OutHandle(EventOut(event)));
    return ret;
}

cl_int CL_API_CALL EnqueueWriteBuffer(cl_command_queue queue, cl_mem buffer, cl_bool blocking, size_t offset,
                                      size_t size, const void* pointer, cl_uint waitCount, const cl_event* waitList,
                                      cl_event* event) {
    TracedCall call(Api::clEnqueueWriteBuffer);
    EventCapture capture(call, event);
    const cl_int ret = call.Run([&] {
        return Next().clEnqueueWriteBuffer(queue, buffer, blocking, offset, size, pointer, waitCount, waitList,
                                           capture.pointer());
    });
    capture.Commit(call, queue, ret == CL_SUCCESS, size);
    FINISH(ErrorName(ret), .Handle(queue).Handle(buffer).Bool(blocking).Unsigned(offset).Unsigned(size).Handle(pointer)
                               .Unsigned(waitCount).Handles(waitCount, EventArray(waitList)).OutHandle(EventOut(event)));
    return ret;
}

cl_int CL_API_CALL EnqueueReadBufferRect(cl_command_queue queue, cl_mem buffer, cl_bool blocking,
                                         const size_t* bufferOrigin, const size_t* hostOrigin, const size_t* region,
                                         size_t bufferRowPitch, size_t bufferSlicePitch, size_t hostRowPitch,
                                         size_t hostSlicePitch, void* pointer, cl_uint waitCount,
                                         const cl_event* waitList, cl_event* event) {
    TracedCall call(Api::clEnqueueReadBufferRect);
    EventCapture capture(call, event);
    const cl_int ret = call.Run([&] {
        return Next().clEnqueueReadBufferRect(queue, buffer, blocking, bufferOrigin, hostOrigin, region, bufferRowPitch,
                                              bufferSlicePitch, hostRowPitch, hostSlicePitch, pointer, waitCount,
                                              waitList, capture.pointer());
    });
    capture.Commit(call, queue, ret == CL_SUCCESS, RegionBytes(region));
    FINISH(ErrorName(ret), .Handle(queue).Handle(buffer).Bool(blocking).Sizes(3, bufferOrigin).Sizes(3, hostOrigin)
                               .Sizes(3, region).Unsigned(bufferRowPitch).Unsigned(bufferSlicePitch)
                               .Unsigned(hostRowPitch).Unsigned(hostSlicePitch).Handle(pointer).Unsigned(waitCount)
                               .Handles(waitCount, EventArray(waitList)).OutHandle(EventOut(event)));
    return ret;
}

cl_int CL_API_CALL EnqueueWriteBufferRect(cl_command_queue queue, cl_mem buffer, cl_bool blocking,
                                          const size_t* bufferOrigin, const size_t* hostOrigin, const size_t* region,
                                          size_t bufferRowPitch, size_t bufferSlicePitch, size_t hostRowPitch,
                                          size_t hostSlicePitch, const void* pointer, cl_uint waitCount,
                                          const cl_event* waitList, cl_event* event) {
    TracedCall call(Api::clEnqueueWriteBufferRect);
    EventCapture capture(call, event);
    const cl_int ret = call.Run([&] {
        return Next().clEnqueueWriteBufferRect(queue, buffer, blocking, bufferOrigin, hostOrigin, region,
                                               bufferRowPitch, bufferSlicePitch, hostRowPitch, hostSlicePitch, pointer,
                                               waitCount, waitList, capture.pointer());
    });
    capture.Commit(call, queue, ret == CL_SUCCESS, RegionBytes(region));
    FINISH(ErrorName(ret), .Handle(queue).Handle(buffer).Bool(blocking).Sizes(3, bufferOrigin).Sizes(3, hostOrigin)
                               .Sizes(3, region).Unsigned(bufferRowPitch).Unsigned(bufferSlicePitch)
                               .Unsigned(hostRowPitch).Unsigned(hostSlicePitch).Handle(pointer).Unsigned(waitCount)
                               .Handles(waitCount, EventArray(waitList)).OutHandle(EventOut(event)));
    return ret;
}

cl_int CL_API_CALL EnqueueCopyBuffer(cl_command_queue queue, cl_mem source, cl_mem target, size_t sourceOffset,
                                     size_t targetOffset, size_t size, cl_uint waitCount, const cl_event* waitList,
                                     cl_event* event) {
    TracedCall call(Api::clEnqueueCopyBuffer);
    EventCapture capture(call, event);
    const cl_int ret = call.Run([&] {
        return Next().clEnqueueCopyBuffer(queue, source, target, sourceOffset, targetOffset, size, waitCount, waitList,
                                          capture.pointer());
    });
    capture.Commit(call, queue, ret == CL_SUCCESS, size);
    FINISH(ErrorName(ret), .Handle(queue).Handle(source).Handle(target).Unsigned(sourceOffset).Unsigned(targetOffset)
                               .Unsigned(size).Unsigned(waitCount).Handles(waitCount, EventArray(waitList))
                               .OutHandle(EventOut(event)));
    return ret;
}

cl_int CL_API_CALL EnqueueCopyBufferRect(cl_command_queue queue, cl_mem source, cl_mem target,
                                         const size_t* sourceOrigin, const size_t* targetOrigin, const size_t* region,
                                         size_t sourceRowPitch, size_t sourceSlicePitch, size_t targetRowPitch,
                                         size_t targetSlicePitch, cl_uint waitCount, const cl_event* waitList,
                                         cl_event* event) {
    TracedCall call(Api::clEnqueueCopyBufferRect);
    EventCapture capture(call, event);
    const cl_int ret = call.Run([&] {
        return Next().clEnqueueCopyBufferRect(queue, source, target, sourceOrigin, targetOrigin, region, sourceRowPitch,
                                              sourceSlicePitch, targetRowPitch, targetSlicePitch, waitCount, waitList,
                                              capture.pointer());
    });
    capture.Commit(call, queue, ret == CL_SUCCESS, RegionBytes(region));
    FINISH(ErrorName(ret), .Handle(queue).Handle(source).Handle(target).Sizes(3, sourceOrigin).Sizes(3, targetOrigin)
                               .Sizes(3, region).Unsigned(sourceRowPitch).Unsigned(sourceSlicePitch)
                               .Unsigned(targetRowPitch).Unsigned(targetSlicePitch).Unsigned(waitCount)
                               .Handles(waitCount, EventArray(waitList)).OutHandle(EventOut(event)));
    return ret;
}

cl_int CL_API_CALL EnqueueFillBuffer(cl_command_queue queue, cl_mem buffer, const void* pattern, size_t patternSize,
                                     size_t offset, size_t size, cl_uint waitCount, const cl_event* waitList,
                                     cl_event* event) {
    TracedCall call(Api::clEnqueueFillBuffer);
    EventCapture capture(call, event);
    const cl_int ret = call.Run([&] {
        return Next().clEnqueueFillBuffer(queue, buffer, pattern, patternSize, offset, size, waitCount, waitList,
                                          capture.pointer());
    });
    capture.Commit(call, queue, ret == CL_SUCCESS, size);
    FINISH(ErrorName(ret), .Handle(queue).Handle(buffer).Handle(pattern).Unsigned(patternSize).Unsigned(offset)
                               .Unsigned(size).Unsigned(waitCount).Handles(waitCount, EventArray(waitList))
                               .OutHandle(EventOut(event)));
    return ret;
}

void* CL_API_CALL EnqueueMapBuffer(cl_command_queue queue, cl_mem buffer, cl_bool blocking, cl_map_flags flags,
                                   size_t offset, size_t size, cl_uint waitCount, const cl_event* waitList,
                                   cl_event* event, cl_int* error) {
    TracedCall call(Api::clEnqueueMapBuffer);
    EventCapture capture(call, event);
    cl_int status = CL_SUCCESS;
    void* ret = call.Run([&] {
        return Next().clEnqueueMapBuffer(queue, buffer, blocking, flags, offset, size, waitCount, waitList,
                                         capture.pointer(), &status);
    });
    if (error) *error = status;
    if (ret && call.agent()) LayerState::Get().AddMapping(ret, size);
    capture.Commit(call, queue, status == CL_SUCCESS, size);
    FINISH(HandleText(ret), .Handle(queue).Handle(buffer).Bool(blocking).Flags(FlagKind::MapFlags, flags).Unsigned(offset)
                                .Unsigned(size).Unsigned(waitCount).Handles(waitCount, EventArray(waitList))
                                .OutHandle(EventOut(event)).OutError(error));
    return ret;
}

cl_int CL_API_CALL EnqueueUnmapMemObject(cl_command_queue queue, cl_mem memory, void* pointer, cl_uint waitCount,
                                         const cl_event* waitList, cl_event* event) {
    TracedCall call(Api::clEnqueueUnmapMemObject);
    EventCapture capture(call, event);
    const cl_int ret = call.Run(
        [&] { return Next().clEnqueueUnmapMemObject(queue, memory, pointer, waitCount, waitList, capture.pointer()); });
    std::optional<uint64_t> size = call.agent() ? LayerState::Get().TakeMapping(pointer) : std::nullopt;
    capture.Commit(call, queue, ret == CL_SUCCESS, size.value_or(0));
    FINISH(ErrorName(ret), .Handle(queue).Handle(memory).Handle(pointer).Unsigned(waitCount)
                               .Handles(waitCount, EventArray(waitList)).OutHandle(EventOut(event)));
    return ret;
}

cl_int CL_API_CALL EnqueueMigrateMemObjects(cl_command_queue queue, cl_uint count, const cl_mem* objects,
                                            cl_mem_migration_flags flags, cl_uint waitCount, const cl_event* waitList,
                                            cl_event* event) {
    TracedCall call(Api::clEnqueueMigrateMemObjects);
    EventCapture capture(call, event);
    const cl_int ret = call.Run([&] {
        return Next().clEnqueueMigrateMemObjects(queue, count, objects, flags, waitCount, waitList, capture.pointer());
    });
    uint64_t bytes = 0;
    if (call.record() && ret == CL_SUCCESS) {
        for (cl_uint i = 0; objects && i < count; ++i) bytes += MemorySize(objects[i]);
    }
    capture.Commit(call, queue, ret == CL_SUCCESS, bytes);
    FINISH(ErrorName(ret), .Handle(queue).Unsigned(count).Handles(count, reinterpret_cast<const void* const*>(objects))
                               .Flags(FlagKind::MigrationFlags, flags).Unsigned(waitCount)
                               .Handles(waitCount, EventArray(waitList)).OutHandle(EventOut(event)));
    return ret;
}

// ---- images

cl_int CL_API_CALL EnqueueReadImage(cl_command_queue queue, cl_mem image, cl_bool blocking, const size_t* origin,
                                    const size_t* region, size_t rowPitch, size_t slicePitch, void* pointer,
                                    cl_uint waitCount, const cl_event* waitList, cl_event* event) {
    TracedCall call(Api::clEnqueueReadImage);
    EventCapture capture(call, event);
    const cl_int ret = call.Run([&] {
        return Next().clEnqueueReadImage(queue, image, blocking, origin, region, rowPitch, slicePitch, pointer, waitCount,
                                         waitList, capture.pointer());
    });
    capture.Commit(call, queue, ret == CL_SUCCESS, call.record() ? ImageBytes(image, region) : 0);
    FINISH(ErrorName(ret), .Handle(queue).Handle(image).Bool(blocking).Sizes(3, origin).Sizes(3, region).Unsigned(rowPitch)
                               .Unsigned(slicePitch).Handle(pointer).Unsigned(waitCount)
                               .Handles(waitCount, EventArray(waitList)).OutHandle(EventOut(event)));
    return ret;
}

cl_int CL_API_CALL EnqueueWriteImage(cl_command_queue queue, cl_mem image, cl_bool blocking, const size_t* origin,
                                     const size_t* region, size_t rowPitch, size_t slicePitch, const void* pointer,
                                     cl_uint waitCount, const cl_event* waitList, cl_event* event) {
    TracedCall call(Api::clEnqueueWriteImage);
    EventCapture capture(call, event);
    const cl_int ret = call.Run([&] {
        return Next().clEnqueueWriteImage(queue, image, blocking, origin, region, rowPitch, slicePitch, pointer,
                                          waitCount, waitList, capture.pointer());
    });
    capture.Commit(call, queue, ret == CL_SUCCESS, call.record() ? ImageBytes(image, region) : 0);
    FINISH(ErrorName(ret), .Handle(queue).Handle(image).Bool(blocking).Sizes(3, origin).Sizes(3, region).Unsigned(rowPitch)
                               .Unsigned(slicePitch).Handle(pointer).Unsigned(waitCount)
                               .Handles(waitCount, EventArray(waitList)).OutHandle(EventOut(event)));
    return ret;
}

cl_int CL_API_CALL EnqueueCopyImage(cl_command_queue queue, cl_mem source, cl_mem target, const size_t* sourceOrigin,
                                    const size_t* targetOrigin, const size_t* region, cl_uint waitCount,
                                    const cl_event* waitList, cl_event* event) {
    TracedCall call(Api::clEnqueueCopyImage);
    EventCapture capture(call, event);
    const cl_int ret = call.Run([&] {
        return Next().clEnqueueCopyImage(queue, source, target, sourceOrigin, targetOrigin, region, waitCount, waitList,
                                         capture.pointer());
    });
    capture.Commit(call, queue, ret == CL_SUCCESS, call.record() ? ImageBytes(source, region) : 0);
    FINISH(ErrorName(ret), .Handle(queue).Handle(source).Handle(target).Sizes(3, sourceOrigin).Sizes(3, targetOrigin)
                               .Sizes(3, region).Unsigned(waitCount).Handles(waitCount, EventArray(waitList))
                               .OutHandle(EventOut(event)));
    return ret;
}

cl_int CL_API_CALL EnqueueFillImage(cl_command_queue queue, cl_mem image, const void* color, const size_t* origin,
                                    const size_t* region, cl_uint waitCount, const cl_event* waitList, cl_event* event) {
    TracedCall call(Api::clEnqueueFillImage);
    EventCapture capture(call, event);
    const cl_int ret = call.Run([&] {
        return Next().clEnqueueFillImage(queue, image, color, origin, region, waitCount, waitList, capture.pointer());
    });
    capture.Commit(call, queue, ret == CL_SUCCESS, call.record() ? ImageBytes(image, region) : 0);
    FINISH(ErrorName(ret), .Handle(queue).Handle(image).Handle(color).Sizes(3, origin).Sizes(3, region)
                               .Unsigned(waitCount).Handles(waitCount, EventArray(waitList)).OutHandle(EventOut(event)));
    return ret;
}

cl_int CL_API_CALL EnqueueCopyImageToBuffer(cl_command_queue queue, cl_mem image, cl_mem buffer, const size_t* origin,
                                            const size_t* region, size_t offset, cl_uint waitCount,
                                            const cl_event* waitList, cl_event* event) {
    TracedCall call(Api::clEnqueueCopyImageToBuffer);
    EventCapture capture(call, event);
    const cl_int ret = call.Run([&] {
        return Next().clEnqueueCopyImageToBuffer(queue, image, buffer, origin, region, offset, waitCount, waitList,
                                                 capture.pointer());
    });
    capture.Commit(call, queue, ret == CL_SUCCESS, call.record() ? ImageBytes(image, region) : 0);
    FINISH(ErrorName(ret), .Handle(queue).Handle(image).Handle(buffer).Sizes(3, origin).Sizes(3, region).Unsigned(offset)
                               .Unsigned(waitCount).Handles(waitCount, EventArray(waitList)).OutHandle(EventOut(event)));
    return ret;
}

cl_int CL_API_CALL EnqueueCopyBufferToImage(cl_command_queue queue, cl_mem buffer, cl_mem image, size_t offset,
                                            const size_t* origin, const size_t* region, cl_uint waitCount,
                                            const cl_event* waitList, cl_event* event) {
    TracedCall call(Api::clEnqueueCopyBufferToImage);
    EventCapture capture(call, event);
    const cl_int ret = call.Run([&] {
        return Next().clEnqueueCopyBufferToImage(queue, buffer, image, offset, origin, region, waitCount, waitList,
                                                 capture.pointer());
    });
    capture.Commit(call, queue, ret == CL_SUCCESS, call.record() ? ImageBytes(image, region) : 0);
    FINISH(ErrorName(ret), .Handle(queue).Handle(buffer).Handle(image).Unsigned(offset).Sizes(3, origin).Sizes(3, region)
                               .Unsigned(waitCount).Handles(waitCount, EventArray(waitList)).OutHandle(EventOut(event)));
    return ret;
}

void* CL_API_CALL EnqueueMapImage(cl_command_queue queue, cl_mem image, cl_bool blocking, cl_map_flags flags,
                                  const size_t* origin, const size_t* region, size_t* rowPitch, size_t* slicePitch,
                                  cl_uint waitCount, const cl_event* waitList, cl_event* event, cl_int* error) {
    TracedCall call(Api::clEnqueueMapImage);
    EventCapture capture(call, event);
    cl_int status = CL_SUCCESS;
    void* ret = call.Run([&] {
        return Next().clEnqueueMapImage(queue, image, blocking, flags, origin, region, rowPitch, slicePitch, waitCount,
                                        waitList, capture.pointer(), &status);
    });
    if (error) *error = status;
    const uint64_t bytes = call.agent() && ret ? ImageBytes(image, region) : 0;
    if (ret && call.agent()) LayerState::Get().AddMapping(ret, bytes);
    capture.Commit(call, queue, status == CL_SUCCESS, bytes);
    FINISH(HandleText(ret), .Handle(queue).Handle(image).Bool(blocking).Flags(FlagKind::MapFlags, flags).Sizes(3, origin)
                                .Sizes(3, region).OutSize(rowPitch).OutSize(slicePitch).Unsigned(waitCount)
                                .Handles(waitCount, EventArray(waitList)).OutHandle(EventOut(event)).OutError(error));
    return ret;
}

// ---- kernels

cl_int CL_API_CALL EnqueueNDRangeKernel(cl_command_queue queue, cl_kernel kernel, cl_uint workDim,
                                        const size_t* globalOffset, const size_t* globalSize, const size_t* localSize,
                                        cl_uint waitCount, const cl_event* waitList, cl_event* event) {
    TracedCall call(Api::clEnqueueNDRangeKernel);
    const cl_int ret = EnqueueKernel(call, KernelEntry::NDRange, queue, kernel, workDim, globalOffset, globalSize,
                                     localSize, waitCount, waitList, event);
    FINISH(ErrorName(ret), .Handle(queue).Handle(kernel).Unsigned(workDim).Sizes(workDim, globalOffset)
                               .Sizes(workDim, globalSize).Sizes(workDim, localSize).Unsigned(waitCount)
                               .Handles(waitCount, EventArray(waitList)).OutHandle(EventOut(event)));
    return ret;
}

cl_int CL_API_CALL EnqueueTask(cl_command_queue queue, cl_kernel kernel, cl_uint waitCount, const cl_event* waitList,
                               cl_event* event) {
    TracedCall call(Api::clEnqueueTask);
    const cl_int ret =
        EnqueueKernel(call, KernelEntry::Task, queue, kernel, 1, nullptr, nullptr, nullptr, waitCount, waitList, event);
    FINISH(ErrorName(ret), .Handle(queue).Handle(kernel).Unsigned(waitCount).Handles(waitCount, EventArray(waitList))
                               .OutHandle(EventOut(event)));
    return ret;
}

cl_int CL_API_CALL EnqueueNativeKernel(cl_command_queue queue, void(CL_CALLBACK* function)(void*), void* args,
                                       size_t argsSize, cl_uint numMemObjects, const cl_mem* memObjects,
                                       const void** argsMemLocations, cl_uint waitCount, const cl_event* waitList,
                                       cl_event* event) {
    TracedCall call(Api::clEnqueueNativeKernel);
    EventCapture capture(call, event);
    const cl_int ret = call.Run([&] {
        return Next().clEnqueueNativeKernel(queue, function, args, argsSize, numMemObjects, memObjects, argsMemLocations,
                                            waitCount, waitList, capture.pointer());
    });
    capture.Commit(call, queue, ret == CL_SUCCESS, std::nullopt);
    FINISH(ErrorName(ret), .Handle(queue).Handle(reinterpret_cast<const void*>(function)).Handle(args).Unsigned(argsSize)
                               .Unsigned(numMemObjects)
                               .Handles(numMemObjects, reinterpret_cast<const void* const*>(memObjects))
                               .Handle(argsMemLocations).Unsigned(waitCount).Handles(waitCount, EventArray(waitList))
                               .OutHandle(EventOut(event)));
    return ret;
}

// ---- markers, barriers, waits

cl_int CL_API_CALL EnqueueMarker(cl_command_queue queue, cl_event* event) {
    TracedCall call(Api::clEnqueueMarker);
    EventCapture capture(call, event);
    const cl_int ret = call.Run([&] { return Next().clEnqueueMarker(queue, capture.pointer()); });
    capture.Commit(call, queue, ret == CL_SUCCESS, std::nullopt);
    FINISH(ErrorName(ret), .Handle(queue).OutHandle(EventOut(event)));
    return ret;
}

cl_int CL_API_CALL EnqueueWaitForEvents(cl_command_queue queue, cl_uint count, const cl_event* events) {
    TracedCall call(Api::clEnqueueWaitForEvents);
    const cl_int ret = call.Run([&] { return Next().clEnqueueWaitForEvents(queue, count, events); });
    FINISH(ErrorName(ret), .Handle(queue).Unsigned(count).Handles(count, EventArray(events)));
    return ret;
}

cl_int CL_API_CALL EnqueueBarrier(cl_command_queue queue) {
    TracedCall call(Api::clEnqueueBarrier);
    const cl_int ret = call.Run([&] { return Next().clEnqueueBarrier(queue); });
    FINISH(ErrorName(ret), .Handle(queue));
    return ret;
}

cl_int CL_API_CALL EnqueueMarkerWithWaitList(cl_command_queue queue, cl_uint waitCount, const cl_event* waitList,
                                             cl_event* event) {
    TracedCall call(Api::clEnqueueMarkerWithWaitList);
    EventCapture capture(call, event);
    const cl_int ret =
        call.Run([&] { return Next().clEnqueueMarkerWithWaitList(queue, waitCount, waitList, capture.pointer()); });
    capture.Commit(call, queue, ret == CL_SUCCESS, std::nullopt);
    FINISH(ErrorName(ret), .Handle(queue).Unsigned(waitCount).Handles(waitCount, EventArray(waitList))
                               .OutHandle(EventOut(event)));
    return ret;
}

cl_int CL_API_CALL EnqueueBarrierWithWaitList(cl_command_queue queue, cl_uint waitCount, const cl_event* waitList,
                                              cl_event* event) {
    TracedCall call(Api::clEnqueueBarrierWithWaitList);
    EventCapture capture(call, event);
    const cl_int ret =
        call.Run([&] { return Next().clEnqueueBarrierWithWaitList(queue, waitCount, waitList, capture.pointer()); });
    capture.Commit(call, queue, ret == CL_SUCCESS, std::nullopt);
    FINISH(ErrorName(ret), .Handle(queue).Unsigned(waitCount).Handles(waitCount, EventArray(waitList))
                               .OutHandle(EventOut(event)));
    return ret;
}

// ---- shared virtual memory

cl_int CL_API_CALL EnqueueSVMFree(cl_command_queue queue, cl_uint count, void* pointers[],
                                  void(CL_CALLBACK* notify)(cl_command_queue, cl_uint, void*[], void*), void* userData,
                                  cl_uint waitCount, const cl_event* waitList, cl_event* event) {
    TracedCall call(Api::clEnqueueSVMFree);
    EventCapture capture(call, event);
    const cl_int ret = call.Run([&] {
        return Next().clEnqueueSVMFree(queue, count, pointers, notify, userData, waitCount, waitList, capture.pointer());
    });
    if (ret == CL_SUCCESS && call.agent()) {
        for (cl_uint i = 0; pointers && i < count; ++i) LayerState::Get().ForgetSvm(pointers[i]);
    }
    capture.Commit(call, queue, ret == CL_SUCCESS, std::nullopt);
    FINISH(ErrorName(ret), .Handle(queue).Unsigned(count).Handles(count, reinterpret_cast<const void* const*>(pointers))
                               .Handle(reinterpret_cast<const void*>(notify)).Handle(userData).Unsigned(waitCount)
                               .Handles(waitCount, EventArray(waitList)).OutHandle(EventOut(event)));
    return ret;
}

cl_int CL_API_CALL EnqueueSVMMemcpy(cl_command_queue queue, cl_bool blocking, void* target, const void* source,
                                    size_t size, cl_uint waitCount, const cl_event* waitList, cl_event* event) {
    TracedCall call(Api::clEnqueueSVMMemcpy);
    EventCapture capture(call, event);
    const cl_int ret = call.Run([&] {
        return Next().clEnqueueSVMMemcpy(queue, blocking, target, source, size, waitCount, waitList, capture.pointer());
    });
    capture.Commit(call, queue, ret == CL_SUCCESS, size);
    FINISH(ErrorName(ret), .Handle(queue).Bool(blocking).Handle(target).Handle(source).Unsigned(size).Unsigned(waitCount)
                               .Handles(waitCount, EventArray(waitList)).OutHandle(EventOut(event)));
    return ret;
}

cl_int CL_API_CALL EnqueueSVMMemFill(cl_command_queue queue, void* target, const void* pattern, size_t patternSize,
                                     size_t size, cl_uint waitCount, const cl_event* waitList, cl_event* event) {
    TracedCall call(Api::clEnqueueSVMMemFill);
    EventCapture capture(call, event);
    const cl_int ret = call.Run([&] {
        return Next().clEnqueueSVMMemFill(queue, target, pattern, patternSize, size, waitCount, waitList,
                                          capture.pointer());
    });
    capture.Commit(call, queue, ret == CL_SUCCESS, size);
    FINISH(ErrorName(ret), .Handle(queue).Handle(target).Handle(pattern).Unsigned(patternSize).Unsigned(size)
                               .Unsigned(waitCount).Handles(waitCount, EventArray(waitList)).OutHandle(EventOut(event)));
    return ret;
}

cl_int CL_API_CALL EnqueueSVMMap(cl_command_queue queue, cl_bool blocking, cl_map_flags flags, void* pointer,
                                 size_t size, cl_uint waitCount, const cl_event* waitList, cl_event* event) {
    TracedCall call(Api::clEnqueueSVMMap);
    EventCapture capture(call, event);
    const cl_int ret = call.Run([&] {
        return Next().clEnqueueSVMMap(queue, blocking, flags, pointer, size, waitCount, waitList, capture.pointer());
    });
    if (ret == CL_SUCCESS && call.agent()) LayerState::Get().AddMapping(pointer, size);
    capture.Commit(call, queue, ret == CL_SUCCESS, size);
    FINISH(ErrorName(ret), .Handle(queue).Bool(blocking).Flags(FlagKind::MapFlags, flags).Handle(pointer).Unsigned(size)
                               .Unsigned(waitCount).Handles(waitCount, EventArray(waitList)).OutHandle(EventOut(event)));
    return ret;
}

cl_int CL_API_CALL EnqueueSVMUnmap(cl_command_queue queue, void* pointer, cl_uint waitCount, const cl_event* waitList,
                                   cl_event* event) {
    TracedCall call(Api::clEnqueueSVMUnmap);
    EventCapture capture(call, event);
    const cl_int ret =
        call.Run([&] { return Next().clEnqueueSVMUnmap(queue, pointer, waitCount, waitList, capture.pointer()); });
    std::optional<uint64_t> size = call.agent() ? LayerState::Get().TakeMapping(pointer) : std::nullopt;
    capture.Commit(call, queue, ret == CL_SUCCESS, size.value_or(0));
    FINISH(ErrorName(ret), .Handle(queue).Handle(pointer).Unsigned(waitCount).Handles(waitCount, EventArray(waitList))
                               .OutHandle(EventOut(event)));
    return ret;
}

cl_int CL_API_CALL EnqueueSVMMigrateMem(cl_command_queue queue, cl_uint count, const void** pointers,
                                        const size_t* sizes, cl_mem_migration_flags flags, cl_uint waitCount,
                                        const cl_event* waitList, cl_event* event) {
    TracedCall call(Api::clEnqueueSVMMigrateMem);
    EventCapture capture(call, event);
    const cl_int ret = call.Run([&] {
        return Next().clEnqueueSVMMigrateMem(queue, count, pointers, sizes, flags, waitCount, waitList, capture.pointer());
    });
    uint64_t bytes = 0;
    for (cl_uint i = 0; call.record() && pointers && i < count; ++i) {
        if (sizes && sizes[i]) {
            bytes += sizes[i];
        } else if (auto allocation = LayerState::Get().SvmContaining(pointers[i])) {
            bytes += allocation->second.size;
        }
    }
    capture.Commit(call, queue, ret == CL_SUCCESS, bytes);
    FINISH(ErrorName(ret), .Handle(queue).Unsigned(count).Handles(count, reinterpret_cast<const void* const*>(pointers))
                               .Sizes(count, sizes).Flags(FlagKind::MigrationFlags, flags).Unsigned(waitCount)
                               .Handles(waitCount, EventArray(waitList)).OutHandle(EventOut(event)));
    return ret;
}

#undef FINISH

}  // namespace

void FillEnqueueEntries(cl_icd_dispatch* table) {
    table->clEnqueueReadBuffer = EnqueueReadBuffer;
    table->clEnqueueWriteBuffer = EnqueueWriteBuffer;
    table->clEnqueueReadBufferRect = EnqueueReadBufferRect;
    table->clEnqueueWriteBufferRect = EnqueueWriteBufferRect;
    table->clEnqueueCopyBuffer = EnqueueCopyBuffer;
    table->clEnqueueCopyBufferRect = EnqueueCopyBufferRect;
    table->clEnqueueFillBuffer = EnqueueFillBuffer;
    table->clEnqueueMapBuffer = EnqueueMapBuffer;
    table->clEnqueueUnmapMemObject = EnqueueUnmapMemObject;
    table->clEnqueueMigrateMemObjects = EnqueueMigrateMemObjects;
    table->clEnqueueReadImage = EnqueueReadImage;
    table->clEnqueueWriteImage = EnqueueWriteImage;
    table->clEnqueueCopyImage = EnqueueCopyImage;
    table->clEnqueueFillImage = EnqueueFillImage;
    table->clEnqueueCopyImageToBuffer = EnqueueCopyImageToBuffer;
    table->clEnqueueCopyBufferToImage = EnqueueCopyBufferToImage;
    table->clEnqueueMapImage = EnqueueMapImage;
    table->clEnqueueNDRangeKernel = EnqueueNDRangeKernel;
    table->clEnqueueTask = EnqueueTask;
    table->clEnqueueNativeKernel = EnqueueNativeKernel;
    table->clEnqueueMarker = EnqueueMarker;
    table->clEnqueueWaitForEvents = EnqueueWaitForEvents;
    table->clEnqueueBarrier = EnqueueBarrier;
    table->clEnqueueMarkerWithWaitList = EnqueueMarkerWithWaitList;
    table->clEnqueueBarrierWithWaitList = EnqueueBarrierWithWaitList;
    table->clEnqueueSVMFree = EnqueueSVMFree;
    table->clEnqueueSVMMemcpy = EnqueueSVMMemcpy;
    table->clEnqueueSVMMemFill = EnqueueSVMMemFill;
    table->clEnqueueSVMMap = EnqueueSVMMap;
    table->clEnqueueSVMUnmap = EnqueueSVMUnmap;
    table->clEnqueueSVMMigrateMem = EnqueueSVMMigrateMem;
}

}  // namespace gpaprof::ocl
