// Enqueue calls: the event each command needs (created by gpaprof when the application passed none), the
// command record of the trace, following the command to completion, and kernel dispatches with their
// counters (replayed into several passes when the counters need it), occupancy and .csv row.
#pragma once

#include <optional>

#include "tools/gpaprof/opencl/api_call.h"
#include "tools/gpaprof/opencl/cl_headers.h"

namespace gpaprof::ocl {

// The event of an enqueue call, when the trace needs one.
class EventCapture {
public:
    EventCapture(const TracedCall& call, cl_event* appEvent)
        : appEvent_(appEvent), wanted_(call.record()) {}
    // What to pass as the call's event argument.
    cl_event* pointer() { return appEvent_ ? appEvent_ : (wanted_ ? &own_ : nullptr); }
    // After the call: writes the command record and follows the command (no-op unless traced and enqueued).
    void Commit(const TracedCall& call, cl_command_queue queue, bool enqueued, std::optional<uint64_t> transferSize);

private:
    cl_event* appEvent_;
    bool wanted_;
    cl_event own_ = nullptr;
};

enum class KernelEntry { NDRange, Task };

cl_int EnqueueKernel(TracedCall& call, KernelEntry entry, cl_command_queue queue, cl_kernel kernel, cl_uint workDim,
                     const size_t* globalOffset, const size_t* globalSize, const size_t* localSize, cl_uint waitCount,
                     const cl_event* waitList, cl_event* event);

// Counters chosen for this process (built once from the configuration).
struct CounterSet;
struct QueueInfo;
// Made at the first dispatch; the cl_codeplay_performance_counters counters among them are those `queue`
// collects (the first dispatch's queue).
const CounterSet& ProcessCounters(const QueueInfo* queue = nullptr);

// At exit: device times of unfinished commands.
void FinishPendingCommands();

}  // namespace gpaprof::ocl
