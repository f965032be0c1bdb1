// gpaprof -p on CUDA: the counters of each kernel dispatch, collected by CUPTI's range profiler in kernel
// replay with auto ranges. CUPTI saves the memory the kernel can write before the first pass, restores it
// before every further pass and runs the kernel once per pass inside the application's launch call, so the
// application runs once and its results are unchanged. One range per kernel; the values are evaluated on the
// host into GPA counters (src/backends/cuda/gpa_compute_counters) or raw NVIDIA metrics.
//
// Launches are serialised while counters are collected (the range order is the launch order). Ranges are
// decoded `batch` kernels at a time (1: every launch writes its .csv row before it returns), and whatever is
// pending when a context goes away, at exit and from the crash handlers.
#pragma once

#include <cuda.h>

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "tools/gpaprof/agent/agent.h"
#include "tools/gpaprof/files/profile_model.h"

namespace gpaprof::cuda {

// GPA counters of the default set (gpaprof -p without --counters/-c), in column order. Trimmed at run time,
// from the end, to what CUPTI schedules into one pass on the device.
const std::vector<std::string>& DefaultCudaCounters();
// The achieved-occupancy column added to -p rows (when it costs no extra pass).
inline constexpr const char* kAchievedOccupancyCounter = "AchievedOccupancy";
inline constexpr const char* kAchievedOccupancyMetric = "sm__warps_active.avg.pct_of_peak_sustained_active";
inline constexpr const char* kKernelDurationMetric = "gpu__time_duration.sum";

class CounterCollector {
public:
    CounterCollector(agent::Agent* agent, std::vector<std::string> requested, uint32_t batch);
    ~CounterCollector();

    // Held by the launching thread from before the launch until after it.
    std::unique_lock<std::mutex> Lock() { return std::unique_lock<std::mutex>(mutex_); }
    std::unique_lock<std::mutex> Lock(std::try_to_lock_t) { return std::unique_lock<std::mutex>(mutex_, std::try_to_lock); }

    // Before a kernel launch that is profiled, on `context` (current on this thread): starts collection.
    // False when counters cannot be collected on this context (the reason was noted once).
    bool BeforeLaunch(CUcontext context);
    // After it: `row` gets its Time and counter values (NA where unknown) and is written, now or when its
    // batch is decoded. `launched`: the launch call succeeded.
    void AfterLaunch(CUcontext context, bool launched, DispatchRow row);
    // Before work that must not be profiled on `context` (a kernel that is not, a graph launch), and before
    // the context goes away: decodes and writes what is pending.
    void Flush(CUcontext context);
    // Every context (at exit).
    void FlushAll();
    // The context is being destroyed: flush and release its profiler.
    void ForgetContext(CUcontext context);

    // Cost of collection so far (for the statistics line of GPAPROF_CUDA_STATS).
    struct Statistics {
        uint64_t kernels = 0;
        uint64_t configureNs = 0, startNs = 0, stopNs = 0, decodeNs = 0, evaluateNs = 0;
        uint64_t launchNs = 0;  // inside the launch calls: CUPTI's save, replay passes and restore
    };
    Statistics statistics() const { return statistics_; }

private:
    struct ChipSet;
    struct ContextState;
    ChipSet* ChipFor(const std::string& chip, const std::vector<uint8_t>& availability);
    ContextState* StateFor(CUcontext context);
    void FlushLocked(ContextState* state);
    void WriteRow(DispatchRow row, const ChipSet* chip, const std::map<std::string, double>* values);
    void NoteOnce(const std::string& message);

    agent::Agent* agent_;
    std::vector<std::string> requested_;
    uint32_t batch_;
    std::mutex mutex_;
    std::map<std::string, std::unique_ptr<ChipSet>> chips_;
    std::map<CUcontext, std::unique_ptr<ContextState>> contexts_;
    std::optional<std::vector<std::string>> columns_;  // fixed by the first chip
    std::vector<std::string> notes_;
    Statistics statistics_;
    uint64_t launchStartNs_ = 0;
};

}  // namespace gpaprof::cuda
