// The in-process side of gpaprof that every API part shares (libgpaprof_agent.so): configuration from
// the command line, the spool every record goes to, thread ids and per-thread call indices, the on/off
// state (start disabled, delay, duration, the marker API's pause/resume), dispatch filters, perf markers,
// source locations, and what happens when the process ends: atexit finalizers and crash signals.
//
// The OpenCL layer links it; the CUDA injection library will link the same library, so that a process
// using both APIs has one spool, one call numbering per API and one dispatch order.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <regex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "tools/gpaprof/agent/spool_writer.h"
#include "tools/gpaprof/spool/agent_config.h"
#include "tools/gpaprof/spool/spool_records.h"

#define GPAPROF_AGENT_API __attribute__((visibility("default")))

namespace gpaprof::agent {

// An API part of the trace; its number indexes per-thread counters, its name is the .atp section name.
enum class Part : uint32_t { OpenCL = 0, Cuda = 1, Hsa = 2 };
inline constexpr uint32_t kPartCount = 3;
GPAPROF_AGENT_API const char* PartName(Part part);

// What BeginCall decided for one API call.
struct CallSlot {
    std::optional<uint64_t> index;  // the call's CallIndex; absent when the call is not traced
    bool record = false;            // write its records (false past --maxapicalls)
    uint64_t threadId = 0;          // the calling thread's id (ThreadId()), set with the index: the call's records
                                    // need it, and a second look-up would cost the hot path a TLS access
};

// A thread's call numbering and its id (BeginCall). A caller on a hot path keeps its address (CallsOfThisThread):
// in a library loaded with dlopen every thread_local read is a call of __tls_get_addr, about three cache lines.
struct ThreadCalls {
    uint64_t generation = 0;  // the fork generation it was made in: a forked child numbers its calls anew
    uint64_t tid = 0;
    uint64_t nextIndex[kPartCount] = {};
    uint64_t recorded[kPartCount] = {};
};

class GPAPROF_AGENT_API Agent {
public:
    // The process's agent, or nullptr when this process was not started by gpaprof (no GPAPROF_CONFIG)
    // or the configuration could not be used (the reason was printed once).
    static Agent* Get();

    const AgentConfig& config() const { return config_; }

    // CPU clock of every timestamp in the files: CLOCK_MONOTONIC, nanoseconds.
    static uint64_t Now();
    // OS thread id of the calling thread.
    static uint64_t ThreadId();

    // Whether profiling is on now (start disabled, pause/resume, --startdelay, --profileduration).
    bool Active() const;
    void Pause();
    void Resume();

    // API calls. `excluded`: the API is in the -F list.
    CallSlot BeginCall(Part part, bool excluded) { return BeginCall(CallsOfThisThread(), part, excluded); }
    // The same on the calling thread's numbering, looked up by the caller (inline: every traced call takes it).
    CallSlot BeginCall(ThreadCalls& thread, Part part, bool excluded) {
        CallSlot slot;
        if (excluded || ((hot_.paused.load(std::memory_order_relaxed) || hot_.timed) && !Active())) return slot;
        if (thread.generation != hot_.forkGeneration.load(std::memory_order_relaxed)) [[unlikely]] Renumber(thread);
        const uint32_t p = static_cast<uint32_t>(part);
        slot.index = thread.nextIndex[p]++;
        slot.threadId = thread.tid;
        if (thread.recorded[p] < hot_.maxApiCalls) {
            ++thread.recorded[p];
            slot.record = true;
        }
        return slot;
    }
    // The calling thread's numbering; its address stays valid while the thread lives.
    static ThreadCalls& CallsOfThisThread();
    bool IsExcludedApi(std::string_view name) const;

    // Kernel dispatches: the 1-based execution order of the next dispatch of any API, and whether that
    // dispatch passes the kernel filters and launch skip/count (counted over dispatches that pass the
    // name filters).
    uint64_t NextExecutionOrder();
    bool ShouldProfileDispatch(const std::string& kernelName);

    // Records; each is one line appended to the spool at once (SpoolWriter: a copy into the file's pages).
    void Write(const spool::Record& record);
    // A record encoded by the caller (spool::EncodeCallLine): one complete line, its '\n' included.
    void WriteEncoded(std::string_view line);
    // Several records appended at once, for a producer of many at once (CUDA activity buffers): every record
    // is still a complete line.
    void WriteAll(const std::vector<spool::Record>& records);
    // Whether this process has a spool open (a forked child has none until its first record).
    bool SpoolOpen() const { return spool_.open(); }

