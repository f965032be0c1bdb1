#include "layers/opencl/command_tracker.h"

#include <algorithm>

#include "layers/opencl/dispatch.h"
#include "layers/opencl/thread_counters.h"

namespace gpa::cl_layer {

namespace {

// A wait list the driver would accept as one (an inconsistent one goes to the driver untouched, so that the
// application gets the driver's CL_INVALID_EVENT_WAIT_LIST).
bool WellFormed(cl_uint count, const cl_event* list) { return (count == 0) == (list == nullptr); }

using RecordHandle = std::shared_ptr<CommandRecord>;

}  // namespace

CommandTracker& CommandTracker::Get() {
    // Never destroyed: driver callbacks may still arrive while the process exits.
    static CommandTracker* tracker = new CommandTracker();
    return *tracker;
}

void CommandTracker::AddQueue(const std::shared_ptr<CountedQueue>& queue) {
    std::lock_guard<std::mutex> lock(mutex_);
    queue->span = std::make_shared<CommandSpan>();
    queues_[queue->queue] = queue;
}

std::shared_ptr<CountedQueue> CommandTracker::Queue(cl_command_queue queue) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (queues_.empty()) return nullptr;
    const auto it = queues_.find(queue);
    return it == queues_.end() ? nullptr : it->second;
}

void CommandTracker::ForgetQueue(cl_command_queue queue) {
    std::lock_guard<std::mutex> lock(mutex_);
    queues_.erase(queue);
}

void CommandTracker::MarkApplicationThread() {
    thread_local bool marked = false;
    if (marked) return;
    marked = true;
    std::lock_guard<std::mutex> lock(mutex_);
    applicationThreads_.insert(CurrentThreadId());
}

void CommandTracker::ReleaseDeferred() {
    std::vector<cl_event> events;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (releaseLater_.empty()) return;
        events.swap(releaseLater_);
    }
    for (cl_event event : events) Next().clReleaseEvent(event);
}

cl_int CommandTracker::Enqueue(const std::shared_ptr<CountedQueue>& queue, const CommandShape& shape, cl_bool blocking,
                               cl_uint waitCount, const cl_event* waitList, cl_event* event, const EnqueueCall& call) {
    MarkApplicationThread();
    ReleaseDeferred();
    const bool synchronization = shape.kind == CommandKind::kSynchronization;
    // Span counters need the command's start. Held back by a user event until its callbacks are set, the
    // command cannot start unseen.
    cl_event gate = nullptr;
    std::vector<cl_event> waits;
    if (queue->spanCounters && !synchronization && WellFormed(waitCount, waitList)) {
        cl_int error = CL_SUCCESS;
        gate = Next().clCreateUserEvent(queue->context, &error);
        if (gate) {
            waits.assign(waitList, waitList + waitCount);
            waits.push_back(gate);
        }
    }
    cl_event own = nullptr;
    cl_int status = gate ? call(CL_FALSE, static_cast<cl_uint>(waits.size()), waits.data(), &own)
                         : call(blocking, waitCount, waitList, &own);
    if (status != CL_SUCCESS || own == nullptr) {
        if (gate) {
            Next().clSetUserEventStatus(gate, CL_COMPLETE);
            Next().clReleaseEvent(gate);
        }
        return status;
    }
    auto record = std::make_shared<CommandRecord>();
    record->event = own;  // the creation reference is the layer's, unless the application asked for the event
    record->queue = queue;
    record->shape = shape;
    if (event) {
        *event = own;
        Next().clRetainEvent(own);  // the layer's reference; the creation reference is the application's
        record->applicationReferences = 1;
    }
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (synchronization) {
            record->covers = queue->span;
            queue->span = std::make_shared<CommandSpan>();
        } else {
            record->span = queue->span;
            queue->span->pending.push_back(record);
        }
        if (event) events_[own] = record;  // a handle the driver reuses replaces the old record
    }
    Follow(record, queue->spanCounters && !synchronization);
    if (gate) {
        Next().clSetUserEventStatus(gate, CL_COMPLETE);
        Next().clReleaseEvent(gate);
        if (blocking && Next().clWaitForEvents(1, &own) != CL_SUCCESS) {
            status = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;  // what the blocking call would have said
        }
    }
    return status;
}

void* CommandTracker::CallbackData(const std::shared_ptr<CommandRecord>& record) {
    auto* data = new RecordHandle(record);
    std::lock_guard<std::mutex> lock(mutex_);
    callbackData_.insert(data);
    return data;
}

std::shared_ptr<CommandRecord> CommandTracker::TakeCallbackData(void* data) {
    auto* handle = static_cast<RecordHandle*>(data);
    const RecordHandle record = *handle;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        callbackData_.erase(handle);
    }
    delete handle;
    return record;
}

void CommandTracker::Follow(const std::shared_ptr<CommandRecord>& record, bool wantsStart) {
    const CountedQueue& queue = *record->queue;
    if (wantsStart) {
        void* data = CallbackData(record);
        if (Next().clSetEventCallback(record->event, CL_RUNNING, &OnRunning, data) != CL_SUCCESS) {
            // A driver without CL_RUNNING callbacks (OpenCL 1.x): the span starts before the command can run.
            TakeCallbackData(data);
            SpanSnapshot start = queue.device->sampler.TakeSpan(queue.mask);
            std::lock_guard<std::mutex> lock(mutex_);
            record->start = std::move(start);
        }
    }
    void* data = CallbackData(record);
    if (Next().clSetEventCallback(record->event, CL_COMPLETE, &OnComplete, data) != CL_SUCCESS) {
        TakeCallbackData(data);  // harvested by the first query or covering marker instead
    }
}

