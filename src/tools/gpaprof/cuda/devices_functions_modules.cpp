// What CudaPart knows of the devices, kernel functions and modules (cuda_part.h), and its resource callbacks:
// contexts created and destroyed, modules loaded and unloaded.
#include <cuda.h>
#include <cupti_callbacks.h>

#include <cstring>
#include <fstream>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <dlfcn.h>

#include "backends/cuda/cuda_driver_loader.h"
#include "backends/cuda/device_identity.h"
#include "tools/gpaprof/agent/agent.h"
#include "tools/gpaprof/cuda/arg_format.h"
#include "tools/gpaprof/cuda/cubin_globals.h"
#include "tools/gpaprof/cuda/cuda_part.h"

namespace gpaprof::cuda::injection {

FunctionInfo CudaPart::FunctionFor(CUfunction function, const char* symbolName) {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        auto found = functions_.find(function);
        if (found != functions_.end()) return found->second;
    }
    FunctionInfo info;
    if (symbolName && *symbolName) {
        info.name = symbolName;
    } else if (const char* name = nullptr; api_->cuFuncGetName && api_->cuFuncGetName(&name, function) == CUDA_SUCCESS && name) {
        info.name = name;
    } else {
        info.name = "kernel_" + HexValue(reinterpret_cast<uintptr_t>(function));
    }
    int registers = 0, sharedBytes = 0, localBytes = 0, maxThreads = 0;
    // A launch may name a CUkernel (a library kernel) instead of a CUfunction: its function in this context.
    CUfunction attributed = function;
    if (api_->cuFuncGetAttribute(&registers, CU_FUNC_ATTRIBUTE_NUM_REGS, function) != CUDA_SUCCESS && api_->cuKernelGetFunction) {
        CUfunction resolved = nullptr;
        if (api_->cuKernelGetFunction(&resolved, reinterpret_cast<CUkernel>(function)) == CUDA_SUCCESS && resolved) {
            attributed = resolved;
        }
    }
    info.function = attributed;
    info.waits = waitingKernels_ && waitingKernels_->Waits(info.name);
    if (api_->cuFuncGetAttribute(&registers, CU_FUNC_ATTRIBUTE_NUM_REGS, attributed) == CUDA_SUCCESS &&
        api_->cuFuncGetAttribute(&sharedBytes, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, attributed) == CUDA_SUCCESS &&
        api_->cuFuncGetAttribute(&localBytes, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, attributed) == CUDA_SUCCESS &&
        api_->cuFuncGetAttribute(&maxThreads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, attributed) == CUDA_SUCCESS) {
        info.resources.registersPerThread = static_cast<uint64_t>(registers);
        info.resources.staticSharedBytes = static_cast<uint64_t>(sharedBytes);
        info.resources.localBytesPerThread = static_cast<uint64_t>(localBytes);
        info.resources.maxThreadsPerBlock = static_cast<uint64_t>(maxThreads);
        info.resourcesKnown = true;
    }
    std::lock_guard<std::mutex> lock(mutex_);
    auto [it, inserted] = functions_.emplace(function, info);
    if (inserted) it->second.id = nextKernelId_++;
    return it->second;
}

void CudaPart::RecordDevices() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (devicesRecorded_) return;
    devicesRecorded_ = true;
    if (!driver_ && !gpa::cuda::LoadDriver(&driver_).ok()) driver_ = nullptr;
    int count = 0;
    if (api_->cuDeviceGetCount(&count) != CUDA_SUCCESS) return;
    int driverVersion = 0;
    api_->cuDriverGetVersion(&driverVersion);
    std::string kernelDriver;
    {
        std::ifstream in("/proc/driver/nvidia/version");
        std::stringstream text;
        text << in.rdbuf();
        kernelDriver = KernelDriverVersion(text.str());
    }
    if (kernelDriver.empty()) {
        // Where /proc does not say (virtual machines, containers), NVML does; NVML is initialised already
        // when the CUDA backend looked up the PCI device id, and stays loaded.
        if (void* nvml = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL)) {
            using Init = int (*)();
            using DriverVersion = int (*)(char*, unsigned int);
            Init init = nullptr;
            DriverVersion version = nullptr;
            void* initSymbol = dlsym(nvml, "nvmlInit_v2");
            void* versionSymbol = dlsym(nvml, "nvmlSystemGetDriverVersion");
            std::memcpy(&init, &initSymbol, sizeof init);
            std::memcpy(&version, &versionSymbol, sizeof version);
            char text[96] = "";
            if (init && version && init() == 0 && version(text, sizeof text) == 0) kernelDriver = text;
        }
    }
    for (int ordinal = 0; ordinal < count; ++ordinal) {
        CUdevice device = 0;
        if (api_->cuDeviceGet(&device, ordinal) != CUDA_SUCCESS) continue;
        DeviceInfo info;
        info.ordinal = static_cast<uint32_t>(ordinal);
        char name[256] = "";
        api_->cuDeviceGetName(name, sizeof name, device);
        info.name = name;
        auto attribute = [&](CUdevice_attribute which) -> uint64_t {
            int value = 0;
            return api_->cuDeviceGetAttribute(&value, which, device) == CUDA_SUCCESS && value > 0 ? static_cast<uint64_t>(value) : 0;
        };
        SmLimits& limits = info.limits;
        limits.deviceName = info.name;
        limits.computeMajor = static_cast<uint32_t>(attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR));
        limits.computeMinor = static_cast<uint32_t>(attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR));
        limits.smCount = attribute(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
        limits.warpSize = attribute(CU_DEVICE_ATTRIBUTE_WARP_SIZE);
        limits.maxThreadsPerSm = attribute(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR);
        limits.maxBlocksPerSm = attribute(CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR);
        limits.registersPerSm = attribute(CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR);
        limits.registersPerBlock = attribute(CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK);
        limits.sharedMemoryPerSm = attribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR);
        limits.reservedSharedMemoryPerBlock = attribute(CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK);
        limits.maxThreadsPerBlock = attribute(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
        DeviceFacts facts;
        facts.ordinal = info.ordinal;
        facts.name = info.name;
        facts.driverApiVersion = driverVersion;
        facts.kernelDriverVersion = kernelDriver;
        if (driver_) facts.pciDeviceId = gpa::cuda::PciDeviceId(*driver_, device);
        agent_->Write(spool::DeviceRecord{"cuda:" + std::to_string(ordinal), MakeDeviceHeader(facts)});
        devices_[info.ordinal] = std::move(info);
    }
}

