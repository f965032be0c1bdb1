#include "tools/gpaprof/agent/agent.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <new>
#include <sstream>

#include <dlfcn.h>
#include <execinfo.h>
#include <fcntl.h>
#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "tools/gpaprof/files/session_header.h"
#include "tools/gpaprof/spool/output_template.h"
#include "tools/gpaprof/spool/rank_selection.h"

namespace gpaprof::agent {
namespace {

// Read by the signal handler: plain globals, set before the handlers are installed.
SpoolWriter* g_spool = nullptr;
std::atomic<bool> g_signalRecorded{false};
struct sigaction g_previousAction[NSIG];
struct sigaction g_ourAction;
constexpr int kHandledSignals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTERM, SIGINT, SIGQUIT};

std::atomic<uint64_t> g_forkGeneration{1};

thread_local ThreadCalls t_thread;

ThreadCalls& CurrentThread() {
    ThreadCalls& thread = t_thread;  // (the TLS address once: each look-up is a call in a dlopen'd library)
    if (thread.generation != g_forkGeneration.load(std::memory_order_relaxed)) [[unlikely]] {
        thread = ThreadCalls{};
        thread.generation = g_forkGeneration.load(std::memory_order_relaxed);
        thread.tid = static_cast<uint64_t>(syscall(SYS_gettid));
    }
    return thread;
}

// Async-signal-safe formatting: appends decimal digits.
void AppendDecimal(char* buffer, size_t* length, size_t capacity, uint64_t value) {
    char digits[24];
    size_t count = 0;
    do {
        digits[count++] = static_cast<char>('0' + value % 10);
        value /= 10;
    } while (value != 0);
    while (count > 0 && *length < capacity) buffer[(*length)++] = digits[--count];
}

void AppendText(char* buffer, size_t* length, size_t capacity, const char* text) {
    while (*text && *length < capacity) buffer[(*length)++] = *text++;
}

// Appends an EventRecord {"signal", signal, tid, fault address} with async-signal-safe calls only.
void RecordSignal(int signal, const siginfo_t* info) {
    if (!g_spool || !g_spool->open() || g_signalRecorded.exchange(true)) return;
    char line[160];
    size_t length = 0;
    AppendText(line, &length, sizeof line, "X\tsignal\t3\t");
    AppendDecimal(line, &length, sizeof line, static_cast<uint64_t>(signal));
    AppendText(line, &length, sizeof line, "\t");
    AppendDecimal(line, &length, sizeof line, static_cast<uint64_t>(syscall(SYS_gettid)));
    AppendText(line, &length, sizeof line, "\t");
    const bool fault = signal == SIGSEGV || signal == SIGBUS || signal == SIGILL || signal == SIGFPE;
    AppendDecimal(line, &length, sizeof line, fault && info ? reinterpret_cast<uintptr_t>(info->si_addr) : 0);
    AppendText(line, &length, sizeof line, "\n");
    g_spool->AppendFromSignalHandler(line, length);
}

void SignalHandler(int signal, siginfo_t* info, void* context) {
    const int savedErrno = errno;
    RecordSignal(signal, info);
    // Hand the signal to whoever had it before: the application's handler, a sanitizer, or the default.
    struct sigaction previous = g_previousAction[signal];
    sigaction(signal, &previous, nullptr);
    if ((previous.sa_flags & SA_SIGINFO) && previous.sa_sigaction) {
        previous.sa_sigaction(signal, info, context);
        sigaction(signal, &g_ourAction, nullptr);
    } else if (previous.sa_handler == SIG_IGN) {
        sigaction(signal, &g_ourAction, nullptr);
    } else if (previous.sa_handler == SIG_DFL) {
        // A fault raised by the kernel repeats when the handler returns and then takes the default action;
        // anything else is raised again (it is delivered, with the default action, once we return).
        const bool synchronousFault = (signal == SIGSEGV || signal == SIGBUS || signal == SIGILL || signal == SIGFPE) &&
                                      info && info->si_code > 0;
        if (!synchronousFault) raise(signal);
    } else {
        previous.sa_handler(signal);
        sigaction(signal, &g_ourAction, nullptr);
    }
    errno = savedErrno;
}

void InstallSignalHandlers() {
    std::memset(&g_ourAction, 0, sizeof g_ourAction);
    g_ourAction.sa_sigaction = SignalHandler;
    g_ourAction.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&g_ourAction.sa_mask);
    for (int signal : kHandledSignals) sigaction(signal, &g_ourAction, &g_previousAction[signal]);
}

