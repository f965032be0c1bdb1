#include "tools/gpaprof/cuda/waiting_kernels.h"

namespace gpaprof::cuda {

WaitingKernels::WaitingKernels(const char* pattern, std::string* error) {
    if (!pattern || !*pattern) return;
    try {
        pattern_.emplace(pattern, std::regex::ECMAScript | std::regex::optimize);
    } catch (const std::regex_error& e) {
        if (error) *error = std::string("GPAPROF_CUDA_WAITING_KERNELS=") + pattern + " is not a regular expression (" + e.what() + "): ignored";
    }
}

bool WaitingKernels::Waits(const std::string& kernelName) const {
    // NCCL names its kernels ncclDevKernel_<collective>_... (2.19 and later) or ncclKernel_... (earlier); both
    // may come mangled (_Z...ncclDevKernel_...).
    if (kernelName.find("ncclDevKernel_") != std::string::npos || kernelName.find("ncclKernel_") != std::string::npos) {
        return true;
    }
    return pattern_ && std::regex_search(kernelName, *pattern_);
}

bool IsCommunicationLibraryPath(std::string_view path) {
    const size_t slash = path.rfind('/');
    const std::string_view file = slash == std::string_view::npos ? path : path.substr(slash + 1);
    for (const std::string_view library : {"libnccl", "librccl", "libnvshmem"}) {  // libnccl.so.2, its net plugins
        if (file.substr(0, library.size()) == library) return true;
    }
    return false;
}

LaunchRule RuleFor(const LaunchFacts& launch) {
    if (launch.severalDevices && launch.waiterRunning) return LaunchRule::AfterRunningWaiter;
    if (!launch.waits) return LaunchRule::Profile;
    if (launch.kernelReplay) return LaunchRule::WaitsUnderKernelReplay;
    if (launch.passes > 1) return LaunchRule::WaitsWithPasses;
    if (launch.severalDevices) return LaunchRule::WaitsOnSeveralDevices;
    return LaunchRule::Profile;  // one pass, one device: its own run is measured, its peers run elsewhere
}

std::string RuleNote(LaunchRule rule, uint32_t passes) {
    const std::string which = "(NCCL's, GPAPROF_CUDA_WAITING_KERNELS)";
    switch (rule) {
        case LaunchRule::Profile:
            return {};
        case LaunchRule::AfterRunningWaiter:
            return "dispatches launched while a kernel that waits for another device " + which +
                   " still runs in their context are not profiled in a process that drives several devices: measuring "
                   "one holds the launching thread until it ends, which may be after that thread launched the peer; "
                   "their counters are NA";
        case LaunchRule::WaitsUnderKernelReplay:
            return "kernels that wait for other devices or processes " + which +
                   " are not profiled under CUPTI's kernel replay, which runs them again for every pass and holds the "
                   "launching thread until they end: their counters are NA";
        case LaunchRule::WaitsWithPasses:
            return "kernels that wait for other devices or processes " + which + " are not profiled with a counter set of " +
                   std::to_string(passes) + " passes: a replay would wait for peers that do not run again; their counters "
                   "are NA (a set of one pass measures them where the process drives one device)";
        case LaunchRule::WaitsOnSeveralDevices:
            return "kernels that wait for other devices " + which +
                   " are not profiled in a process that drives several devices: measuring one holds the launching thread "
                   "until it ends, and that thread may have its peer still to launch; their counters are NA";
    }
    return {};
}

}  // namespace gpaprof::cuda
