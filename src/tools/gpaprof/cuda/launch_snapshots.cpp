// LaunchReplayer's snapshots (launch_replayer.h, "deferred"): what a dispatch or a CUDA graph launch could write,
// kept in a pooled device buffer until its batch's passes run, and put back before each of them.
#include <cstdlib>
#include <optional>

#include "backends/cuda/elapsed_time.h"
#include "tools/gpaprof/cuda/cuda_api_table.h"
#include "tools/gpaprof/cuda/launch_replayer.h"

namespace gpaprof::cuda {
namespace {

using gpa::cuda::NowNs;

std::string MiB(uint64_t bytes) { return std::to_string((bytes + (1u << 20) - 1) >> 20) + " MiB"; }

}  // namespace

LaunchReplayer::SnapshotResult LaunchReplayer::TakeSnapshot(const LaunchCall& launch, Snapshot* snapshot, std::string* why) {
    const uint64_t start = NowNs();
    const std::optional<LaunchParameters> parameters = KernelLaunchParameters(launch.cbid, launch.params);
    if (!parameters) {
        *why = "the launch function is not one gpaprof can issue again";
        return SnapshotResult::Failed;
    }
    std::unique_lock<std::shared_mutex> exclusive(gate_);
    ResolveModuleData(launch.context, launch.function, parameters->function);
    const DeviceMemoryMap::SavePlan plan = PlanFor(launch, parameters->kernelParams, parameters->extra);
    statistics_.beginNs += NowNs() - start;
    CUstream stream = parameters->stream;
    if (stream == nullptr && parameters->perThreadStream) stream = CU_STREAM_PER_THREAD;
    return Keep(launch.context, plan, stream, start, snapshot, why);
}

LaunchReplayer::SnapshotResult LaunchReplayer::TakeGraphSnapshot(CUcontext context, CUstream stream,
                                                                 const std::vector<uint64_t>& pinnedByArguments,
                                                                 Snapshot* snapshot, std::string* why) {
    const uint64_t start = NowNs();
    std::unique_lock<std::shared_mutex> exclusive(gate_);
    ResolveModuleData(context, nullptr, nullptr);
    const DeviceMemoryMap::SavePlan plan = memory_->Plan(context, &pinnedByArguments);
    statistics_.beginNs += NowNs() - start;
    return Keep(context, plan, stream, start, snapshot, why);
}

LaunchReplayer::SnapshotResult LaunchReplayer::Keep(CUcontext context, const DeviceMemoryMap::SavePlan& plan,
                                                    CUstream stream, uint64_t start, Snapshot* snapshot,
                                                    std::string* why) {
    if (!plan.unsafe.empty()) {
        *why = plan.unsafe;
        return SnapshotResult::Unsafe;
    }
    if (snapshotLimit_ == 0) {
        if (const char* text = std::getenv("GPAPROF_CUDA_REPLAY_MEMORY_MB"); text && *text) {
            snapshotLimit_ = std::strtoull(text, nullptr, 10) << 20;
        } else {
            size_t free = 0, total = 0;
            if (api_->cuMemGetInfo_v2(&free, &total) == CUDA_SUCCESS) snapshotLimit_ = free / 4;
        }
        if (snapshotLimit_ == 0) snapshotLimit_ = 256ull << 20;
    }
    *snapshot = Snapshot{};
    snapshot->regions = plan.regions;
    snapshot->bytes = plan.bytes;
    // The smallest free buffer that holds it, else a new one while the pool stays within its share.
    snapshot->context = context;
    size_t best = freeSnapshots_.size();
    for (size_t i = 0; i < freeSnapshots_.size(); ++i) {
        const PooledBuffer& buffer = freeSnapshots_[i];
        if (buffer.context == context && buffer.size >= plan.bytes &&
            (best == freeSnapshots_.size() || buffer.size < freeSnapshots_[best].size)) {
            best = i;
        }
    }
    if (best < freeSnapshots_.size()) {
        snapshot->copy = freeSnapshots_[best].pointer;
        snapshot->capacity = freeSnapshots_[best].size;
        freeSnapshots_.erase(freeSnapshots_.begin() + static_cast<std::ptrdiff_t>(best));
    } else if (plan.bytes > 0) {
        if (snapshotHeld_ + plan.bytes > snapshotLimit_) {
            // Buffers too small for this dispatch are of no more use.
            for (const PooledBuffer& buffer : freeSnapshots_) {
                api_->cuMemFree_v2(buffer.pointer);
                snapshotHeld_ -= buffer.size;
            }
            freeSnapshots_.clear();
        }
        if (snapshotHeld_ + plan.bytes > snapshotLimit_) {
            *why = "the snapshots of a batch take " + MiB(snapshotHeld_ + plan.bytes) + ", more than " + MiB(snapshotLimit_);
            // With none held, one snapshot alone is too large: replay this dispatch in its launch call.
            return snapshotHeld_ == 0 ? SnapshotResult::Failed : SnapshotResult::NoRoom;
        }
        if (const CUresult r = api_->cuMemAlloc_v2(&snapshot->copy, plan.bytes); r != CUDA_SUCCESS) {
            *why = "no device memory for a snapshot of " + MiB(plan.bytes) + ": " + Describe(r);
            return snapshotHeld_ == 0 ? SnapshotResult::Failed : SnapshotResult::NoRoom;
        }
        snapshot->capacity = plan.bytes;
        snapshotHeld_ += plan.bytes;
    }
    // Work already queued on any stream may still write what is about to be kept.
    CUresult r = api_->cuCtxSynchronize();
    uint64_t offset = 0;
    for (const MemoryRegion& region : plan.regions) {
        if (r != CUDA_SUCCESS) break;
        r = api_->cuMemcpyDtoDAsync_v2(snapshot->copy + offset, region.base, region.size, stream);
        offset += region.size;
    }
    if (r == CUDA_SUCCESS) r = api_->cuStreamSynchronize(stream);
    statistics_.beginNs += NowNs() - start;
    if (r != CUDA_SUCCESS) {
        *why = "keeping a dispatch's input failed: " + Describe(r);
        ReleaseSnapshot(snapshot);
        return SnapshotResult::Failed;
    }
    ++statistics_.snapshots;
    statistics_.snapshotBytes += plan.bytes;
    return SnapshotResult::Taken;
}

void LaunchReplayer::ReleaseSnapshot(Snapshot* snapshot) {
    if (snapshot->copy) freeSnapshots_.push_back(PooledBuffer{snapshot->context, snapshot->copy, snapshot->capacity});
    *snapshot = Snapshot{};
}

bool LaunchReplayer::RestoreSnapshot(const Snapshot& snapshot, std::string* why) {
    uint64_t offset = 0;
    for (const MemoryRegion& region : snapshot.regions) {
        if (const CUresult r = api_->cuMemcpyDtoDAsync_v2(region.base, snapshot.copy + offset, region.size, stream_);
            r != CUDA_SUCCESS) {
            *why = "putting back a dispatch's input failed: " + Describe(r);
            return false;
        }
        offset += region.size;
    }
    ++statistics_.restores;
    return true;
}

}  // namespace gpaprof::cuda
