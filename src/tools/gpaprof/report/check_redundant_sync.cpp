// Redundant synchronisation: a wait for work that is already known to be complete.
//  OpenCL: clFinish on an in-order queue when the last thing that happened to that queue (in the order
//  the calls started, over all threads) was a clFinish or a blocking call on it: nothing was enqueued
//  in between, so there is nothing to wait for.
//  CUDA: a device-wide synchronisation (cudaDeviceSynchronize, cudaThreadSynchronize, cuCtxSynchronize)
//  with no call that can issue device work since the previous one, and a stream synchronisation after
//  such a device-wide or the same stream's synchronisation. Any call that is not a query or a
//  synchronisation counts as work (conservative: it can only hide findings, never invent them).
#include <map>

#include "tools/gpaprof/report/best_practices.h"
#include "tools/gpaprof/report/blocking_calls.h"
#include "tools/gpaprof/report/call_outcome.h"
#include "tools/gpaprof/files/text_fields.h"

namespace gpaprof::report {
namespace {

constexpr const char* kOutOfOrder = "CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE";

bool IsCudaDeviceSync(const std::string& name) {
    return name == "cudaDeviceSynchronize" || name == "cudaThreadSynchronize" || name == "cuCtxSynchronize";
}

bool IsCudaStreamSync(const std::string& name) {
    return name == "cudaStreamSynchronize" || name == "cuStreamSynchronize";
}

// Calls that cannot issue device work: queries, error and attribute look-ups, event timing.
bool IsCudaNonWork(const std::string& name) {
    for (const char* prefix : {"cudaGet", "cudaDeviceGet", "cudaPeekAtLastError", "cudaEventQuery", "cudaStreamQuery",
                               "cudaEventElapsedTime", "cudaEventSynchronize", "cudaFuncGet", "cudaPointerGet",
                               "cudaMemGetInfo", "cudaDriverGetVersion", "cudaRuntimeGetVersion", "cuCtxGet",
                               "cuDeviceGet", "cuGetErrorString", "cuGetErrorName", "cuEventQuery", "cuStreamQuery",
                               "cuEventElapsedTime", "cuEventSynchronize", "cuPointerGetAttribute"}) {
        if (StartsWith(name, prefix)) return true;
    }
    return false;
}

std::string Describe(const HostCall& host) { return host.call->name + " at " + host.Where(); }

}  // namespace

CheckResult CheckRedundantSync(const CheckInput& input) {
    CheckResult result;
    result.id = "redundant-sync";
    result.title = "Redundant synchronisation";
    result.rule = "A wait is redundant when the work it waits for is already known to be complete: clFinish on an "
                  "in-order queue right after a clFinish or a blocking call on that queue with nothing enqueued in "
                  "between; cudaDeviceSynchronize (or a stream synchronisation) right after another synchronisation "
                  "with no call in between that could issue device work.";
    result.advice = "Drop the second wait; each synchronisation costs a round trip to the driver and stalls the host.";
    result.severity = Severity::Warning;

    struct QueueState {
        const HostCall* drainedBy = nullptr;
        bool outOfOrder = false;
    };
    std::map<std::string, QueueState> queues;
    const HostCall* deviceDrainedBy = nullptr;
    std::map<std::string, const HostCall*> streamDrainedBy;
    bool decidable = false;

    for (size_t index : CallsInTimeOrder(input.timeline)) {
        const HostCall& host = input.timeline.calls[index];
        const ApiCall& call = *host.call;
        const bool failed = ClassifyCall(host.api, call).failed;
        if (host.api == "ocl") {
            decidable = true;
            if (failed) continue;
            if ((call.name == "clCreateCommandQueue" || call.name == "clCreateCommandQueueWithProperties") &&
                call.returnValue && call.args.size() > 2) {
                queues[*call.returnValue] = QueueState{nullptr, call.args[2].find(kOutOfOrder) != std::string::npos};
            } else if (StartsWith(call.name, "clEnqueue") && !call.args.empty()) {
                QueueState& queue = queues[call.args[0]];
                queue.drainedBy = BlockingTransfer(host.api, call) && !queue.outOfOrder ? &host : nullptr;
            } else if (call.name == "clFinish" && !call.args.empty()) {
                QueueState& queue = queues[call.args[0]];
                if (queue.drainedBy) {
                    result.Add(Evidence{host.api, host.threadId, host.index,
                                        "clFinish at " + host.Where() + " on queue " + call.args[0] + " follows " +
                                            Describe(*queue.drainedBy) +
                                            " on the same queue with nothing enqueued in between"});
                }
                queue.drainedBy = &host;
            }
        } else if (host.api == "cuda") {
            decidable = true;
            if (IsCudaDeviceSync(call.name)) {
                if (failed) continue;
                if (deviceDrainedBy) {
                    result.Add(Evidence{host.api, host.threadId, host.index,
                                        call.name + " at " + host.Where() + " follows " + Describe(*deviceDrainedBy) +
                                            " with no device work issued in between"});
                }
                deviceDrainedBy = &host;
                streamDrainedBy.clear();
            } else if (IsCudaStreamSync(call.name)) {
                if (failed || call.args.empty()) continue;
                const std::string stream(StripBrackets(call.args[0]));
                const HostCall* before = deviceDrainedBy ? deviceDrainedBy : streamDrainedBy[stream];
                if (before) {
                    result.Add(Evidence{host.api, host.threadId, host.index,
                                        call.name + " at " + host.Where() + " on stream " + stream + " follows " +
                                            Describe(*before) + " with no device work issued in between"});
                }
                streamDrainedBy[stream] = &host;
            } else if (!IsCudaNonWork(call.name)) {
                deviceDrainedBy = nullptr;
                streamDrainedBy.clear();
            }
        }
    }
    if (!decidable) {
        result.status = CheckStatus::NotDecidable;
        result.notes.push_back("the trace has no OpenCL or CUDA calls");
    }
    return result;
}

}  // namespace gpaprof::report
