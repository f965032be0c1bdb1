#include "backends/opencl/opencl_session.h"

#include <algorithm>
#include <string>

#include "backends/opencl/cl_errors.h"

namespace gpa::cl {

namespace {

Outcome ClFailed(const char* call, cl_int error) { return Fail(GPA_STATUS_ERROR_FAILED, ClFailure(call, error)); }

void Release(cl_event& event) {
    if (event != nullptr) clReleaseEvent(event);
    event = nullptr;
}

// CL_COMPLETE (0) or an error (< 0): the command will not change any more.
bool Finished(cl_event event) {
    if (event == nullptr) return true;
    cl_int status = CL_QUEUED;
    if (clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr) != CL_SUCCESS) {
        return true;  // a broken event never completes; reading the sample reports the problem
    }
    return status <= CL_COMPLETE;
}

std::string SampleName(uint32_t sampleId, uint32_t pass) {
    return "sample " + std::to_string(sampleId) + " (pass " + std::to_string(pass) + ")";
}

}  // namespace

OpenClSession::OpenClSession(const QueueProfile& profile, PassPlan plan) : profile_(profile), plan_(std::move(plan)) {}

OpenClSession::~OpenClSession() {
    for (SampleEvents& sample : samples_) {
        Release(sample.begin);
        Release(sample.end);
        Release(sample.counters);
    }
}

bool OpenClSession::PassReadsCodeplay(uint32_t pass) const {
    if (pass >= plan_.passes.size()) return false;
    const std::vector<uint32_t>& counters = plan_.passes[pass];
    return std::any_of(counters.begin(), counters.end(), [](uint32_t hw) { return hw >= kFirstCodeplayCounter; });
}

Outcome OpenClSession::EnqueueTimestamp(cl_event* event) {
    if (profile_.timestampCommand == TimestampCommand::kMarker) {
        const cl_int error = clEnqueueMarkerWithWaitList(profile_.queue, 0, nullptr, event);
        return error == CL_SUCCESS ? Outcome::Ok() : ClFailed("clEnqueueMarkerWithWaitList", error);
    }
    const cl_uint pattern = 0;
    const cl_int error = clEnqueueFillBuffer(profile_.queue, profile_.fillTarget, &pattern, sizeof pattern, 0,
                                             sizeof pattern, 0, nullptr, event);
    return error == CL_SUCCESS ? Outcome::Ok() : ClFailed("clEnqueueFillBuffer", error);
}

Outcome OpenClSession::EnqueueBarrierIfOutOfOrder() {
    if (!profile_.outOfOrder) return Outcome::Ok();
    const cl_int error = clEnqueueBarrierWithWaitList(profile_.queue, 0, nullptr, nullptr);
    return error == CL_SUCCESS ? Outcome::Ok() : ClFailed("clEnqueueBarrierWithWaitList", error);
}

Outcome OpenClSession::BeginPass(uint32_t) { return Outcome::Ok(); }
Outcome OpenClSession::EndPass(uint32_t) { return Outcome::Ok(); }

Outcome OpenClSession::BeginSample(uint32_t pass, uint32_t sampleId) {
    // In-order queue: [timestamp] [codeplay marker] <sampled commands>. An out-of-order queue gets a barrier
    // before and after the timestamp, so that it runs after the earlier commands and before the sampled ones.
    SampleEvents sample;
    sample.pass = pass;
    sample.sampleId = sampleId;
    Outcome outcome = EnqueueBarrierIfOutOfOrder();
    if (outcome.ok()) outcome = EnqueueTimestamp(&sample.begin);
    if (outcome.ok()) outcome = EnqueueBarrierIfOutOfOrder();
    if (outcome.ok() && PassReadsCodeplay(pass)) {
        // Opens the window the end marker's codeplay results cover (docs/opencl_backend.md).
        const cl_int error = clEnqueueMarkerWithWaitList(profile_.queue, 0, nullptr, nullptr);
        if (error != CL_SUCCESS) outcome = ClFailed("clEnqueueMarkerWithWaitList", error);
    }
    if (!outcome.ok()) {
        Release(sample.begin);
        return outcome;
    }
    samples_.push_back(sample);
    return Outcome::Ok();
}

Outcome OpenClSession::EndSample(uint32_t pass, uint32_t sampleId) {
    // <sampled commands> [codeplay marker] [timestamp]; out-of-order queues again get barriers around it.
    if (samples_.empty()) return Fail(GPA_STATUS_ERROR_FAILED, "internal error: no sample was begun");
    SampleEvents& sample = samples_.back();
    if (sample.pass != pass || sample.sampleId != sampleId || sample.end != nullptr) {
        return Fail(GPA_STATUS_ERROR_FAILED, "internal error: " + SampleName(sampleId, pass) + " was not begun");
    }
    if (PassReadsCodeplay(pass)) {
        const cl_int error = clEnqueueMarkerWithWaitList(profile_.queue, 0, nullptr, &sample.counters);
        if (error != CL_SUCCESS) return ClFailed("clEnqueueMarkerWithWaitList", error);
    }
    Outcome outcome = EnqueueBarrierIfOutOfOrder();
    if (outcome.ok()) outcome = EnqueueTimestamp(&sample.end);
    if (outcome.ok()) outcome = EnqueueBarrierIfOutOfOrder();
    return outcome;
}

Outcome OpenClSession::End() {
    // Submit the bracket commands, so that polling with GPA_IsSessionReady sees them complete.
    const cl_int error = clFlush(profile_.queue);
    return error == CL_SUCCESS ? Outcome::Ok() : ClFailed("clFlush", error);
}

bool OpenClSession::EventsDone(const SampleEvents& sample) const {
    return Finished(sample.begin) && Finished(sample.end) && Finished(sample.counters);
}

