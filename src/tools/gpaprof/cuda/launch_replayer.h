// gpaprof's own replay of one kernel launch, for counter sets that need several passes: inside the
// application's launch call, before the first pass, every byte the kernel could write is copied on the device
// into shadow buffers (DeviceMemoryMap says what: the context's allocations and module variables); the launch
// is issued again once per further pass, with the shadows copied back before each; the application's own
// launch is the last pass, after the last copy back, so memory ends as after one execution.
//
// While a replay runs, other threads' calls that write device memory wait (the gate), and the replay begins
// by waiting for the context's work, so that nothing else changes the memory being saved and restored.
#pragma once

#include <cuda.h>

#include <cstdint>
#include <map>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <vector>

#include "tools/gpaprof/cuda/cupti_tracing_api.h"
#include "tools/gpaprof/cuda/device_memory_map.h"

namespace gpaprof::cuda {

// A driver kernel launch as its CUPTI callback sees it (valid during the call).
struct LaunchCall {
    uint32_t cbid = 0;              // CUPTI driver callback id: cuLaunchKernel, cuLaunchKernelEx, their _ptsz forms
    const void* params = nullptr;   // CUPTI's parameter struct of the call
    CUcontext context = nullptr;
    CUfunction function = nullptr;  // the CUfunction (a CUkernel launch resolved in this context), for its module
    bool threadHoldsGate = false;   // the launch is made inside another call of this thread that holds the gate
};

class LaunchReplayer {
public:
    LaunchReplayer(const TracingApi* api, DeviceMemoryMap* memory) : api_(api), memory_(memory) {}
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

    struct Statistics {
        uint64_t dispatches = 0;    // replays begun and saved
        uint64_t bytesSaved = 0;    // per dispatch, summed
        uint64_t restores = 0;
        uint64_t relaunches = 0;
        uint64_t shadowBytes = 0;   // device memory held for shadows now
        uint64_t beginNs = 0;       // waiting for the context, looking up variables, allocating, saving
    };
    Statistics statistics() const { return statistics_; }

private:
    struct Shadow {
        MemoryRegion region;
        CUdeviceptr copy = 0;
    };
    void ResolveModuleData(CUcontext context, CUfunction function);
    bool PrepareShadows(CUcontext context, const std::vector<MemoryRegion>& regions, std::string* why);
    void Copy(bool save, std::string* why, bool* ok);
    std::string Describe(CUresult result) const;

    const TracingApi* api_;
    DeviceMemoryMap* memory_;
    std::shared_mutex gate_;
    std::unique_lock<std::shared_mutex> exclusive_;
    std::map<CUcontext, std::vector<Shadow>> shadows_;  // per context, the regions of its last plan
    std::map<CUfunction, CUmodule> modules_;
    LaunchCall current_;
    CUstream stream_ = nullptr;
    std::vector<Shadow>* active_ = nullptr;
    Statistics statistics_;
};

}  // namespace gpaprof::cuda
