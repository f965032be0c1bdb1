// gpaprof's own replay of kernel launches, for counter sets that need several passes. Every byte a kernel
// could write (DeviceMemoryMap says what: the context's allocations and module variables) is copied on the
// device before its launch, so that the launch can be issued again on the same input. Two ways:
//
//   deferred (a batch)  the application's launch is the first pass; its input is kept in a snapshot and its
//                       arguments copied. At the end of the batch the other passes run, each over every
//                       dispatch of the batch (restore its snapshot, issue it again), and memory is put back as
//                       it was before (BeginBatchReplay / EndBatchReplay). CUPTI's start and stop of a pass
//                       cost milliseconds, so they are paid per batch, not per dispatch.
//   immediate (one)     inside the launch call: save, issue the launch again once per further pass with the
//                       memory copied back before each, on gpaprof's stream, the application's launch last
//                       (Begin / End). Used where a snapshot per dispatch does not fit or the arguments cannot
//                       be copied.
//
// Every measured kernel starts from a clean L2 cache (l2_flush.h), as after a flush by ncu: the collector asks
// for the flush right before each measured launch, so that every pass holds the same kernels.
//
// While memory is put back, other threads' calls that write device memory wait (the gate), and replays begin
// by waiting for the context's work, so that nothing else changes the memory being saved and restored.
#pragma once

#include <cuda.h>

#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <shared_mutex>
#include <string>
#include <vector>

#include "tools/gpaprof/cuda/cupti_tracing_api.h"
#include "tools/gpaprof/cuda/device_memory_map.h"
#include "tools/gpaprof/cuda/l2_flush.h"

namespace gpaprof::cuda {

// A driver kernel launch as its CUPTI callback sees it (valid during the call).
struct LaunchCall {
    uint32_t cbid = 0;              // CUPTI driver callback id: cuLaunchKernel, cuLaunchKernelEx, their _ptsz forms
    const void* params = nullptr;   // CUPTI's parameter struct of the call
    CUcontext context = nullptr;
    CUfunction function = nullptr;  // the CUfunction (a CUkernel launch resolved in this context), for its module
    bool threadHoldsGate = false;   // the launch is made inside another call of this thread that holds the gate
};

// A launch copied for issuing it again after the application's call returned: its arguments by value.
struct LaunchCopy {
    CUfunction function = nullptr;          // as the application launched it (the runtime passes a CUkernel)
    CUfunction resolved = nullptr;          // the CUfunction it ran as in its context (LaunchCall::function)
    unsigned grid[3] = {1, 1, 1}, block[3] = {1, 1, 1};
    unsigned sharedBytes = 0;
    std::vector<uint8_t> arguments;         // every kernel parameter, or the CU_LAUNCH_PARAM_BUFFER_POINTER buffer
    std::vector<size_t> argumentOffsets;    // where each parameter starts in `arguments`
    bool argumentBuffer = false;            // `arguments` is one buffer passed through `extra`
    bool hasConfig = false;                 // cuLaunchKernelEx: its configuration and attributes
    CUlaunchConfig config{};
    std::vector<CUlaunchAttribute> attributes;
};

// Makes `launch` a cuLaunchKernelEx launch (hasConfig), its configuration's shape taken from its grid, block and
// shared memory (the stream and attributes are set when it is launched).
void ShapeLaunchConfig(LaunchCopy* launch);

// Copies a launch's arguments into `copy` (arguments, argumentOffsets, argumentBuffer): every kernel parameter
// (their sizes from cuFuncGetParamInfo on `function`), or the CU_LAUNCH_PARAM_BUFFER_POINTER buffer of `extra`.
// False with the reason.
bool CopyKernelArguments(const TracingApi& api, CUfunction function, void** kernelParams, void** extra, LaunchCopy* copy,
                         std::string* why);

// What a dispatch could write, as it was before its launch, packed into one device buffer.
struct Snapshot {
    CUcontext context = nullptr;  // where the buffer was allocated
    std::vector<MemoryRegion> regions;
    CUdeviceptr copy = 0;
    uint64_t bytes = 0;   // of the regions
    uint64_t capacity = 0;  // of the buffer
};

class LaunchReplayer {
public:
    LaunchReplayer(const TracingApi* api, DeviceMemoryMap* memory) : api_(api), memory_(memory), flush_(api) {}
    ~LaunchReplayer();
    LaunchReplayer(const LaunchReplayer&) = delete;
    LaunchReplayer& operator=(const LaunchReplayer&) = delete;

    // Why gpaprof does not replay this launch itself (cooperative launches: every block must be resident, and
    // CUPTI's kernel replay knows how to run them); empty when it does.
    static std::string CannotReplay(const LaunchCall& launch);

