// gpaprof: runs an application under the profiler and writes <out>.atp, <out>.csv and <out>.occupancy.
//
// The work is split between this process and the profiled ones: the application's processes record
// into a spool (one file per process, one line per record, written as things happen), and gpaprof turns
// each spool into the files after the process has ended, whether it exited, crashed or was killed.
#include <algorithm>
#include <cerrno>
#include <clocale>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <csignal>
#include <dirent.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "tools/gpaprof/cli/counter_listing.h"
#include "tools/gpaprof/cli/counter_names.h"
#include "tools/gpaprof/cli/injection.h"
#include "tools/gpaprof/cli/launcher.h"
#include "tools/gpaprof/cli/options.h"
#include "tools/gpaprof/cli/pm_metric_names.h"
#include "tools/gpaprof/files/atp_file.h"
#include "tools/gpaprof/files/csv_file.h"
#include "tools/gpaprof/files/file_io.h"
#include "tools/gpaprof/files/occupancy_file.h"
#include "tools/gpaprof/files/pm_sampling_file.h"
#include "tools/gpaprof/files/session_header.h"
#include "tools/gpaprof/files/text_fields.h"
#include "tools/gpaprof/report/report_command.h"
#include "tools/gpaprof/spool/agent_config.h"
#include "tools/gpaprof/spool/output_template.h"
#include "tools/gpaprof/spool/process_files.h"
#include "tools/gpaprof/spool/rank_selection.h"
#include "tools/gpaprof/spool/spool_assembler.h"
#ifdef GPAPROF_WITH_CUDA_PART
#include "tools/gpaprof/cuda/raw_call_line.h"
#include "tools/gpaprof/cuda/raw_kernel_line.h"
#endif

#ifndef GPAPROF_VERSION
#define GPAPROF_VERSION "0.0.0"
#endif

