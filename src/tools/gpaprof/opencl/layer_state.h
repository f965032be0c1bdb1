// What the OpenCL layer knows about the application's objects: the next dispatch table (the ICD loader's
// or another layer's), ids of queues and contexts, kernels with their names, ids and argument values,
// memory objects and SVM allocations (for saving and restoring them around replays), devices.
// The layer's own OpenCL calls go to Next() directly, so they are never traced.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "tools/gpaprof/agent/agent.h"
#include "tools/gpaprof/occupancy/occupancy_calculator.h"
#include "CL/cl_codeplay_performance_counters.h"
#include "tools/gpaprof/opencl/cl_headers.h"

namespace gpaprof::ocl {

const cl_icd_dispatch& Next();
void SetNext(const cl_icd_dispatch* target, cl_uint entries);

struct DeviceInfo {
    cl_device_id id = nullptr;
    std::string key;               // handle in hex: joins commands with clock calibration
    std::string name;
    cl_device_type type = 0;
    bool isCpu = false;
    std::optional<uint32_t> index; // 1-based, for the Method column of non-CPU devices
    DeviceLimits limits;           // occupancy limits (wave size may depend on the kernel)
    bool waveSizeFromKernel = true;
    int hostTimer = -1;            // clGetDeviceAndHostTimer: -1 untested, 0 unsupported, 1 works
    // cl_khr_suggested_local_work_size: the work-group size the runtime picks when the application passes none.
    clGetKernelSuggestedLocalWorkSizeKHR_fn suggestLocalSize = nullptr;
};

struct QueueInfo {
    uint64_t id = 0;
    cl_context context = nullptr;
    uint64_t contextId = 0;
    cl_device_id device = nullptr;
    bool profiling = false;        // device times can be read from its events
    bool forcedProfiling = false;  // gpaprof turned profiling on; hidden from CL_QUEUE_PROPERTIES
    // cl_codeplay_performance_counters that gpaprof enabled on the queue for --counters (codeplay_counters.h).
    std::vector<cl_performance_counter_codeplay> codeplay;
};

struct KernelArg {
    enum class Kind { Value, Memory, Svm, Local };
    Kind kind = Kind::Value;
    cl_mem memory = nullptr;
    const void* svm = nullptr;
    uint64_t localBytes = 0;  // a __local argument's size
};

struct KernelInfo {
    std::string name;
    uint32_t id = 0;               // 1-based, assigned at the kernel's first dispatch
    std::map<cl_uint, KernelArg> args;
    std::vector<void*> execInfoSvm;  // CL_KERNEL_EXEC_INFO_SVM_PTRS

    uint64_t LocalArgumentBytes() const;
};

struct MemoryInfo {
    cl_context context = nullptr;
    cl_mem_object_type type = CL_MEM_OBJECT_BUFFER;
    cl_mem_flags flags = 0;
    size_t size = 0;
};

struct SvmAllocation {
    cl_context context = nullptr;
    size_t size = 0;
};

class LayerState {
public:
    static LayerState& Get();
    // Null when the process is not profiled: every entry point then only forwards.
    agent::Agent* agent() const { return agent_; }

    // Called on every traced call: records the devices once, releases events whose work is done.
    void OnApiEntry();

    DeviceInfo Device(cl_device_id device);
    void SetDeviceHostTimer(cl_device_id device, bool works);
    uint32_t DeviceIndex(cl_device_id device);

    void AddContext(cl_context context);
    uint64_t ContextId(cl_context context);
    void AddQueue(cl_command_queue queue, bool forcedProfiling,
                  std::vector<cl_performance_counter_codeplay> codeplay = {});
    std::optional<QueueInfo> Queue(cl_command_queue queue);
    void ForgetQueue(cl_command_queue queue);

    void AddKernel(cl_kernel kernel, std::string name);
    void CloneKernel(cl_kernel source, cl_kernel clone);
    // `local`: a __local argument of `size` bytes (no value).
    void SetKernelArg(cl_kernel kernel, cl_uint index, size_t size, const void* value, bool local);
    void SetKernelArgSvm(cl_kernel kernel, cl_uint index, const void* pointer);
    void SetKernelExecSvm(cl_kernel kernel, std::vector<void*> pointers);
    // Name (queried if the kernel was never seen), id (assigned now if new) and arguments.
    KernelInfo KernelForDispatch(cl_kernel kernel);
    void ForgetKernel(cl_kernel kernel);

    void AddMemory(cl_mem memory, MemoryInfo info);
    std::optional<MemoryInfo> Memory(cl_mem memory);
    void ForgetMemory(cl_mem memory);
    void AddSvm(void* pointer, SvmAllocation allocation);
    // The allocation that contains `pointer`, with its start.
    std::optional<std::pair<void*, SvmAllocation>> SvmContaining(const void* pointer);
    void ForgetSvm(void* pointer);
    // Held around every clSVMAlloc and clSVMFree the driver sees, the application's and the replay's shadows:
    // NVIDIA's driver (580.159.04, two H200s, 2026-11-30) returned NULL for some of the allocations that two or
    // more threads made at once, with or without gpaprof, and a replay's shadow lost to that race was taken for a
    // device out of memory (docs/gpaprof.md, "Replay").
    std::mutex& SvmCalls() { return svmCalls_; }

    // User events the application has not set yet: commands may wait for them, so waiting for a dispatch
    // could wait for the application itself.
    void AddUserEvent(cl_event event);
    void UserEventSet(cl_event event);
    bool AnyUserEventUnset();

    // Mapped regions, for the size of the matching unmap.
    void AddMapping(const void* pointer, uint64_t size);
    std::optional<uint64_t> TakeMapping(const void* pointer);

private:
    LayerState();
    DeviceInfo& DeviceLocked(cl_device_id device);
    void RecordDevices();

    agent::Agent* agent_ = nullptr;
    std::mutex mutex_;
    bool devicesRecorded_ = false;
    std::unordered_map<cl_device_id, DeviceInfo> devices_;
    uint32_t nextDeviceIndex_ = 1;
    std::unordered_map<cl_context, uint64_t> contexts_;
    uint64_t nextContextId_ = 1;
    std::unordered_map<cl_command_queue, QueueInfo> queues_;
    uint64_t nextQueueId_ = 1;
    std::unordered_map<cl_kernel, KernelInfo> kernels_;
    uint32_t nextKernelId_ = 1;
    std::unordered_map<cl_mem, MemoryInfo> memories_;
    std::map<uintptr_t, SvmAllocation> svm_;
    std::mutex svmCalls_;
    std::unordered_map<const void*, uint64_t> mappings_;
    std::unordered_map<cl_event, bool> unsetUserEvents_;
};

// Device queries through Next().
std::string DeviceString(cl_device_id device, cl_device_info param);
std::string PlatformString(cl_platform_id platform, cl_platform_info param);
template <typename T>
std::optional<T> DeviceValue(cl_device_id device, cl_device_info param) {
    T value{};
    if (Next().clGetDeviceInfo(device, param, sizeof value, &value, nullptr) != CL_SUCCESS) return std::nullopt;
    return value;
}

}  // namespace gpaprof::ocl
