// clGetEventProfilingInfo(CL_PROFILING_COMMAND_PERFORMANCE_COUNTERS_CODEPLAY), and what the layer follows of
// events: the application's references (a record goes with the last one), and the threads that enqueue or
// wait (the application's, left out of the CPU counters).
#include <vector>

#include "layers/opencl/command_tracker.h"
#include "layers/opencl/dispatch.h"
#include "layers/opencl/info_answer.h"
#include "layers/opencl/layer_entries.h"

namespace gpa::cl_layer {

namespace {

cl_int CounterResults(cl_event event, size_t size, void* value, size_t* sizeRet) {
    CommandTracker& tracker = CommandTracker::Get();
    cl_command_type type = 0;
    if (const cl_int error = Next().clGetEventInfo(event, CL_EVENT_COMMAND_TYPE, sizeof type, &type, nullptr);
        error != CL_SUCCESS) {
        return error;  // CL_INVALID_EVENT
    }
    if (type == CL_COMMAND_USER) return CL_INVALID_VALUE;  // as the extension has it for user events
    const std::shared_ptr<CommandRecord> record = tracker.Find(event);
    if (!record) {
        cl_command_queue queue = nullptr;
        Next().clGetEventInfo(event, CL_EVENT_COMMAND_QUEUE, sizeof queue, &queue, nullptr);
        // A queue without counters: CL_INVALID_VALUE, as the extension has it. A command on a queue with
        // counters that the layer does not follow (enqueued through another extension's function): none.
        return tracker.Queue(queue) ? CL_PROFILING_INFO_NOT_AVAILABLE : CL_INVALID_VALUE;
    }
    std::vector<cl_performance_counter_result_codeplay> results;
    if (const cl_int status = tracker.Results(record, &results); status != CL_SUCCESS) return status;
    return AnswerInfo(results.data(), results.size() * sizeof(cl_performance_counter_result_codeplay), size, value,
                      sizeRet);
}

cl_int CL_API_CALL GetEventProfilingInfo(cl_event event, cl_profiling_info param, size_t size, void* value,
                                         size_t* sizeRet) {
    if (param == CL_PROFILING_COMMAND_PERFORMANCE_COUNTERS_CODEPLAY) return CounterResults(event, size, value, sizeRet);
    // The layer enabled profiling on a queue whose application did not: its commands keep answering as they
    // would without the layer.
    if (const std::shared_ptr<CommandRecord> record = CommandTracker::Get().Find(event);
        record && !record->queue->applicationProfiling) {
        return CL_PROFILING_INFO_NOT_AVAILABLE;
    }
    return Next().clGetEventProfilingInfo(event, param, size, value, sizeRet);
}

cl_int CL_API_CALL RetainEvent(cl_event event) {
    const cl_int status = Next().clRetainEvent(event);
    if (status == CL_SUCCESS) CommandTracker::Get().Retained(event);
    return status;
}

cl_int CL_API_CALL ReleaseEvent(cl_event event) {
    CommandTracker::Get().Releasing(event);
    return Next().clReleaseEvent(event);
}

cl_int CL_API_CALL Finish(cl_command_queue queue) {
    CommandTracker& tracker = CommandTracker::Get();
    tracker.MarkApplicationThread();
    tracker.ReleaseDeferred();
    return Next().clFinish(queue);
}

cl_int CL_API_CALL WaitForEvents(cl_uint count, const cl_event* events) {
    CommandTracker& tracker = CommandTracker::Get();
    tracker.MarkApplicationThread();
    tracker.ReleaseDeferred();
    return Next().clWaitForEvents(count, events);
}

}  // namespace

void FillEventEntries(cl_icd_dispatch* table) {
    table->clGetEventProfilingInfo = GetEventProfilingInfo;
    table->clRetainEvent = RetainEvent;
    table->clReleaseEvent = ReleaseEvent;
    table->clFinish = Finish;
    table->clWaitForEvents = WaitForEvents;
}

}  // namespace gpa::cl_layer
