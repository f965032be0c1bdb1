// Saving and restoring the memory a kernel dispatch can write, so that a dispatch replayed for more
// counter passes leaves memory as one execution would: before the first pass every writable memory
// object the kernel's arguments reference (buffers, images, SVM allocations) is copied on the device to
// a shadow; before each further pass the shadows are copied back. The application's results and every
// later kernel see exactly one execution. Everything is enqueued on the application's queue and ordered
// by events, so it works on in-order and out-of-order queues alike.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "tools/gpaprof/opencl/cl_headers.h"
#include "tools/gpaprof/opencl/layer_state.h"

namespace gpaprof::ocl {

class MemorySnapshot {
public:
    // Copies the writable memory of `kernel` (arguments as set now) after `waitList`. On success the
    // events the first pass must wait for are in *ready. nullptr with the reason when the dispatch cannot
    // be replayed safely (SVM pointers that are not clSVMAlloc allocations, pipes, no memory for shadows).
    static std::unique_ptr<MemorySnapshot> Save(cl_command_queue queue, cl_context context, const KernelInfo& kernel,
                                                cl_uint waitCount, const cl_event* waitList,
                                                std::vector<cl_event>* ready, std::string* whyNot);
    // Copies the shadows back after `after`; *ready receives the events the next pass must wait for.
    bool Restore(cl_event after, std::vector<cl_event>* ready, std::string* error);
    // Frees the shadows once `last` (the final pass) has completed; they are released right away for
    // buffers and images (OpenCL keeps them until their commands finish) and freed after `last` for SVM.
    void Release(cl_event last);
    ~MemorySnapshot();

    size_t objectCount() const { return items_.size(); }
    uint64_t bytes() const { return bytes_; }

private:
    struct Item {
        enum class Kind { Buffer, Image, Svm } kind = Kind::Buffer;
        cl_mem original = nullptr;
        cl_mem shadow = nullptr;
        void* svmOriginal = nullptr;
        void* svmShadow = nullptr;
        size_t size = 0;
        size_t region[3] = {0, 0, 0};
    };
    explicit MemorySnapshot(cl_command_queue queue) : queue_(queue) {}
    bool Copy(const Item& item, bool toShadow, cl_uint waitCount, const cl_event* waitList, cl_event* done,
              std::string* error);

    cl_command_queue queue_;
    std::vector<Item> items_;
    uint64_t bytes_ = 0;
    bool released_ = false;
};

}  // namespace gpaprof::ocl
