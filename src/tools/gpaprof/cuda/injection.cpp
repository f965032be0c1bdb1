// libgpaprof_cuda_injection.so: gpaprof's way into a CUDA application. gpaprof names this library in
// CUDA_INJECTION64_PATH; the CUDA driver loads it in cuInit and calls InitializeInjection, which subscribes to
// CUPTI's callbacks (every runtime and driver call, context creation and destruction) and, for -t, its
// activity records (kernels, copies and sets with their device times).
//
//   -t  every runtime call, and every driver call the application makes itself (driver calls the runtime
//       makes on its behalf belong to the runtime call), with arguments and return value; kernels, copies
//       and sets with device times mapped onto the CPU clock; every kernel, from every thread, stream and
//       graph, in the kernel timestamp section; NVTX push/pop ranges and gpaprof's marker API as perf markers
//   -p  one .csv row per kernel launch, counters collected by CUPTI's range profiler; passes run by gpaprof's
//       own replay (launch_replayer.h, with what device_memory_map.h tracks) or CUPTI's kernel replay
//       (counter_collector.h)
//   -O  theoretical occupancy per launch (cuda_occupancy.h), cross-checked with the driver's calculator
//
// Everything goes through the shared agent (libgpaprof_agent.so): call numbering, dispatch order, filters,
// the spool, the end of the process.
//
// CudaPart and what it shares between the library's files: cuda_part.h. Here: CUPTI's entry points, the crash
// handlers and the function the driver calls.
#include <cuda.h>
#include <cupti_activity.h>
#include <cupti_callbacks.h>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include <execinfo.h>
#include <unistd.h>

#include "tools/gpaprof/agent/agent.h"
#include "tools/gpaprof/cuda/activity_buffer_pool.h"
#include "tools/gpaprof/cuda/cuda_part.h"

namespace gpaprof::cuda::injection {
namespace {

// The activity buffers handed to CUPTI: 8 MiB (about 38,000 kernel records) unless GPAPROF_CUDA_ACTIVITY_BUFFER_MB
// says otherwise (1 to 1024). CUPTI hands a buffer back when it is full or flushed.
size_t ActivityBufferSize() {
    static const size_t size = [] {
        size_t megabytes = 8;
        if (const char* text = std::getenv("GPAPROF_CUDA_ACTIVITY_BUFFER_MB"); text && *text) {
            megabytes = static_cast<size_t>(std::clamp(std::strtol(text, nullptr, 10), 1l, 1024l));
        }
        return megabytes << 20;
    }();
    return size;
}

}  // namespace

// ---------------------------------------------------------------------------------------------------------
// CUPTI entry points.

void CUPTIAPI Callback(void* part, CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void* data) {
    // `part`: the CudaPart that subscribed (its user data). (gpaprof's own calls, t_callbackThread.internal, are told
    // apart there: one thread_local look-up a callback.)
    if (part) static_cast<CudaPart*>(part)->OnCallback(domain, cbid, data);
}

// Zeroed buffers (activity_buffer_pool.h), once CUPTI agreed to take them as such; made once, never freed:
// CUPTI may hand buffers back while the process ends.
ActivityBufferPool* g_zeroedBuffers = nullptr;

bool UseZeroedActivityBuffers(const TracingApi& api) {
    if (const char* zeroed = std::getenv("GPAPROF_CUDA_ZEROED_BUFFERS"); zeroed && std::strcmp(zeroed, "0") == 0) return false;
    if (!api.cuptiActivitySetAttribute) return false;
    uint8_t zeroedOut = 1;
    size_t size = sizeof zeroedOut;
    if (api.cuptiActivitySetAttribute(CUPTI_ACTIVITY_ATTR_ZEROED_OUT_ACTIVITY_BUFFER, &size, &zeroedOut) != CUPTI_SUCCESS) {
        return false;
    }
    if (!g_zeroedBuffers) g_zeroedBuffers = new ActivityBufferPool(ActivityBufferSize());
    return true;
}

void CUPTIAPI BufferRequested(uint8_t** buffer, size_t* size, size_t* maxNumRecords) {
    *buffer = g_zeroedBuffers ? g_zeroedBuffers->Take() : static_cast<uint8_t*>(std::aligned_alloc(8, ActivityBufferSize()));
    *size = *buffer ? ActivityBufferSize() : 0;
    *maxNumRecords = 0;
}

void CUPTIAPI BufferCompleted(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t validSize) {
    if (CudaPart* part = CudaPart::Get()) part->OnBufferCompleted(buffer, validSize);
    if (g_zeroedBuffers) {
        g_zeroedBuffers->Give(buffer);  // zeroed here, on CUPTI's thread, for the next request
    } else {
        std::free(buffer);
    }
}

uint64_t CpuTimestamp() { return Agent::Now(); }

// ---------------------------------------------------------------------------------------------------------
// Crashes: the agent records the signal; before that, hand CUPTI's buffered activity to the spool. CUPTI
// may be in a state where that hangs, so an alarm ends the process with the original signal after 2 s.

namespace {

struct sigaction g_previous[NSIG];
volatile sig_atomic_t g_crashSignal = 0;
std::atomic<bool> g_flushing{false};
bool g_crashBacktrace = false;
constexpr int kCrashSignals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTERM, SIGINT, SIGQUIT};

void AlarmHandler(int) {
    const int signal = g_crashSignal;
    struct sigaction defaults;
    std::memset(&defaults, 0, sizeof defaults);
    defaults.sa_handler = SIG_DFL;
    sigaction(signal, &defaults, nullptr);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, signal);
    sigprocmask(SIG_UNBLOCK, &set, nullptr);
    raise(signal);
    _exit(128 + signal);
}

