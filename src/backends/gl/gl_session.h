// One GPA session on a GL context. A sample is a set of GL queries made in the application's context: at
// GPA_BeginSample a GL_TIMESTAMP query (glQueryCounter) and the begin of one query per counted target, at
// GPA_EndSample their ends and a second timestamp. GL allows one active query per target and stream, so a sample
// fails, saying which, where the application has a query of a target the pass counts with active at that moment.
// Results are read where GL can read them: on a thread where the context is current.
// A sample whose pass has sampled counters (PM.<metric>: NVIDIA's device-level PM sampler) also gets a GL_TIMESTAMP
// query before everything else at GPA_BeginSample and after everything at GPA_EndSample: its GPU time window, put on
// CLOCK_MONOTONIC by the clock calibrations made when the session began and when its results are read, and
// integrated by the device's sampling (DeviceSampling::Window). An approximate window is logged once per sample and
// its values given; a refused one makes the sample unreadable, with the reason.
// A sample whose pass has driver counters (AMD_perfmon., INTEL_perfquery.) wraps its draws in one AMD monitor or
// one INTEL query instance (gl_driver_counters.h), begun after its GL queries and ended before them; a driver
// counter without a result reads as NaN, so that only it fails, with the reason.
#pragma once

#include <map>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "backends/gl/gl_context.h"
#include "backends/gl/gpu_clock_calibration.h"
#include "core/backend.h"

namespace gpa::gl {

class GlSession : public BackendSession {
public:
    GlSession(const ContextProfile& profile, PassPlan plan);
    ~GlSession() override;
    GlSession(const GlSession&) = delete;
    GlSession& operator=(const GlSession&) = delete;

    Outcome BeginPass(uint32_t) override { return Outcome::Ok(); }
    Outcome EndPass(uint32_t) override { return Outcome::Ok(); }
    Outcome BeginSample(uint32_t pass, uint32_t sampleId) override;
    Outcome EndSample(uint32_t pass, uint32_t sampleId) override;
    Outcome End() override;

    // Without the context current on the calling thread, not ready (GL cannot be asked) until results were read.
    bool IsReady() override;
    // Fails, saying what to do, without the context current on the calling thread.
    Outcome WaitUntilReady() override;
    Outcome ReadSample(uint32_t sampleId, std::vector<double>* values) override;
    std::string MissingValueReason(uint32_t sampleId) override;

private:
    std::map<uint32_t, std::string> missingWhy_;  // samples whose PM or driver counters have no value, and why
    void AddMissingWhy(uint32_t sampleId, const std::string& why);
    struct Sample {
        uint32_t pass = 0;
        uint32_t sampleId = 0;
        std::vector<uint32_t> counters;  // the pass's hardware counters
        std::vector<GLuint> queries;     // per counter; a timing counter's is its begin timestamp
        GLuint endTimestamp = 0;         // the timing counter's end, made at GPA_EndSample
        GLuint windowBegin = 0, windowEnd = 0;  // the sampled counters' window (GL_TIMESTAMP queries)
        bool ended = false;
        std::vector<uint64_t> values;    // per counter, once read
        uint64_t windowBeginGpuNs = 0, windowEndGpuNs = 0;
        std::vector<std::optional<double>> sampledValues;  // per metric of the device's sampling
        std::vector<std::string> sampledWhy;               // per metric: why its value is missing
        std::string sampledFailure;                        // why the window was refused
        DriverSampleRecording driver;                      // the driver counters' monitor or query instance
    };

    void IntegrateWindows();

    Outcome NotCurrent(const char* what) const;
    void DeleteQueries(Sample& sample);
    bool Available(GLuint query) const;
    uint64_t Result(GLuint query) const;

    const ContextProfile& profile_;
    const PassPlan plan_;
    std::vector<Sample> samples_;
    bool read_ = false;        // every result read (WaitUntilReady), the queries deleted
    std::string readFailure_;  // why the results are unusable, when they are
    std::optional<ClockCalibration> beginCalibration_;  // GPU clock against CLOCK_MONOTONIC at the session's begin
};

}  // namespace gpa::gl
