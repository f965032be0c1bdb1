#include "tools/gpaprof/opencl/layer_state.h"

#include <cstring>

#include "tools/gpaprof/files/text_fields.h"
#include "tools/gpaprof/opencl/command_tracker.h"

namespace gpaprof::ocl {
namespace {

cl_icd_dispatch g_next;

// Vendor queries (cl_nv_device_attribute_query, cl_amd_device_attribute_query), by value so that the
// layer does not depend on vendor headers.
constexpr cl_device_info kNvComputeCapabilityMajor = 0x4000;
constexpr cl_device_info kNvComputeCapabilityMinor = 0x4001;
constexpr cl_device_info kNvWarpSize = 0x4003;
constexpr cl_device_info kAmdSimdPerComputeUnit = 0x4040;
constexpr cl_device_info kAmdWavefrontWidth = 0x4043;
constexpr cl_device_info kAmdBoardName = 0x4038;
constexpr cl_device_info kAmdGfxIpMajor = 0x404A;
constexpr cl_device_info kAmdGfxIpMinor = 0x404B;
constexpr cl_uint kNvidiaVendorId = 0x10DE;
constexpr cl_uint kAmdVendorId = 0x1002;

bool HasExtension(cl_device_id device, const char* extension) {
    const std::string extensions = " " + DeviceString(device, CL_DEVICE_EXTENSIONS) + " ";
    return extensions.find(std::string(" ") + extension + " ") != std::string::npos;
}

// Occupancy limits from what the device reports (docs/gpaprof.md, "Occupancy on OpenCL devices").
DeviceLimits QueryLimits(cl_device_id device, const std::string& name, cl_device_type type, bool* waveFromKernel) {
    DeviceLimits limits;
    limits.deviceName = name;
    if (auto units = DeviceValue<cl_uint>(device, CL_DEVICE_MAX_COMPUTE_UNITS)) limits.computeUnits = *units;
    if (auto size = DeviceValue<size_t>(device, CL_DEVICE_MAX_WORK_GROUP_SIZE)) limits.maxWorkGroupSize = *size;
    if (auto bits = DeviceValue<cl_uint>(device, CL_DEVICE_ADDRESS_BITS)) {
        limits.maxGlobalWorkSize = *bits >= 64 ? UINT64_MAX : ((uint64_t{1} << *bits) - 1);
    }
    const std::optional<cl_ulong> localMemory = DeviceValue<cl_ulong>(device, CL_DEVICE_LOCAL_MEM_SIZE);
    const cl_uint vendor = DeviceValue<cl_uint>(device, CL_DEVICE_VENDOR_ID).value_or(0);
    *waveFromKernel = true;

    if (type & CL_DEVICE_TYPE_CPU) {
        // A CPU compute unit is a hardware thread that runs one work-group at a time; the runtime packs
        // work-items into SIMD batches of the kernel's preferred work-group size multiple.
        limits.maxWorkGroupsPerComputeUnit = 1;
        limits.ldsPerComputeUnit = localMemory;
        return limits;
    }
    if (vendor == kNvidiaVendorId && HasExtension(device, "cl_nv_device_attribute_query")) {
        auto major = DeviceValue<cl_uint>(device, kNvComputeCapabilityMajor);
        auto minor = DeviceValue<cl_uint>(device, kNvComputeCapabilityMinor);
        if (auto warp = DeviceValue<cl_uint>(device, kNvWarpSize)) {
            limits.waveSize = *warp;
            *waveFromKernel = false;
        }
        if (major && minor) {
            limits.graphicsIpVersion = std::to_string(*major) + "." + std::to_string(*minor);
            if (auto sm = NvidiaLimitsForComputeCapability(*major, *minor)) {
                limits.maxWavesPerComputeUnit = sm->maxWarpsPerSm;
                limits.maxWorkGroupsPerComputeUnit = sm->maxBlocksPerSm;
                limits.vgprsPerComputeUnit = sm->registersPerSm;
                limits.ldsPerComputeUnit = sm->sharedMemoryPerSm;
                limits.simdsPerComputeUnit = sm->warpSchedulersPerSm;
            }
        }
        return limits;
    }
    if (vendor == kAmdVendorId && HasExtension(device, "cl_amd_device_attribute_query")) {
        if (auto wave = DeviceValue<cl_uint>(device, kAmdWavefrontWidth)) {
            limits.waveSize = *wave;
            *waveFromKernel = false;
        }
        if (auto simds = DeviceValue<cl_uint>(device, kAmdSimdPerComputeUnit)) limits.simdsPerComputeUnit = *simds;
        auto major = DeviceValue<cl_uint>(device, kAmdGfxIpMajor);
        auto minor = DeviceValue<cl_uint>(device, kAmdGfxIpMinor);
        if (major && minor) limits.graphicsIpVersion = std::to_string(*major) + "." + std::to_string(*minor);
        limits.ldsPerComputeUnit = localMemory;
        return limits;
    }
    // Another GPU or accelerator: only what OpenCL itself reports.
    limits.ldsPerComputeUnit = localMemory;
    return limits;
}

}  // namespace

const cl_icd_dispatch& Next() { return g_next; }

void SetNext(const cl_icd_dispatch* target, cl_uint entries) {
    std::memset(&g_next, 0, sizeof g_next);
    const size_t count = std::min<size_t>(entries, sizeof(cl_icd_dispatch) / sizeof(void*));
    std::memcpy(&g_next, target, count * sizeof(void*));
}

std::string DeviceString(cl_device_id device, cl_device_info param) {
    size_t size = 0;
    if (Next().clGetDeviceInfo(device, param, 0, nullptr, &size) != CL_SUCCESS || size == 0) return {};
    std::string text(size, '\0');
    if (Next().clGetDeviceInfo(device, param, size, text.data(), nullptr) != CL_SUCCESS) return {};
    text.resize(strnlen(text.c_str(), size));
    return text;
}

std::string PlatformString(cl_platform_id platform, cl_platform_info param) {
    size_t size = 0;
    if (Next().clGetPlatformInfo(platform, param, 0, nullptr, &size) != CL_SUCCESS || size == 0) return {};
    std::string text(size, '\0');
    if (Next().clGetPlatformInfo(platform, param, size, text.data(), nullptr) != CL_SUCCESS) return {};
    text.resize(strnlen(text.c_str(), size));
    return text;
}

LayerState& LayerState::Get() {
    static LayerState* state = new LayerState();  // never destroyed: entry points may run during exit
    return *state;
}

LayerState::LayerState() : agent_(agent::Agent::Get()) {}

void LayerState::OnApiEntry() {
    if (!agent_) return;
    bool record = false;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (!devicesRecorded_) {
            devicesRecorded_ = true;
            record = true;
        }
    }
    if (record) RecordDevices();
    CommandTracker::Get().ReleaseFinished();
}

