// A GPA session on CUPTI's range profiler in user-replay, user-range mode.
//
//   GPA pass i          -> CUPTI pass j of configuration group g (MetricPlan::LocatePass)
//   GPA BeginSample(id) -> cuptiRangeProfilerPushRange("<id>"), EndSample -> PopRange
//   first pass of group -> cuptiRangeProfilerSetConfig(group's config image, group's counter data image)
//   every pass          -> cuptiRangeProfilerStart ... Stop; the last pass of a group must be the one after
//                          which CUPTI reports all passes submitted, or the plan and CUPTI disagree
//   EndSession          -> a CUDA event after the last pass; IsReady queries it (never blocks)
//   results             -> the last group is decoded (cuptiRangeProfilerDecodeData) when results are first
//                          needed, earlier groups when the next group was configured; values are evaluated
//                          per sample with cuptiProfilerHostEvaluateToGpuValues.
#pragma once

#include <atomic>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "backends/cuda/cupti_host.h"
#include "backends/cuda/cupti_pass_planner.h"
#include "backends/cuda/range_profiler.h"
#include "core/backend.h"

namespace gpa::cuda {

struct SessionOptions {
    size_t maxSamplesPerPass = 256;  // OPENGPA_CUDA_MAX_SAMPLES
    std::string recordDirectory;     // OPENGPA_CUDA_RECORD_COUNTER_DATA: write the decoded images there
    std::vector<std::string> hardwareNames;  // of the context, for the recorded manifest
};

// Reads OPENGPA_CUDA_MAX_SAMPLES and OPENGPA_CUDA_RECORD_COUNTER_DATA.
SessionOptions SessionOptionsFromEnvironment();

class RangeProfilerSession : public BackendSession {
public:
    RangeProfilerSession(std::shared_ptr<RangeProfiler> profiler, std::vector<uint8_t> availability,
                         CuptiPassPlanner::Resolved plan, SessionOptions options);
    ~RangeProfilerSession() override;

    Outcome BeginPass(uint32_t pass) override;
    Outcome EndPass(uint32_t pass) override;
    Outcome BeginSample(uint32_t pass, uint32_t sampleId) override;
    Outcome EndSample(uint32_t pass, uint32_t sampleId) override;
    Outcome End() override;
    bool IsReady() override;
    Outcome WaitUntilReady() override;
    Outcome ReadSample(uint32_t sampleId, std::vector<double>* values) override;

private:
    struct Group {
        std::vector<uint8_t> counterData;  // filled by RangeProfiler::Configure
        bool decoded = false;
        Outcome decodeOutcome;
        std::unique_ptr<HostObject> host;       // for evaluation, created after decoding
        std::map<uint32_t, size_t> rangeOfSample;
    };
    Outcome PrepareResults();
    Outcome Record() const;

    std::shared_ptr<RangeProfiler> profiler_;
    const std::vector<uint8_t> availability_;
    const CuptiPassPlanner::Resolved plan_;
    const SessionOptions options_;
    std::vector<Group> groups_;
    uint32_t samplesInPass_ = 0;
    CUevent done_ = nullptr;
    std::atomic<bool> ready_{false};
    bool prepared_ = false;
    Outcome prepareOutcome_;
};

}  // namespace gpa::cuda
