#include "layers/opencl/thread_counters.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include <dirent.h>
#include <linux/perf_event.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace gpa::cl_layer {

namespace {

perf_event_attr Attributes(ThreadCounters::Event event) {
    perf_event_attr attr{};
    attr.size = sizeof attr;
    attr.exclude_kernel = 1;  // what an unprivileged process may count (perf_event_paranoid 2)
    attr.exclude_hv = 1;
    switch (event) {
        case ThreadCounters::kTaskClock:
            attr.type = PERF_TYPE_SOFTWARE;
            attr.config = PERF_COUNT_SW_TASK_CLOCK;
            break;
        case ThreadCounters::kCycles:
            attr.type = PERF_TYPE_HARDWARE;
            attr.config = PERF_COUNT_HW_CPU_CYCLES;
            break;
        case ThreadCounters::kInstructions:
            attr.type = PERF_TYPE_HARDWARE;
            attr.config = PERF_COUNT_HW_INSTRUCTIONS;
            break;
        default:
            attr.type = PERF_TYPE_HARDWARE;
            attr.config = PERF_COUNT_HW_CACHE_MISSES;
            break;
    }
    return attr;
}

int OpenEvent(ThreadCounters::Event event, pid_t thread) {
    perf_event_attr attr = Attributes(event);
    return static_cast<int>(syscall(SYS_perf_event_open, &attr, thread, -1, -1, PERF_FLAG_FD_CLOEXEC));
}

std::vector<pid_t> ProcessThreads() {
    std::vector<pid_t> threads;
    DIR* directory = opendir("/proc/self/task");
    if (!directory) return threads;
    while (const dirent* entry = readdir(directory)) {
        if (entry->d_name[0] < '0' || entry->d_name[0] > '9') continue;
        threads.push_back(static_cast<pid_t>(std::strtol(entry->d_name, nullptr, 10)));
    }
    closedir(directory);
    return threads;
}

}  // namespace

pid_t CurrentThreadId() { return static_cast<pid_t>(syscall(SYS_gettid)); }

std::unique_ptr<ThreadCounters> ThreadCounters::Open(std::array<std::string, kEventCount>* whyNot) {
    std::unique_ptr<ThreadCounters> counters(new ThreadCounters());
    bool any = false;
    for (int e = 0; e < kEventCount; ++e) {
        const int fd = OpenEvent(static_cast<Event>(e), 0);
        if (fd < 0) {
            const int error = errno;
            (*whyNot)[e] = std::string("perf_event_open fails: ") + std::strerror(error) +
                           (error == ENOENT || error == EOPNOTSUPP
                                ? " (no hardware performance counters here: virtual machines often have none)"
                                : error == EACCES || error == EPERM
                                      ? " (not permitted: see /proc/sys/kernel/perf_event_paranoid, or a container "
                                        "that blocks perf_event_open)"
                                      : "");
            continue;
        }
        close(fd);
        counters->offered_[e] = true;
        any = true;
    }
    if (!any) return nullptr;
    return counters;
}

ThreadCounters::~ThreadCounters() {
    for (auto& [thread, files] : files_) {
        for (int fd : files) {
            if (fd >= 0) close(fd);
        }
    }
}

void ThreadCounters::Track(pid_t thread) {
    std::array<int, kEventCount> files;
    files.fill(-1);
    for (int e = 0; e < kEventCount; ++e) {
        if (offered_[e]) files[e] = OpenEvent(static_cast<Event>(e), thread);
    }
    files_[thread] = files;
}

ThreadCounters::Reading ThreadCounters::Read() {
    std::lock_guard<std::mutex> lock(mutex_);
    const std::vector<pid_t> threads = ProcessThreads();
    const std::set<pid_t> alive(threads.begin(), threads.end());
    for (auto it = files_.begin(); it != files_.end();) {
        if (alive.count(it->first)) {
            ++it;
            continue;
        }
        for (int fd : it->second) {
            if (fd >= 0) close(fd);
        }
        it = files_.erase(it);
    }
    for (pid_t thread : threads) {
        if (!files_.count(thread)) Track(thread);
    }
    Reading reading;
    for (const auto& [thread, files] : files_) {
        Counts counts{};
        for (int e = 0; e < kEventCount; ++e) {
            uint64_t value = 0;
            if (files[e] >= 0 && read(files[e], &value, sizeof value) == sizeof value) counts[e] = value;
        }
        reading[thread] = counts;
    }
    return reading;
}

ThreadCounters::Counts ThreadCounters::Between(const Reading& earlier, const Reading& later,
                                               const std::set<pid_t>& excluded) {
    Counts total{};
    for (const auto& [thread, after] : later) {
        if (excluded.count(thread)) continue;
        const auto before = earlier.find(thread);
        if (before == earlier.end()) continue;  // started meanwhile: its counters opened at `later`
        for (int e = 0; e < kEventCount; ++e) {
            if (after[e] > before->second[e]) total[e] += after[e] - before->second[e];
        }
    }
    return total;
}

}  // namespace gpa::cl_layer
