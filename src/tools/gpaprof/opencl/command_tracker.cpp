#include "tools/gpaprof/opencl/command_tracker.h"

#include <chrono>
#include <set>
#include <thread>

#include "tools/gpaprof/opencl/layer_state.h"

namespace gpaprof::ocl {

CommandTracker& CommandTracker::Get() {
    static CommandTracker* tracker = new CommandTracker();  // used until the process ends
    return *tracker;
}

void CommandTracker::CalibrateDevice(cl_device_id device, const std::string& key) {
    LayerState& state = LayerState::Get();
    if (!state.agent() || !Next().clGetDeviceAndHostTimer) return;
    if (state.Device(device).hostTimer == 0) return;
    cl_ulong deviceTime = 0, hostTime = 0;
    const uint64_t before = agent::Agent::Now();
    const cl_int status = Next().clGetDeviceAndHostTimer(device, &deviceTime, &hostTime);
    const uint64_t after = agent::Agent::Now();
    state.SetDeviceHostTimer(device, status == CL_SUCCESS);
    if (status == CL_SUCCESS && deviceTime != 0) {
        state.agent()->Write(spool::CalibrationRecord{key, before, after, deviceTime});
    }
}

std::shared_ptr<TrackedCommand> CommandTracker::Track(std::shared_ptr<TrackedCommand> command, bool retainEvent) {
    if (!command->event) return command;
    if (retainEvent) {
        Next().clRetainEvent(command->event);
        command->ownedEvents.push_back(command->event);
    }
    if (command->device && LayerState::Get().Device(command->device).hostTimer == -1) {
        CalibrateDevice(command->device, command->deviceKey);
    }
    {
        std::lock_guard<std::mutex> lock(mutex_);
        pending_[command.get()] = command;
    }
    if (Next().clSetEventCallback(command->event, CL_COMPLETE, &CommandTracker::OnEventComplete, command.get()) !=
        CL_SUCCESS) {
        // No callback: the command is looked at again when waited for or at exit.
        cl_int status = CL_QUEUED;
        Next().clGetEventInfo(command->event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr);
        if (status <= CL_COMPLETE) Complete(command.get(), status);
    }
    return command;
}

void CL_CALLBACK CommandTracker::OnEventComplete(cl_event, cl_int status, void* user) {
    Get().Complete(static_cast<TrackedCommand*>(user), status);
}

void CommandTracker::Complete(TrackedCommand* command, cl_int status) {
    if (command->completed.exchange(true)) return;
    std::shared_ptr<TrackedCommand> keep;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        auto found = pending_.find(command);
        if (found != pending_.end()) keep = found->second;
    }
    LayerState& state = LayerState::Get();
    if (command->index && state.agent()) {
        spool::TimesRecord times;
        times.part = "ocl";
        times.threadId = command->threadId;
        times.index = *command->index;
        times.deviceKey = command->deviceKey;
        cl_ulong values[4] = {0, 0, 0, 0};
        const cl_profiling_info params[4] = {CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT,
                                             CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END};
        bool good = status == CL_COMPLETE;
        for (int i = 0; good && i < 4; ++i) {
            good = Next().clGetEventProfilingInfo(command->event, params[i], sizeof(cl_ulong), &values[i], nullptr) ==
                   CL_SUCCESS;
        }
        if (good) {
            times.queued = values[0];
            times.submit = values[1];
            times.start = values[2];
            times.end = values[3];
            state.agent()->Write(times);
        }
    }
    if (command->onComplete) {
        try {
            command->onComplete(status);
        } catch (...) {
        }
    }
    {
        std::lock_guard<std::mutex> lock(command->mutex);
        command->finished = true;
    }
    command->done.notify_all();
    std::lock_guard<std::mutex> lock(mutex_);
    for (cl_event event : command->ownedEvents) toRelease_.push_back(event);
    command->ownedEvents.clear();
    hasReleases_ = !toRelease_.empty();
    pending_.erase(command);
}

bool CommandTracker::Wait(TrackedCommand& command, const std::function<void()>& stillRunning) {
    using Clock = std::chrono::steady_clock;
    const auto started = Clock::now();
    auto lastNotRunning = started;
    std::unique_lock<std::mutex> lock(command.mutex);
    while (!command.finished) {
        command.done.wait_for(lock, std::chrono::milliseconds(200));
        if (command.finished) break;
        lock.unlock();
        cl_int status = CL_QUEUED;
        Next().clGetEventInfo(command.event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr);
        const auto now = Clock::now();
        if (status <= CL_COMPLETE) {
            // Complete but no callback yet: give it a moment, then complete here.
            if (now - started > std::chrono::seconds(1)) Complete(&command, status);
        } else if (status == CL_RUNNING) {
            lastNotRunning = now;
            if (stillRunning) stillRunning();
        } else if (now - lastNotRunning > std::chrono::seconds(2)) {
            return false;  // queued behind something that is not happening (a user event, another queue)
        }
        lock.lock();
    }
    return true;
}

void CommandTracker::ReleaseFinished() {
    if (!hasReleases_.load(std::memory_order_relaxed)) return;
    std::vector<cl_event> events;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        events.swap(toRelease_);
        hasReleases_ = false;
    }
    for (cl_event event : events) Next().clReleaseEvent(event);
}

size_t CommandTracker::PendingCount() {
    std::lock_guard<std::mutex> lock(mutex_);
    return pending_.size();
}

void CommandTracker::FinishAll(uint64_t timeoutMs) {
    std::vector<std::shared_ptr<TrackedCommand>> commands;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        for (auto& [raw, command] : pending_) commands.push_back(command);
    }
    std::set<cl_command_queue> queues;
    for (auto& command : commands) {
        if (command->queue) queues.insert(command->queue);
    }
    for (cl_command_queue queue : queues) Next().clFlush(queue);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
    for (auto& command : commands) {
        std::unique_lock<std::mutex> lock(command->mutex);
        while (!command->finished && std::chrono::steady_clock::now() < deadline) {
            command->done.wait_for(lock, std::chrono::milliseconds(20));
            if (command->finished) break;
            lock.unlock();
            cl_int status = CL_QUEUED;
            Next().clGetEventInfo(command->event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr);
            if (status <= CL_COMPLETE) Complete(command.get(), status);
            lock.lock();
        }
    }
    ReleaseFinished();
}

}  // namespace gpaprof::ocl
