#include "tools/gpaprof/cli/options.h"

#include <algorithm>
#include <fstream>
#include <functional>
#include <map>
#include <regex>

#include "pm_sampling/metric_sets.h"
#include "tools/gpaprof/files/text_fields.h"
#include "tools/gpaprof/spool/rank_selection.h"

namespace gpaprof::cli {
namespace {

// Names listed in a file: one per line or comma-separated; '#' starts a comment.
bool ReadNameList(const std::string& path, std::vector<std::string>* names, std::string* error) {
    std::ifstream in(path);
    if (!in) {
        *error = "cannot read " + path;
        return false;
    }
    std::string line;
    while (std::getline(in, line)) {
        const size_t comment = line.find('#');
        if (comment != std::string::npos) line.resize(comment);
        for (std::string_view item : SplitOn(line, ',')) {
            std::string_view name = Trim(item);
            if (!name.empty()) names->emplace_back(name);
        }
    }
    return true;
}

bool ReadEnvironmentFile(const std::string& path, std::vector<std::string>* variables, std::string* error) {
    std::ifstream in(path);
    if (!in) {
        *error = "cannot read " + path;
        return false;
    }
    std::string line;
    while (std::getline(in, line)) {
        std::string_view text = Trim(line);
        if (text.empty() || text.front() == '#') continue;
        if (text.find('=') == std::string_view::npos || text.front() == '=') {
            *error = path + ": '" + std::string(text) + "' is not NAME=VALUE";
            return false;
        }
        variables->emplace_back(text);
    }
    return true;
}

bool ParseNumber(const std::string& option, const std::string& text, uint64_t* value, std::string* error) {
    std::optional<uint64_t> parsed = ParseUnsigned(text);
    if (!parsed) {
        *error = option + " needs a non-negative number, not '" + text + "'";
        return false;
    }
    *value = *parsed;
    return true;
}

// A PM-sampling interval: a whole number of nanoseconds written as "100us", "0.5ms", "20000ns" or "20000" (a bare
// number is nanoseconds, as ncu's --pm-sampling-interval and CUPTI take it). Exact: decimals are scaled in integers.
std::optional<uint64_t> ParseIntervalNs(std::string_view text) {
    uint64_t scale = 1;
    for (const auto& [unit, factor] : {std::pair<std::string_view, uint64_t>{"ns", 1}, {"us", 1000}, {"ms", 1000000}}) {
        if (text.size() > unit.size() && text.substr(text.size() - unit.size()) == unit) {
            text.remove_suffix(unit.size());
            scale = factor;
            break;
        }
    }
    const size_t dot = text.find('.');
    const std::string_view whole = text.substr(0, dot);
    const std::string_view fraction = dot == std::string_view::npos ? std::string_view() : text.substr(dot + 1);
    if (whole.empty() || (dot != std::string_view::npos && fraction.empty()) || fraction.size() > 6) return std::nullopt;
    std::optional<uint64_t> units = ParseUnsigned(whole);
    std::optional<uint64_t> part = fraction.empty() ? std::optional<uint64_t>(0) : ParseUnsigned(fraction);
    if (!units || !part || *units > UINT64_MAX / scale) return std::nullopt;
    uint64_t tenths = 1;  // 10^(digits of the fraction)
    for (size_t i = 0; i < fraction.size(); ++i) tenths *= 10;
    if ((*part * scale) % tenths != 0) return std::nullopt;  // less than a nanosecond
    const uint64_t wholeNs = *units * scale, fractionNs = *part * scale / tenths;
    if (wholeNs > UINT64_MAX - fractionNs) return std::nullopt;
    return wholeNs + fractionNs;
}

bool ApplyPmSamplingInterval(Options& o, const std::string& v, std::string* e) {
    std::optional<uint64_t> interval = ParseIntervalNs(v);
    if (!interval) {
        *e = "--pm-sampling takes an interval such as 100us, 0.5ms, 20000ns or 20000 (a bare number is nanoseconds), "
             "a whole number of nanoseconds; not '" + v + "'";
        return false;
    }
    if (*interval < kSmallestPmSamplingIntervalNs) {
        *e = "--pm-sampling=" + v + ": the interval must be at least " + std::to_string(kSmallestPmSamplingIntervalNs) +
             " ns (20us): at shorter intervals an H200's sampler skipped whole spans under load (docs/pm_sampling.md)";
        return false;
    }
    o.pmSamplingIntervalNs = *interval;
    return true;
}

bool ApplyPmMetrics(Options& o, const std::string& v, std::string* e) {
    size_t names = 0;
    for (std::string_view item : SplitOn(v, ',')) {
        const std::string name(Trim(item));
        if (name.empty()) continue;
        ++names;
        if (name.find_first_of(" \t\"'") != std::string::npos) {
            *e = "--pm-metrics: '" + name + "' is no metric name (NVIDIA metrics are named as ncu names them, e.g. "
                 "dram__bytes_read.sum)";
            return false;
        }
        // A set's name stands for its metrics, in their order (metric names hold "__", set names never).
        const std::vector<std::string>* set = gpa::pm_sampling::MetricSetNamed(name);
        if (!set && name.find("__") == std::string::npos) {
            *e = "--pm-metrics: '" + name + "' is neither a metric name (unit__counter.rollup as ncu names them, e.g. "
                 "dram__bytes_read.sum) nor a set of them (" + gpa::pm_sampling::MetricSetNames() + ")";
            return false;
        }
        for (const std::string& metric : set ? *set : std::vector<std::string>{name}) {
            if (std::find(o.pmMetrics.begin(), o.pmMetrics.end(), metric) == o.pmMetrics.end()) o.pmMetrics.push_back(metric);
        }
    }
    if (names == 0) {
        *e = "--pm-metrics needs metric names, comma-separated (e.g. dram__bytes_read.sum,lts__t_bytes.sum)";
        return false;
    }
    return true;
}

struct OptionSpec {
    std::vector<std::string> names;
    bool takesValue;
    std::function<bool(Options&, const std::string&, std::string*)> apply;
    // --name[=VALUE]: the value when none follows '='; the next argument is never the option's value.
    const char* defaultValue = nullptr;
};

const std::vector<OptionSpec>& Specs() {
    static const std::vector<OptionSpec> specs = {
        {{"-t", "--apitrace"}, false, [](Options& o, const std::string&, std::string*) { return o.trace = true; }},
        {{"-p", "--perfcounter"}, false, [](Options& o, const std::string&, std::string*) { return o.counters = true; }},
        {{"-O", "--occupancy"}, false, [](Options& o, const std::string&, std::string*) { return o.occupancy = true; }},
        {{"-y", "--sym"}, false, [](Options& o, const std::string&, std::string*) { return o.sourceSymbols = true; }},
        {{"--cuda-trace-all-apis"}, false,
         [](Options& o, const std::string&, std::string*) { return o.cudaTraceAllApis = true; }},
        {{"-o", "--outputfile"}, true, [](Options& o, const std::string& v, std::string*) { o.output = v; return true; }},
        {{"-N", "--sessionname"}, true,
         [](Options& o, const std::string& v, std::string*) { o.sessionName = v; return true; }},
        {{"--counters"}, true,
         [](Options& o, const std::string& v, std::string*) {
             for (std::string_view name : SplitOn(v, ',')) {
                 if (!Trim(name).empty()) o.counterNames.emplace_back(Trim(name));
             }
             return true;
         }},
        {{"-c", "--counterfile"}, true,
         [](Options& o, const std::string& v, std::string* e) {
             o.counterFiles.push_back(v);
             return ReadNameList(v, &o.counterNames, e);
         }},
        {{"-K", "--kernellistfile"}, true,
         [](Options& o, const std::string& v, std::string* e) {
             o.kernelListFile = v;
             return ReadNameList(v, &o.kernels, e);
         }},
        {{"-k", "--kernel-regex"}, true,
         [](Options& o, const std::string& v, std::string* e) {
             // Refused here, before the application runs: a filter that does not compile would profile every kernel.
             try {
                 std::regex compiled(v, std::regex::ECMAScript);
             } catch (const std::regex_error& error) {
                 *e = "--kernel-regex '" + v + "' is no regular expression (ECMAScript): " + error.what();
                 return false;
             }
             o.kernelRegex = v;
             return true;
         }},
        {{"--ranks"}, true,
         [](Options& o, const std::string& v, std::string* e) {
             if (!RankSelection::Parse(v, e)) return false;  // before the application starts
             o.ranks = v;
             return true;
         }},
        {{"--launch-skip"}, true,
         [](Options& o, const std::string& v, std::string* e) { return ParseNumber("--launch-skip", v, &o.launchSkip, e); }},
        {{"-x", "--maxkernels", "--launch-count"}, true,
         [](Options& o, const std::string& v, std::string* e) {
             uint64_t count = 0;
             if (!ParseNumber("--launch-count", v, &count, e)) return false;
             o.launchCount = count;
             return true;
         }},
        {{"-s", "--separator"}, true,
         [](Options& o, const std::string& v, std::string* e) {
             std::string value = v == "\\t" ? std::string("\t") : v;
             if (value.size() != 1 || value == " " || value == "#" || value == "\"") {
                 *e = "--separator needs one character other than space, '#' and '\"', not '" + v + "'";
                 return false;
             }
             o.separator = value[0];
             return true;
         }},
        {{"-F", "--apifilterfile"}, true,
         [](Options& o, const std::string& v, std::string* e) {
             o.apiFilterFile = v;
             return ReadNameList(v, &o.excludedApis, e);
         }},
        {{"-M", "--maxapicalls"}, true,
         [](Options& o, const std::string& v, std::string* e) { return ParseNumber("--maxapicalls", v, &o.maxApiCalls, e); }},
        {{"--startdisabled", "--start-disabled"}, false,
         [](Options& o, const std::string&, std::string*) { return o.startDisabled = true; }},
        {{"-d", "--startdelay"}, true,
         [](Options& o, const std::string& v, std::string* e) { return ParseNumber("--startdelay", v, &o.startDelayMs, e); }},
        {{"-D", "--profileduration"}, true,
         [](Options& o, const std::string& v, std::string* e) {
             return ParseNumber("--profileduration", v, &o.durationMs, e);
         }},
        {{"-e", "--envvar"}, true,
         [](Options& o, const std::string& v, std::string* e) {
             if (v.find('=') == std::string::npos || v.front() == '=') {
                 *e = "--envvar needs NAME=VALUE, not '" + v + "'";
                 return false;
             }
             o.environment.push_back(v);
             return true;
         }},
        {{"-E", "--envvarfile"}, true,
         [](Options& o, const std::string& v, std::string* e) {
             o.environmentFile = v;
             return ReadEnvironmentFile(v, &o.environment, e);
         }},
        {{"-f", "--fullenv"}, false, [](Options& o, const std::string&, std::string*) { return o.fullEnvironment = true; }},
        {{"-w", "--workingdirectory"}, true,
         [](Options& o, const std::string& v, std::string*) { o.workingDirectory = v; return true; }},
        {{"-l", "--list"}, false, [](Options& o, const std::string&, std::string*) { return o.listCounters = true; }},
        {{"--singlepass"}, false, [](Options& o, const std::string&, std::string*) { return o.forceSinglePass = true; }},
        {{"--force-passes"}, true,
         [](Options& o, const std::string& v, std::string* e) {
             uint64_t passes = 0;
             if (!ParseNumber("--force-passes", v, &passes, e)) return false;
             if (passes < 1 || passes > 64) {
                 *e = "--force-passes takes 1 to 64";
                 return false;
             }
             o.forcePasses = static_cast<uint32_t>(passes);
             return true;
         }},
        {{"--graph-profiling"}, true,
         [](Options& o, const std::string& v, std::string* e) {
             if (v != "node" && v != "graph") {
                 *e = "--graph-profiling takes node or graph, not '" + v + "'";
                 return false;
             }
             o.graphProfiling = v;
             return true;
         }},
        {{"--pm-sampling"}, true, ApplyPmSamplingInterval, "100us"},
        {{"--pm-metrics"}, true, ApplyPmMetrics},
        {{"--keep-temp"}, false, [](Options& o, const std::string&, std::string*) { return o.keepTemporary = true; }},
        {{"--no-progress"}, false,
         [](Options& o, const std::string&, std::string*) {
             o.progress = false;
             return true;
         }},
        {{"-q", "--quiet"}, false, [](Options& o, const std::string&, std::string*) { return o.quiet = true; }},
        {{"--api"}, true,
         [](Options& o, const std::string& v, std::string* e) {
             for (std::string_view name : SplitOn(v, ',')) {
                 const std::string api(Trim(name));
                 if (api != "opencl" && api != "cuda") {
                     *e = "--api takes opencl and/or cuda, not '" + api + "'";
                     return false;
                 }
                 o.apis.push_back(api);
             }
             return true;
         }},
        {{"--check"}, false, [](Options& o, const std::string&, std::string*) { return o.check = true; }},
        {{"-T", "--summary"}, false, [](Options& o, const std::string&, std::string*) { return o.summary = true; }},
        {{"--perfetto"}, false, [](Options& o, const std::string&, std::string*) { return o.perfetto = true; }},
        {{"-h", "--help"}, false, [](Options& o, const std::string&, std::string*) { return o.help = true; }},
        {{"-v", "--version"}, false, [](Options& o, const std::string&, std::string*) { return o.version = true; }},
    };
    return specs;
}

const OptionSpec* Find(const std::string& name) {
    for (const OptionSpec& spec : Specs()) {
        for (const std::string& known : spec.names) {
            if (known == name) return &spec;
        }
    }
    return nullptr;
}

}  // namespace

bool ParseOptions(int argc, char** argv, Options* options, std::string* error) {
    int i = 1;
    for (; i < argc; ++i) {
        std::string arg = argv[i];
        if (arg == "--") {
            ++i;
            break;
        }
        if (arg.empty() || arg[0] != '-' || arg == "-") break;  // the application starts here
        std::string value;
        bool hasValue = false;
        if (arg.rfind("--", 0) == 0) {
            const size_t equals = arg.find('=');
            if (equals != std::string::npos) {
                value = arg.substr(equals + 1);
                arg.resize(equals);
                hasValue = true;
            }
        }
        const OptionSpec* spec = Find(arg);
        if (!spec && arg.size() > 2 && arg[1] != '-') {
            // Short options bundled (-tpO) or with their value attached (-oout).
            const OptionSpec* first = Find(arg.substr(0, 2));
            if (first && first->takesValue) {
                if (!first->apply(*options, arg.substr(2), error)) return false;
                continue;
            }
            for (size_t c = 1; c < arg.size(); ++c) {
                const OptionSpec* flag = Find(std::string("-") + arg[c]);
                if (!flag || flag->takesValue) {
                    *error = "unknown option '" + arg + "' (gpaprof --help lists the options)";
                    return false;
                }
                flag->apply(*options, "", error);
            }
            continue;
        }
        if (!spec) {
            *error = "unknown option '" + arg + "' (gpaprof --help lists the options)";
            return false;
        }
        if (spec->defaultValue && !hasValue) {
            // "--pm-sampling 50us app" would run "50us": say how to write it instead.
            if (i + 1 < argc && ParseIntervalNs(argv[i + 1])) {
                *error = arg + " takes its interval after '=': " + arg + "=" + argv[i + 1];
                return false;
            }
            value = spec->defaultValue;
        } else if (spec->takesValue && !hasValue) {
            if (i + 1 >= argc) {
                *error = arg + " needs a value";
                return false;
            }
            value = argv[++i];
        } else if (!spec->takesValue && hasValue) {
            *error = arg + " takes no value";
            return false;
        }
        if (!spec->apply(*options, value, error)) return false;
    }
    for (; i < argc; ++i) options->command.emplace_back(argv[i]);
    if (!options->pmMetrics.empty() && options->pmSamplingIntervalNs == 0) {
        options->pmSamplingIntervalNs = kDefaultPmSamplingIntervalNs;  // --pm-metrics implies --pm-sampling
    }
    if (options->counters && options->pmSamplingIntervalNs > 0) {
        *error = "-p and --pm-sampling cannot share a run: NVIDIA's PM sampler and the profiler that collects -p's "
                 "counters need the same hardware (CUPTI says CUPTI_ERROR_HARDWARE_BUSY: H200, 2026-11-28). Profile "
                 "the counters and the timeline in two runs (-t --pm-sampling, then -p)";
        return false;
    }
    return true;
}

std::string HelpText() {
    return R"(gpaprof - profile an unmodified OpenCL (and, where built, CUDA) application

usage: gpaprof [options] [--] <application> [arguments...]

Modes (combine any of them; with none, -t is used; --pm-sampling below is a mode too):
  -t, --apitrace           API trace: every API call of every thread with its arguments, return value and
                           CPU times, device times of enqueued commands (on the CPU clock), perf markers.
                           Writes <out>.atp.
  -p, --perfcounter        Counters per kernel dispatch: one row per dispatch with its statistics and the
                           counters. Writes <out>.csv. Dispatches are serialised (each is waited for).
  -O, --occupancy          Theoretical occupancy per dispatch, with the resources that limit it.
                           Writes <out>.occupancy.

Output:
  -o, --outputfile <out>   Output name, without extension (default: session1 in the current directory).
                           %p is replaced by the process id, %q{NAME} by the value of environment variable
                           NAME in the profiled process (e.g. %q{RANK} under torchrun,
                           %q{OMPI_COMM_WORLD_RANK} under mpirun), %% by %. Every profiled process writes
                           its own files; when two would collide, the application's own process keeps the
                           name and the others get .<pid> added.
  -N, --sessionname <name> Session name written into the files (default: the output's file name).
  -s, --separator <c>      List separator of the .csv and .occupancy files (default ',', ';' where the
                           locale writes decimals with ',').

Counters (-p):
      --counters <a,b,...> Counters to collect, in column order (default: GPUTime). A name no API
                           gpaprof profiles offers stops gpaprof before the application starts (exit 2,
                           the nearest names given); one an API lacks is noted and left out there.
                           NVIDIA metric names (with "__", as ncu takes them) are checked per chip.
  -c, --counterfile <file> Counters to collect, one per line; may be given more than once.
  -l, --list               List the counters of every OpenCL device, then exit.
      --singlepass         Never replay a dispatch: counters that need more passes are NA.
      --graph-profiling <node|graph>
                           CUDA graphs: node (default) gives every kernel node of every graph launch its
                           own row, in the graph's order, with GraphLaunch and GraphNode columns; graph
                           gives one row per graph launch with counters summed over the whole graph
                           (GPUTime = the graph's device time).

PM sampling (NVIDIA GPUs, CUDA 12.6 or newer; alone or with -t and -O; not with -p, whose profiler needs the
same hardware):
      --pm-sampling[=INTERVAL]
                           Sample NVIDIA metrics of the whole GPU every INTERVAL (default 100us; 100us,
                           0.5ms, 20000ns, or a bare number of nanoseconds as ncu takes it; at least 20us)
                           on every CUDA device the application uses. Device-wide: other processes' work
                           on that GPU is in the samples too. Writes <out>.pmsampling.csv, one row per
                           sample on the .atp's clock. One pass: a metric set that needs several passes is
                           refused, with the count. Cost: no kernel is serialised or replayed; a thread in
                           the application decodes the samples and spools about 1 MB a second per device
                           at 100us with the default set (the cost on the GPU: docs/pm_sampling.md).
      --pm-metrics <a,b,...>
                           The metrics, as ncu names them (dram__bytes_read.sum), or sets of them by name,
                           instead of the default set; implies --pm-sampling. Sets: "default" (SM and
                           graphics-engine activity, IPC, tensor pipes, DRAM, L2, PCIe and NVLink bytes) and
                           "sm-throughput" (SM throughput as ncu's sm__throughput takes it: the largest of
                           TriageCompute.sm__throughput and the MIO queues' activity; GH100, GB100). Decoding
                           sm-throughput costs more host time than the default set: on an H200 it keeps up
                           alone at 200us, not at 100us, e.g. --pm-metrics sm-throughput --pm-sampling=200us
                           (docs/pm_sampling.md). A name no chip's PM-sampling catalog has stops gpaprof
                           before the application starts (exit 2, the nearest names given); one the
                           device's chip lacks is a LeftOut line of the file.

Which dispatches (-p and -O; the trace always has every call):
  -K, --kernellistfile <f> Only kernels named in the file (one per line).
  -k, --kernel-regex <re>  Only kernels whose name matches the regular expression (ECMAScript).
      --launch-skip <n>    Skip the first n dispatches that pass the name filters.
  -x, --maxkernels <n>     Profile at most n dispatches (also --launch-count).

Which processes (every mode):
      --ranks <list>       Profile only the processes whose rank is in the list (0, or 0,8,16, or 0-3): the
                           rank their launcher gave them in RANK (torchrun), OMPI_COMM_WORLD_RANK, PMI_RANK,
                           PMIX_RANK, SLURM_PROCID or MV2_COMM_WORLD_RANK, the first of these set. The others,
                           the launcher among them, run unprofiled. A few ranks of a large job cost the rest
                           nothing; ranks that share one GPU can take turns with -p, whose counters serve one
                           process at a time (the others' would be NA).

Trace (-t):
  -F, --apifilterfile <f>  APIs not to trace, one per line (e.g. clGetEventInfo). CUDA runtime functions
                           there that enqueue nothing (cudaGetLastError, ...) are not listened to at all.
  -M, --maxapicalls <n>    At most n traced calls per thread (default 1000000).
  -y, --sym                Where each API call came from: function, file and line (needs debug info;
                           addr2line from binutils), else the symbol and offset.
      --cuda-trace-all-apis
                           Also trace cuKernelGetName. The CUDA runtime calls it before every kernel
                           launch, and listening to it costs each launch two more callbacks (gpaprof's
                           part about 0.25 us on an H200, docs/benchmarks.md), so by default gpaprof
                           does not, and an application's own calls of it are not in the trace (as
                           with Nsight Systems, whose option of this name puts such calls back). Every
                           other call is traced either way.

When:
      --startdisabled      Record nothing until the application calls gpaprofResume() (see
                           include/gpa/gpaprof_markers.h: gpaprofPause/gpaprofResume/gpaprofBeginMarker).
  -d, --startdelay <ms>    Record nothing during the first <ms> milliseconds.
  -D, --profileduration <ms>  Stop recording <ms> milliseconds after recording started.

Application:
  -e, --envvar NAME=VALUE  Set an environment variable for the application (repeatable).
  -E, --envvarfile <file>  Environment variables from a file, NAME=VALUE per line.
  -f, --fullenv            The application gets only the -e/-E variables (plus gpaprof's own).
  -w, --workingdirectory <dir>  Run the application in <dir>.
      --api <opencl,cuda>  Profile only these APIs (default: every API part that is installed).

Views (from the trace; -t is turned on for them):
  -T, --summary            Also write <out>.html: one self-contained page with the API summary, kernel
                           summary, top-10 kernels and data transfers, best-practice warnings and charts.
      --perfetto           Also write <out>.json: the timeline in Chrome trace-event format; open it at
                           https://ui.perfetto.dev or chrome://tracing. (gpaprof-report makes both from
                           existing files.)

Other:
      --check <files...>   Read .csv, .atp, .occupancy and .pmsampling.csv files and report every line that
                           does not follow the layout (exit code 1 if any); nothing is run.
      --no-progress        No progress messages during long replays.
  -q, --quiet              Only errors on stderr.
      --keep-temp          Keep the spool directory (what the processes recorded) for inspection.
      --force-passes <n>   Testing aid, OpenCL only: replay every profiled OpenCL dispatch into n passes
                           (memory saved and restored around each) although its counters need one. CUDA
                           kernels take the passes their counters need (a note says so).
  -h, --help               This text.
  -v, --version            gpaprof's version.

gpaprof returns the application's exit code, or 128+N when the application was killed by signal N.
The files are complete for everything that ran even when the application crashes, aborts or never
releases its objects. When profiling cannot start (no layer library, no OpenCL layer support), gpaprof
says why and still runs the application. Files and their layouts: docs/profiler_files.md; usage: docs/gpaprof.md.
)";
}

namespace {

std::string JoinedWithAnd(const std::vector<std::string>& names) {  // "a", "a and b", "a, b and c"
    std::string text;
    for (size_t i = 0; i < names.size(); ++i) text += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
    return text;
}

}  // namespace

std::vector<std::string> OptionsWithoutEffect(const Options& options) {
    std::vector<std::string> lines;
    if (!options.counters) {
        std::vector<std::string> given;
        if (!options.counterNames.empty() || !options.counterFiles.empty()) given.push_back("--counters/-c");
        if (options.forceSinglePass) given.push_back("--singlepass");
        if (options.forcePasses > 0) given.push_back("--force-passes");
        if (!given.empty()) {
            lines.push_back(JoinedWithAnd(given) + (given.size() == 1 ? " chooses" : " choose") +
                            " what -p measures; without -p no counters are collected (add -p)");
        }
    }
    if (!options.counters && !options.occupancy) {
        std::vector<std::string> given;
        if (!options.kernelListFile.empty()) given.push_back("-K");
        if (!options.kernelRegex.empty()) given.push_back("--kernel-regex");
        if (options.launchSkip > 0) given.push_back("--launch-skip");
        if (options.launchCount) given.push_back("--launch-count");
        if (options.graphProfiling != "node") given.push_back("--graph-profiling");
        if (!given.empty()) {
            lines.push_back(JoinedWithAnd(given) + (given.size() == 1 ? " picks" : " pick") +
                            " what -p and -O profile; without either " + (given.size() == 1 ? "it has" : "they have") +
                            " no effect (the trace keeps every dispatch)");
        }
    }
    if (options.sourceSymbols && !options.trace) lines.push_back("--sym adds to the API trace; it has no effect without -t");
    return lines;
}

}  // namespace gpaprof::cli
