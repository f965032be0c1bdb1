// gpaprof's command line: rcprof's names, bundled short options, values attached or separate, files of
// names, and errors that say what is wrong.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include "pm_sampling/metric_sets.h"
#include "tools/gpaprof/cli/options.h"

namespace gpaprof::cli {
namespace {

bool Parse(std::vector<std::string> args, Options* options, std::string* error) {
    args.insert(args.begin(), "gpaprof");
    std::vector<char*> argv;
    for (std::string& arg : args) argv.push_back(arg.data());
    return ParseOptions(static_cast<int>(argv.size()), argv.data(), options, error);
}

TEST(Options, RcprofNamesAndTheApplication) {
    Options options;
    std::string error;
    ASSERT_TRUE(Parse({"-t", "-p", "-O", "-o", "out", "-N", "name", "-s", ";", "-M", "10", "-y", "--", "./app", "-t", "x"},
                      &options, &error))
        << error;
    EXPECT_TRUE(options.trace && options.counters && options.occupancy && options.sourceSymbols);
    EXPECT_EQ(options.output, "out");
    EXPECT_EQ(options.sessionName, "name");
    EXPECT_EQ(options.separator, ';');
    EXPECT_EQ(options.maxApiCalls, 10u);
    EXPECT_EQ(options.command, (std::vector<std::string>{"./app", "-t", "x"}));
    EXPECT_FALSE(options.cudaTraceAllApis) << "cuKernelGetName is left out unless asked for";
    Options all;
    ASSERT_TRUE(Parse({"-t", "--cuda-trace-all-apis", "./app"}, &all, &error)) << error;
    EXPECT_TRUE(all.cudaTraceAllApis);
}

TEST(Options, BundledAttachedLongFormsAndCommandWithoutDashes) {
    Options options;
    std::string error;
    ASSERT_TRUE(Parse({"-tpO", "-oresult", "--launch-skip=2", "--maxkernels", "5", "--kernel-regex", "^k", "--counters",
                       "GPUTime, Other", "--startdisabled", "-d", "100", "-D", "200", "-e", "A=1", "--api", "opencl",
                       "app", "arg"},
                      &options, &error))
        << error;
    EXPECT_TRUE(options.trace && options.counters && options.occupancy);
    EXPECT_EQ(options.output, "result");
    EXPECT_EQ(options.launchSkip, 2u);
    EXPECT_EQ(options.launchCount, 5u);
    EXPECT_EQ(options.kernelRegex, "^k");
    EXPECT_EQ(options.counterNames, (std::vector<std::string>{"GPUTime", "Other"}));
    EXPECT_TRUE(options.startDisabled);
    EXPECT_EQ(options.startDelayMs, 100u);
    EXPECT_EQ(options.durationMs, 200u);
    EXPECT_EQ(options.environment, std::vector<std::string>{"A=1"});
    EXPECT_EQ(options.apis, std::vector<std::string>{"opencl"});
    EXPECT_EQ(options.command, (std::vector<std::string>{"app", "arg"}));
}

TEST(Options, FilesOfNames) {
    const std::string counters = testing::TempDir() + "/gpaprof_counters.txt";
    const std::string kernels = testing::TempDir() + "/gpaprof_kernels.txt";
    const std::string environment = testing::TempDir() + "/gpaprof_env.txt";
    std::ofstream(counters) << "# the counters\nGPUTime\nOther, Third\n";
    std::ofstream(kernels) << "k1\n\nk2 # second\n";
    std::ofstream(environment) << "# comment\nA=1\nB=two words\n";
    Options options;
    std::string error;
    ASSERT_TRUE(Parse({"-p", "-c", counters, "-K", kernels, "-E", environment, "--", "app"}, &options, &error)) << error;
    EXPECT_EQ(options.counterNames, (std::vector<std::string>{"GPUTime", "Other", "Third"}));
    EXPECT_EQ(options.kernels, (std::vector<std::string>{"k1", "k2"}));
    EXPECT_EQ(options.environment, (std::vector<std::string>{"A=1", "B=two words"}));
    std::remove(counters.c_str());
    std::remove(kernels.c_str());
    std::remove(environment.c_str());
}

TEST(Options, ErrorsSayWhatIsWrong) {
    Options options;
    std::string error;
    EXPECT_FALSE(Parse({"--nonsense"}, &options, &error));
    EXPECT_NE(error.find("--nonsense"), std::string::npos);
    EXPECT_FALSE(Parse({"-o"}, &options, &error));
    EXPECT_NE(error.find("needs a value"), std::string::npos);
    EXPECT_FALSE(Parse({"-M", "many"}, &options, &error));
    EXPECT_NE(error.find("number"), std::string::npos);
    EXPECT_FALSE(Parse({"-s", ",,"}, &options, &error));
    EXPECT_FALSE(Parse({"-e", "NOEQUALS"}, &options, &error));
    EXPECT_FALSE(Parse({"-c", "/nonexistent/counters.txt"}, &options, &error));
    EXPECT_NE(error.find("cannot read"), std::string::npos);
    EXPECT_FALSE(Parse({"--api", "vulkan"}, &options, &error));
    EXPECT_FALSE(Parse({"-t=1"}, &options, &error));
    EXPECT_FALSE(Parse({"--apitrace=1"}, &options, &error));
    EXPECT_NE(error.find("takes no value"), std::string::npos);
    EXPECT_FALSE(Parse({"--force-passes", "0"}, &options, &error));
    EXPECT_FALSE(Parse({"-k", "fill(["}, &options, &error)) << "a kernel filter that does not compile";
    EXPECT_NE(error.find("--kernel-regex 'fill(['"), std::string::npos) << error;
    EXPECT_FALSE(Parse({"--ranks", "0,x", "app"}, &options, &error)) << "refused before the application starts";
    EXPECT_NE(error.find("--ranks takes ranks and ranges"), std::string::npos) << error;
    ASSERT_TRUE(Parse({"-p", "--ranks", "0,4-7", "app"}, &options, &error)) << error;
    EXPECT_EQ(options.ranks, "0,4-7");
    EXPECT_FALSE(Parse({"--launch-skip", "-3"}, &options, &error));
    EXPECT_NE(error.find("non-negative number"), std::string::npos) << error;
    for (const char* malformed : {"5x", "", "1e3", "99999999999999999999999", "0x10", " 7"}) {
        EXPECT_FALSE(Parse({"--launch-count", malformed}, &options, &error)) << malformed;
        EXPECT_NE(error.find("--launch-count needs a non-negative number"), std::string::npos) << error;
        EXPECT_FALSE(Parse({"--launch-skip", malformed}, &options, &error)) << malformed;
    }
}

// ncu's option: node (the default) or graph, nothing else.
TEST(Options, GraphProfilingTakesNodeOrGraph) {
    Options options;
    std::string error;
    ASSERT_TRUE(Parse({"-p", "app"}, &options, &error)) << error;
    EXPECT_EQ(options.graphProfiling, "node");
    ASSERT_TRUE(Parse({"-p", "--graph-profiling", "graph", "app"}, &options, &error)) << error;
    EXPECT_EQ(options.graphProfiling, "graph");
    ASSERT_TRUE(Parse({"--graph-profiling=node", "app"}, &options, &error)) << error;
    EXPECT_EQ(options.graphProfiling, "node");
    for (const char* bad : {"Graph", "nodes", "", "range"}) {
        Options rejected;
        EXPECT_FALSE(Parse({"--graph-profiling", bad, "app"}, &rejected, &error)) << bad;
        EXPECT_NE(error.find("--graph-profiling"), std::string::npos) << error;
        EXPECT_NE(error.find("node or graph"), std::string::npos) << error;
        EXPECT_NE(error.find(std::string("'") + bad + "'"), std::string::npos) << error;
    }
    EXPECT_FALSE(Parse({"--graph-profiling"}, &options, &error));
    EXPECT_NE(error.find("needs a value"), std::string::npos);
}

// --pm-sampling[=INTERVAL]: 100us unless given; a unit of ns, us or ms, or a bare number of nanoseconds (ncu's and
// CUPTI's interval); a whole number of nanoseconds, at least 1us.
TEST(Options, PmSamplingIntervalForms) {
    std::string error;
    Options off;
    ASSERT_TRUE(Parse({"-t", "app"}, &off, &error)) << error;
    EXPECT_EQ(off.pmSamplingIntervalNs, 0u);
    EXPECT_TRUE(off.pmMetrics.empty());
    const std::vector<std::pair<std::string, uint64_t>> accepted = {
        {"--pm-sampling", 100000},           {"--pm-sampling=100us", 100000}, {"--pm-sampling=0.5ms", 500000},
        {"--pm-sampling=20000ns", 20000},    {"--pm-sampling=20000", 20000},  {"--pm-sampling=20us", 20000},
        {"--pm-sampling=20.5us", 20500},     {"--pm-sampling=0.02ms", 20000}, {"--pm-sampling=2ms", 2000000},
        {"--pm-sampling=0070us", 70000},     {"--pm-sampling=1.000001ms", 1000001},
        {"--pm-sampling=18446744073709551615", UINT64_MAX}};
    for (const auto& [option, ns] : accepted) {
        Options options;
        ASSERT_TRUE(Parse({option, "app", "--pm-sampling=5"}, &options, &error)) << option << ": " << error;
        EXPECT_EQ(options.pmSamplingIntervalNs, ns) << option;
        EXPECT_EQ(options.command, (std::vector<std::string>{"app", "--pm-sampling=5"})) << option;
        EXPECT_FALSE(options.trace || options.counters || options.occupancy) << "PM sampling is a mode of its own";
    }
    for (const char* malformed : {"", "us", "100 us", " 100us", "100US", "100s", "1e5", "-100us", "+100", "0x100",
                                  ".5ms", "5.ms", "1.5ns", "0.0000001ms", "1.2.3us", "100usec", "100µs",
                                  "99999999999999999999ms", "18446744073709551616"}) {
        Options options;
        EXPECT_FALSE(Parse({std::string("--pm-sampling=") + malformed, "app"}, &options, &error)) << malformed;
        EXPECT_NE(error.find("100us, 0.5ms, 20000ns or 20000"), std::string::npos) << error;
        EXPECT_NE(error.find(std::string("'") + malformed + "'"), std::string::npos) << error;
    }
    for (const char* tooShort : {"0", "1000", "19999", "19999ns", "19.999us", "10us", "0us", "0.0005ms"}) {
        Options options;
        EXPECT_FALSE(Parse({std::string("--pm-sampling=") + tooShort, "app"}, &options, &error)) << tooShort;
        EXPECT_NE(error.find("at least 20000 ns"), std::string::npos) << error;
        EXPECT_NE(error.find("docs/pm_sampling.md"), std::string::npos) << error;
    }
    // Not with -p: the range profiler needs the hardware the sampler holds.
    for (const std::vector<std::string>& both : {std::vector<std::string>{"-p", "--pm-sampling", "app"},
                                                 std::vector<std::string>{"--pm-metrics", "dram__bytes_read.sum", "-p", "app"},
                                                 std::vector<std::string>{"-t", "-p", "-O", "--pm-sampling=1ms", "app"}}) {
        Options options;
        EXPECT_FALSE(Parse(both, &options, &error)) << both[0];
        EXPECT_NE(error.find("-p and --pm-sampling cannot share a run"), std::string::npos) << error;
        EXPECT_NE(error.find("CUPTI_ERROR_HARDWARE_BUSY"), std::string::npos) << error;
    }
    Options beside;
    ASSERT_TRUE(Parse({"-t", "-O", "--pm-sampling", "app"}, &beside, &error)) << error;
    // The value is only ever after '=': a separate interval would be taken for the application.
    Options separate;
    EXPECT_FALSE(Parse({"--pm-sampling", "50us", "app"}, &separate, &error));
    EXPECT_NE(error.find("--pm-sampling=50us"), std::string::npos) << error;
    Options last;
    ASSERT_TRUE(Parse({"--pm-sampling=50us", "--pm-sampling", "app"}, &last, &error)) << error;
    EXPECT_EQ(last.pmSamplingIntervalNs, 100000u) << "the last one given, as for every option";
    Options alone;
    ASSERT_TRUE(Parse({"--pm-sampling", "--", "./app"}, &alone, &error)) << error;
    EXPECT_EQ(alone.command, std::vector<std::string>{"./app"});
}

// --pm-metrics: names in order, each once, split on commas; it turns PM sampling on at the default interval unless
// --pm-sampling gives one (before or after it).
TEST(Options, PmMetricsNamesAndTheirInterval) {
    std::string error;
    Options options;
    ASSERT_TRUE(Parse({"--pm-metrics", "dram__bytes_read.sum, lts__t_bytes.sum", "--pm-metrics=dram__bytes_read.sum,,x__y.sum",
                       "app"},
                      &options, &error))
        << error;
    EXPECT_EQ(options.pmMetrics, (std::vector<std::string>{"dram__bytes_read.sum", "lts__t_bytes.sum", "x__y.sum"}));
    EXPECT_EQ(options.pmSamplingIntervalNs, 100000u);
    for (const std::vector<std::string>& args : {std::vector<std::string>{"--pm-sampling=20us", "--pm-metrics", "a__b.sum", "app"},
                                                 std::vector<std::string>{"--pm-metrics", "a__b.sum", "--pm-sampling=20us", "app"}}) {
        Options both;
        ASSERT_TRUE(Parse(args, &both, &error)) << error;
        EXPECT_EQ(both.pmSamplingIntervalNs, 20000u);
        EXPECT_EQ(both.pmMetrics, std::vector<std::string>{"a__b.sum"});
    }
    for (const char* empty : {"", ",", " , "}) {
        Options refused;
        EXPECT_FALSE(Parse({"--pm-metrics", empty, "app"}, &refused, &error)) << empty;
        EXPECT_NE(error.find("--pm-metrics needs metric names"), std::string::npos) << error;
    }
    for (const char* bad : {"dram__bytes read.sum", "a__b.sum,'c'", "x\"y"}) {
        Options refused;
        EXPECT_FALSE(Parse({"--pm-metrics", bad, "app"}, &refused, &error)) << bad;
        EXPECT_NE(error.find("is no metric name"), std::string::npos) << error;
    }
    Options missing;
    EXPECT_FALSE(Parse({"--pm-metrics"}, &missing, &error));
    EXPECT_NE(error.find("needs a value"), std::string::npos) << error;
}

// Set names stand for their metrics in order, each metric once however often named; a name that is neither a metric
// (no "__") nor a set is refused, naming the sets.
TEST(Options, PmMetricsSetsByName) {
    std::string error;
    Options options;
    ASSERT_TRUE(Parse({"--pm-metrics", "sm-throughput,default,dram__bytes_read.sum,sm-throughput", "app"}, &options, &error))
        << error;
    std::vector<std::string> expected = gpa::pm_sampling::SmThroughputMetrics();
    expected.insert(expected.end(), gpa::pm_sampling::DefaultMetrics().begin(), gpa::pm_sampling::DefaultMetrics().end());
    EXPECT_EQ(options.pmMetrics, expected);
    EXPECT_EQ(options.pmSamplingIntervalNs, 100000u);
    EXPECT_EQ(expected.front(), "TriageCompute.sm__throughput.avg.pct_of_peak_sustained_elapsed");
    for (const char* bad : {"sm_throughput", "defaults", "abc.sum"}) {
        Options refused;
        EXPECT_FALSE(Parse({"--pm-metrics", bad, "app"}, &refused, &error)) << bad;
        EXPECT_NE(error.find("'" + std::string(bad) + "' is neither a metric name"), std::string::npos) << error;
        EXPECT_NE(error.find("(default, sm-throughput)"), std::string::npos) << error;
    }
}

// Options the modes leave without effect are named, not silently ignored (each run prints these lines).
TEST(Options, OptionsTheModesLeaveWithoutEffectAreNamed) {
    std::string error;
    Options traced;
    ASSERT_TRUE(Parse({"-t", "--counters", "Wavefronts", "--singlepass", "--kernel-regex", "sax", "--launch-count", "3",
                       "-y", "app"},
                      &traced, &error))
        << error;
    EXPECT_EQ(OptionsWithoutEffect(traced),
              (std::vector<std::string>{
                  "--counters/-c and --singlepass choose what -p measures; without -p no counters are collected (add -p)",
                  "--kernel-regex and --launch-count pick what -p and -O profile; without either they have no effect "
                  "(the trace keeps every dispatch)"}));
    Options occupancy;  // -O: a kernel filter counts, --force-passes does not; --sym without -t
    ASSERT_TRUE(Parse({"-O", "--force-passes", "2", "--launch-skip", "5", "--graph-profiling", "graph", "-y", "app"},
                      &occupancy, &error))
        << error;
    EXPECT_EQ(OptionsWithoutEffect(occupancy),
              (std::vector<std::string>{
                  "--force-passes chooses what -p measures; without -p no counters are collected (add -p)",
                  "--sym adds to the API trace; it has no effect without -t"}));
    Options graph;
    ASSERT_TRUE(Parse({"-t", "--graph-profiling", "graph", "app"}, &graph, &error)) << error;
    EXPECT_EQ(OptionsWithoutEffect(graph),
              (std::vector<std::string>{"--graph-profiling picks what -p and -O profile; without either it has no effect "
                                        "(the trace keeps every dispatch)"}));
    for (const std::vector<std::string>& args : {std::vector<std::string>{"-t", "-p", "--counters", "Wavefronts", "-k", "a",
                                                                          "--singlepass", "-y", "app"},
                                                 std::vector<std::string>{"-t", "app"}}) {
        Options used;
        ASSERT_TRUE(Parse(args, &used, &error)) << error;
        EXPECT_TRUE(OptionsWithoutEffect(used).empty()) << args.front();
    }
}

TEST(Options, HelpNamesEveryOption) {
    const std::string help = HelpText();
    for (const char* name : {"-t,", "-p,", "-O,", "-o,", "-N,", "-c,", "-K,", "-s,", "-F,", "-M,", "-y,", "--kernel-regex",
                             "--launch-skip", "--startdisabled", "-l,", "-e,", "%p", "%q{NAME}", "128+N", "--help",
                             "--graph-profiling <node|graph>", "GraphLaunch and GraphNode", "--pm-sampling[=INTERVAL]",
                             "--pm-metrics <a,b,...>", "<out>.pmsampling.csv", "Device-wide", "One pass", "Cost:",
                             "--ranks <list>", "OMPI_COMM_WORLD_RANK"}) {
        EXPECT_NE(help.find(name), std::string::npos) << name;
    }
}

}  // namespace
}  // namespace gpaprof::cli