void AtExit() {
    Agent* agent = Agent::Get();
    if (!agent) return;
    agent->RunFinalizers();
    if (agent->SpoolOpen()) agent->Write(spool::EventRecord{"exit", {}});
}

// Called by libgpaprof_exit.so (exit_hooks.c) when the process begins to end.
void ExitHook() {
    if (Agent* agent = Agent::Get()) agent->ProcessExiting();
}

void ExecHook() {
    if (Agent* agent = Agent::Get()) agent->BeforeExec();
}

// libgpaprof_exit.so is preloaded by gpaprof; where it is not there, atexit alone finalizes (and nothing runs
// before an exec).
void RegisterExitHook() {
    using SetHook = void (*)(void (*)());
    for (const auto& [name, hook] : {std::pair{"gpaprofExitSetHook", &ExitHook}, std::pair{"gpaprofExecSetHook", &ExecHook}}) {
        void* symbol = dlsym(RTLD_DEFAULT, name);
        if (!symbol) continue;
        SetHook setHook = nullptr;
        std::memcpy(&setHook, &symbol, sizeof setHook);
        setHook(hook);
    }
}

void ChildAfterFork() {
    if (Agent* agent = Agent::Get()) agent->AfterForkInChild();
}

std::string ReadLink(const char* path) {
    char buffer[4096];
    const ssize_t length = readlink(path, buffer, sizeof buffer - 1);
    if (length <= 0) return {};
    return std::string(buffer, static_cast<size_t>(length));
}

std::optional<std::string> ProcessEnvironment(const std::string& name) {
    const char* value = std::getenv(name.c_str());
    if (!value) return std::nullopt;
    return std::string(value);
}

// Where this process runs: the host, the boot (whose CLOCK_MONOTONIC every time is on) and the rank its launcher
// gave it, by the variables torchrun, Open MPI, MPICH/Intel MPI, PMIx, Slurm and MVAPICH set (the first set).
spool::ProcessPlace CurrentPlace() {
    spool::ProcessPlace place;
    char host[256] = {};
    if (gethostname(host, sizeof host - 1) == 0) place.hostName = host;
    std::ifstream boot("/proc/sys/kernel/random/boot_id");
    std::getline(boot, place.clockId);
    if (std::optional<ProcessRank> rank = FindProcessRank(&ProcessEnvironment)) {
        place.rankVariable = rank->variable;
        place.rankValue = rank->value;
    }
    return place;
}

