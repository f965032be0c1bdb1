#include "tools/gpaprof/opencl/enqueue.h"

#include <cmath>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "tools/gpaprof/files/text_fields.h"
#include "tools/gpaprof/occupancy/occupancy_calculator.h"
#include "tools/gpaprof/opencl/cl_names.h"
#include "tools/gpaprof/opencl/codeplay_counters.h"
#include "tools/gpaprof/opencl/command_tracker.h"
#include "tools/gpaprof/opencl/dispatch_local_memory.h"
#include "tools/gpaprof/opencl/memory_snapshot.h"
#include "tools/gpaprof/opencl/opencl_counters.h"

namespace gpaprof::ocl {
namespace {

CounterSet* g_counters = nullptr;
std::once_flag g_countersOnce;

uint64_t Product(cl_uint dims, const size_t* sizes) {
    uint64_t product = 1;
    for (cl_uint i = 0; i < dims; ++i) product *= sizes[i];
    return product;
}

WorkSize ToWorkSize(cl_uint dims, const size_t* sizes) {
    if (!sizes) return WorkSize::Unspecified();
    WorkSize work;
    work.dims = std::min<cl_uint>(dims, 3);
    for (cl_uint i = 0; i < work.dims; ++i) work.size[i] = sizes[i];
    return work;
}

std::vector<uint64_t> ToList(cl_uint dims, const size_t* sizes) {
    std::vector<uint64_t> list;
    if (!sizes) return list;
    for (cl_uint i = 0; i < dims && i < 3; ++i) list.push_back(sizes[i]);
    return list;
}

// Whether a dispatch waits for a user event the application has not set: waiting for it would hang.
bool WaitsForUserEvent(cl_uint count, const cl_event* events) {
    for (cl_uint i = 0; events && i < count; ++i) {
        cl_command_type type = 0;
        cl_int status = CL_COMPLETE;
        Next().clGetEventInfo(events[i], CL_EVENT_COMMAND_TYPE, sizeof type, &type, nullptr);
        Next().clGetEventInfo(events[i], CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr);
        if (type == CL_COMMAND_USER && status > CL_COMPLETE) return true;
    }
    return false;
}

std::optional<uint64_t> EventDuration(cl_event event) {
    cl_ulong start = 0, end = 0;
    if (Next().clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_START, sizeof start, &start, nullptr) != CL_SUCCESS ||
        Next().clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_END, sizeof end, &end, nullptr) != CL_SUCCESS ||
        end < start) {
        return std::nullopt;
    }
    return end - start;
}

template <typename T>
std::optional<T> KernelWorkGroupValue(cl_kernel kernel, cl_device_id device, cl_kernel_work_group_info param) {
    T value{};
    if (Next().clGetKernelWorkGroupInfo(kernel, device, param, sizeof value, &value, nullptr) != CL_SUCCESS) {
        return std::nullopt;
    }
    return value;
}

// Writes the command record (E) and starts following the command.
std::shared_ptr<TrackedCommand> RecordCommand(const TracedCall& call, cl_command_queue queue, cl_event event,
                                              bool appOwnsEvent, std::optional<uint64_t> transferSize,
                                              std::optional<KernelLaunch> kernel, std::vector<cl_event> ownedEvents,
                                              std::function<void(cl_int)> onComplete) {
    LayerState& state = LayerState::Get();
    auto command = std::make_shared<TrackedCommand>();
    command->event = event;
    command->queue = queue;
    command->threadId = call.threadId();
    command->ownedEvents = std::move(ownedEvents);
    command->onComplete = std::move(onComplete);
    std::optional<QueueInfo> queueInfo = state.Queue(queue);
    if (queueInfo) {
        const DeviceInfo device = state.Device(queueInfo->device);
        command->device = device.id;
        command->deviceKey = device.key;
        if (call.record()) {
            spool::CommandRecord record;
            record.part = "ocl";
            record.threadId = call.threadId();
            record.index = *call.index();
            record.deviceKey = device.key;
            cl_command_type type = 0;
            Next().clGetEventInfo(event, CL_EVENT_COMMAND_TYPE, sizeof type, &type, nullptr);
            record.command.commandType = type;
            record.command.commandName = EnumName(EnumKind::CommandType, type);
            record.command.queueId = queueInfo->id;
            record.command.queueHandle = HandleText(queue);
            record.command.contextId = queueInfo->contextId;
            record.command.contextHandle = HandleText(queueInfo->context);
            record.command.deviceName = device.name;
            record.kernel = std::move(kernel);
            record.transferSize = transferSize;
            call.agent()->Write(record);
            if (queueInfo->profiling) command->index = call.index();
        }
    }
    return CommandTracker::Get().Track(command, appOwnsEvent);
}

}  // namespace

