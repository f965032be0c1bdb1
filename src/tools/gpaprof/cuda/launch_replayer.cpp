#include "tools/gpaprof/cuda/launch_replayer.h"

#include <chrono>
#include <cstdio>
#include <optional>

#include "tools/gpaprof/cuda/cuda_api_table.h"

namespace gpaprof::cuda {
namespace {

uint64_t NowNs() {
    return static_cast<uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count());
}

std::string MiB(uint64_t bytes) { return std::to_string((bytes + (1u << 20) - 1) >> 20) + " MiB"; }

}  // namespace

LaunchReplayer::~LaunchReplayer() {
    // Shadows are left to the driver: at exit the contexts may be gone already.
}

std::string LaunchReplayer::CannotReplay(const LaunchCall& launch) {
    const std::optional<LaunchParameters> parameters = KernelLaunchParameters(launch.cbid, launch.params);
    if (!parameters) return "the launch function is not one gpaprof can issue again";
    if (parameters->cooperative) return "cooperative launches (every block must be resident at once)";
    if (launch.threadHoldsGate) return "a launch made inside another CUDA call that writes memory";
    return {};
}

std::shared_lock<std::shared_mutex> LaunchReplayer::ShareGate() { return std::shared_lock<std::shared_mutex>(gate_); }

std::string LaunchReplayer::Describe(CUresult result) const {
    const char* name = nullptr;
    if (api_->cuGetErrorName(result, &name) != CUDA_SUCCESS || !name) name = "CUDA error";
    return std::string(name) + " (" + std::to_string(static_cast<int>(result)) + ")";
}

void LaunchReplayer::ResolveModuleData(CUcontext context, CUfunction function) {
    if (function && api_->cuFuncGetModule) {
        auto known = modules_.find(function);
        if (known == modules_.end()) {
            CUmodule module = nullptr;
            if (api_->cuFuncGetModule(&module, function) != CUDA_SUCCESS) module = nullptr;
            known = modules_.emplace(function, module).first;
        }
        if (known->second) memory_->ModuleKnown(context, known->second);
    }
    // Each round tries one more variable name per (module, section) not placed yet; a section has few.
    for (int round = 0; round < 4096; ++round) {
        const std::vector<DeviceMemoryMap::Lookup> lookups = memory_->PendingLookups(context);
        if (lookups.empty()) break;
        for (const DeviceMemoryMap::Lookup& lookup : lookups) {
            std::optional<DeviceMemoryMap::Found> found;
            CUdeviceptr address = 0;
            size_t bytes = 0;
            if (api_->cuModuleGetGlobal_v2(&address, &bytes, lookup.module, lookup.name.c_str()) == CUDA_SUCCESS) {
                unsigned int managed = 0;
                if (api_->cuPointerGetAttribute(&managed, CU_POINTER_ATTRIBUTE_IS_MANAGED, address) == CUDA_SUCCESS &&
                    managed) {
                    memory_->Allocated(context, MemoryKind::Managed, address, bytes);  // a __managed__ variable
                }
                CUdeviceptr base = 0;
                size_t size = 0;
                if (api_->cuMemGetAddressRange_v2(&base, &size, address) == CUDA_SUCCESS) {
                    found = DeviceMemoryMap::Found{address, bytes, base, size};
                }
            }
            memory_->LookupResult(context, lookup, found);
        }
    }
}

bool LaunchReplayer::PrepareShadows(CUcontext context, const std::vector<MemoryRegion>& regions, std::string* why) {
    std::vector<Shadow>& shadows = shadows_[context];
    // Shadows of regions that are gone are freed first, so that their memory can hold the new ones.
    std::vector<Shadow> kept;
    for (Shadow& shadow : shadows) {
        bool wanted = false;
        for (const MemoryRegion& region : regions) wanted = wanted || region == shadow.region;
        if (wanted) {
            kept.push_back(shadow);
        } else {
            api_->cuMemFree_v2(shadow.copy);
            statistics_.shadowBytes -= shadow.region.size;
        }
    }
    shadows.clear();
    for (const MemoryRegion& region : regions) {
        Shadow shadow{region, 0};
        for (const Shadow& old : kept) {
            if (old.region == region) shadow.copy = old.copy;
        }
        if (shadow.copy == 0) {
            if (const CUresult r = api_->cuMemAlloc_v2(&shadow.copy, region.size); r != CUDA_SUCCESS) {
                for (const Shadow& made : shadows) {
                    api_->cuMemFree_v2(made.copy);
                    statistics_.shadowBytes -= made.region.size;
                }
                shadows.clear();
                uint64_t total = 0;
                for (const MemoryRegion& r2 : regions) total += r2.size;
                *why = "no device memory for the copies of what the kernel can write (" + MiB(total) + "): " + Describe(r);
                return false;
            }
            statistics_.shadowBytes += region.size;
        }
        shadows.push_back(shadow);
    }
    active_ = &shadows;
    return true;
}