bool OpenClSession::IsReady() {
    return std::all_of(samples_.begin(), samples_.end(), [&](const SampleEvents& s) { return EventsDone(s); });
}

bool OpenClSession::IsSampleReady(uint32_t sampleId) {
    return std::all_of(samples_.begin(), samples_.end(),
                       [&](const SampleEvents& s) { return s.sampleId != sampleId || EventsDone(s); });
}

Outcome OpenClSession::WaitUntilReady() {
    std::vector<cl_event> events;
    for (const SampleEvents& sample : samples_) {
        for (cl_event event : {sample.begin, sample.end, sample.counters}) {
            if (event != nullptr) events.push_back(event);
        }
    }
    if (events.empty()) return Outcome::Ok();
    const cl_int error = clWaitForEvents(static_cast<cl_uint>(events.size()), events.data());
    if (error == CL_SUCCESS) return Outcome::Ok();
    for (const SampleEvents& sample : samples_) {
        for (cl_event event : {sample.begin, sample.end, sample.counters}) {
            cl_int status = CL_COMPLETE;
            if (event != nullptr &&
                clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr) == CL_SUCCESS &&
                status < 0) {
                return Fail(GPA_STATUS_ERROR_FAILED, "a bracket command of " + SampleName(sample.sampleId, sample.pass) +
                                                         " terminated abnormally with " + ClErrorName(status) +
                                                         " (an earlier command on the queue probably failed)");
            }
        }
    }
    return ClFailed("clWaitForEvents", error);
}

const OpenClSession::SampleEvents* OpenClSession::Find(uint32_t pass, uint32_t sampleId) const {
    for (const SampleEvents& sample : samples_) {
        if (sample.pass == pass && sample.sampleId == sampleId) return &sample;
    }
    return nullptr;
}

Outcome OpenClSession::Duration(const SampleEvents& sample, double* nanoseconds) const {
    // From the end of the begin timestamp command to the start of the end timestamp command: the span in
    // which the device ran the sampled commands (and nothing of OpenGPA's).
    cl_ulong begin = 0, end = 0;
    cl_int error = clGetEventProfilingInfo(sample.begin, CL_PROFILING_COMMAND_END, sizeof begin, &begin, nullptr);
    if (error != CL_SUCCESS) return ClFailed("clGetEventProfilingInfo(CL_PROFILING_COMMAND_END)", error);
    error = clGetEventProfilingInfo(sample.end, CL_PROFILING_COMMAND_START, sizeof end, &end, nullptr);
    if (error != CL_SUCCESS) return ClFailed("clGetEventProfilingInfo(CL_PROFILING_COMMAND_START)", error);
    if (begin == 0 || end == 0) {
        return Fail(GPA_STATUS_ERROR_FAILED, "the OpenCL driver reported no device timestamp (0) for a bracket "
                                             "command of " + SampleName(sample.sampleId, sample.pass));
    }
    if (end < begin) {
        return Fail(GPA_STATUS_ERROR_FAILED,
                    "the OpenCL driver reported the end of " + SampleName(sample.sampleId, sample.pass) + " (" +
                        std::to_string(end) + " ns) before its beginning (" + std::to_string(begin) + " ns)");
    }
    *nanoseconds = static_cast<double>(end - begin);
    return Outcome::Ok();
}

Outcome OpenClSession::CodeplayResults(const SampleEvents& sample,
                                       std::vector<cl_performance_counter_result_codeplay>* results) const {
    if (sample.counters == nullptr) {
        return Fail(GPA_STATUS_ERROR_FAILED, SampleName(sample.sampleId, sample.pass) + " has no counter marker");
    }
    results->assign(profile_.codeplayResultCount, cl_performance_counter_result_codeplay{});
    const cl_int error =
        clGetEventProfilingInfo(sample.counters, CL_PROFILING_COMMAND_PERFORMANCE_COUNTERS_CODEPLAY,
                                results->size() * sizeof(cl_performance_counter_result_codeplay), results->data(), nullptr);
    if (error != CL_SUCCESS) {
        return ClFailed("clGetEventProfilingInfo(CL_PROFILING_COMMAND_PERFORMANCE_COUNTERS_CODEPLAY)", error);
    }
    return Outcome::Ok();
}

Outcome OpenClSession::ReadSample(uint32_t sampleId, std::vector<double>* values) {
    std::vector<cl_performance_counter_result_codeplay> results;
    const SampleEvents* resultsOf = nullptr;
    for (uint32_t hw : plan_.hardwareCounters) {
        const auto location = plan_.Locate(hw);
        const uint32_t pass = location ? location->first : 0;
        const SampleEvents* sample = Find(pass, sampleId);
        if (sample == nullptr || sample->begin == nullptr || sample->end == nullptr) {
            return Fail(GPA_STATUS_ERROR_FAILED, SampleName(sampleId, pass) + " was not recorded completely");
        }
        if (hw == kSampleDurationCounter) {
            if (Outcome o = Duration(*sample, &(*values)[hw]); !o.ok()) return o;
            continue;
        }
        const CodeplayCounter& counter = profile_.codeplayCounters.at(hw - kFirstCodeplayCounter);
        if (resultsOf != sample) {
            if (Outcome o = CodeplayResults(*sample, &results); !o.ok()) return o;
            resultsOf = sample;
        }
        const std::optional<double> value = CodeplayValue(results.at(counter.resultIndex), counter.storage);
        if (!value) return Fail(GPA_STATUS_ERROR_FAILED, "counter " + counter.hardware.name + " has an unknown storage");
        (*values)[hw] = *value;
    }
    return Outcome::Ok();
}

}  // namespace gpa::cl
