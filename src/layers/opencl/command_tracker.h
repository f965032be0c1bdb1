// What the layer follows: the command queues created with counters, each command enqueued on them, and
// the span of commands each marker or barrier covers. A command's results are taken ("harvested") once,
// when it completed: in the driver's completion callback, or at the first query or covering marker that
// finds it complete, whichever comes first.
//
// Markers and barriers (synchronisation commands) report the commands enqueued on their queue since the
// previous marker or barrier (docs/opencl_layer.md): a GPA sample bracketed by two markers thus gets the
// totals of its commands. Nothing is held while the driver is called (a driver may run callbacks on the
// calling thread).
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <vector>

#include "layers/opencl/cl_headers.h"
#include "layers/opencl/command_measurement.h"
#include "layers/opencl/device_counters.h"

namespace gpa::cl_layer {

struct CommandRecord;

// The commands of a queue since its last marker or barrier, and their total so far.
struct CommandSpan {
    Measurement total{};
    std::vector<std::shared_ptr<CommandRecord>> pending;  // not yet harvested
};

// A queue created with CL_QUEUE_PERFORMANCE_COUNTERS_CODEPLAY.
struct CountedQueue {
    cl_command_queue queue = nullptr;
    cl_context context = nullptr;
    std::shared_ptr<const DeviceCounters> device;
    std::vector<CounterId> enabled;  // in enable order
    CounterMask mask;
    bool applicationProfiling = false;  // the application asked for CL_QUEUE_PROFILING_ENABLE itself
    bool spanCounters = false;          // counters that need a snapshot at the command's start
    // What CL_QUEUE_PROPERTIES_ARRAY answers: the application's properties, the counter configuration
    // pointing to the layer's copy (which lives as long as the queue; the application's need not).
    std::vector<cl_queue_properties> properties;
    cl_performance_counter_config_codeplay config{};
    std::vector<cl_performance_counter_desc_codeplay> descs;
    std::shared_ptr<CommandSpan> span;  // the open span (under the tracker's lock)
};

struct CommandRecord {
    cl_event event = nullptr;  // the layer holds a reference until the record is harvested
    std::shared_ptr<CountedQueue> queue;
    CommandShape shape;
    SpanSnapshot start;                   // span counters: at the start (or when the command was enqueued)
    std::shared_ptr<CommandSpan> span;    // the span the command belongs to (not for markers and barriers)
    std::shared_ptr<CommandSpan> covers;  // markers and barriers: the span they close
    uint32_t applicationReferences = 0;   // references the application holds (0: it asked for no event)
    enum class State { kPending, kDone, kFailed } state = State::kPending;
    std::vector<cl_performance_counter_result_codeplay> results;
};

class CommandTracker {
public:
    static CommandTracker& Get();

    void AddQueue(const std::shared_ptr<CountedQueue>& queue);
    // Null for a queue without counters.
    std::shared_ptr<CountedQueue> Queue(cl_command_queue queue);
    void ForgetQueue(cl_command_queue queue);

    // The driver's enqueue, given the wait list and the event to fill, and whether to block.
    using EnqueueCall = std::function<cl_int(cl_bool blocking, cl_uint waitCount, const cl_event* waitList,
                                             cl_event* event)>;
    // Runs an enqueue on a counted queue and follows the command. `blocking`: the application's blocking
    // flag (a blocking command is enqueued without blocking and waited for, so that its callbacks are set
    // before it runs).
    cl_int Enqueue(const std::shared_ptr<CountedQueue>& queue, const CommandShape& shape, cl_bool blocking,
                   cl_uint waitCount, const cl_event* waitList, cl_event* event, const EnqueueCall& call);

    // The record of an event the application holds, or null.
    std::shared_ptr<CommandRecord> Find(cl_event event);
    // The record's results once its command completed: CL_SUCCESS, or CL_PROFILING_INFO_NOT_AVAILABLE while
    // it runs (and when it failed).
    cl_int Results(const std::shared_ptr<CommandRecord>& record,
                   std::vector<cl_performance_counter_result_codeplay>* results);

    // The application retains or releases an event (records are dropped with its last reference).
    void Retained(cl_event event);
    void Releasing(cl_event event);

    // The calling thread enqueues or waits through OpenCL: it is the application's, not the driver's.
    void MarkApplicationThread();
    // Releases the references to events harvested in driver callbacks (never released there). Only from
    // calls a callback cannot make (enqueues, waits, queue releases): a callback of another layer for the
    // same event may still be running.
    void ReleaseDeferred();

private:
    enum class Harvest { kDone, kNotYet };
    Harvest HarvestRecord(const std::shared_ptr<CommandRecord>& record, const SpanSnapshot* end, bool inCallback);
    void Finish(const std::shared_ptr<CommandRecord>& record, CommandRecord::State state,
                const Measurement* measurement, bool inCallback);
    void Follow(const std::shared_ptr<CommandRecord>& record, bool wantsStart);
    // A callback's data: the record, kept by the tracker until the callback takes it (a driver may never
    // call the callbacks of a command that failed).
    void* CallbackData(const std::shared_ptr<CommandRecord>& record);
    std::shared_ptr<CommandRecord> TakeCallbackData(void* data);
    static void CL_CALLBACK OnRunning(cl_event event, cl_int status, void* data);
    static void CL_CALLBACK OnComplete(cl_event event, cl_int status, void* data);

    std::mutex mutex_;
    std::map<cl_command_queue, std::shared_ptr<CountedQueue>> queues_;
    std::map<cl_event, std::shared_ptr<CommandRecord>> events_;
    std::set<pid_t> applicationThreads_;
    std::vector<cl_event> releaseLater_;
    std::set<std::shared_ptr<CommandRecord>*> callbackData_;
};

}  // namespace gpa::cl_layer
