// A session of CUPTI's older Profiler API (cupti_profiler_target.h) on one CUcontext: the counter data image is
// bound when it begins, each pass is begun and ended, and profiling can pause. RangeProfiler uses it where its
// owner asks to pause around work of its own: with auto ranges every kernel launched in the context is a range,
// and a range costs about 1 ms when the configuration counts in the SMs (an H100, CUPTI 13.0). The Range Profiler
// API has no pause, and a CUDA graph launch, which it does leave out of the ranges, makes its Stop fail
// (CUPTI_ERROR_UNKNOWN) once the configuration holds hardware counters (docs/cuda_backend.md). The older API is
// deprecated in CUDA 13: where the library lacks it, RangeProfiler stays on the Range Profiler API. User replay
// only: CUPTI's kernel replay through these sessions corrupted an application's managed memory on an H100
// (CUPTI 13.0), so kernel replay stays on the Range Profiler API.
#pragma once

#include <cuda.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "backends/cuda/cupti_loader.h"
#include "core/outcome.h"

namespace gpa::cuda {

class LegacyProfilerSession {
public:
    // Begins a session on `context` (current) that decodes into `counterData` (an initialised image, which must
    // stay where it is until the session ends) and sets `config`; `maxRanges` ranges per pass.
    static Outcome Begin(const CuptiApi& cupti, CUcontext context, const std::vector<uint8_t>& config,
                         std::vector<uint8_t>* counterData, CUpti_ProfilerRange range, CUpti_ProfilerReplayMode replay,
                         size_t maxRanges, std::unique_ptr<LegacyProfilerSession>* session);
    ~LegacyProfilerSession();  // ends the session: what was not flushed is dropped
    LegacyProfilerSession(const LegacyProfilerSession&) = delete;
    LegacyProfilerSession& operator=(const LegacyProfilerSession&) = delete;

    Outcome StartPass();                         // a pass begins, profiling on
    Outcome StopPass(bool* allPassesSubmitted);  // profiling off, the pass ends
    Outcome Pause();                             // launches from now on are not profiled...
    Outcome Resume();                            // ...until this
    Outcome PushRange(const std::string& name);
    Outcome PopRange();
    // Decodes every pass submitted into the image (blocks until the device has finished them).
    Outcome Flush();
    // After Flush, the session goes on with `config` into the same image, which the caller has put back to empty
    // where it was (the session holds its address): no new session, whose begin costs about 0.3 s plus about
    // 1 ms per range of room on an H100 (docs/benchmarks.md). Fails where the image is not the one it began with.
    Outcome Restart(const std::vector<uint8_t>& config, std::vector<uint8_t>* counterData);

private:
    LegacyProfilerSession(const CuptiApi& cupti, CUcontext context) : cupti_(cupti), context_(context) {}

    const CuptiApi& cupti_;
    const CUcontext context_;
    Outcome SetConfig(const std::vector<uint8_t>& config);
    Outcome InitializeScratch(std::vector<uint8_t>* counterData);

    std::vector<uint8_t> scratch_;
    const uint8_t* image_ = nullptr;  // the counter data image the session began with
    size_t imageSize_ = 0;
    bool begun_ = false;
    bool configured_ = false;
    bool profiling_ = false;  // between EnableProfiling and DisableProfiling
};

}  // namespace gpa::cuda