const CounterSet& ProcessCounters(const QueueInfo* queue) {
    std::call_once(g_countersOnce, [queue] {
        agent::Agent* agent = LayerState::Get().agent();
        std::vector<std::string> problems;
        std::vector<ExtensionCounter> extension;
        for (const cl_performance_counter_codeplay& counter : queue ? queue->codeplay : std::vector<cl_performance_counter_codeplay>{}) {
            extension.push_back({std::string(counter.name, strnlen(counter.name, sizeof counter.name)),
                                 std::string(counter.category, strnlen(counter.category, sizeof counter.category)),
                                 std::string(counter.description, strnlen(counter.description, sizeof counter.description)),
                                 counter.storage == CL_PERFORMANCE_COUNTER_RESULT_TYPE_UINT64_CODEPLAY ||
                                     counter.storage == CL_PERFORMANCE_COUNTER_RESULT_TYPE_UINT32_CODEPLAY});
        }
        g_counters = new CounterSet(BuildCounterSet(agent ? agent->config().counterNames : std::vector<std::string>{},
                                                    &problems, extension));
        if (agent) {
            for (const std::string& problem : problems) agent->Note(problem);
            if (agent->config().counters) agent->Write(spool::CounterListRecord{"OpenCL", g_counters->names});
        }
    });
    return *g_counters;
}

void EventCapture::Commit(const TracedCall& call, cl_command_queue queue, bool enqueued,
                          std::optional<uint64_t> transferSize) {
    if (!wanted_ || !enqueued) return;
    cl_event event = appEvent_ ? *appEvent_ : own_;
    if (!event) return;
    std::vector<cl_event> owned;
    if (!appEvent_) owned.push_back(own_);
    RecordCommand(call, queue, event, appEvent_ != nullptr, transferSize, std::nullopt, std::move(owned), nullptr);
}