    // Held shared by every other call that may write device memory (copies, sets, unprofiled launches, graph
    // launches) for its duration; a replay holds it exclusively.
    std::shared_lock<std::shared_mutex> ShareGate();

    // Before the first pass: takes the gate, waits for the context, saves. False with the reason when the
    // memory cannot be saved reliably (nothing was changed and the gate is released): the dispatch falls back.
    bool Begin(const LaunchCall& launch, std::string* why);
    // Issues the launch again, untraced (the caller marks the thread internal).
    CUresult Relaunch();
    // Copies the saved memory back, in stream order after what the launch stream holds.
    bool Restore(std::string* why);
    // Waits until the launch stream has done what was queued (the last copy back), so that once the gate is
    // released no later write of another thread can be overwritten by it.
    bool Settle(std::string* why);
    // After the last pass: releases the gate.
    void End();

    // Why what this launch's kernel could write cannot be saved and restored reliably; empty when it can.
    std::string UnsafeMemory(const LaunchCall& launch);

    // ---- deferred ----
    // Copies the launch's arguments (cuFuncGetParamInfo gives their sizes); false with the reason.
    bool CopyLaunch(const LaunchCall& launch, LaunchCopy* copy, std::string* why) const;
    enum class SnapshotResult { Taken, Unsafe, NoRoom, Failed };
    // Before the application's launch: what the dispatch can write, into a snapshot buffer (from a pool kept
    // within a share of the device's free memory). Unsafe: memory that cannot be restored reliably (*why);
    // NoRoom: the pool is full (end the batch and try again); Failed: anything else.
    SnapshotResult TakeSnapshot(const LaunchCall& launch, Snapshot* snapshot, std::string* why);
    // The same before the application's launch of a CUDA graph on `stream`: the context's memory as
    // BeginBatchReplay would save it for a graph with these argument words (a deferred graph launch).
    SnapshotResult TakeGraphSnapshot(CUcontext context, CUstream stream, const std::vector<uint64_t>& pinnedByArguments,
                                     Snapshot* snapshot, std::string* why);
    void ReleaseSnapshot(Snapshot* snapshot);
    // The end of a batch on `context`: takes the gate, makes the context current, waits for it and saves what
    // every kernel could write now. Then RestoreSnapshot + Relaunch per dispatch and pass, on a stream of
    // gpaprof's; EndBatchReplay puts the saved memory back, waits, and releases everything.
    // `pinnedByArguments`: a CUDA graph's kernel arguments (DeviceMemoryMap::Plan).
    bool BeginBatchReplay(CUcontext context, std::string* why, const std::vector<uint64_t>* pinnedByArguments = nullptr);
    // The same for a batch of deferred eager launches: what they could write, narrowed to their arguments' pinned
    // memory and their kernels' modules (DeviceMemoryMap::Plan with both) whatever the process holds now.
    bool BeginBatchReplay(CUcontext context, const std::vector<const LaunchCopy*>& launches, std::string* why);
    bool RestoreSnapshot(const Snapshot& snapshot, std::string* why);
    CUresult Relaunch(const LaunchCopy& copy);
    bool EndBatchReplay(std::string* why);

    // ---- CUDA graphs (graph_launch_collector.cpp) ----
    const TracingApi* api() const { return api_; }
    // Before a batch replay of a graph's kernels: the modules of its kernels, so that their variables are saved.
    void KnowFunction(CUcontext context, CUfunction function) { ResolveModuleData(context, function, nullptr); }
    // Why the memory of `context` cannot be saved and restored reliably now; empty when it can.
    std::string UnsafeContextMemory(CUcontext context, const std::vector<uint64_t>* pinnedByArguments);
    // Inside a batch replay, on gpaprof's stream: a graph's copy or set, and the whole graph (its passes).
    CUresult RunCopy(const CUDA_MEMCPY3D& copy);
    CUresult RunSet(const CUDA_MEMSET_NODE_PARAMS& set);
    CUresult LaunchGraph(CUgraphExec exec);
    // The L2 cache clean right before the application's own graph launch on `stream` (see FlushCacheBefore).
    bool FlushCacheOnStream(CUcontext context, CUstream stream);

    // The context is being destroyed: its stream, shadows and snapshot buffers go with it (a context made
    // later may get the same handle).
    void ContextDestroyed(CUcontext context);

    // The L2 cache clean (l2_flush.h) right before a measured kernel: the flush kernel queued on the stream of
    // the application's own launch (the launch's context is current; not into a stream being captured), or on
    // gpaprof's stream before a launch issued again. True when a flush kernel was queued: while the profiler
    // runs with auto ranges it is a range of its own. False when the cache is not flushed (off, a capture, or
    // it failed once: then never again in the process).
    bool FlushCacheBefore(const LaunchCall& launch);
    bool FlushCacheBeforeRelaunch();