void LayerState::RecordDevices() {
    cl_uint platformCount = 0;
    if (!Next().clGetPlatformIDs || Next().clGetPlatformIDs(0, nullptr, &platformCount) != CL_SUCCESS) return;
    std::vector<cl_platform_id> platforms(platformCount);
    if (platformCount == 0 || Next().clGetPlatformIDs(platformCount, platforms.data(), nullptr) != CL_SUCCESS) return;
    for (cl_platform_id platform : platforms) {
        cl_uint deviceCount = 0;
        if (Next().clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &deviceCount) != CL_SUCCESS) continue;
        std::vector<cl_device_id> devices(deviceCount);
        if (deviceCount == 0 ||
            Next().clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, deviceCount, devices.data(), nullptr) != CL_SUCCESS) {
            continue;
        }
        for (cl_device_id device : devices) {
            spool::DeviceRecord record;
            record.key = HexHandle(reinterpret_cast<uintptr_t>(device));
            DeviceHeader& header = record.header;
            header.name = Trim(DeviceString(device, CL_DEVICE_NAME));
            header.platformVendor = PlatformString(platform, CL_PLATFORM_VENDOR);
            header.platformName = PlatformString(platform, CL_PLATFORM_NAME);
            header.platformVersion = PlatformString(platform, CL_PLATFORM_VERSION);
            header.driverVersion = DeviceString(device, CL_DRIVER_VERSION);
            header.runtimeVersion = DeviceString(device, CL_DEVICE_VERSION);
            header.appAddressBits = static_cast<uint32_t>(sizeof(void*) * 8);
            if (DeviceValue<cl_uint>(device, CL_DEVICE_VENDOR_ID).value_or(0) == kAmdVendorId) {
                std::string board = DeviceString(device, kAmdBoardName);
                if (!board.empty()) header.boardName = board;
            }
            agent_->Write(record);
        }
    }
}