bool CudaPart::SeveralDevices() const {
    const uint64_t devices = contextDevices_.load(std::memory_order_relaxed);
    return (devices & (devices - 1)) != 0;
}

DeviceInfo* CudaPart::DeviceOf(CUcontext context) {
    RecordDevices();
    CUdevice device = 0;
    if (!context || api_->cuCtxGetDevice(&device) != CUDA_SUCCESS) return nullptr;
    std::lock_guard<std::mutex> lock(mutex_);
    auto found = devices_.find(static_cast<uint32_t>(device));
    return found == devices_.end() ? nullptr : &found->second;
}

std::string CudaPart::DeviceName(uint32_t ordinal) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto found = devices_.find(ordinal);
    return found == devices_.end() ? "CUDA device " + std::to_string(ordinal) : found->second.name;
}

void CudaPart::OnModule(CUpti_CallbackId cbid, const CUpti_ResourceData* data) {
    if (!replayer_ || !memory_ || !data || !data->resourceDescriptor) return;  // module variables: own replay only
    const auto* module = static_cast<const CUpti_ModuleResourceData*>(data->resourceDescriptor);
    CUcontext context = data->context;
    if (!context) api_->cuCtxGetCurrent(&context);
    if (cbid == CUPTI_CBID_RESOURCE_MODULE_UNLOAD_STARTING) {
        memory_->CubinUnloaded(context, module->moduleId);
        return;
    }
    std::string problem;
    std::optional<CubinContents> contents = ReadCubinContents(module->pCubin, module->cubinSize, &problem);
    if (!contents) {
        // Its variables cannot be found: a placeholder section that is never placed, in a module that may define
        // any kernel, makes replays of this context fall back, rather than leave them unsaved.
        agent_->Note("the cubin of CUDA module " + std::to_string(module->moduleId) + " could not be read (" + problem +
                     "): counters needing several passes fall back to CUPTI's kernel replay");
        memory_->CubinLoaded(context, module->moduleId, {CubinDataSection{".nv.global (unreadable cubin)", 1, {}}});
        return;
    }
    memory_->CubinLoaded(context, module->moduleId, std::move(contents->sections), std::move(contents->functions));
}

void CudaPart::OnResource(CUpti_CallbackId cbid, const CUpti_ResourceData* data) {
    if (cbid == CUPTI_CBID_RESOURCE_GRAPHNODE_CLONED) {
        OnGraphNodeCloned(static_cast<const CUpti_GraphData*>(data->resourceDescriptor));
        return;
    }
    if (cbid == CUPTI_CBID_RESOURCE_CONTEXT_CREATED) {
        RecordDevices();
        uint32_t device = 0;
        if (api_->cuptiGetDeviceId && api_->cuptiGetDeviceId(data->context, &device) == CUPTI_SUCCESS && device < 64) {
            contextDevices_.fetch_or(uint64_t{1} << device, std::memory_order_relaxed);
            if (pmSampling_) pmSampling_->UseDevice(device);
        } else {
            contextDevices_.fetch_or(~uint64_t{0}, std::memory_order_relaxed);  // unknown: as if several
        }
        if (collector_) OfferAvailabilityAhead(data->context);
    } else if (cbid == CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING) {
        if (collector_) {
            auto lock = collector_->Lock();
            collector_->ForgetContext(data->context);
            if (replayer_) replayer_->ContextDestroyed(data->context);
            if (memory_) memory_->ContextDestroyed(data->context);
        }
        if (trace_) FlushActivity();
    }
}

}  // namespace gpaprof::cuda::injection
