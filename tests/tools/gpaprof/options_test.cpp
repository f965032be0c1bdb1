// gpaprof's command line: rcprof's names, bundled short options, values attached or separate, files of
// names, and errors that say what is wrong.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

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

TEST(Options, HelpNamesEveryOption) {
    const std::string help = HelpText();
    for (const char* name : {"-t,", "-p,", "-O,", "-o,", "-N,", "-c,", "-K,", "-s,", "-F,", "-M,", "-y,", "--kernel-regex",
                             "--launch-skip", "--startdisabled", "-l,", "-e,", "%p", "%q{NAME}", "128+N", "--help",
                             "--graph-profiling <node|graph>", "GraphLaunch and GraphNode"}) {
        EXPECT_NE(help.find(name), std::string::npos) << name;
    }
}

}  // namespace
}  // namespace gpaprof::cli