// argv[1..] of this process from /proc/self/cmdline.
std::vector<std::string> CommandLineArguments() {
    std::ifstream in("/proc/self/cmdline", std::ios::binary);
    std::string content((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::vector<std::string> args;
    size_t begin = 0;
    while (begin < content.size()) {
        size_t end = content.find('\0', begin);
        if (end == std::string::npos) end = content.size();
        args.push_back(content.substr(begin, end - begin));
        begin = end + 1;
    }
    if (!args.empty()) args.erase(args.begin());
    return args;
}

Agent* g_agent = nullptr;
std::once_flag g_agentOnce;

}  // namespace

const char* PartName(Part part) {
    switch (part) {
        case Part::OpenCL: return "ocl";
        case Part::Cuda: return "cuda";
        case Part::Hsa: return "hsa";
    }
    return "unknown";
}

Agent* Agent::Get() {
    std::call_once(g_agentOnce, [] {
        Agent* agent = new Agent();  // lives as long as the process: nothing to tear down at exit
        if (agent->Initialize()) {
            g_agent = agent;
        } else {
            delete agent;
        }
    });
    return g_agent;
}

bool Agent::Initialize() {
    const char* path = std::getenv(kConfigEnv);
    if (!path || !*path) return false;
    std::ifstream in(path);
    if (!in) {
        std::fprintf(stderr, "gpaprof: cannot read the configuration %s (%s); this process is not profiled\n", path,
                     std::strerror(errno));
        return false;
    }
    std::stringstream text;
    text << in.rdbuf();
    std::string error;
    std::optional<AgentConfig> config = AgentConfig::Parse(text.str(), &error);
    if (!config) {
        std::fprintf(stderr, "gpaprof: bad configuration %s: %s; this process is not profiled\n", path, error.c_str());
        return false;
    }
    config_ = std::move(*config);
    if (!config_.ranks.empty() && !RankSelectedHere()) return false;
    hot_.paused = config_.startDisabled;
    hot_.timed = config_.startDelayMs != 0 || config_.durationMs != 0;
    hot_.maxApiCalls = config_.maxApiCalls;
    hot_.forkGeneration = g_forkGeneration.load();
    if (!config_.kernelRegex.empty()) {
        try {
            kernelRegex_.emplace(config_.kernelRegex, std::regex::ECMAScript);
        } catch (const std::regex_error& e) {
            std::fprintf(stderr, "gpaprof: bad kernel regex '%s': %s; no kernel filter\n", config_.kernelRegex.c_str(), e.what());
        }
    }
    OpenSpool();
    if (!spool_.open()) return false;
    std::string warning;
    Write(MakeProcessRecord(&warning));
    if (!warning.empty()) Note(warning);
    AddSkippedModule(reinterpret_cast<const void*>(&Agent::Now));
    if (config_.sourceSymbols) {
        void* frames[2];
        backtrace(frames, 2);  // loads the unwinder now rather than inside the first traced call
    }
    InstallSignalHandlers();
    pid_ = getpid();
    std::atexit(AtExit);
    RegisterExitHook();
    pthread_atfork(nullptr, nullptr, ChildAfterFork);
    return true;
}

// --ranks: a process whose rank is not listed (or that has none, as a launcher) runs unprofiled; it leaves its
// rank in the spool directory, for gpaprof's account of the run.
bool Agent::RankSelectedHere() const {
    std::string error;
    const std::optional<RankSelection> selection = RankSelection::Parse(config_.ranks, &error);
    const std::optional<ProcessRank> rank = FindProcessRank(&ProcessEnvironment);
    if (selection && RankSelected(*selection, rank)) return true;
    std::ofstream(config_.spoolDirectory + "/" + LeftOutFileName(static_cast<long>(getpid())))
        << (rank ? rank->variable + "=" + rank->value : std::string()) << "\n";
    return false;
}

void Agent::OpenSpool() {
    // <pid>.spool; <pid>.<n>.spool when a process of the same id in another PID namespace writes that one.
    const std::string base = config_.spoolDirectory + "/" + std::to_string(getpid());
    std::string path = base + ".spool";
    for (int n = 1; !spool_.Open(path); ++n) {
        if (errno != EWOULDBLOCK || n == 100) {
            std::fprintf(stderr, "gpaprof: cannot write %s (%s); this process is not profiled\n", path.c_str(),
                         std::strerror(errno));
            break;
        }
        path = base + "." + std::to_string(n) + ".spool";
    }
    g_spool = &spool_;
}

spool::ProcessRecord Agent::MakeProcessRecord(std::string* warning) {
    spool::ProcessRecord process;
    process.pid = getpid();
    process.parentPid = getppid();
    process.application = ReadLink("/proc/self/exe");
    process.applicationArgs = JoinArguments(CommandLineArguments());
    char cwd[4096];
    if (getcwd(cwd, sizeof cwd)) process.workingDirectory = cwd;
    process.outputBase = ResolveOutputTemplate(
        config_.outputTemplate, process.pid, &ProcessEnvironment, warning);
    process.place = CurrentPlace();
    process.startNs = Now();
    return process;
}

uint64_t Agent::Now() {
    timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return static_cast<uint64_t>(now.tv_sec) * 1000000000ull + static_cast<uint64_t>(now.tv_nsec);
}

uint64_t Agent::ThreadId() { return CurrentThread().tid; }

ThreadCalls& Agent::CallsOfThisThread() { return CurrentThread(); }

void Agent::Renumber(ThreadCalls& thread) {
    if (thread.generation == g_forkGeneration.load(std::memory_order_relaxed)) return;
    thread = ThreadCalls{};
    thread.generation = g_forkGeneration.load(std::memory_order_relaxed);
    thread.tid = static_cast<uint64_t>(syscall(SYS_gettid));
}

bool Agent::Active() const {
    if (hot_.paused.load(std::memory_order_relaxed)) return false;
    if (config_.startDelayMs == 0 && config_.durationMs == 0) return true;
    const uint64_t begin = config_.launchTimeNs + config_.startDelayMs * 1000000ull;
    const uint64_t now = Now();
    if (now < begin) return false;
    return config_.durationMs == 0 || now < begin + config_.durationMs * 1000000ull;
}

void Agent::Pause() { hot_.paused = true; }
void Agent::Resume() { hot_.paused = false; }

bool Agent::IsExcludedApi(std::string_view name) const {
    for (const std::string& excluded : config_.excludedApis) {
        if (excluded == name) return true;
    }
    return false;
}

uint64_t Agent::NextExecutionOrder() { return ++executionOrder_; }

bool Agent::KernelPassesFilters(const std::string& kernelName) {
    if (config_.kernels.empty() && !kernelRegex_) return true;
    std::lock_guard<std::mutex> lock(filterMutex_);
    auto cached = filterCache_.find(kernelName);
    if (cached != filterCache_.end()) return cached->second;
    bool pass = true;
    if (!config_.kernels.empty()) {
        pass = false;
        for (const std::string& kernel : config_.kernels) pass = pass || kernel == kernelName;
    }
    if (pass && kernelRegex_) pass = std::regex_search(kernelName, *kernelRegex_);
    filterCache_[kernelName] = pass;
    return pass;
}

bool Agent::ShouldProfileDispatch(const std::string& kernelName) {
    if (!Active() || !KernelPassesFilters(kernelName)) return false;
    const uint64_t position = filteredDispatches_++;
    if (position < config_.launchSkip) return false;
    return !config_.launchCount || position - config_.launchSkip < *config_.launchCount;
}

void Agent::OpenSpoolOfForkedChild() {
    if (reopenAfterFork_.load(std::memory_order_relaxed) && reopenAfterFork_.exchange(false)) {
        // The first record of a forked child: its own spool, starting with its process record.
        OpenSpool();
        std::string warning;
        if (spool_.open()) spool_.Append(spool::Encode(MakeProcessRecord(&warning)));
    }
}

void Agent::Write(const spool::Record& record) {
    OpenSpoolOfForkedChild();
    if (!spool_.open()) return;
    // One allocation per record (a buffer kept per thread would be destroyed before the exit hooks write).
    std::string line;
    line.reserve(256);
    spool::EncodeTo(record, &line);
    spool_.Append(line);
}

void Agent::WriteEncoded(std::string_view line) {
    OpenSpoolOfForkedChild();
    if (!spool_.open()) return;
    spool_.Append(line);
}

void Agent::WriteAll(const std::vector<spool::Record>& records) {
    if (records.empty()) return;
    if (reopenAfterFork_.load()) {
        for (const spool::Record& record : records) Write(record);  // the child's spool opens at its first record
        return;
    }
    if (!spool_.open()) return;
    std::string lines;
    lines.reserve(records.size() * 192);
    for (const spool::Record& record : records) spool::EncodeTo(record, &lines);
    spool_.Append(lines);
}

void Agent::Note(const std::string& message) {
    std::fprintf(stderr, "gpaprof: %s\n", message.c_str());
    Write(spool::NoteRecord{message});
}

void Agent::Progress(const std::string& message) {
    if (!config_.progress) return;
    std::lock_guard<std::mutex> lock(progressMutex_);
    const uint64_t now = Now();
    if (now - lastProgressNs_ < 1000000000ull) return;
    lastProgressNs_ = now;
    std::fprintf(stderr, "gpaprof: %s\n", message.c_str());
}

void Agent::BeginMarker(const char* name, const char* group) {
    if (!config_.trace || !Active()) return;
    PerfMarker marker{PerfMarker::Kind::Begin, name ? name : "", group ? group : "", Now()};
    Write(spool::MarkerRecord{ThreadId(), marker});
}

void Agent::EndMarker() {
    if (!config_.trace || !Active()) return;
    PerfMarker marker{PerfMarker::Kind::End, "", "", Now()};
    Write(spool::MarkerRecord{ThreadId(), marker});
}

void Agent::EndMarkerEx(const char* name, const char* group) {
    if (!config_.trace || !Active()) return;
    PerfMarker marker{PerfMarker::Kind::EndEx, name ? name : "", group ? group : "", Now()};
    Write(spool::MarkerRecord{ThreadId(), marker});
}

void Agent::AddSkippedModule(const void* addressInModule) {
    Dl_info info;
    if (!addressInModule || !dladdr(addressInModule, &info) || !info.dli_fbase) return;
    std::lock_guard<std::mutex> lock(skippedMutex_);
    const uintptr_t base = reinterpret_cast<uintptr_t>(info.dli_fbase);
    for (uintptr_t known : skippedModules_) {
        if (known == base) return;
    }
    skippedModules_.push_back(base);
}

void Agent::RecordCaller(Part part, uint64_t index, const char* apiName) {
    void* frames[64];
    const int count = backtrace(frames, 64);
    std::vector<uintptr_t> skipped;
    {
        std::lock_guard<std::mutex> lock(skippedMutex_);
        skipped = skippedModules_;
    }
    spool::SourceRecord record;
    record.part = PartName(part);
    record.threadId = ThreadId();
    record.index = index;
    record.apiName = apiName;
    for (int i = 1; i < count; ++i) {
        Dl_info info;
        std::memset(&info, 0, sizeof info);
        const bool known = dladdr(frames[i], &info) != 0 && info.dli_fbase;
        if (known) {
            const uintptr_t base = reinterpret_cast<uintptr_t>(info.dli_fbase);
            bool skip = false;
            for (uintptr_t module : skipped) skip = skip || module == base;
            if (skip) continue;
            record.module = info.dli_fname && info.dli_fname[0] == '/' ? info.dli_fname : ReadLink("/proc/self/exe");
            record.moduleBase = base;
            if (info.dli_sname) {
                record.symbol = info.dli_sname;
                record.symbolAddress = reinterpret_cast<uintptr_t>(info.dli_saddr);
            }
        }
        record.address = reinterpret_cast<uintptr_t>(frames[i]);
        Write(record);
        return;
    }
}

void Agent::AddFinalizer(std::function<void()> finalizer) {
    std::lock_guard<std::recursive_mutex> lock(finalizerMutex_);
    finalizers_.push_back(std::move(finalizer));
}

void Agent::RunFinalizers() {
    std::unique_lock<std::recursive_mutex> lock(finalizerMutex_);
    thread_local bool running = false;  // trivially destructible: usable during exit
    if (running) return;  // a finalizer's work ended the process
    running = true;
    // By index: a finalizer may add another.
    for (size_t i = 0; i < finalizers_.size(); ++i) {
        try {
            finalizers_[i]();
        } catch (...) {
        }
    }
    running = false;
}

void Agent::AddBeforeExec(std::function<void()> work) {
    std::lock_guard<std::recursive_mutex> lock(finalizerMutex_);
    beforeExec_.push_back(std::move(work));
}

void Agent::BeforeExec() {
    if (getpid() != pid_.load()) return;  // a vfork child: its parent's memory, its parent's work
    std::lock_guard<std::recursive_mutex> lock(finalizerMutex_);
    for (const std::function<void()>& work : beforeExec_) work();
}

void Agent::ProcessExiting() {
    if (getpid() != pid_.load()) return;
    RunFinalizers();
    if (SpoolOpen()) Write(spool::EventRecord{"exit", {}});
}

void Agent::AfterForkInChild() {
    // Only this thread exists in the child: locks other threads held at fork() would never be released.
    new (&filterMutex_) std::mutex();
    new (&finalizerMutex_) std::recursive_mutex();
    pid_ = getpid();
    new (&progressMutex_) std::mutex();
    new (&skippedMutex_) std::mutex();
    hot_.forkGeneration = g_forkGeneration.fetch_add(1) + 1;
    finalizers_.clear();  // the parent's device work is not this process's
    beforeExec_.clear();
    spool_.ForgetAfterFork();
    g_signalRecorded = false;
    // A child that calls exec() right away records nothing and leaves no spool; one that goes on
    // opens its own at its first record.
    reopenAfterFork_ = true;
}

}  // namespace gpaprof::agent

// Loading the library is enough to start: the configuration is read and the crash handlers installed
// before the first API call.
__attribute__((constructor)) static void GpaprofAgentLoad() { gpaprof::agent::Agent::Get(); }

extern "C" {

void gpaprofAgentBeginMarker(const char* name, const char* group) {
    if (auto* agent = gpaprof::agent::Agent::Get()) agent->BeginMarker(name, group);
}

void gpaprofAgentEndMarker(void) {
    if (auto* agent = gpaprof::agent::Agent::Get()) agent->EndMarker();
}

void gpaprofAgentEndMarkerEx(const char* name, const char* group) {
    if (auto* agent = gpaprof::agent::Agent::Get()) agent->EndMarkerEx(name, group);
}

void gpaprofAgentPause(void) {
    if (auto* agent = gpaprof::agent::Agent::Get()) agent->Pause();
}

void gpaprofAgentResume(void) {
    if (auto* agent = gpaprof::agent::Agent::Get()) agent->Resume();
}

int gpaprofAgentIsProfiling(void) {
    auto* agent = gpaprof::agent::Agent::Get();
    return agent && agent->Active() ? 1 : 0;
}
}