void CL_CALLBACK CommandTracker::OnRunning(cl_event, cl_int status, void* data) {
    const RecordHandle record = Get().TakeCallbackData(data);
    if (status != CL_RUNNING) return;
    SpanSnapshot start = record->queue->device->sampler.TakeSpan(record->queue->mask);
    CommandTracker& tracker = Get();
    std::lock_guard<std::mutex> lock(tracker.mutex_);
    record->start = std::move(start);
}

void CL_CALLBACK CommandTracker::OnComplete(cl_event, cl_int, void* data) {
    const RecordHandle record = Get().TakeCallbackData(data);
    // First the end of the span, then everything else.
    SpanSnapshot end;
    if (record->queue->spanCounters) end = record->queue->device->sampler.TakeSpan(record->queue->mask);
    Get().HarvestRecord(record, &end, true);
}

CommandTracker::Harvest CommandTracker::HarvestRecord(const std::shared_ptr<CommandRecord>& record,
                                                      const SpanSnapshot* end, bool inCallback) {
    std::shared_ptr<CommandSpan> covers;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (record->state != CommandRecord::State::kPending) return Harvest::kDone;
        covers = record->covers;
    }
    cl_int status = CL_COMPLETE;
    if (Next().clGetEventInfo(record->event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr) !=
        CL_SUCCESS) {
        status = CL_INVALID_EVENT;
    }
    if (status > CL_COMPLETE) return Harvest::kNotYet;
    if (status < 0) {
        Finish(record, CommandRecord::State::kFailed, nullptr, inCallback);
        return Harvest::kDone;
    }
    const CountedQueue& queue = *record->queue;
    if (covers) {
        // A marker or barrier: the total of the commands it covers, once each of them is harvested.
        std::vector<RecordHandle> pending;
        {
            std::lock_guard<std::mutex> lock(mutex_);
            pending = covers->pending;
        }
        for (const RecordHandle& covered : pending) {
            if (HarvestRecord(covered, nullptr, inCallback) == Harvest::kNotYet) return Harvest::kNotYet;
        }
        Measurement total;
        {
            std::lock_guard<std::mutex> lock(mutex_);
            total = covers->total;
        }
        Finish(record, CommandRecord::State::kDone, &total, inCallback);
        return Harvest::kDone;
    }

    SpanSnapshot endNow;
    if (!end && queue.spanCounters) {
        endNow = queue.device->sampler.TakeSpan(queue.mask);
        end = &endNow;
    }
    CommandSample sample;
    sample.shape = record->shape;
    const std::pair<cl_profiling_info, cl_ulong*> times[] = {
        {CL_PROFILING_COMMAND_QUEUED, &sample.times.queued},
        {CL_PROFILING_COMMAND_SUBMIT, &sample.times.submit},
        {CL_PROFILING_COMMAND_START, &sample.times.start},
        {CL_PROFILING_COMMAND_END, &sample.times.end},
    };
    for (const auto& [query, value] : times) {
        if (Next().clGetEventProfilingInfo(record->event, query, sizeof *value, value, nullptr) != CL_SUCCESS) {
            Finish(record, CommandRecord::State::kFailed, nullptr, inCallback);
            return Harvest::kDone;
        }
    }
    if ((queue.mask & (SpanCounters() | CompletionCounters())).any()) {
        SpanSnapshot start;
        std::set<pid_t> excluded;
        {
            std::lock_guard<std::mutex> lock(mutex_);
            start = record->start;
            excluded = applicationThreads_;
        }
        const SpanSnapshot none;
        queue.device->sampler.Complete(queue.mask, start, end ? *end : none, excluded, &sample);
    }
    const Measurement measurement = Measure(sample);
    Finish(record, CommandRecord::State::kDone, &measurement, inCallback);
    return Harvest::kDone;
}

void CommandTracker::Finish(const std::shared_ptr<CommandRecord>& record, CommandRecord::State state,
                            const Measurement* measurement, bool inCallback) {
    cl_event release = nullptr;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (record->state != CommandRecord::State::kPending) return;  // another thread was first
        record->state = state;
        if (state == CommandRecord::State::kDone) record->results = cl_layer::Results(*measurement, record->queue->enabled);
        if (record->span) {
            if (state == CommandRecord::State::kDone) Accumulate(&record->span->total, *measurement);
            std::vector<RecordHandle>& pending = record->span->pending;
            pending.erase(std::remove(pending.begin(), pending.end(), record), pending.end());
            record->span.reset();
        }
        record->covers.reset();
        record->start = SpanSnapshot{};
        // A driver callback must not release the event it runs for: the next application call does.
        if (inCallback) {
            releaseLater_.push_back(record->event);
        } else {
            release = record->event;
        }
    }
    if (release) Next().clReleaseEvent(release);
}

std::shared_ptr<CommandRecord> CommandTracker::Find(cl_event event) {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto it = events_.find(event);
    return it == events_.end() ? nullptr : it->second;
}

cl_int CommandTracker::Results(const std::shared_ptr<CommandRecord>& record,
                               std::vector<cl_performance_counter_result_codeplay>* results) {
    if (HarvestRecord(record, nullptr, false) == Harvest::kNotYet) return CL_PROFILING_INFO_NOT_AVAILABLE;
    std::lock_guard<std::mutex> lock(mutex_);
    if (record->state != CommandRecord::State::kDone) return CL_PROFILING_INFO_NOT_AVAILABLE;
    *results = record->results;
    return CL_SUCCESS;
}

void CommandTracker::Retained(cl_event event) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (auto it = events_.find(event); it != events_.end()) ++it->second->applicationReferences;
}

void CommandTracker::Releasing(cl_event event) {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto it = events_.find(event);
    if (it == events_.end()) return;
    if (--it->second->applicationReferences == 0) events_.erase(it);
}

}  // namespace gpa::cl_layer