namespace gpaprof::cli {
namespace {

bool g_quiet = false;

void Say(const std::string& message) {
    if (!g_quiet) std::fprintf(stderr, "gpaprof: %s\n", message.c_str());
}

void Warn(const std::string& message) { std::fprintf(stderr, "gpaprof: %s\n", message.c_str()); }

uint64_t MonotonicNs() {
    timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return static_cast<uint64_t>(now.tv_sec) * 1000000000ull + static_cast<uint64_t>(now.tv_nsec);
}

std::string BaseName(const std::string& path) {
    const size_t slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string DirectoryOf(const std::string& path) {
    const size_t slash = path.rfind('/');
    return slash == std::string::npos ? std::string(".") : (slash == 0 ? std::string("/") : path.substr(0, slash));
}

std::string Absolute(const std::string& path) {
    if (!path.empty() && path[0] == '/') return path;
    char cwd[4096];
    if (!getcwd(cwd, sizeof cwd)) return path;
    return std::string(cwd) + "/" + path;
}

// "<distribution or system> Build <x.y.z>", e.g. "Debian GNU/Linux 12 (bookworm) Build 6.1.0".
std::string OsVersion() {
    std::string name;
    std::ifstream release("/etc/os-release");
    std::string line;
    while (std::getline(release, line)) {
        if (line.rfind("PRETTY_NAME=", 0) == 0) {
            name = line.substr(12);
            if (name.size() >= 2 && name.front() == '"' && name.back() == '"') name = name.substr(1, name.size() - 2);
        }
    }
    struct utsname system;
    std::string build;
    if (uname(&system) == 0) {
        if (name.empty()) name = system.sysname;
        const std::string full = system.release;
        size_t end = 0;
        int dots = 0;
        while (end < full.size() && (std::isdigit(static_cast<unsigned char>(full[end])) || (full[end] == '.' && dots < 2))) {
            if (full[end] == '.') ++dots;
            ++end;
        }
        build = full.substr(0, end);
        if (!build.empty() && build.back() == '.') build.pop_back();
    }
    return name + " Build " + (build.empty() ? std::string("0") : build);
}

// ',' unless the locale writes decimals with ',' (then ';'), as the original profiler chose.
char DefaultSeparator() {
    std::setlocale(LC_NUMERIC, "");
    const struct lconv* conventions = std::localeconv();
    const bool commaDecimal = conventions && conventions->decimal_point && std::strcmp(conventions->decimal_point, ",") == 0;
    std::setlocale(LC_NUMERIC, "C");
    return commaDecimal ? ';' : ',';
}

// "100us", "1500ns": the interval as --pm-sampling takes it.
std::string IntervalText(uint64_t ns) {
    if (ns % 1000000 == 0) return std::to_string(ns / 1000000) + "ms";
    if (ns % 1000 == 0) return std::to_string(ns / 1000) + "us";
    return std::to_string(ns) + "ns";
}

std::vector<std::string> ModeNames(const Options& options) {
    std::vector<std::string> modes;
    if (options.trace) modes.push_back("API trace");
    if (options.counters) modes.push_back("counters");
    if (options.occupancy) modes.push_back("occupancy");
    if (options.pmSamplingIntervalNs) modes.push_back("PM sampling every " + IntervalText(options.pmSamplingIntervalNs));
    return modes;
}

std::string Join(const std::vector<std::string>& items, const std::string& separator) {
    std::string text;
    for (const std::string& item : items) text += (text.empty() ? "" : separator) + item;
    return text;
}

bool MakeDirectories(const std::string& directory, std::string* error) {
    std::error_code code;
    std::filesystem::create_directories(directory, code);
    if (code) {
        *error = "cannot create " + directory + ": " + code.message();
        return false;
    }
    return true;
}

struct SpoolFile {
    long pid = 0;
    std::string path;
    std::string stem;        // "<pid>", or "<pid>.<n>" for a second process of that id (another PID namespace)
    bool own = false;        // the application's own process (its pid's first spool)
};

std::vector<SpoolFile> ListSpools(const std::string& directory) {
    std::vector<SpoolFile> spools;
    DIR* dir = opendir(directory.c_str());
    if (!dir) return spools;
    while (dirent* entry = readdir(dir)) {
        const std::string name = entry->d_name;
        const std::string suffix = ".spool";
        if (name.size() <= suffix.size() || name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0) continue;
        const std::string_view stem = std::string_view(name).substr(0, name.size() - suffix.size());
        const size_t dot = stem.find('.');
        std::optional<uint64_t> pid = ParseUnsigned(stem.substr(0, dot));
        if (!pid || (dot != std::string_view::npos && !ParseUnsigned(stem.substr(dot + 1)))) continue;
        spools.push_back({static_cast<long>(*pid), directory + "/" + name, std::string(stem)});
    }
    closedir(dir);
    std::sort(spools.begin(), spools.end(), [](const SpoolFile& a, const SpoolFile& b) {
        return std::make_tuple(a.pid, a.stem.size(), a.stem) < std::make_tuple(b.pid, b.stem.size(), b.stem);
    });
    return spools;
}

bool Alive(long pid) { return kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM; }

std::string SignalName(int signal) {
    const char* description = strsignal(signal);
    std::string name;
    switch (signal) {
        case SIGSEGV: name = "SIGSEGV"; break;
        case SIGABRT: name = "SIGABRT"; break;
        case SIGBUS: name = "SIGBUS"; break;
        case SIGFPE: name = "SIGFPE"; break;
        case SIGILL: name = "SIGILL"; break;
        case SIGKILL: name = "SIGKILL"; break;
        case SIGTERM: name = "SIGTERM"; break;
        case SIGINT: name = "SIGINT"; break;
        case SIGQUIT: name = "SIGQUIT"; break;
        case SIGHUP: name = "SIGHUP"; break;
        default: name = "signal " + std::to_string(signal);
    }
    return description ? name + " (" + description + ")" : name;
}

void RemoveDirectory(const std::string& directory) {
    std::error_code code;
    std::filesystem::remove_all(directory, code);
}

// gpaprof --check: strict reading of profiler files.
int CheckFiles(const std::vector<std::string>& paths) {
    if (paths.empty()) {
        Warn("--check needs the files to check");
        return 2;
    }
    int failures = 0;
    for (const std::string& path : paths) {
        const std::string extension = path.substr(path.rfind('.') == std::string::npos ? path.size() : path.rfind('.'));
        std::string summary;
        std::string problems;
        const std::string pmSampling = kPmSamplingSuffix;  // ends in .csv too: asked first
        if (path.size() > pmSampling.size() &&
            path.compare(path.size() - pmSampling.size(), pmSampling.size(), pmSampling) == 0) {
            Parsed<PmSamplingFile> parsed = ReadPmSamplingFile(path, {true});
            summary = std::to_string(parsed.file.rows.size()) + " samples of " +
                      std::to_string(parsed.file.metrics.size()) + " metrics on " +
                      std::to_string(parsed.file.devices.size()) + " devices";
            problems = parsed.Describe();
        } else if (extension == ".csv") {
            Parsed<CsvFile> parsed = ReadCsvFile(path, {true});
            summary = std::to_string(parsed.file.rows.size()) + " dispatches";
            problems = parsed.Describe();
        } else if (extension == ".atp") {
            Parsed<AtpFile> parsed = ReadAtpFile(path, {true});
            size_t calls = 0;
            for (const auto& part : parsed.file.parts) {
                for (const auto& thread : part.threads) calls += thread.entries.size();
            }
            summary = std::to_string(calls) + " API calls";
            problems = parsed.Describe();
        } else if (extension == ".occupancy") {
            Parsed<OccupancyFile> parsed = ReadOccupancyFile(path, {true});
            summary = std::to_string(parsed.file.rows.size()) + " rows";
            problems = parsed.Describe();
        } else {
            problems = "file: not a .csv, .atp, .occupancy or .pmsampling.csv file\n";
        }
        if (problems.empty()) {
            std::printf("%s: OK (%s)\n", path.c_str(), summary.c_str());
        } else {
            ++failures;
            std::printf("%s:\n%s", path.c_str(), problems.c_str());
        }
    }
    return failures ? 1 : 0;
}

// -T and --perfetto: the views gpaprof-report makes, from the files just written (the PM samples as counter tracks
// beside the kernels, when there are any).
void WriteViews(const Options& options, const std::string& base, const ProcessFiles& files) {
    const AssembledProcess& assembled = files.assembled;
    report::ReportOptions views;
    if (options.summary) views.htmlPath = base + ".html";
    if (options.perfetto) views.perfettoPath = base + ".json";
    views.inputs.push_back(base + ".atp");
    if (assembled.csv) views.inputs.push_back(base + ".csv");
    if (assembled.occupancy) views.inputs.push_back(base + ".occupancy");
    const std::string pmSampling = base + kPmSamplingSuffix;
    if (std::find(files.written.begin(), files.written.end(), pmSampling) != files.written.end()) {
        views.inputs.push_back(pmSampling);
    }
    report::RunReportCommand(views, stdout, stderr);
}

int RunWithoutProfiling(const Options& options, const std::map<std::string, std::string>& environment) {
    LaunchResult result = RunApplication(options.command, environment, options.workingDirectory);
    if (!result.started) Warn(result.problem);
    if (result.signaled) Warn("the application was killed by " + SignalName(result.signal));
    return result.exitCode;
}

int Main(int argc, char** argv) {
    Options options;
    std::string error;
    if (!ParseOptions(argc, argv, &options, &error)) {
        Warn(error);
        return 2;
    }
    g_quiet = options.quiet;
    if (options.help) {
        std::fputs(HelpText().c_str(), stdout);
        return 0;
    }
    if (options.version) {
        std::printf("gpaprof %s\n", GPAPROF_VERSION);
        return 0;
    }
    if (options.listCounters) return ListCounters();
    if (options.check) return CheckFiles(options.command);
    if (options.command.empty()) {
        Warn("no application given; usage: gpaprof [options] -- <application> [arguments] (gpaprof --help)");
        return 2;
    }
    if ((options.summary || options.perfetto) && !options.trace) {
        options.trace = true;
        Say(std::string(options.summary ? "-T" : "--perfetto") + " is made from the API trace: tracing the API too (-t)");
    }
    if (!options.trace && !options.counters && !options.occupancy && options.pmSamplingIntervalNs == 0) {
        options.trace = true;
        Say("no mode given (-t, -p, -O, --pm-sampling): tracing the API (-t)");
    }
    for (const std::string& line : OptionsWithoutEffect(options)) Say(line);
    if (options.counters) {
        // A typo must not cost a run of the whole job: names no API here offers stop gpaprof now.
        if (const std::string unknown = UnknownCounterNames(options.counterNames, KnownCounterNames(), OpenClDeviceCounterNames);
            !unknown.empty()) {
            Warn(unknown);
            return 2;
        }
    }
    if (!options.pmMetrics.empty()) {
        // The same for the PM-sampling metrics, against CUPTI's catalogs (no GPU needed).
        const PmMetricCheck check = CheckPmMetricNames(options.pmMetrics);
        if (!check.refusal.empty()) {
            Warn(check.refusal);
            return 2;
        }
        if (!check.note.empty()) Say(check.note);
    }

    const char separator = options.separator.value_or(DefaultSeparator());
    std::string outputTemplate = StripProfilerExtension(options.output.empty() ? std::string("session1") : options.output);
    if (!ValidateOutputTemplate(outputTemplate, &error)) {
        Warn(error);
        return 2;
    }
    outputTemplate = Absolute(outputTemplate);

    // The application's environment.
    std::map<std::string, std::string> environment =
        options.fullEnvironment ? std::map<std::string, std::string>{} : CurrentEnvironment();
    if (options.fullEnvironment) {
        // Without these nothing runs; they are not the application's settings.
        for (const char* keep : {"PATH", "HOME", "TMPDIR"}) {
            if (const char* value = std::getenv(keep)) environment[keep] = value;
        }
    }
    std::vector<EnvironmentVariable> headerEnvironment;
    for (const std::string& entry : options.environment) {
        const size_t equals = entry.find('=');
        environment[entry.substr(0, equals)] = entry.substr(equals + 1);
        headerEnvironment.push_back({entry.substr(0, equals), entry.substr(equals + 1)});
    }
    const std::map<std::string, std::string> plainEnvironment = environment;

    // Can profiling start? If not, say why and run the application anyway.
    const std::string libraryDirectory = LibraryDirectory();
    const std::string agentLibrary = libraryDirectory + "/libgpaprof_agent.so";
    std::vector<InjectionPart> parts = FindInjectionParts(libraryDirectory, options.apis);
    std::vector<std::string> available;
    for (const InjectionPart& part : parts) {
        if (part.available) {
            available.push_back(part.api == "opencl" ? "OpenCL" : "CUDA");
        } else if (!options.apis.empty() || part.api == "opencl" || options.pmSamplingIntervalNs) {
            Warn(part.problem);
        }
    }
    const bool cudaPart = std::any_of(parts.begin(), parts.end(),
                                      [](const InjectionPart& part) { return part.api == "cuda" && part.available; });
    if (options.pmSamplingIntervalNs && !cudaPart) {
        Warn("--pm-sampling samples NVIDIA GPUs through gpaprof's CUDA part, which " +
             std::string(std::any_of(parts.begin(), parts.end(), [](const InjectionPart& part) { return part.api == "cuda"; })
                             ? "is not available (above)"
                             : "--api leaves out") +
             ": no .pmsampling.csv will be written");
    }
    std::string cannotProfile;
    if (access(agentLibrary.c_str(), R_OK) != 0) {
        cannotProfile = "the agent library " + agentLibrary + " is missing";
    } else if (available.empty()) {
        cannotProfile = "no API part can be injected";
    }
    const char* temporaryRoot = std::getenv("TMPDIR");
    std::string spoolDirectory = std::string(temporaryRoot && *temporaryRoot ? temporaryRoot : "/tmp") + "/gpaprof-XXXXXX";
    if (cannotProfile.empty() && !mkdtemp(spoolDirectory.data())) {
        cannotProfile = "cannot create a spool directory under " + DirectoryOf(spoolDirectory) + ": " + std::strerror(errno);
    }
    if (cannotProfile.empty() && outputTemplate.find('%') == std::string::npos &&
        !MakeDirectories(DirectoryOf(outputTemplate), &error)) {
        cannotProfile = error;
    }

    AgentConfig config;
    if (cannotProfile.empty()) {
        config.trace = options.trace;
        config.counters = options.counters;
        config.occupancy = options.occupancy;
        config.sourceSymbols = options.sourceSymbols;
        config.counterNames = options.counterNames;
        config.kernels = options.kernels;
        config.kernelRegex = options.kernelRegex;
        config.launchSkip = options.launchSkip;
        config.ranks = options.ranks;
        config.launchCount = options.launchCount;
        config.maxApiCalls = options.maxApiCalls;
        config.excludedApis = options.excludedApis;
        config.cudaTraceAllApis = options.cudaTraceAllApis;
        config.startDisabled = options.startDisabled;
        config.startDelayMs = options.startDelayMs;
        config.durationMs = options.durationMs;
        config.forceSinglePass = options.forceSinglePass;
        config.forcePasses = options.forcePasses;
        config.graphProfiling = options.graphProfiling;
        config.pmSamplingIntervalNs = options.pmSamplingIntervalNs;
        config.pmMetrics = options.pmMetrics;
        config.progress = options.progress && !options.quiet;
        config.spoolDirectory = spoolDirectory;
        config.outputTemplate = outputTemplate;
        config.listSeparator = separator;
        config.launchTimeNs = MonotonicNs();
        if (!WriteTextFile(spoolDirectory + "/config", config.Serialize(), &error)) cannotProfile = error;
    }
    if (!cannotProfile.empty()) {
        Warn("cannot profile: " + cannotProfile + "; running the application without profiling");
        if (spoolDirectory.find("XXXXXX") == std::string::npos) RemoveDirectory(spoolDirectory);
        return RunWithoutProfiling(options, plainEnvironment);
    }
    std::vector<std::string> warnings;
    AddInjectionEnvironment(parts, agentLibrary, spoolDirectory + "/config", &environment, &warnings);
    for (const std::string& warning : warnings) Warn(warning);

    Say("profiling " + Join(options.command, " ") + " (" + Join(ModeNames(options), ", ") + "; " + Join(available, ", ") + ")");
    const LaunchResult result = RunApplication(options.command, environment, options.workingDirectory);
    if (!result.started) {
        Warn(result.problem);
        RemoveDirectory(spoolDirectory);
        return result.exitCode;
    }

    // Processes the application started may outlive it for a moment.
    std::vector<SpoolFile> spools = ListSpools(spoolDirectory);
    for (SpoolFile& spool : spools) spool.own = spool.stem == std::to_string(result.pid);
    std::set<long> stillRunning;
    for (int attempt = 0; attempt < 20; ++attempt) {
        stillRunning.clear();
        for (const SpoolFile& spool : spools) {
            if (!spool.own && Alive(spool.pid)) stillRunning.insert(spool.pid);
        }
        if (stillRunning.empty()) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }

    AssemblyOptions assembly;
#ifdef GPAPROF_WITH_CUDA_PART
    assembly.expandRawCall = &cuda::ExpandRawCallLine;
    assembly.expandRawKernel = &cuda::ExpandRawKernelLine;
#endif
    assembly.trace = options.trace;
    assembly.counters = options.counters;
    assembly.occupancy = options.occupancy;
    assembly.profilerVersion = GPAPROF_VERSION;
    assembly.osVersion = OsVersion();
    if (!options.environment.empty() || options.fullEnvironment) {
        assembly.fullEnvironment = options.fullEnvironment;
        assembly.environment = headerEnvironment;
    }
    assembly.excludedApis = options.excludedApis;
    assembly.listSeparator = separator;
    assembly.forceSinglePass = options.forceSinglePass;
    if (!options.kernels.empty()) assembly.kernelsProfiled = options.kernels;
    assembly.maxKernelsToProfile = options.launchCount;

    // Output names: the one each process resolved; when several collide, all but the application's own
    // process get .<pid> added.
    struct Output {
        SpoolFile spool;
        std::string base;
    };
    std::vector<Output> outputs;
    std::map<std::string, int> uses;
    for (const SpoolFile& spool : spools) {
        std::ifstream in(spool.path);
        std::string first;
        std::getline(in, first);
        std::string base;
        std::string decodeError;
        if (auto record = spool::Decode(first, &decodeError)) {
            if (auto* process = std::get_if<spool::ProcessRecord>(&*record)) base = process->outputBase;
        }
        if (base.empty()) base = ResolveOutputTemplate(outputTemplate, spool.pid, [](const std::string&) { return std::nullopt; }, nullptr);
        outputs.push_back({spool, base});
        ++uses[base];
    }
    for (Output& output : outputs) {
        if (uses[output.base] > 1 && !output.spool.own) output.base += "." + output.spool.stem;
    }

    Addr2LineResolver resolver;
    bool wroteAny = false;
    bool pmSampled = false;  // some process started a PM sampler (its file, or a note why there is none)
    for (const Output& output : outputs) {
        AssemblyOptions perProcess = assembly;
        perProcess.displayName = options.sessionName.empty() ? BaseName(output.base) : options.sessionName;
        // A process that recorded nothing gets files only when it is the only one.
        perProcess.skipIfNothingRecorded = outputs.size() > 1;
        const ProcessFiles files = WriteProcessFiles(output.spool.path, output.base, perProcess, &resolver);
        for (const std::string& problem : files.problems) Warn(problem);
        for (const std::string& note : files.notes) Say(note);  // quiet under -q, as the line below
        if (!files.spoolRead) continue;
        pmSampled = pmSampled || files.assembled.pmSampling.has_value();
        if (files.nothingRecorded && perProcess.skipIfNothingRecorded) {
            const std::string& application = files.assembled.process.application;
            Say("process " + output.spool.stem + (application.empty() ? "" : " (" + BaseName(application) + ")") +
                " made no profiled API call: no files written for it");
            continue;
        }
        const AssembledProcess& assembled = files.assembled;
        const std::vector<std::string>& written = files.summaries;
        wroteAny = wroteAny || !written.empty();
        const std::string who = output.spool.own ? std::string("") : "process " + output.spool.stem + ": ";
        for (const std::string& file : written) Say(who + "wrote " + file);
        if ((options.summary || options.perfetto) && assembled.atp) WriteViews(options, output.base, files);
        if (assembled.signal && !assembled.signal->values.empty() && !output.spool.own) {
            std::optional<uint64_t> signal = ParseUnsigned(assembled.signal->values[0]);
            Warn(who + "died of " + SignalName(static_cast<int>(signal.value_or(0))) +
                 "; its files hold everything recorded before");
        }
        if (assembled.unfinishedCommands > 0) {
            Say(who + std::to_string(assembled.unfinishedCommands) +
                " enqueued commands never completed; their device times are 0 in the .atp");
        }
        if (stillRunning.count(output.spool.pid)) {
            Warn(who + "was still running when the application ended; its files hold what it recorded so far");
        }
        if (!resolver.problem().empty() && options.sourceSymbols) Say(resolver.problem());
    }
    if (options.pmSamplingIntervalNs > 0 && !pmSampled && !spools.empty()) {
        Say("--pm-sampling: no process made a CUDA context on an NVIDIA GPU, so nothing was sampled (PM sampling "
            "follows the devices CUDA programs use; OpenCL and Vulkan programs are not sampled yet: "
            "docs/pm_sampling.md)");
    }
    const std::string leftOut = options.ranks.empty() ? std::string() : DescribeLeftOutProcesses(spoolDirectory, options.ranks);
    if (!leftOut.empty()) Say(leftOut);
    if (spools.empty() && !options.ranks.empty()) {
        Warn("no process with a rank in --ranks " + options.ranks + " recorded anything: no files written");
    } else if (spools.empty()) {
        Warn("no OpenCL activity was recorded: the application made no OpenCL calls, or reached OpenCL in a way "
             "neither of gpaprof's routes sees (its ICD loader has no layers and it looks OpenCL functions up with "
             "dlopen/dlsym, or it is statically linked); no files written");
    }

    if (result.signaled) {
        Warn("the application was killed by " + SignalName(result.signal) +
             (wroteAny ? "; the files hold everything recorded before it died" : ""));
    } else {
        Say("the application exited with code " + std::to_string(result.exitCode));
    }
    if (options.keepTemporary || !stillRunning.empty()) {
        Say("spool kept in " + spoolDirectory);
    } else {
        RemoveDirectory(spoolDirectory);
    }
    return result.exitCode;
}

}  // namespace
}  // namespace gpaprof::cli

int main(int argc, char** argv) { return gpaprof::cli::Main(argc, argv); }
