// CudaPart's activity records (cuda_part.h): CUPTI's buffers of kernels, copies and sets with their device
// times, written to the spool with the calls that made them; flushing them, and CUPTI's clock.
#include <cupti_activity.h>

#include <cstdio>
#include <mutex>
#include <optional>
#include <string>

#include "tools/gpaprof/agent/agent.h"
#include "tools/gpaprof/cuda/cuda_part.h"
#include "tools/gpaprof/cuda/l2_flush.h"
#include "tools/gpaprof/cuda/raw_kernel_line.h"

namespace gpaprof::cuda::injection {
namespace {

// The fields CUPTI's copy and set records share (the two record types have no common base).
template <typename Record>
TransferActivity TransferOf(const Record& record) {
    TransferActivity transfer;
    transfer.bytes = record.bytes;
    transfer.start = record.start;
    transfer.end = record.end;
    transfer.deviceId = record.deviceId;
    transfer.contextId = record.contextId;
    transfer.streamId = record.streamId;
    transfer.correlationId = record.correlationId;
    return transfer;
}

}  // namespace

void CudaPart::Calibrate() {
    uint64_t deviceTime = 0;
    const uint64_t before = Agent::Now();
    if (api_->cuptiGetTimestamp(&deviceTime) != CUPTI_SUCCESS) return;
    const uint64_t after = Agent::Now();
    agent_->Write(spool::CalibrationRecord{kCuptiClockKey, before, after, deviceTime});
}

void CudaPart::FlushForCrash() {
    Internal internal;
    if (rawRings_) rawRings_->DrainForCrash();
    if (collector_) {
        // Not when this thread is inside a profiled launch (it holds the collector): that launch is lost.
        std::unique_lock<std::mutex> lock = collector_->Lock(std::try_to_lock);
        if (lock.owns_lock()) collector_->FlushAllForCrash();
    }
    FlushActivity();
}

void CudaPart::FlushActivity() {
    if (!trace_) return;
    unflushedEnqueues_ = false;
    api_->cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
}

void CudaPart::OnBufferCompleted(uint8_t* buffer, size_t validSize) {
    if (!buffer || validSize == 0) return;
    CostScope cost(costs_, CostSite::ActivityBuffer);
    uint64_t count = 0;
    if (!cpuClock_) Calibrate();
    if (stageLaunches_) {
        // Every launch whose record can be in this buffer was staged before it was launched (staged_launches.h).
        std::lock_guard<std::mutex> lock(enqueueMutex_);
        DrainStagedLaunches();
    }
    // One write per megabyte of lines: the activity thread would otherwise contend with the application's
    // threads for the spool three times per kernel.
    std::string lines;
    lines.reserve(size_t{1} << 20);
    DeviceNames devices;
    CUpti_Activity* record = nullptr;
    while (api_->cuptiActivityGetNextRecord(buffer, validSize, &record) == CUPTI_SUCCESS) {
        ++count;
        if (diagSkipRecords_) continue;  // (diagnostics: what turning the records into lines costs)
        switch (record->kind) {
            case CUPTI_ACTIVITY_KIND_KERNEL:
            case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
                OnKernelRecord(*reinterpret_cast<const CUpti_ActivityKernel10*>(record), &devices, &lines);
                break;
            case CUPTI_ACTIVITY_KIND_MEMCPY: {
                const auto* copy = reinterpret_cast<const CUpti_ActivityMemcpy6*>(record);
                TransferActivity transfer = TransferOf(*copy);
                transfer.copyKind = copy->copyKind;
                OnTransferRecord(transfer, &devices, &lines);
                break;
            }
            case CUPTI_ACTIVITY_KIND_MEMCPY2: {  // between devices
                const auto* copy = reinterpret_cast<const CUpti_ActivityMemcpyPtoP4*>(record);
                TransferActivity transfer = TransferOf(*copy);
                transfer.copyKind = copy->copyKind;
                transfer.srcDeviceId = copy->srcDeviceId;
                transfer.dstDeviceId = copy->dstDeviceId;
                OnTransferRecord(transfer, &devices, &lines);
                break;
            }
            case CUPTI_ACTIVITY_KIND_MEMSET: {
                TransferActivity transfer = TransferOf(*reinterpret_cast<const CUpti_ActivityMemset4*>(record));
                transfer.isMemset = true;
                OnTransferRecord(transfer, &devices, &lines);
                break;
            }
            default:
                break;
        }
        if (lines.size() >= (size_t{1} << 20) - 4096) {
            agent_->WriteEncoded(lines);
            lines.clear();
        }
    }
    if (!lines.empty()) agent_->WriteEncoded(lines);
    activityRecords_.fetch_add(count, std::memory_order_relaxed);
}

void CudaPart::OnKernelRecord(const CUpti_ActivityKernel10& record, DeviceNames* devices, std::string* lines) {
    // The name stays CUPTI's string (a copy a kernel was an allocation for the long names of C++ kernels).
    const std::string_view name = record.name ? record.name : "";
    KernelActivity kernel;
    kernel.start = record.start;
    kernel.end = record.end;
    kernel.deviceId = record.deviceId;
    kernel.contextId = record.contextId;
    kernel.streamId = record.streamId;
    kernel.correlationId = record.correlationId;
    kernel.grid[0] = record.gridX, kernel.grid[1] = record.gridY, kernel.grid[2] = record.gridZ;
    kernel.block[0] = record.blockX, kernel.block[1] = record.blockY, kernel.block[2] = record.blockZ;
    kernel.registersPerThread = record.registersPerThread;
    kernel.staticSharedMemory = record.staticSharedMemory;
    kernel.dynamicSharedMemory = record.dynamicSharedMemory;
    kernel.localMemoryPerThread = record.localMemoryPerThread;
    kernel.graphId = record.graphId;
    kernel.graphNodeId = record.graphNodeId;
    kernel.launchType = record.launchType;
    kernel.cluster[0] = record.clusterX, kernel.cluster[1] = record.clusterY, kernel.cluster[2] = record.clusterZ;
    if (counters_ && kernel.graphId == 0) {
        // Under kernel replay a launch may be reported once per pass: one launch, one kernel line. The
        // launches of gpaprof's own replay are not the application's.
        std::lock_guard<std::mutex> lock(enqueueMutex_);
        const char* dropped = nullptr;
        // The id stays: a launch may be reported more than once.
        if (name == L2Flush::kKernelName) {
            dropped = "gpaprof's cache flush";
        } else if (replayer_ && replayer_->OwnsActivity(kernel.contextId, kernel.streamId)) {
            dropped = "a kernel gpaprof ran (a replay pass or a cache flush)";
        } else if (!enqueues_.Find(kernel.correlationId) && replayWindows_.Contains(kernel.start)) {
            dropped = "no application launch of that id, and it ran while gpaprof replayed";
        } else if (const PendingEnqueue* launch = enqueues_.Find(kernel.correlationId);
                   launch && launch->kernelNameHash && launch->kernelNameHash != NameHash(name.data())) {
            dropped = "not the kernel that launch named (the driver runs kernels of its own for a profiled launch)";
        } else if (!replayedKernels_.insert(kernel.correlationId).second) {
            dropped = "a second record of a launch (kernel replay)";
        }
        if (dropped) {
            if (debugRecords_) {
                std::fprintf(stderr, "gpaprof: debug: kernel record %s (correlation %u, stream %u, start %llu) left out: %s\n",
                             name.data(), kernel.correlationId, kernel.streamId,
                             static_cast<unsigned long long>(kernel.start), dropped);
            }
            return;
        }
    }
    if (counters_ && kernel.start == 0 && kernel.end == 0 && !zeroTimesNoted_.exchange(true)) {
        agent_->Note("with -p, CUPTI's activity records of kernels profiled by its range profiler carry no kernel "
                     "times: kernel start and end are 0 in the .atp (trace without -p for the timeline; the .csv Time "
                     "column has each kernel's duration)");
    }
    if (debugRecords_) {
        std::fprintf(stderr, "gpaprof: debug: kernel record %s (correlation %u, stream %u) kept\n", name.data(),
                     kernel.correlationId, kernel.streamId);
    }
    const std::optional<PendingEnqueue> call = kernel.graphId == 0 ? TakeEnqueue(kernel.correlationId) : std::nullopt;
    if (!call && kernel.graphId == 0 && costs_.enabled()) joinMisses_.KernelWithoutLaunch(kernel.correlationId);
    std::optional<uint64_t> handle;
    if (call && call->info.kernelHandle) handle = call->info.kernelHandle;
    // The kernel line, and the launch's command and device times. Queued and submit are 0: CUPTI reports them only
    // with its latency timestamps, which gpaprof leaves off (they cost time on every launch).
    const bool launch = call && call->apiClass == CudaApiClass::KernelLaunch;
    // As bytes, formatted by gpaprof when it reads the spool (raw_kernel_line.h).
    AppendRawKernelLine(kernel, name, handle, launch ? &call->info : nullptr, CachedDeviceName(kernel.deviceId, devices),
                        ClockKey(), lines);
}

void CudaPart::OnTransferRecord(const TransferActivity& transfer, DeviceNames* devices, std::string* lines) {
    if (replayer_ && replayer_->OwnsActivity(transfer.contextId, transfer.streamId)) return;  // gpaprof's restores
    const std::optional<PendingEnqueue> call =
        TakeEnqueue(transfer.correlationId, transfer.isMemset ? CudaApiClass::Memset : CudaApiClass::Memcpy);
    if (!call) return;  // a copy of a graph, of a call that is not traced, or gpaprof's inside a launch call
    spool::CommandRecord command;
    command.part = "cuda";
    command.threadId = call->info.threadId;
    command.index = call->info.index;
    command.deviceKey = ClockKey();
    std::string deviceName;
    if (transfer.srcDeviceId && transfer.dstDeviceId) {
        const std::string source = CachedDeviceName(*transfer.srcDeviceId, devices);  // a copy: the cache holds one name
        deviceName = PeerDeviceName(source, *transfer.srcDeviceId, CachedDeviceName(*transfer.dstDeviceId, devices),
                                    *transfer.dstDeviceId);
    } else {
        deviceName = CachedDeviceName(transfer.deviceId, devices);
    }
    command.command = MakeTransferCommand(transfer, call->info, deviceName);
    if (!transfer.isMemset) command.transferSize = transfer.bytes;
    spool::EncodeTo(command, lines);
    spool::EncodeTo(spool::TimesRecord{"cuda", call->info.threadId, call->info.index, ClockKey(), 0, 0, transfer.start,
                                       transfer.end},
                    lines);
}

}  // namespace gpaprof::cuda::injection
