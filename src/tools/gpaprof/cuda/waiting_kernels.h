// Kernels that wait for other devices or processes: NCCL's collectives, and those GPAPROF_CUDA_WAITING_KERNELS
// names. A replay of one waits for a peer that does not run again, and holding the launching thread until one
// ends keeps that thread from launching the peer (one thread driving several GPUs): gpaprof never replays them
// and, where measuring them could hold the thread, runs them unprofiled (counter_collector.h).
#pragma once

#include <cstdint>
#include <optional>
#include <regex>
#include <string>
#include <string_view>

namespace gpaprof::cuda {

class WaitingKernels {
public:
    // `pattern`: an ECMAScript regular expression searched for in (mangled) kernel names, as
    // GPAPROF_CUDA_WAITING_KERNELS gives it; empty or absent: NCCL's kernels only. `error` gets why a pattern
    // that does not compile was ignored.
    explicit WaitingKernels(const char* pattern, std::string* error = nullptr);
    bool Waits(const std::string& kernelName) const;

private:
    std::optional<std::regex> pattern_;
};

// Whether a shared library is a communication library (NCCL, RCCL, NVSHMEM) by its file path: the memory it
// allocates is written by its peers at any time (device_memory_map.h, MemoryOwner).
bool IsCommunicationLibraryPath(std::string_view path);

// What gpaprof -p does with a launch, from what it knows of it (counter_collector.cpp asks at each launch where a
// kernel waits or the process drives several devices).
struct LaunchFacts {
    bool waits = false;           // the kernel waits for other devices or processes (WaitingKernels)
    bool severalDevices = false;  // the process has contexts on more than one device
    bool waiterRunning = false;   // a waiting kernel launched earlier in this context has not ended yet
    bool kernelReplay = false;    // CUPTI's kernel replay collects the counters (GPAPROF_CUDA_REPLAY=cupti)
    uint32_t passes = 1;          // passes of the counter set
};
enum class LaunchRule {
    Profile,                  // measured like any other kernel
    AfterRunningWaiter,       // unprofiled: a waiting kernel still runs in its context (several devices)
    WaitsUnderKernelReplay,   // unprofiled: CUPTI would run it again and hold the thread until it ends
    WaitsWithPasses,          // unprofiled: a replay would wait for peers that do not run again
    WaitsOnSeveralDevices,    // unprofiled: measuring it holds the thread that may still have its peer to launch
};
LaunchRule RuleFor(const LaunchFacts& launch);
// The note gpaprof writes once for a rule other than Profile.
std::string RuleNote(LaunchRule rule, uint32_t passes);

}  // namespace gpaprof::cuda
