#include "tools/gpaprof/opencl/memory_snapshot.h"

#include <algorithm>
#include <mutex>

#include "tools/gpaprof/opencl/cl_names.h"

namespace gpaprof::ocl {
namespace {

bool IsImage(cl_mem_object_type type) {
    return type == CL_MEM_OBJECT_IMAGE2D || type == CL_MEM_OBJECT_IMAGE3D || type == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
           type == CL_MEM_OBJECT_IMAGE1D || type == CL_MEM_OBJECT_IMAGE1D_ARRAY;
}

template <typename T>
T ImageValue(cl_mem image, cl_image_info param) {
    T value{};
    Next().clGetImageInfo(image, param, sizeof value, &value, nullptr);
    return value;
}

}  // namespace

std::unique_ptr<MemorySnapshot> MemorySnapshot::Save(cl_command_queue queue, cl_context context,
                                                     const KernelInfo& kernel, cl_uint waitCount,
                                                     const cl_event* waitList, std::vector<cl_event>* ready,
                                                     std::string* whyNot) {
    std::unique_ptr<MemorySnapshot> snapshot(new MemorySnapshot(queue));
    LayerState& state = LayerState::Get();
    std::vector<cl_mem> seenMemory;
    std::vector<void*> seenSvm;

    auto addSvm = [&](const void* pointer) -> bool {
        std::optional<std::pair<void*, SvmAllocation>> allocation = state.SvmContaining(pointer);
        if (!allocation) {
            *whyNot = "an SVM argument does not point into a clSVMAlloc allocation, so the memory the kernel may "
                      "write cannot be saved";
            return false;
        }
        if (std::find(seenSvm.begin(), seenSvm.end(), allocation->first) != seenSvm.end()) return true;
        seenSvm.push_back(allocation->first);
        Item item;
        item.kind = Item::Kind::Svm;
        item.svmOriginal = allocation->first;
        item.size = allocation->second.size;
        snapshot->items_.push_back(item);
        return true;
    };

    for (const auto& [index, arg] : kernel.args) {
        if (arg.kind == KernelArg::Kind::Svm) {
            if (arg.svm && !addSvm(arg.svm)) return nullptr;
            continue;
        }
        if (arg.kind != KernelArg::Kind::Memory) continue;
        if (std::find(seenMemory.begin(), seenMemory.end(), arg.memory) != seenMemory.end()) continue;
        seenMemory.push_back(arg.memory);
        std::optional<MemoryInfo> memory = state.Memory(arg.memory);
        if (!memory) continue;
        if (memory->flags & CL_MEM_READ_ONLY) continue;  // the kernel cannot write it
        Item item;
        item.original = arg.memory;
        if (memory->type == CL_MEM_OBJECT_BUFFER) {
            item.kind = Item::Kind::Buffer;
            item.size = memory->size;
        } else if (IsImage(memory->type)) {
            item.kind = Item::Kind::Image;
            const size_t width = ImageValue<size_t>(arg.memory, CL_IMAGE_WIDTH);
            const size_t height = ImageValue<size_t>(arg.memory, CL_IMAGE_HEIGHT);
            const size_t depth = ImageValue<size_t>(arg.memory, CL_IMAGE_DEPTH);
            const size_t layers = ImageValue<size_t>(arg.memory, CL_IMAGE_ARRAY_SIZE);
            item.region[0] = width;
            item.region[1] = memory->type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? layers : std::max<size_t>(height, 1);
            item.region[2] = memory->type == CL_MEM_OBJECT_IMAGE2D_ARRAY ? layers : std::max<size_t>(depth, 1);
            if (memory->type == CL_MEM_OBJECT_IMAGE1D || memory->type == CL_MEM_OBJECT_IMAGE1D_ARRAY) {
                if (memory->type == CL_MEM_OBJECT_IMAGE1D) item.region[1] = 1;
                item.region[2] = 1;
            }
            item.size = ImageValue<size_t>(arg.memory, CL_IMAGE_ELEMENT_SIZE) * item.region[0] * item.region[1] *
                        item.region[2];
        } else {
            *whyNot = "a kernel argument is a " + EnumName(EnumKind::MemObjectType, memory->type) +
                      ", whose contents cannot be saved and restored";
            return nullptr;
        }
        snapshot->items_.push_back(item);
    }
    for (void* pointer : kernel.execInfoSvm) {
        if (!addSvm(pointer)) return nullptr;
    }

    // Shadows, then the copies into them.
    for (Item& item : snapshot->items_) {
        cl_int error = CL_SUCCESS;
        switch (item.kind) {
            case Item::Kind::Buffer:
                item.shadow = Next().clCreateBuffer(context, CL_MEM_READ_WRITE, item.size, nullptr, &error);
                break;
            case Item::Kind::Image: {
                cl_image_format format = ImageValue<cl_image_format>(item.original, CL_IMAGE_FORMAT);
                cl_image_desc desc{};
                Next().clGetMemObjectInfo(item.original, CL_MEM_TYPE, sizeof desc.image_type, &desc.image_type, nullptr);
                desc.image_width = ImageValue<size_t>(item.original, CL_IMAGE_WIDTH);
                desc.image_height = ImageValue<size_t>(item.original, CL_IMAGE_HEIGHT);
                desc.image_depth = ImageValue<size_t>(item.original, CL_IMAGE_DEPTH);
                desc.image_array_size = ImageValue<size_t>(item.original, CL_IMAGE_ARRAY_SIZE);
                item.shadow = Next().clCreateImage(context, CL_MEM_READ_WRITE, &format, &desc, nullptr, &error);
                break;
            }
            case Item::Kind::Svm:
                if (Next().clSVMAlloc) {
                    std::lock_guard<std::mutex> serialised(LayerState::Get().SvmCalls());  // (layer_state.h says why)
                    item.svmShadow = Next().clSVMAlloc(context, CL_MEM_READ_WRITE, item.size, 0);
                }
                if (!item.svmShadow) error = CL_OUT_OF_RESOURCES;
                break;
        }
        if (error != CL_SUCCESS || (!item.shadow && !item.svmShadow)) {
            *whyNot = "no device memory for a copy of " + std::to_string(item.size) + " bytes (" + ErrorName(error) + ")";
            return nullptr;
        }
        snapshot->bytes_ += item.size;
    }
    for (const Item& item : snapshot->items_) {
        cl_event done = nullptr;
        if (!snapshot->Copy(item, true, waitCount, waitList, &done, whyNot)) {
            for (cl_event event : *ready) Next().clReleaseEvent(event);
            ready->clear();
            return nullptr;
        }
        ready->push_back(done);
    }
    return snapshot;
}

bool MemorySnapshot::Copy(const Item& item, bool toShadow, cl_uint waitCount, const cl_event* waitList, cl_event* done,
                          std::string* error) {
    cl_int status = CL_SUCCESS;
    const size_t origin[3] = {0, 0, 0};
    switch (item.kind) {
        case Item::Kind::Buffer:
            status = Next().clEnqueueCopyBuffer(queue_, toShadow ? item.original : item.shadow,
                                                toShadow ? item.shadow : item.original, 0, 0, item.size, waitCount,
                                                waitList, done);
            break;
        case Item::Kind::Image:
            status = Next().clEnqueueCopyImage(queue_, toShadow ? item.original : item.shadow,
                                               toShadow ? item.shadow : item.original, origin, origin, item.region,
                                               waitCount, waitList, done);
            break;
        case Item::Kind::Svm:
            status = Next().clEnqueueSVMMemcpy(queue_, CL_FALSE, toShadow ? item.svmShadow : item.svmOriginal,
                                               toShadow ? item.svmOriginal : item.svmShadow, item.size, waitCount,
                                               waitList, done);
            break;
    }
    if (status != CL_SUCCESS) {
        *error = std::string(toShadow ? "saving" : "restoring") + " kernel memory failed: " + ErrorName(status);
        return false;
    }
    return true;
}

bool MemorySnapshot::Restore(cl_event after, std::vector<cl_event>* ready, std::string* error) {
    for (const Item& item : items_) {
        cl_event done = nullptr;
        if (!Copy(item, false, after ? 1 : 0, after ? &after : nullptr, &done, error)) return false;
        ready->push_back(done);
    }
    return true;
}

void MemorySnapshot::Release(cl_event last) {
    if (released_) return;
    released_ = true;
    for (Item& item : items_) {
        if (item.shadow) Next().clReleaseMemObject(item.shadow);  // freed by OpenCL once its copies are done
        item.shadow = nullptr;
        if (item.svmShadow && Next().clEnqueueSVMFree) {
            void* pointers[1] = {item.svmShadow};
            Next().clEnqueueSVMFree(queue_, 1, pointers, nullptr, nullptr, last ? 1 : 0, last ? &last : nullptr, nullptr);
            item.svmShadow = nullptr;
        }
    }
}

MemorySnapshot::~MemorySnapshot() {
    // A snapshot abandoned before any pass ran: nothing was enqueued after the saves but the saves
    // themselves, which OpenCL completes before freeing the buffers.
    for (Item& item : items_) {
        if (item.shadow) Next().clReleaseMemObject(item.shadow);
        if (item.svmShadow && Next().clEnqueueSVMFree) {
            void* pointers[1] = {item.svmShadow};
            Next().clEnqueueSVMFree(queue_, 1, pointers, nullptr, nullptr, 0, nullptr, nullptr);
        }
    }
}

}  // namespace gpaprof::ocl
