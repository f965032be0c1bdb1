// CudaPart's device commands (launches, copies, sets) waiting for their activity records, by correlation id
// (cuda_part.h): registered by the API callbacks, taken by the activity records.
#include <algorithm>
#include <cstdio>
#include <mutex>
#include <optional>
#include <unordered_set>
#include <vector>

#include "tools/gpaprof/agent/agent.h"
#include "tools/gpaprof/cuda/cuda_part.h"

namespace gpaprof::cuda::injection {

void CudaPart::RegisterEnqueue(OpenCall* owner, uint32_t correlationId, std::optional<uint64_t> stream, CUcontext context,
                               uint64_t kernelHandle, const char* kernelName, uint32_t ownerCorrelationId) {
    // The name tells the driver's own kernels from the launch's under the range profiler (-p) only.
    const uint64_t nameHash = counters_ && kernelName && *kernelName ? NameHash(kernelName) : 0;
    CostScope cost(costs_, CostSite::Enqueue);
    std::lock_guard<std::mutex> lock(enqueueMutex_);
    if (!owner->correlations.empty()) DrainStagedLaunches();  // the call's first command may still be staged
    PendingEnqueue* pending = nullptr;
    owner->correlations.ForEach([&](uint32_t id) {
        if (PendingEnqueue* found = enqueues_.Find(id)) pending = found;
    });
    if (!pending) {
        pending = NewPending();
        pending->info.threadId = Agent::ThreadId();
        pending->info.index = *owner->index;
        pending->apiClass = owner->apiClass;
    }
    if (stream) pending->info.streamHandle = *stream;
    if (context) pending->info.contextHandle = reinterpret_cast<uintptr_t>(context);
    if (kernelHandle) pending->info.kernelHandle = kernelHandle;
    if (nameHash) pending->kernelNameHash = nameHash;
    unflushedEnqueues_.store(true, std::memory_order_relaxed);
    const uint32_t ids[] = {correlationId, ownerCorrelationId};
    for (size_t i = 0; i < (ownerCorrelationId ? 2 : 1); ++i) {
        const uint32_t id = ids[i];
        if (enqueues_.Insert(id, pending)) {  // the owner's id may be the same, or registered already
            pending->ids.push_back(id);
            owner->correlations.push_back(id);
        }
    }
    if (pending->ids.empty()) DeletePending(pending);  // every id was another command's: nothing refers to it
}

void CudaPart::StageLaunch(CallbackThread& thread, OpenCall* owner, uint32_t correlationId, uint64_t stream,
                           CUcontext context, uint64_t kernelHandle) {
    CostScope cost(costs_, CostSite::Enqueue);
    StagedLaunch launch;
    launch.ids[launch.idCount++] = correlationId;
    if (owner->correlationId && owner->correlationId != correlationId) launch.ids[launch.idCount++] = owner->correlationId;
    launch.threadId = owner->threadId;
    launch.index = *owner->index;
    launch.stream = stream;
    launch.context = reinterpret_cast<uintptr_t>(context);
    launch.kernel = kernelHandle;
    launch.callClass = static_cast<uint32_t>(owner->apiClass);
    staged_.Stage(launch, thread.stage);
    for (uint32_t i = 0; i < launch.idCount; ++i) owner->correlations.push_back(launch.ids[i]);
    // Stored only when it changes: a store each launch would take the line from every other thread that reads it.
    if (!unflushedEnqueues_.load(std::memory_order_relaxed)) unflushedEnqueues_.store(true, std::memory_order_relaxed);
}

void CudaPart::DrainStagedLaunches() {
    if (staged_.threads() == 0) return;
    size_t skipped = 0;
    staged_.Drain(
        [this](const StagedLaunch& launch) {
            PendingEnqueue* pending = NewPending();
            pending->info.threadId = launch.threadId;
            pending->info.index = launch.index;
            pending->info.streamHandle = launch.stream;
            pending->info.contextHandle = launch.context;
            pending->info.kernelHandle = launch.kernel;
            pending->apiClass = static_cast<CudaApiClass>(launch.callClass);
            for (uint32_t i = 0; i < launch.idCount; ++i) {
                if (enqueues_.Insert(launch.ids[i], pending)) pending->ids.push_back(launch.ids[i]);
            }
            if (pending->ids.empty()) DeletePending(pending);  // every id was another command's
        },
        &skipped);
    if (skipped && debugRecords_) {
        std::fprintf(stderr, "gpaprof: debug: %zu threads' staged launches left for later (their lists were locked)\n", skipped);
    }
}

void CudaPart::ForgetEnqueue(const OpenCall& call) {
    if (call.correlations.empty()) return;
    std::lock_guard<std::mutex> lock(enqueueMutex_);
    DrainStagedLaunches();
    // Every id of a command is its call's: once they are gone, nothing refers to it.
    PendingEnqueue* forgotten[2] = {nullptr, nullptr};
    std::vector<PendingEnqueue*> more;
    call.correlations.ForEach([&](uint32_t id) {
        PendingEnqueue* pending = enqueues_.Erase(id);
        if (!pending || pending == forgotten[0] || pending == forgotten[1]) return;
        if (!forgotten[0]) {
            forgotten[0] = pending;
        } else if (!forgotten[1]) {
            forgotten[1] = pending;
        } else if (std::find(more.begin(), more.end(), pending) == more.end()) {
            more.push_back(pending);
        }
    });
    for (PendingEnqueue* pending : forgotten) {
        if (pending) DeletePending(pending);
    }
    for (PendingEnqueue* pending : more) DeletePending(pending);
}

size_t CudaPart::PendingEnqueues() {
    std::lock_guard<std::mutex> lock(enqueueMutex_);
    DrainStagedLaunches();
    std::unordered_set<const PendingEnqueue*> commands;
    enqueues_.ForEach([&](uint32_t, const PendingEnqueue* pending) { commands.insert(pending); });
    return commands.size();
}

std::optional<PendingEnqueue> CudaPart::TakeEnqueue(uint32_t correlationId, std::optional<CudaApiClass> apiClass) {
    std::lock_guard<std::mutex> lock(enqueueMutex_);
    PendingEnqueue* found = enqueues_.Find(correlationId);
    if (!found) return std::nullopt;
    if (apiClass && found->apiClass != *apiClass) return std::nullopt;
    std::optional<PendingEnqueue> pending = std::move(*found);
    pending->ids.ForEach([&](uint32_t id) { enqueues_.Erase(id); });  // one command per call
    DeletePending(found);
    return pending;
}

}  // namespace gpaprof::cuda::injection