cl_int EnqueueKernel(TracedCall& call, KernelEntry entry, cl_command_queue queue, cl_kernel kernel, cl_uint workDim,
                     const size_t* globalOffset, const size_t* globalSize, const size_t* localSize, cl_uint waitCount,
                     const cl_event* waitList, cl_event* event) {
    static const size_t kOne[1] = {1};
    if (entry == KernelEntry::Task) {
        workDim = 1;
        globalSize = kOne;
        localSize = kOne;
    }
    auto launch = [&](cl_uint count, const cl_event* list, cl_event* out) {
        if (entry == KernelEntry::Task) return Next().clEnqueueTask(queue, kernel, count, list, out);
        return Next().clEnqueueNDRangeKernel(queue, kernel, workDim, globalOffset, globalSize, localSize, count, list, out);
    };
    agent::Agent* agent = call.agent();
    if (!agent) return launch(waitCount, waitList, event);

    const AgentConfig& config = agent->config();
    LayerState& state = LayerState::Get();
    const KernelInfo kernelInfo = state.KernelForDispatch(kernel);
    const uint64_t executionOrder = agent->NextExecutionOrder();
    const bool profile = (config.counters || config.occupancy) && agent->ShouldProfileDispatch(kernelInfo.name);
    const bool counters = profile && config.counters;
    const bool wantEvent = call.record() || counters;
    const std::optional<QueueInfo> queueInfo = state.Queue(queue);
    if (!queueInfo) return call.Run([&] { return launch(waitCount, waitList, event); });  // not a queue: let it fail

    const CounterSet& counterSet = ProcessCounters(&*queueInfo);
    uint32_t passes = 1;
    if (counters) {
        passes = std::max<uint32_t>(1, counterSet.plan.passCount);
        if (config.forcePasses > passes) passes = config.forcePasses;
        if (config.forceSinglePass) passes = 1;
        if (!queueInfo->profiling) {
            agent->Note("queue " + HandleText(queue) + " has no profiling enabled; dispatch " +
                        std::to_string(executionOrder) + " (" + kernelInfo.name + ") has no counters");
        }
    }

    std::vector<cl_event> passEvents;  // created by gpaprof, one per pass
    std::unique_ptr<MemorySnapshot> snapshot;
    cl_int status = CL_SUCCESS;
    if (passes > 1) {
        std::vector<cl_event> ready;
        std::string whyNot;
        snapshot = MemorySnapshot::Save(queue, queueInfo->context, kernelInfo, waitCount, waitList, &ready, &whyNot);
        if (!snapshot) {
            agent->Note("dispatch " + std::to_string(executionOrder) + " (" + kernelInfo.name + ") is not replayed: " +
                        whyNot + "; counters of later passes are NA");
            passes = 1;
        } else {
            status = call.Run([&] {
                std::vector<cl_event> waitFor = ready;
                std::vector<cl_event> ours = ready;  // events to release once enqueued after
                cl_int result = CL_SUCCESS;
                for (uint32_t pass = 0; pass < passes; ++pass) {
                    if (pass > 0) {
                        std::vector<cl_event> restored;
                        std::string error;
                        if (!snapshot->Restore(passEvents.back(), &restored, &error)) {
                            agent->Note("dispatch " + std::to_string(executionOrder) + ": " + error);
                            result = CL_OUT_OF_RESOURCES;
                            break;
                        }
                        waitFor = restored;
                        ours.insert(ours.end(), restored.begin(), restored.end());
                    }
                    cl_event passEvent = nullptr;
                    const bool first = pass == 0 && waitFor.empty();
                    result = launch(first ? waitCount : static_cast<cl_uint>(waitFor.size()),
                                    first ? waitList : (waitFor.empty() ? nullptr : waitFor.data()), &passEvent);
                    if (result != CL_SUCCESS) break;
                    passEvents.push_back(passEvent);
                }
                for (cl_event e : ours) Next().clReleaseEvent(e);
                return result;
            });
            snapshot->Release(passEvents.empty() ? nullptr : passEvents.back());
            if (status == CL_SUCCESS && passEvents.size() == passes) {
                Next().clFlush(queue);
            } else if (!passEvents.empty()) {
                // A later pass failed after a restore: the first pass's results are gone, so say so loudly.
                agent->Note("dispatch " + std::to_string(executionOrder) + " (" + kernelInfo.name +
                            ") failed in a replay pass: " + ErrorName(status));
            }
        }
    }
    if (passes == 1) {
        cl_event own = nullptr;
        cl_event* pointer = event ? event : (wantEvent ? &own : nullptr);
        status = call.Run([&] { return launch(waitCount, waitList, pointer); });
        if (status == CL_SUCCESS && wantEvent && pointer && *pointer) {
            passEvents.push_back(*pointer);
            if (event) Next().clRetainEvent(*pointer);  // gpaprof's own reference; the application keeps its own
        }
    } else if (status == CL_SUCCESS && event && !passEvents.empty()) {
        *event = passEvents.back();
        Next().clRetainEvent(*event);  // the application's reference
    }
    if (status != CL_SUCCESS) {
        for (cl_event e : passEvents) Next().clReleaseEvent(e);
        return status;
    }

    // Occupancy and the dispatch's fixed columns, from the kernel, its device and the launch.
    const DeviceInfo device = state.Device(queueInfo->device);
    std::optional<OccupancyRow> occupancy;
    const uint64_t localMemory = DispatchLocalMemory(
        KernelWorkGroupValue<cl_ulong>(kernel, device.id, CL_KERNEL_LOCAL_MEM_SIZE).value_or(0), kernelInfo.LocalArgumentBytes());
    if (profile) {
        DeviceLimits limits = device.limits;
        if (device.waveSizeFromKernel) {
            limits.waveSize = KernelWorkGroupValue<size_t>(kernel, device.id, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE);
            if (device.isCpu && limits.waveSize && *limits.waveSize > 0 && limits.maxWorkGroupSize) {
                limits.maxWavesPerComputeUnit = (*limits.maxWorkGroupSize + *limits.waveSize - 1) / *limits.waveSize;
            }
        }
        KernelUsage usage;
        usage.ldsPerWorkGroup = localMemory;
        usage.maxWorkGroupSize = KernelWorkGroupValue<size_t>(kernel, device.id, CL_KERNEL_WORK_GROUP_SIZE);
        LaunchShape shape;
        shape.globalWorkSize = globalSize ? Product(workDim, globalSize) : 0;
        if (localSize) {
            shape.workGroupSize = Product(workDim, localSize);
        } else if (device.suggestLocalSize && globalSize && workDim <= 3) {
            // The application let the runtime choose; the runtime says what it chooses.
            size_t suggested[3] = {1, 1, 1};
            if (device.suggestLocalSize(queue, kernel, workDim, globalOffset, globalSize, suggested) == CL_SUCCESS) {
                shape.workGroupSize = Product(workDim, suggested);
            }
        }
        occupancy = ComputeOccupancy(call.threadId() ? call.threadId() : agent::Agent::ThreadId(), kernelInfo.name,
                                     limits, usage, shape);
        if (config.occupancy) agent->Write(spool::OccupancyRecord{executionOrder, *occupancy});
    }

    if (passEvents.empty()) return status;  // neither traced nor counted

    std::function<void(cl_int)> onComplete;
    if (counters) {
        MethodName method;
        method.kernel = kernelInfo.name;
        method.kernelId = kernelInfo.id;
        method.device = device.isCpu ? std::string("CPU") : device.name;
        if (!device.isCpu) method.deviceIndex = state.DeviceIndex(device.id);
        DispatchRow row;
        row.method = method.ToString();
        row.executionOrder = executionOrder;
        row.threadId = agent::Agent::ThreadId();
        row.callIndex = call.index();
        row.globalWorkSize = ToWorkSize(workDim, globalSize);
        row.workGroupSize = ToWorkSize(workDim, localSize);
        row.localMemSize = localMemory;
        if (occupancy) row.kernelOccupancy = occupancy->occupancyPercent;
        std::vector<cl_event> events = passEvents;
        const std::vector<cl_performance_counter_codeplay> codeplay = queueInfo->codeplay;
        onComplete = [row, events, agent, codeplay](cl_int commandStatus) mutable {
            std::vector<std::vector<double>> passValues;
            for (cl_event passEvent : events) {
                std::optional<uint64_t> duration = commandStatus == CL_COMPLETE ? EventDuration(passEvent) : std::nullopt;
                if (!duration) break;
                passValues.push_back({static_cast<double>(*duration)});
                // The cl_codeplay_performance_counters counters of the set, from this queue's results (NaN: NA).
                const std::vector<double> values = CodeplayValues(passEvent, codeplay);
                for (const std::string& name : ProcessCounters().extension) {
                    double value = std::nan("");
                    for (size_t i = 0; i < values.size(); ++i) {
                        if (std::string(codeplay[i].name, strnlen(codeplay[i].name, sizeof codeplay[i].name)) == name) {
                            value = values[i];
                        }
                    }
                    passValues.back().push_back(value);
                }
            }
            if (commandStatus == CL_COMPLETE) {
                if (std::optional<uint64_t> duration = EventDuration(events.back())) {
                    row.timeMs = static_cast<double>(*duration) / 1e6;
                }
            }
            row.counters = EvaluateCounters(ProcessCounters(), passValues);
            agent->Write(spool::DispatchRecord{"OpenCL", row});
        };
    }

    std::optional<KernelLaunch> launchRecord;
    if (call.record()) {
        KernelLaunch launchInfo;
        launchInfo.kernelHandle = HandleText(kernel);
        launchInfo.kernelName = kernelInfo.name;
        launchInfo.globalSize = ToList(workDim, globalSize);
        launchInfo.localSize = ToList(workDim, localSize);
        launchRecord = launchInfo;
    }
    // gpaprof holds one reference to every pass event (the application holds its own to the last one).
    std::shared_ptr<TrackedCommand> command =
        RecordCommand(call, queue, passEvents.back(), false, std::nullopt, launchRecord, passEvents, onComplete);

    // Not while a user event is unset: the dispatch, or a command before it in its queue, may wait for it.
    if (counters && !WaitsForUserEvent(waitCount, waitList) && !state.AnyUserEventUnset()) {
        // Counter collection serialises dispatches, as the original profiler did: the row is complete
        // before the application goes on, and no other kernel runs during this one.
        Next().clFlush(queue);
        const uint64_t waitStart = agent::Agent::Now();
        CommandTracker::Get().Wait(*command, [&] {
            // Progress of long dispatches and replays only, at most once a second.
            const uint64_t waited = agent::Agent::Now() - waitStart;
            if (waited < 1000000000ull) return;
            agent->Progress("dispatch " + std::to_string(executionOrder) + " (" + kernelInfo.name + ")" +
                            (passes > 1 ? ", " + std::to_string(passes) + " passes," : std::string()) +
                            " running for " + std::to_string(waited / 1000000000ull) + " s");
        });
    }
    return status;
}

void FinishPendingCommands() {
    if (CommandTracker::Get().PendingCount() == 0) return;
    CommandTracker::Get().FinishAll(2000);
}

}  // namespace gpaprof::ocl