void CrashHandler(int signal, siginfo_t* info, void* context) {
    if (g_crashBacktrace) {
        // GPAPROF_CRASH_BACKTRACE=1: where the process was, for reports of crashes under gpaprof.
        void* frames[64];
        const int count = backtrace(frames, 64);
        static const char kHeader[] = "gpaprof: backtrace of the crash:\n";
        if (write(STDERR_FILENO, kHeader, sizeof kHeader - 1) < 0) {}
        backtrace_symbols_fd(frames, count, STDERR_FILENO);
    }
    if (!g_flushing.exchange(true)) {
        g_crashSignal = signal;
        struct sigaction alarmAction;
        std::memset(&alarmAction, 0, sizeof alarmAction);
        alarmAction.sa_handler = AlarmHandler;
        sigaction(SIGALRM, &alarmAction, nullptr);
        alarm(2);
        if (CudaPart* part = CudaPart::Get()) part->FlushForCrash();
        alarm(0);
    }
    // On to the handler before ours: the agent's, which records the signal and goes on to the default.
    struct sigaction previous = g_previous[signal];
    sigaction(signal, &previous, nullptr);
    if ((previous.sa_flags & SA_SIGINFO) && previous.sa_sigaction) {
        previous.sa_sigaction(signal, info, context);
    } else if (previous.sa_handler != SIG_IGN && previous.sa_handler != SIG_DFL && previous.sa_handler) {
        previous.sa_handler(signal);
    } else if (previous.sa_handler == SIG_DFL) {
        const bool fault = (signal == SIGSEGV || signal == SIGBUS || signal == SIGILL || signal == SIGFPE) && info &&
                           info->si_code > 0;
        if (!fault) raise(signal);
    }
}

}  // namespace

void InstallCrashHandlers() {
    if (const char* text = std::getenv("GPAPROF_CRASH_BACKTRACE"); text && *text && *text != '0') {
        g_crashBacktrace = true;
        void* frames[2];
        backtrace(frames, 2);  // loads the unwinder now, not inside a signal handler
    }
    struct sigaction action;
    std::memset(&action, 0, sizeof action);
    action.sa_sigaction = CrashHandler;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    for (int signal : kCrashSignals) sigaction(signal, &action, &g_previous[signal]);
}

}  // namespace gpaprof::cuda::injection

// Called by the CUDA driver in cuInit when CUDA_INJECTION64_PATH names this library: once per driver. A process may
// hold two (a program that loads the injection itself, as fake_cuda_app does, and then the real driver, which gpaprof
// initialises to read the devices): the second call must not start a second part, whose failed subscription
// would take the first part's place and leave the process unprofiled (seen on the GPU machine, 2026-11-29).
extern "C" __attribute__((visibility("default"))) int InitializeInjection(void) {
    static std::atomic<bool> called{false};
    if (called.exchange(true)) return 1;
    gpaprof::cuda::injection::Internal internal;
    std::string problem;
    if (!gpaprof::cuda::injection::CudaPart::Start(&problem)) {
        if (problem != "not started by gpaprof") {
            if (auto* agent = gpaprof::agent::Agent::Get()) {
                agent->Note("CUDA is not profiled in this process: " + problem);
            } else {
                std::fprintf(stderr, "gpaprof: CUDA is not profiled in this process: %s\n", problem.c_str());
            }
        }
        return 1;  // the application runs on either way
    }
    return 1;
}
