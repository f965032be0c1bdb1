// Kernels that wait for other devices or processes: NCCL's collectives, and those GPAPROF_CUDA_WAITING_KERNELS
// names. A replay of one waits for a peer that does not run again, and holding the launching thread until one
// ends keeps that thread from launching the peer (one thread driving several GPUs): gpaprof never replays them
// and, where measuring them could hold the thread, runs them unprofiled (counter_collector.h).
#pragma once

#include <optional>
#include <regex>
#include <string>

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

}  // namespace gpaprof::cuda