void LaunchReplayer::Copy(bool save, std::string* why, bool* ok) {
    *ok = true;
    for (const Shadow& shadow : *active_) {
        const CUdeviceptr from = save ? shadow.region.base : shadow.copy;
        const CUdeviceptr to = save ? shadow.copy : shadow.region.base;
        if (const CUresult r = api_->cuMemcpyDtoDAsync_v2(to, from, shadow.region.size, stream_); r != CUDA_SUCCESS) {
            char address[32];
            std::snprintf(address, sizeof address, "0x%llx", static_cast<unsigned long long>(shadow.region.base));
            *why = std::string(save ? "saving " : "restoring ") + MiB(shadow.region.size) + " at " + address +
                   " failed: " + Describe(r);
            *ok = false;
            return;
        }
    }
}

bool LaunchReplayer::Begin(const LaunchCall& launch, std::string* why) {
    const uint64_t start = NowNs();
    const std::optional<LaunchParameters> parameters = KernelLaunchParameters(launch.cbid, launch.params);
    if (!parameters) {
        *why = "the launch function is not one gpaprof can issue again";
        return false;
    }
    exclusive_ = std::unique_lock<std::shared_mutex>(gate_);
    auto fail = [&](std::string reason) {
        *why = std::move(reason);
        exclusive_ = {};
        active_ = nullptr;
        statistics_.beginNs += NowNs() - start;
        return false;
    };
    current_ = launch;
    stream_ = parameters->stream;
    if (stream_ == nullptr && parameters->perThreadStream) stream_ = CU_STREAM_PER_THREAD;
    ResolveModuleData(launch.context, launch.function);
    const DeviceMemoryMap::SavePlan plan = memory_->Plan(launch.context);
    if (!plan.unsafe.empty()) return fail(plan.unsafe);
    if (!PrepareShadows(launch.context, plan.regions, why)) return fail(*why);
    // Work already queued on any stream may still write what is about to be saved.
    if (const CUresult r = api_->cuCtxSynchronize(); r != CUDA_SUCCESS) return fail("waiting for the context failed: " + Describe(r));
    bool ok = false;
    Copy(true, why, &ok);
    if (!ok) return fail(*why);
    ++statistics_.dispatches;
    statistics_.bytesSaved += plan.bytes;
    statistics_.beginNs += NowNs() - start;
    return true;
}

CUresult LaunchReplayer::Relaunch() {
    const std::optional<LaunchParameters> p = KernelLaunchParameters(current_.cbid, current_.params);
    if (!p) return CUDA_ERROR_NOT_SUPPORTED;
    ++statistics_.relaunches;
    if (p->config) {
        if (!api_->cuLaunchKernelEx) return CUDA_ERROR_NOT_SUPPORTED;
        CUlaunchConfig config = *p->config;
        config.hStream = stream_;
        return api_->cuLaunchKernelEx(&config, p->function, p->kernelParams, p->extra);
    }
    return api_->cuLaunchKernel(p->function, static_cast<unsigned>(p->grid[0]), static_cast<unsigned>(p->grid[1]),
                                static_cast<unsigned>(p->grid[2]), static_cast<unsigned>(p->block[0]),
                                static_cast<unsigned>(p->block[1]), static_cast<unsigned>(p->block[2]),
                                static_cast<unsigned>(p->dynamicSharedBytes), stream_, p->kernelParams, p->extra);
}

bool LaunchReplayer::Restore(std::string* why) {
    if (!active_) {
        *why = "no replay in progress";
        return false;
    }
    bool ok = false;
    Copy(false, why, &ok);
    ++statistics_.restores;
    return ok;
}

bool LaunchReplayer::Settle(std::string* why) {
    if (const CUresult r = api_->cuStreamSynchronize(stream_); r != CUDA_SUCCESS) {
        *why = "waiting for the launch stream failed: " + Describe(r);
        return false;
    }
    return true;
}

void LaunchReplayer::End() {
    active_ = nullptr;
    current_ = {};
    if (exclusive_.owns_lock()) exclusive_.unlock();
}

}  // namespace gpaprof::cuda