DeviceInfo& LayerState::DeviceLocked(cl_device_id device) {
    auto found = devices_.find(device);
    if (found != devices_.end()) return found->second;
    DeviceInfo info;
    info.id = device;
    info.key = HexHandle(reinterpret_cast<uintptr_t>(device));
    info.name = std::string(Trim(DeviceString(device, CL_DEVICE_NAME)));
    info.type = DeviceValue<cl_device_type>(device, CL_DEVICE_TYPE).value_or(0);
    info.isCpu = (info.type & CL_DEVICE_TYPE_CPU) != 0;
    info.limits = QueryLimits(device, info.name, info.type, &info.waveSizeFromKernel);
    if (HasExtension(device, "cl_khr_suggested_local_work_size") && Next().clGetExtensionFunctionAddressForPlatform) {
        if (auto platform = DeviceValue<cl_platform_id>(device, CL_DEVICE_PLATFORM)) {
            void* function = Next().clGetExtensionFunctionAddressForPlatform(*platform, "clGetKernelSuggestedLocalWorkSizeKHR");
            info.suggestLocalSize = reinterpret_cast<clGetKernelSuggestedLocalWorkSizeKHR_fn>(function);
        }
    }
    return devices_.emplace(device, std::move(info)).first->second;
}

DeviceInfo LayerState::Device(cl_device_id device) {
    std::lock_guard<std::mutex> lock(mutex_);
    return DeviceLocked(device);
}

void LayerState::SetDeviceHostTimer(cl_device_id device, bool works) {
    std::lock_guard<std::mutex> lock(mutex_);
    DeviceLocked(device).hostTimer = works ? 1 : 0;
}

uint32_t LayerState::DeviceIndex(cl_device_id device) {
    std::lock_guard<std::mutex> lock(mutex_);
    DeviceInfo& info = DeviceLocked(device);
    if (!info.index) info.index = nextDeviceIndex_++;
    return *info.index;
}

void LayerState::AddContext(cl_context context) {
    std::lock_guard<std::mutex> lock(mutex_);
    contexts_[context] = nextContextId_++;
}

uint64_t LayerState::ContextId(cl_context context) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto found = contexts_.find(context);
    if (found != contexts_.end()) return found->second;
    return contexts_[context] = nextContextId_++;
}

void LayerState::AddQueue(cl_command_queue queue, bool forcedProfiling,
                          std::vector<cl_performance_counter_codeplay> codeplay) {
    QueueInfo info;
    info.codeplay = std::move(codeplay);
    Next().clGetCommandQueueInfo(queue, CL_QUEUE_CONTEXT, sizeof info.context, &info.context, nullptr);
    Next().clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof info.device, &info.device, nullptr);
    cl_command_queue_properties properties = 0;
    Next().clGetCommandQueueInfo(queue, CL_QUEUE_PROPERTIES, sizeof properties, &properties, nullptr);
    info.profiling = (properties & CL_QUEUE_PROFILING_ENABLE) != 0;
    info.forcedProfiling = forcedProfiling;
    const uint64_t contextId = ContextId(info.context);
    std::lock_guard<std::mutex> lock(mutex_);
    info.contextId = contextId;
    info.id = nextQueueId_++;
    queues_[queue] = info;
}

std::optional<QueueInfo> LayerState::Queue(cl_command_queue queue) {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        auto found = queues_.find(queue);
        if (found != queues_.end()) return found->second;
    }
    if (!queue) return std::nullopt;
    // A queue created before the layer saw it (or by an extension entry point).
    cl_device_id device = nullptr;
    if (Next().clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof device, &device, nullptr) != CL_SUCCESS) {
        return std::nullopt;
    }
    AddQueue(queue, false);
    std::lock_guard<std::mutex> lock(mutex_);
    return queues_[queue];
}

void LayerState::ForgetQueue(cl_command_queue queue) {
    std::lock_guard<std::mutex> lock(mutex_);
    queues_.erase(queue);
}

void LayerState::AddKernel(cl_kernel kernel, std::string name) {
    std::lock_guard<std::mutex> lock(mutex_);
    KernelInfo info;
    info.name = std::move(name);
    kernels_[kernel] = std::move(info);
}

void LayerState::CloneKernel(cl_kernel source, cl_kernel clone) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto found = kernels_.find(source);
    KernelInfo info;
    if (found != kernels_.end()) {
        info = found->second;
        info.id = 0;
    }
    kernels_[clone] = std::move(info);
}

uint64_t KernelInfo::LocalArgumentBytes() const {
    uint64_t total = 0;
    for (const auto& [index, arg] : args) {
        if (arg.kind == KernelArg::Kind::Local) total += arg.localBytes;
    }
    return total;
}

