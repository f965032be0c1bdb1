// One GPA session on an OpenCL command queue. Each sample is bracketed by two timestamp commands that
// OpenGPA enqueues on the application's queue (at GPA_BeginSample and GPA_EndSample); their events carry
// the device timestamps (and, where the queue has them, the codeplay counter results) of the sample.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "backends/opencl/cl_headers.h"
#include "backends/opencl/queue_profile.h"
#include "core/backend.h"

namespace gpa::cl {

class OpenClSession : public BackendSession {
public:
    OpenClSession(const QueueProfile& profile, PassPlan plan);
    ~OpenClSession() override;
    OpenClSession(const OpenClSession&) = delete;
    OpenClSession& operator=(const OpenClSession&) = delete;

    Outcome BeginPass(uint32_t pass) override;
    Outcome EndPass(uint32_t pass) override;
    Outcome BeginSample(uint32_t pass, uint32_t sampleId) override;
    Outcome EndSample(uint32_t pass, uint32_t sampleId) override;
    Outcome End() override;

    bool IsReady() override;
    bool IsSampleReady(uint32_t sampleId) override;
    Outcome WaitUntilReady() override;
    Outcome ReadSample(uint32_t sampleId, std::vector<double>* values) override;

private:
    struct SampleEvents {
        uint32_t pass = 0;
        uint32_t sampleId = 0;
        cl_event begin = nullptr;     // timestamp command enqueued at GPA_BeginSample
        cl_event end = nullptr;       // timestamp command enqueued at GPA_EndSample
        cl_event counters = nullptr;  // marker whose codeplay results are the sample's (codeplay passes)
    };

    bool PassReadsCodeplay(uint32_t pass) const;
    Outcome EnqueueTimestamp(cl_event* event);
    Outcome EnqueueBarrierIfOutOfOrder();
    const SampleEvents* Find(uint32_t pass, uint32_t sampleId) const;
    bool EventsDone(const SampleEvents& sample) const;
    Outcome Duration(const SampleEvents& sample, double* nanoseconds) const;
    Outcome CodeplayResults(const SampleEvents& sample, std::vector<cl_performance_counter_result_codeplay>* results) const;

    const QueueProfile& profile_;
    const PassPlan plan_;
    // Recording appends; after End() the vector is only read (IsReady may run on other threads then).
    std::vector<SampleEvents> samples_;
};

}  // namespace gpa::cl
