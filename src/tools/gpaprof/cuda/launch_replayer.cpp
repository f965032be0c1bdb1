#include "tools/gpaprof/cuda/launch_replayer.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <optional>

#include "backends/cuda/elapsed_time.h"
#include "tools/gpaprof/cuda/cuda_api_table.h"

namespace gpaprof::cuda {
namespace {

using gpa::cuda::NowNs;

std::string MiB(uint64_t bytes) { return std::to_string((bytes + (1u << 20) - 1) >> 20) + " MiB"; }

}  // namespace

void ShapeLaunchConfig(LaunchCopy* launch) {
    launch->hasConfig = true;
    launch->config.gridDimX = launch->grid[0];
    launch->config.gridDimY = launch->grid[1];
    launch->config.gridDimZ = launch->grid[2];
    launch->config.blockDimX = launch->block[0];
    launch->config.blockDimY = launch->block[1];
    launch->config.blockDimZ = launch->block[2];
    launch->config.sharedMemBytes = launch->sharedBytes;
}

bool CopyKernelArguments(const TracingApi& api, CUfunction function, void** kernelParams, void** extra, LaunchCopy* copy,
                         std::string* why) {
    copy->arguments.clear();
    copy->argumentOffsets.clear();
    copy->argumentBuffer = false;
    if (kernelParams) {
        if (!api.cuFuncGetParamInfo || !function) {
            *why = "the driver cannot say the sizes of the kernel's parameters (cuFuncGetParamInfo)";
            return false;
        }
        for (size_t index = 0;; ++index) {
            size_t offset = 0, size = 0;
            const CUresult r = api.cuFuncGetParamInfo(function, index, &offset, &size);
            if (r == CUDA_ERROR_INVALID_VALUE) break;  // past the last parameter
            if (r != CUDA_SUCCESS) {
                const char* name = nullptr;
                api.cuGetErrorName(r, &name);
                *why = std::string("the driver cannot say the sizes of the kernel's parameters: ") + (name ? name : "?");
                return false;
            }
            copy->argumentOffsets.push_back(copy->arguments.size());
            const auto* value = static_cast<const uint8_t*>(kernelParams[index]);
            copy->arguments.insert(copy->arguments.end(), value, value + size);
        }
        return true;
    }
    if (extra) {
        const void* buffer = nullptr;
        size_t size = 0;
        for (void** entry = extra; *entry != CU_LAUNCH_PARAM_END; entry += 2) {
            if (entry[0] == CU_LAUNCH_PARAM_BUFFER_POINTER) buffer = entry[1];
            if (entry[0] == CU_LAUNCH_PARAM_BUFFER_SIZE && entry[1]) size = *static_cast<const size_t*>(entry[1]);
        }
        if (!buffer && size) {
            *why = "the launch's parameter buffer could not be read";
            return false;
        }
        const auto* bytes = static_cast<const uint8_t*>(buffer);
        copy->arguments.assign(bytes, bytes + size);
        copy->argumentBuffer = true;
    }
    return true;
}

std::string LaunchReplayer::KernelName(CUfunction function) const {
    const char* name = nullptr;
    if (!function || !api_->cuFuncGetName) return {};
    if (api_->cuFuncGetName(&name, function) == CUDA_SUCCESS && name) return name;
    // A copied launch keeps the handle the application passed: the runtime passes a CUkernel, which names its
    // function in the current context.
    CUfunction resolved = nullptr;
    if (api_->cuKernelGetFunction &&
        api_->cuKernelGetFunction(&resolved, reinterpret_cast<CUkernel>(function)) == CUDA_SUCCESS && resolved &&
        api_->cuFuncGetName(&name, resolved) == CUDA_SUCCESS && name) {
        return name;
    }
    return {};
}

DeviceMemoryMap::SavePlan LaunchReplayer::PlanFor(const LaunchCall& launch, void** kernelParams, void** extra) const {
    return memory_->PlanForLaunches(launch.context, [&] { return std::vector<std::string>{KernelName(launch.function)}; },
                                    [&]() -> std::optional<std::vector<uint64_t>> {
                                        LaunchCopy copy;
                                        std::string why;
                                        if (!CopyKernelArguments(*api_, launch.function, kernelParams, extra, &copy, &why)) {
                                            return std::nullopt;
                                        }
                                        return ArgumentWords(copy.arguments, copy.argumentOffsets);
                                    });
}

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

bool LaunchReplayer::ReplayStream(CUcontext context, CUstream* stream, std::string* why) {
    CUstream& known = replayStreams_[context];
    if (!known) {
        if (const CUresult r = api_->cuStreamCreate(&known, CU_STREAM_NON_BLOCKING); r != CUDA_SUCCESS) {
            known = nullptr;
            *why = "creating a stream for the replay failed: " + Describe(r);
            return false;
        }
        uint32_t id = 0;
        const CUptiResult found = api_->cuptiGetStreamIdEx ? api_->cuptiGetStreamIdEx(context, known, 0, &id)
                                                           : CUPTI_ERROR_NOT_SUPPORTED;
        if (found == CUPTI_SUCCESS) {
            std::lock_guard<std::mutex> lock(ownStreamsMutex_);
            ownStreamIds_.insert(id);
        }
        if (std::getenv("GPAPROF_CUDA_DEBUG")) {
            std::fprintf(stderr, "gpaprof: debug: gpaprof's stream %p of context %p: CUPTI stream id %u (%s)\n",
                         static_cast<void*>(known), static_cast<void*>(context), id, api_->Describe(found).c_str());
        }
    }
    *stream = known;
    return true;
}

bool LaunchReplayer::OwnsActivity(uint32_t cuptiContextId, uint32_t cuptiStreamId) const {
    (void)cuptiContextId;  // gpaprof's kernels all run on its streams
    std::lock_guard<std::mutex> lock(ownStreamsMutex_);
    return ownStreamIds_.count(cuptiStreamId) != 0;
}

bool LaunchReplayer::FlushCache(CUcontext context, CUstream stream) {
    if (!flush_.enabled() || !flushFailure_.empty()) return false;
    std::string why;
    if (flush_.Run(context, stream, &why)) return true;
    // Never again in this process: every pass of a replay must hold the same kernels.
    flushFailure_ = why;
    std::fprintf(stderr, "gpaprof: the L2 cache is not flushed before measured kernels (%s): durations of kernels "
                 "run right after gpaprof saved or restored memory may be longer\n", why.c_str());
    return false;
}

bool LaunchReplayer::FlushCacheBefore(const LaunchCall& launch) {
    const std::optional<LaunchParameters> parameters = KernelLaunchParameters(launch.cbid, launch.params);
    if (!parameters) return false;
    CUstream stream = parameters->stream;
    if (stream == nullptr && parameters->perThreadStream) stream = CU_STREAM_PER_THREAD;
    // Not into a stream being captured into a graph: the flush would become a node of the application's graph.
    CUstreamCaptureStatus capture = CU_STREAM_CAPTURE_STATUS_NONE;
    if (!api_->cuStreamIsCapturing || api_->cuStreamIsCapturing(stream, &capture) != CUDA_SUCCESS ||
        capture != CU_STREAM_CAPTURE_STATUS_NONE) {
        return false;
    }
    return FlushCache(launch.context, stream);
}

bool LaunchReplayer::FlushCacheBeforeRelaunch() {
    return FlushCache(batchContext_ ? batchContext_ : current_.context, stream_);
}

std::string LaunchReplayer::Describe(CUresult result) const {
    const char* name = nullptr;
    if (api_->cuGetErrorName(result, &name) != CUDA_SUCCESS || !name) name = "CUDA error";
    return std::string(name) + " (" + std::to_string(static_cast<int>(result)) + ")";
}

std::string LaunchReplayer::DescribeRelaunch(const LaunchCopy& copy, CUresult result) const {
    const std::string name = KernelName(copy.function);
    auto dims = [](const unsigned (&d)[3]) {
        return std::to_string(d[0]) + "x" + std::to_string(d[1]) + "x" + std::to_string(d[2]);
    };
    std::string text = Describe(result) + " for " + (name.empty() ? "a kernel the driver does not name" : name) +
                       ", grid " + dims(copy.grid) + ", block " + dims(copy.block) + ", " +
                       std::to_string(copy.sharedBytes) + " bytes of dynamic shared memory, " +
                       std::to_string(copy.arguments.size()) + " bytes of arguments";
    if (copy.hasConfig) {
        text += ", cuLaunchKernelEx with " + std::to_string(copy.attributes.size()) + " attribute(s)";
        for (size_t a = 0; a < copy.attributes.size(); ++a) {
            text += (a ? ", " : " (CUlaunchAttributeID ") + std::to_string(static_cast<int>(copy.attributes[a].id));
        }
        if (!copy.attributes.empty()) text += ")";
    }
    return text;
}

std::string LaunchReplayer::DescribeRelaunch(CUresult result) const {
    LaunchCopy copy;
    std::string why;
    if (!CopyLaunch(current_, &copy, &why)) return Describe(result) + " (the launch could not be read: " + why + ")";
    return DescribeRelaunch(copy, result);
}

void LaunchReplayer::ResolveModuleData(CUcontext context, CUfunction function, CUfunction launched) {
    if (function && api_->cuFuncGetModule) {
        auto known = modules_.find(function);
        if (known == modules_.end()) {
            CUmodule module = nullptr;
            if (api_->cuFuncGetModule(&module, function) != CUDA_SUCCESS) module = nullptr;
            known = modules_.emplace(function, module).first;
            // A launch that named a CUkernel (a library's kernel, as the runtime launches): its library too.
            if (launched && launched != function && api_->cuKernelGetLibrary) {
                CUlibrary library = nullptr;
                if (api_->cuKernelGetLibrary(&library, reinterpret_cast<CUkernel>(launched)) == CUDA_SUCCESS) {
                    memory_->LibraryKnown(library);
                }
            }
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
            CUresult result = CUDA_ERROR_NOT_FOUND;
            if (lookup.module) {
                result = api_->cuModuleGetGlobal_v2(&address, &bytes, lookup.module, lookup.name.c_str());
            } else if (lookup.library && api_->cuLibraryGetGlobal) {
                result = api_->cuLibraryGetGlobal(&address, &bytes, lookup.library, lookup.name.c_str());
            }
            if (result == CUDA_SUCCESS) {
                unsigned int managed = 0;
                if (api_->cuPointerGetAttribute(&managed, CU_POINTER_ATTRIBUTE_IS_MANAGED, address) == CUDA_SUCCESS &&
                    managed) {
                    memory_->Allocated(context, MemoryKind::Managed, address, bytes);  // a __managed__ variable
                }
                CUdeviceptr base = 0;
                size_t size = 0;
                if (api_->cuMemGetAddressRange_v2(&base, &size, address) != CUDA_SUCCESS) base = size = 0;
                found = DeviceMemoryMap::Found{address, bytes, base, size};
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
    // The passes run on gpaprof's stream (their kernels are told apart from the application's by it); the
    // context is idle once saved, and the stream is waited for before the application's launch.
    if (!ReplayStream(launch.context, &stream_, why)) return fail(*why);
    ResolveModuleData(launch.context, launch.function, parameters->function);
    const DeviceMemoryMap::SavePlan plan = PlanFor(launch, parameters->kernelParams, parameters->extra);
    if (!plan.unsafe.empty()) return fail(plan.unsafe);
    if (!PrepareShadows(launch.context, plan.regions, why)) return fail(*why);
    // Work already queued on any stream may still write what is about to be saved.
    if (const CUresult r = api_->cuCtxSynchronize(); r != CUDA_SUCCESS) return fail("waiting for the context failed: " + Describe(r));
    bool ok = false;
    Copy(true, why, &ok);
    if (!ok) return fail(*why);
    if (observer_) observer_(true);
    replaying_ = true;
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

std::string LaunchReplayer::UnsafeMemory(const LaunchCall& launch) {
    const std::optional<LaunchParameters> parameters = KernelLaunchParameters(launch.cbid, launch.params);
    if (!parameters) return "the launch function is not one gpaprof can issue again";
    ResolveModuleData(launch.context, launch.function, parameters->function);
    return PlanFor(launch, parameters->kernelParams, parameters->extra).unsafe;
}

bool LaunchReplayer::CopyLaunch(const LaunchCall& launch, LaunchCopy* copy, std::string* why) const {
    const std::optional<LaunchParameters> p = KernelLaunchParameters(launch.cbid, launch.params);
    if (!p) {
        *why = "the launch function is not one gpaprof can issue again";
        return false;
    }
    *copy = LaunchCopy{};
    copy->function = p->function;
    copy->resolved = launch.function;
    for (int d = 0; d < 3; ++d) {
        copy->grid[d] = static_cast<unsigned>(p->grid[d]);
        copy->block[d] = static_cast<unsigned>(p->block[d]);
    }
    copy->sharedBytes = static_cast<unsigned>(p->dynamicSharedBytes);
    if (p->config) {
        copy->hasConfig = true;
        copy->config = *p->config;
        if (p->config->attrs && p->config->numAttrs) {
            copy->attributes.assign(p->config->attrs, p->config->attrs + p->config->numAttrs);
        }
    }
    return CopyKernelArguments(*api_, launch.function, p->kernelParams, p->extra, copy, why);
}

void LaunchReplayer::ContextDestroyed(CUcontext context) {
    // The driver frees the memory with the context.
    std::erase_if(freeSnapshots_, [&](const PooledBuffer& buffer) {
        if (buffer.context != context) return false;
        snapshotHeld_ -= buffer.size;
        return true;
    });
    if (auto found = shadows_.find(context); found != shadows_.end()) {
        for (const Shadow& shadow : found->second) statistics_.shadowBytes -= shadow.region.size;
        shadows_.erase(found);
    }
    replayStreams_.erase(context);
    flush_.ContextDestroyed(context);
    modules_.clear();  // functions are per context; a later context may reuse their handles
}

bool LaunchReplayer::BeginBatchReplay(CUcontext context, std::string* why, const std::vector<uint64_t>* pinnedByArguments) {
    return BeginBatchReplayOf(context, why, [&] { return memory_->Plan(context, pinnedByArguments); });
}

bool LaunchReplayer::BeginBatchReplay(CUcontext context, const std::vector<const LaunchCopy*>& launches, std::string* why) {
    return BeginBatchReplayOf(context, why, [&] {
        // Always narrowed as where a communication library has memory, whether or not it still has: each launch was
        // deferred because its memory could be saved then, and the batch has no other way left (its launches ran).
        // The library's memory goes before the batch ends when the program tears it down (DDP's last batch of
        // optimizer kernels was NA: "pinned host memory"). Memory made after a launch is not reachable from its
        // arguments, nor from device memory as it is put back for the launch.
        std::vector<std::string> kernels;
        std::vector<uint64_t> words;
        for (const LaunchCopy* launch : launches) {
            kernels.push_back(KernelName(launch->function));
            const std::vector<uint64_t> more = ArgumentWords(launch->arguments, launch->argumentOffsets);
            words.insert(words.end(), more.begin(), more.end());
        }
        return memory_->Plan(context, &words, &kernels);
    });
}

bool LaunchReplayer::BeginBatchReplayOf(CUcontext context, std::string* why,
                                        const std::function<DeviceMemoryMap::SavePlan()>& planFor) {
    const uint64_t start = NowNs();
    exclusive_ = std::unique_lock<std::shared_mutex>(gate_);
    if (const CUresult r = api_->cuCtxPushCurrent_v2(context); r != CUDA_SUCCESS) {
        exclusive_ = {};
        *why = "making the context current failed: " + Describe(r);
        return false;
    }
    batchContext_ = context;
    auto fail = [&](std::string reason) {
        *why = std::move(reason);
        CUcontext popped = nullptr;
        api_->cuCtxPopCurrent_v2(&popped);
        batchContext_ = nullptr;
        active_ = nullptr;
        exclusive_ = {};
        statistics_.beginNs += NowNs() - start;
        return false;
    };
    if (!ReplayStream(context, &stream_, why)) return fail(*why);
    ResolveModuleData(context, nullptr, nullptr);
    const DeviceMemoryMap::SavePlan plan = planFor();
    if (!plan.unsafe.empty()) return fail(plan.unsafe);
    if (!PrepareShadows(context, plan.regions, why)) return fail(*why);
    if (const CUresult r = api_->cuCtxSynchronize(); r != CUDA_SUCCESS) return fail("waiting for the context failed: " + Describe(r));
    bool ok = false;
    Copy(true, why, &ok);
    if (!ok) return fail(*why);
    if (observer_) observer_(true);
    replaying_ = true;
    ++statistics_.batches;
    statistics_.batchBytes += plan.bytes;
    statistics_.beginNs += NowNs() - start;
    return true;
}

CUresult LaunchReplayer::Relaunch(const LaunchCopy& copy) {
    ++statistics_.relaunches;
    std::vector<void*> parameters;
    for (size_t offset : copy.argumentOffsets) parameters.push_back(const_cast<uint8_t*>(copy.arguments.data()) + offset);
    size_t bufferSize = copy.arguments.size();
    void* extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, const_cast<uint8_t*>(copy.arguments.data()), CU_LAUNCH_PARAM_BUFFER_SIZE,
                     &bufferSize, CU_LAUNCH_PARAM_END};
    void** kernelParams = copy.argumentBuffer ? nullptr : parameters.data();
    void** extraParams = copy.argumentBuffer ? extra : nullptr;
    if (copy.hasConfig) {
        if (!api_->cuLaunchKernelEx) return CUDA_ERROR_NOT_SUPPORTED;
        CUlaunchConfig config = copy.config;
        config.hStream = stream_;
        config.attrs = const_cast<CUlaunchAttribute*>(copy.attributes.data());
        config.numAttrs = static_cast<unsigned>(copy.attributes.size());
        return api_->cuLaunchKernelEx(&config, copy.function, kernelParams, extraParams);
    }
    return api_->cuLaunchKernel(copy.function, copy.grid[0], copy.grid[1], copy.grid[2], copy.block[0], copy.block[1],
                                copy.block[2], copy.sharedBytes, stream_, kernelParams, extraParams);
}

bool LaunchReplayer::EndBatchReplay(std::string* why) {
    bool ok = active_ != nullptr;
    if (ok) Copy(false, why, &ok);
    if (const CUresult r = api_->cuStreamSynchronize(stream_); r != CUDA_SUCCESS && ok) {
        *why = "waiting for the replay failed: " + Describe(r);
        ok = false;
    }
    if (replaying_ && observer_) observer_(false);
    replaying_ = false;
    CUcontext popped = nullptr;
    if (batchContext_) api_->cuCtxPopCurrent_v2(&popped);
    batchContext_ = nullptr;
    active_ = nullptr;
    if (exclusive_.owns_lock()) exclusive_.unlock();
    return ok;
}

std::string LaunchReplayer::UnsafeContextMemory(CUcontext context, const std::vector<uint64_t>* pinnedByArguments) {
    ResolveModuleData(context, nullptr, nullptr);
    return memory_->Plan(context, pinnedByArguments).unsafe;
}

CUresult LaunchReplayer::RunCopy(const CUDA_MEMCPY3D& copy) {
    if (!api_->cuMemcpy3DAsync_v2) return CUDA_ERROR_NOT_SUPPORTED;
    return api_->cuMemcpy3DAsync_v2(&copy, stream_);
}

CUresult LaunchReplayer::RunSet(const CUDA_MEMSET_NODE_PARAMS& set) {
    // A set of one row may leave its pitch 0; the 2D calls want at least a row's bytes.
    const size_t pitch = set.height <= 1 ? std::max<size_t>(set.pitch, set.width * set.elementSize) : set.pitch;
    switch (set.elementSize) {
        case 1:
            if (!api_->cuMemsetD2D8Async) return CUDA_ERROR_NOT_SUPPORTED;
            return api_->cuMemsetD2D8Async(set.dst, pitch, static_cast<unsigned char>(set.value), set.width, set.height, stream_);
        case 2:
            if (!api_->cuMemsetD2D16Async) return CUDA_ERROR_NOT_SUPPORTED;
            return api_->cuMemsetD2D16Async(set.dst, pitch, static_cast<unsigned short>(set.value), set.width, set.height,
                                            stream_);
        case 4:
            if (!api_->cuMemsetD2D32Async) return CUDA_ERROR_NOT_SUPPORTED;
            return api_->cuMemsetD2D32Async(set.dst, pitch, set.value, set.width, set.height, stream_);
        default:
            return CUDA_ERROR_INVALID_VALUE;
    }
}

CUresult LaunchReplayer::LaunchGraph(CUgraphExec exec) {
    if (!api_->cuGraphLaunch) return CUDA_ERROR_NOT_SUPPORTED;
    ++statistics_.relaunches;
    return api_->cuGraphLaunch(exec, stream_);
}

bool LaunchReplayer::FlushCacheOnStream(CUcontext context, CUstream stream) {
    CUstreamCaptureStatus capture = CU_STREAM_CAPTURE_STATUS_NONE;
    if (!api_->cuStreamIsCapturing || api_->cuStreamIsCapturing(stream, &capture) != CUDA_SUCCESS ||
        capture != CU_STREAM_CAPTURE_STATUS_NONE) {
        return false;
    }
    return FlushCache(context, stream);
}

bool LaunchReplayer::Settle(std::string* why) {
    const CUresult r = api_->cuStreamSynchronize(stream_);
    // The application's own launch comes next.
    if (replaying_ && observer_) observer_(false);
    replaying_ = false;
    if (r != CUDA_SUCCESS) {
        *why = "waiting for the launch stream failed: " + Describe(r);
        return false;
    }
    return true;
}

void LaunchReplayer::End() {
    if (replaying_ && observer_) observer_(false);
    replaying_ = false;
    active_ = nullptr;
    current_ = {};
    if (exclusive_.owns_lock()) exclusive_.unlock();
}

}  // namespace gpaprof::cuda