void LayerState::SetKernelArg(cl_kernel kernel, cl_uint index, size_t size, const void* value, bool local) {
    KernelArg arg;
    if (!value) {
        arg.kind = KernelArg::Kind::Local;  // nothing of the application's memory to keep for a replay
        if (local) arg.localBytes = size;
    } else if (size == sizeof(cl_mem)) {
        cl_mem memory;
        std::memcpy(&memory, value, sizeof memory);
        std::lock_guard<std::mutex> lock(mutex_);
        if (memory && memories_.count(memory)) {
            arg.kind = KernelArg::Kind::Memory;
            arg.memory = memory;
        }
    }
    std::lock_guard<std::mutex> lock(mutex_);
    kernels_[kernel].args[index] = arg;
}

void LayerState::SetKernelArgSvm(cl_kernel kernel, cl_uint index, const void* pointer) {
    KernelArg arg;
    arg.kind = KernelArg::Kind::Svm;
    arg.svm = pointer;
    std::lock_guard<std::mutex> lock(mutex_);
    kernels_[kernel].args[index] = arg;
}

void LayerState::SetKernelExecSvm(cl_kernel kernel, std::vector<void*> pointers) {
    std::lock_guard<std::mutex> lock(mutex_);
    kernels_[kernel].execInfoSvm = std::move(pointers);
}

KernelInfo LayerState::KernelForDispatch(cl_kernel kernel) {
    std::string queried;
    bool known = false;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        auto found = kernels_.find(kernel);
        known = found != kernels_.end() && !found->second.name.empty();
    }
    if (!known) {
        size_t size = 0;
        if (Next().clGetKernelInfo(kernel, CL_KERNEL_FUNCTION_NAME, 0, nullptr, &size) == CL_SUCCESS && size > 0) {
            queried.assign(size, '\0');
            Next().clGetKernelInfo(kernel, CL_KERNEL_FUNCTION_NAME, size, queried.data(), nullptr);
            queried.resize(strnlen(queried.c_str(), size));
        }
    }
    std::lock_guard<std::mutex> lock(mutex_);
    KernelInfo& info = kernels_[kernel];
    if (!known) info.name = queried.empty() ? std::string("unknown_kernel") : queried;
    if (info.id == 0) info.id = nextKernelId_++;
    return info;
}

void LayerState::ForgetKernel(cl_kernel kernel) {
    std::lock_guard<std::mutex> lock(mutex_);
    kernels_.erase(kernel);
}

void LayerState::AddMemory(cl_mem memory, MemoryInfo info) {
    std::lock_guard<std::mutex> lock(mutex_);
    memories_[memory] = info;
}

std::optional<MemoryInfo> LayerState::Memory(cl_mem memory) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto found = memories_.find(memory);
    if (found == memories_.end()) return std::nullopt;
    return found->second;
}

void LayerState::ForgetMemory(cl_mem memory) {
    std::lock_guard<std::mutex> lock(mutex_);
    memories_.erase(memory);
}

void LayerState::AddSvm(void* pointer, SvmAllocation allocation) {
    std::lock_guard<std::mutex> lock(mutex_);
    svm_[reinterpret_cast<uintptr_t>(pointer)] = allocation;
}

std::optional<std::pair<void*, SvmAllocation>> LayerState::SvmContaining(const void* pointer) {
    std::lock_guard<std::mutex> lock(mutex_);
    const uintptr_t address = reinterpret_cast<uintptr_t>(pointer);
    auto after = svm_.upper_bound(address);
    if (after == svm_.begin()) return std::nullopt;
    auto found = std::prev(after);
    if (address >= found->first + found->second.size) return std::nullopt;
    return std::make_pair(reinterpret_cast<void*>(found->first), found->second);
}

void LayerState::ForgetSvm(void* pointer) {
    std::lock_guard<std::mutex> lock(mutex_);
    svm_.erase(reinterpret_cast<uintptr_t>(pointer));
}

void LayerState::AddUserEvent(cl_event event) {
    std::lock_guard<std::mutex> lock(mutex_);
    unsetUserEvents_[event] = true;
}

void LayerState::UserEventSet(cl_event event) {
    std::lock_guard<std::mutex> lock(mutex_);
    unsetUserEvents_.erase(event);
}

bool LayerState::AnyUserEventUnset() {
    std::lock_guard<std::mutex> lock(mutex_);
    return !unsetUserEvents_.empty();
}

void LayerState::AddMapping(const void* pointer, uint64_t size) {
    std::lock_guard<std::mutex> lock(mutex_);
    mappings_[pointer] = size;
}

std::optional<uint64_t> LayerState::TakeMapping(const void* pointer) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto found = mappings_.find(pointer);
    if (found == mappings_.end()) return std::nullopt;
    const uint64_t size = found->second;
    mappings_.erase(found);
    return size;
}

}  // namespace gpaprof::ocl
