// gpaprof --pm-sampling in the profiled process (issue 35): one PM sampler (src/pm_sampling) per CUDA device the
// process makes a context on, device-wide (other processes' work on the device is in the samples).
//
// A thread of the recorder's own starts the samplers (the application's first context on a device waits for it,
// up to a few seconds, so that the device's first work is sampled) and drains them every kDrainPeriod into the spool: a 'G'
// record per device, then an 'H' per sample, its times on CLOCK_MONOTONIC (the .atp's clock). Never with -p (the
// command line refuses it: the range profiler needs the same hardware), so no sample is of gpaprof's own replays.
// At the end of the process Finish stops and drains them. The samplers are never disabled: disabling PM sampling finalizes CUPTI (XLA's PM sampler keeps
// them for that reason), and the rest of the CUDA part still needs CUPTI when the process ends.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <sys/types.h>

#include "pm_sampling/pm_sampler.h"
#include "tools/gpaprof/agent/agent.h"

namespace gpaprof::cuda {

class PmSamplingRecorder {
public:
    PmSamplingRecorder(agent::Agent* agent, uint64_t intervalNs, std::vector<std::string> metrics);
    ~PmSamplingRecorder();  // stops the thread; the samplers are left to the process's end
    PmSamplingRecorder(const PmSamplingRecorder&) = delete;
    PmSamplingRecorder& operator=(const PmSamplingRecorder&) = delete;

    // A context was made on CUDA device `ordinal`: its sampler starts (once per device) on the recorder's thread,
    // and this waits for it (kStartWait at most).
    void UseDevice(uint32_t ordinal);
    // The end of the process: starts what is pending, then stops every sampler and writes what they hold.
    void Finish();

    struct Statistics {
        uint64_t samples = 0, overflows = 0, decodes = 0, drainNs = 0, decodeNs = 0, evaluateNs = 0, initializeNs = 0,
                 longDropped = 0, holes = 0, restarts = 0, withheld = 0;
        uint64_t waitedNs = 0;    // the application's contexts waiting in UseDevice for starts
        std::string startSteps;   // "device N: step ms, ..." per device started
    };
    Statistics statistics();

private:
    struct Device {
        std::unique_ptr<gpa::pm_sampling::Sampler> sampler;
        uint32_t ordinal = 0;
        uint64_t lastEndNs = 0;  // of the last sample written: a sample that would overlap it is left out
    };
    void Run();
    void StartPending();          // on the thread: the samplers of the devices named since
    void Drain(Device* device);   // its samples into the spool
    void DrainAll();

    agent::Agent* agent_;
    uint64_t intervalNs_;
    std::vector<std::string> metrics_;
    std::mutex mutex_;            // what follows, and the samplers (drained by the thread and by Finish)
    std::condition_variable wake_;
    std::set<uint32_t> named_;    // devices named by UseDevice (started or failed or pending)
    std::vector<uint32_t> pending_;
    std::set<uint32_t> settled_;  // started, or failed to
    std::condition_variable started_;
    std::vector<std::unique_ptr<Device>> devices_;
    bool finishing_ = false;
    bool finished_ = false;
    Statistics statistics_;
    pid_t owner_;                 // the process the thread and the samplers belong to
    std::thread thread_;
};

}  // namespace gpaprof::cuda
