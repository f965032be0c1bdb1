// Follows enqueued commands to completion. Each tracked command keeps its event (retained when the
// application owns it) and gets a CL_COMPLETE callback that writes its device times to the spool and runs
// its completion work (the .csv row of a kernel dispatch). Events are released later, from an API call of
// the application, never inside the callback. At exit, unfinished commands are flushed and waited for
// (bounded), so that an application that never calls clFinish still gets its device times.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "tools/gpaprof/opencl/cl_headers.h"

namespace gpaprof::ocl {

struct TrackedCommand {
    cl_event event = nullptr;              // the command's (final) event
    cl_command_queue queue = nullptr;
    std::string deviceKey;
    cl_device_id device = nullptr;
    uint64_t threadId = 0;
    std::optional<uint64_t> index;         // write a TimesRecord for this call index
    std::vector<cl_event> ownedEvents;     // released once the command completed (includes `event` if owned)
    std::function<void(cl_int status)> onComplete;

    std::atomic<bool> completed{false};
    std::mutex mutex;
    std::condition_variable done;
    bool finished = false;
};

class CommandTracker {
public:
    static CommandTracker& Get();

    // Starts following `command`. `retainEvent`: the application owns the event, keep it alive.
    std::shared_ptr<TrackedCommand> Track(std::shared_ptr<TrackedCommand> command, bool retainEvent);

    // Waits for a command; false when it does not start running (it waits for something the application
    // has not done yet): its completion work then runs later, from the callback.
    bool Wait(TrackedCommand& command, const std::function<void()>& stillRunning);

    // Releases the events of completed commands.
    void ReleaseFinished();

    // At exit: flushes the queues of unfinished commands, waits up to `timeoutMs` for them.
    void FinishAll(uint64_t timeoutMs);

    size_t PendingCount();

private:
    static void CL_CALLBACK OnEventComplete(cl_event event, cl_int status, void* user);
    void Complete(TrackedCommand* command, cl_int status);
    void CalibrateDevice(cl_device_id device, const std::string& key);

    std::mutex mutex_;
    std::unordered_map<TrackedCommand*, std::shared_ptr<TrackedCommand>> pending_;
    std::vector<cl_event> toRelease_;
    std::atomic<bool> hasReleases_{false};
};

}  // namespace gpaprof::ocl