    // Something the user should know: printed now ("gpaprof: ...") and listed again at the end.
    void Note(const std::string& message);
    // Progress of long work, printed at most once a second (and only with progress enabled).
    void Progress(const std::string& message);

    // Perf markers of the calling thread.
    void BeginMarker(const char* name, const char* group);
    void EndMarker();
    void EndMarkerEx(const char* name, const char* group);

    // --sym: records the application frame that called an API (the first frame outside gpaprof's own
    // libraries and the modules registered here, e.g. the OpenCL ICD loader).
    void RecordCaller(Part part, uint64_t index, const char* apiName);
    void AddSkippedModule(const void* addressInModule);

    // Work to do when the process ends normally (e.g. collect device times of unfinished commands, write the
    // counters of a batch of dispatches). Finalizers run at each exit point: first from gpaprof's exit hooks
    // (libgpaprof_exit.so, preloaded: after main returns, in exit(), _exit(), _Exit() and quick_exit(), before
    // any thread_local or static object is destroyed), again from atexit; each run writes what came since the
    // last, so a finalizer must be cheap when nothing is pending.
    void AddFinalizer(std::function<void()> finalizer);
    void RunFinalizers();
    // Work to do before the process image is replaced by exec (write what is kept in memory for a while; the
    // process may go on when the exec fails). From the exec hooks of libgpaprof_exit.so; not in a vfork child, and
    // not in a forked child for its parent's parts (they are forgotten at fork, as finalizers are).
    void AddBeforeExec(std::function<void()> work);
    void BeforeExec();
    // From the exit hooks: runs the finalizers and records the exit (a vfork child, which shares this
    // process's memory, does nothing).
    void ProcessExiting();

    // After fork(): the child gets its own spool and forgets the parent's unfinished work.
    void AfterForkInChild();

private:
    Agent() = default;
    bool Initialize();
    spool::ProcessRecord MakeProcessRecord(std::string* warning);
    bool RankSelectedHere() const;  // --ranks
    void OpenSpool();
    void OpenSpoolOfForkedChild();  // before the first record of a forked child
    bool KernelPassesFilters(const std::string& kernelName);

    // What BeginCall reads, on one cache line.
    struct alignas(64) Hot {
        std::atomic<bool> paused{false};
        bool timed = false;  // --startdelay or --profileduration: Active() looks at the clock
        uint64_t maxApiCalls = 0;
        std::atomic<uint64_t> forkGeneration{0};  // ThreadCalls::generation of this process's threads
    };
    static void Renumber(ThreadCalls& thread);  // a thread's first call, or its first in a forked child

    Hot hot_;
    AgentConfig config_;
    SpoolWriter spool_;
    std::atomic<bool> reopenAfterFork_{false};  // a forked child opens its spool at its first record
    std::atomic<uint64_t> executionOrder_{0};
    std::atomic<uint64_t> filteredDispatches_{0};
    std::optional<std::regex> kernelRegex_;
    std::mutex filterMutex_;
    std::unordered_map<std::string, bool> filterCache_;
    std::recursive_mutex finalizerMutex_;  // a finalizer may end the process (exit in a finalizer's CUDA call)
    std::vector<std::function<void()>> finalizers_;
    std::vector<std::function<void()>> beforeExec_;  // under finalizerMutex_
    std::atomic<int> pid_{0};  // of this process: a vfork child has another but this memory
    std::mutex progressMutex_;
    uint64_t lastProgressNs_ = 0;
    std::vector<uintptr_t> skippedModules_;  // load bases (dladdr's dli_fbase) of modules --sym skips
    std::mutex skippedMutex_;
};

}  // namespace gpaprof::agent

// The marker and control API (include/gpa/gpaprof_markers.h resolves these at run time).
extern "C" {
GPAPROF_AGENT_API void gpaprofAgentBeginMarker(const char* name, const char* group);
GPAPROF_AGENT_API void gpaprofAgentEndMarker(void);
GPAPROF_AGENT_API void gpaprofAgentEndMarkerEx(const char* name, const char* group);
GPAPROF_AGENT_API void gpaprofAgentPause(void);
GPAPROF_AGENT_API void gpaprofAgentResume(void);
GPAPROF_AGENT_API int gpaprofAgentIsProfiling(void);
}