    // Whether a kernel's activity record (CUPTI's context and stream ids) is of a kernel gpaprof ran: a replay
    // pass or a cache flush, both on gpaprof's streams. Correlation ids cannot say: a launch gpaprof makes
    // inside the application's launch call gets that call's id. Any thread.
    bool OwnsActivity(uint32_t cuptiContextId, uint32_t cuptiStreamId) const;

    // Called when gpaprof starts running kernels of its own (true) and when it is done (false): while it does,
    // no kernel of the application runs (-t tells its kernels apart by that, too).
    void SetReplayObserver(std::function<void(bool replaying)> observer) { observer_ = std::move(observer); }

    struct Statistics {
        uint64_t snapshots = 0;     // deferred dispatches whose input was kept
        uint64_t snapshotBytes = 0;
        uint64_t batches = 0;       // batch ends
        uint64_t dispatches = 0;    // replays begun and saved
        uint64_t bytesSaved = 0;    // per dispatch, summed
        uint64_t batchBytes = 0;    // saved at batch ends, summed
        uint64_t restores = 0;
        uint64_t relaunches = 0;
        uint64_t shadowBytes = 0;   // device memory held for shadows now
        uint64_t beginNs = 0;       // waiting for the context, looking up variables, allocating, saving
    };
    Statistics statistics() const { return statistics_; }
    std::string Describe(CUresult result) const;  // "CUDA_ERROR_INVALID_VALUE (1)"
    // A launch issued again that failed, for the NA note: its kernel, shape and launch attributes. The second form
    // is the launch between Begin and End.
    std::string DescribeRelaunch(const LaunchCopy& copy, CUresult result) const;
    std::string DescribeRelaunch(CUresult result) const;

private:
    struct Shadow {
        MemoryRegion region;
        CUdeviceptr copy = 0;
    };
    void ResolveModuleData(CUcontext context, CUfunction function, CUfunction launched);
    // What to save for an eager launch (DeviceMemoryMap::PlanForLaunches), its arguments read when needed.
    DeviceMemoryMap::SavePlan PlanFor(const LaunchCall& launch, void** kernelParams, void** extra) const;
    std::string KernelName(CUfunction function) const;  // empty when the driver does not say
    bool BeginBatchReplayOf(CUcontext context, std::string* why, const std::function<DeviceMemoryMap::SavePlan()>& planFor);
    // The regions of `plan` copied into a pooled buffer on `stream` (TakeSnapshot, TakeGraphSnapshot; the gate held).
    SnapshotResult Keep(CUcontext context, const DeviceMemoryMap::SavePlan& plan, CUstream stream, uint64_t start,
                        Snapshot* snapshot, std::string* why);
    bool PrepareShadows(CUcontext context, const std::vector<MemoryRegion>& regions, std::string* why);
    void Copy(bool save, std::string* why, bool* ok);
    // In `context` (current), queued on `stream`, right before the measured kernel.
    bool FlushCache(CUcontext context, CUstream stream);
    // gpaprof's stream in `context`, made on first use.
    bool ReplayStream(CUcontext context, CUstream* stream, std::string* why);

    const TracingApi* api_;
    DeviceMemoryMap* memory_;
    std::shared_mutex gate_;
    std::unique_lock<std::shared_mutex> exclusive_;
    std::map<CUcontext, std::vector<Shadow>> shadows_;  // per context, the regions of its last plan
    std::map<CUfunction, CUmodule> modules_;
    LaunchCall current_;
    CUstream stream_ = nullptr;
    std::vector<Shadow>* active_ = nullptr;
    // Deferred: snapshot buffers not in use, the bytes held by all of them, the share of device memory they may
    // take (GPAPROF_CUDA_REPLAY_MEMORY_MB, else a quarter of what was free when the first was made), and
    // gpaprof's stream per context for the passes at the end of a batch.
    struct PooledBuffer {
        CUcontext context = nullptr;
        CUdeviceptr pointer = 0;
        uint64_t size = 0;
    };
    std::vector<PooledBuffer> freeSnapshots_;
    uint64_t snapshotHeld_ = 0;
    uint64_t snapshotLimit_ = 0;
    std::map<CUcontext, CUstream> replayStreams_;
    mutable std::mutex ownStreamsMutex_;
    std::set<uint32_t> ownStreamIds_;  // CUPTI's ids of replayStreams_
    CUcontext batchContext_ = nullptr;
    std::function<void(bool)> observer_;
    L2Flush flush_;
    std::string flushFailure_;  // noted once
    bool replaying_ = false;  // between the observer's true and false
    Statistics statistics_;
};

}  // namespace gpaprof::cuda
