// gpaprof end to end on the OpenCL programs in apps/: the command-line options (kernel filters, launch window,
// API filter and limit, separator, environment, --sym, --startdisabled, the summary and Perfetto views), child
// processes and launchers, the control API, runs without gpaprof and runs where profiling cannot start.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "gpaprof_end_to_end_fixture.h"
#include "tools/gpaprof/files/atp_file.h"
#include "tools/gpaprof/files/csv_file.h"
#include "tools/gpaprof/files/occupancy_file.h"

namespace gpaprof {
namespace {

TEST_F(GpaprofEndToEnd, ChildProcessesGetTheirOwnFiles) {
    const Outcome run = Profile({"-p", "-o", "family_%p"}, {App("spawns_child")});
    ASSERT_EQ(run.exitCode, 0) << run.err;
    std::vector<std::string> files;
    for (const auto& entry : std::filesystem::directory_iterator(directory_)) {
        if (entry.path().extension() == ".csv") files.push_back(entry.path().filename().string());
    }
    ASSERT_EQ(files.size(), 2u) << run.err;
    std::set<std::string> kernels;
    for (const std::string& file : files) {
        EXPECT_TRUE(std::regex_match(file, std::regex(R"(family_\d+\.csv)"))) << file;
        const CsvFile csv = ReadCsv(file);
        ASSERT_EQ(csv.rows.size(), 1u);
        kernels.insert(MethodName::Parse(csv.rows[0].method)->kernel);
    }
    EXPECT_EQ(kernels, (std::set<std::string>{"parent_kernel", "child_kernel"}));

    // Without %p the application's own process keeps the name; the child's files get .<pid>.
    const Outcome again = Profile({"-p", "-o", "same"}, {App("spawns_child")});
    ASSERT_EQ(again.exitCode, 0) << again.err;
    EXPECT_EQ(MethodName::Parse(ReadCsv("same.csv").rows.at(0).method)->kernel, "parent_kernel");
    EXPECT_NE(again.err.find("same."), std::string::npos);
}

// A counter name no API offers stops gpaprof before the application starts (exit 2, the nearest name, where the
// lists are); names of any case, and NVIDIA metric names (the CUDA part checks those per chip), do not.
TEST_F(GpaprofEndToEnd, UnknownCounterNameStopsBeforeTheApplicationStarts) {
    const Outcome typo = Profile({"-p", "--counters", "GPUTim,Wavefronts", "-o", "typo"}, {"/bin/sh", "-c", "touch started"});
    EXPECT_EQ(typo.exitCode, 2) << typo.err;
    EXPECT_NE(typo.err.find("'GPUTim' (did you mean GPUTime?)"), std::string::npos) << typo.err;
    EXPECT_NE(typo.err.find("gpaprof -l"), std::string::npos) << typo.err;
    EXPECT_FALSE(std::filesystem::exists(directory_ + "/started")) << "the application ran";
    EXPECT_FALSE(std::filesystem::exists(directory_ + "/typo.csv"));

    const Outcome known = Profile({"-p", "--counters", "gputime,dram__bytes_read.sum", "-o", "known"},
                                  {"/bin/sh", "-c", "touch started"});
    EXPECT_EQ(known.exitCode, 0) << known.err;
    EXPECT_TRUE(std::filesystem::exists(directory_ + "/started")) << known.err;
}

// --ranks: of a launcher's three ranks (RANK=0..2, started at once, as torchrun does) only the listed ones are
// profiled; the others and the launcher run unprofiled and gpaprof says which. A malformed list stops gpaprof before
// the application starts; a list no process matches leaves no files, and says so.
TEST_F(GpaprofEndToEnd, RanksOptionProfilesOnlyTheListedRanks) {
    const Outcome run = Profile({"-t", "-p", "--ranks", "1", "-o", "run_%q{RANK}"}, {App("spawns_child"), "--launcher", "--ranks", "3"});
    ASSERT_EQ(run.exitCode, 0) << run.err << run.out;
    std::set<std::string> files;
    for (const auto& entry : std::filesystem::directory_iterator(directory_)) {
        if (entry.path().filename().string().rfind("run_", 0) == 0) files.insert(entry.path().filename().string());
    }
    EXPECT_EQ(files, (std::set<std::string>{"run_1.atp", "run_1.csv"})) << run.err;
    const CsvFile csv = ReadCsv("run_1.csv");
    ASSERT_EQ(csv.rows.size(), 1u);
    EXPECT_EQ(MethodName::Parse(csv.rows[0].method)->kernel, "child_kernel");
    EXPECT_NE(run.err.find("--ranks 1: 3 processes ran unprofiled (ranks 0, 2; 1 without a rank, such as the launcher)"),
              std::string::npos) << run.err;

    const Outcome several = Profile({"-p", "--ranks", "0,2", "-o", "several_%q{RANK}"}, {App("spawns_child"), "--launcher", "--ranks", "3"});
    ASSERT_EQ(several.exitCode, 0) << several.err;
    EXPECT_TRUE(std::filesystem::exists(directory_ + "/several_0.csv")) << several.err;
    EXPECT_TRUE(std::filesystem::exists(directory_ + "/several_2.csv")) << several.err;
    EXPECT_FALSE(std::filesystem::exists(directory_ + "/several_1.csv")) << several.err;

    const Outcome none = Profile({"-p", "--ranks", "7", "-o", "none_%q{RANK}"}, {App("spawns_child"), "--launcher", "--ranks", "2"});
    EXPECT_EQ(none.exitCode, 0) << none.err;
    EXPECT_NE(none.err.find("no process with a rank in --ranks 7 recorded anything: no files written"), std::string::npos) << none.err;
    EXPECT_EQ(none.err.find("no OpenCL activity"), std::string::npos) << none.err;

    const Outcome malformed = Profile({"-p", "--ranks", "1-", "-o", "bad"}, {"/bin/sh", "-c", "touch started"});
    EXPECT_EQ(malformed.exitCode, 2) << malformed.err;
    EXPECT_NE(malformed.err.find("--ranks takes ranks and ranges such as 0 or 0,8,16 or 0-3, not '1-'"), std::string::npos) << malformed.err;
    EXPECT_FALSE(std::filesystem::exists(directory_ + "/started")) << "the application ran";
}

// With the layer route alone (GPAPROF_OPENCL_INJECTION=layer, or where the preload shim is not built) on an ICD loader
// without layers, no OpenCL call can be recorded: gpaprof says so before the run, naming the loader and what to do.
// Before, the trace had 0 calls and nothing said why (NVIDIA's loader, 2026-11-29). The default route, whose shim
// reaches any loader, says nothing.
TEST_F(GpaprofEndToEnd, TheLayerRouteAloneOnALoaderWithoutLayersIsSaidBeforeTheRun) {
    const std::string loader = std::string(GPAPROF_LOADER_WITHOUT_LAYERS_DIR) + "/libOpenCL.so.1";
    const std::vector<std::string> program = {"/bin/sh", "-c", "exit 0"};
    const Outcome layerOnly = Profile({"-t", "-o", "layer_only"}, program,
                                      {{"LD_LIBRARY_PATH", GPAPROF_LOADER_WITHOUT_LAYERS_DIR},
                                       {"GPAPROF_OPENCL_INJECTION", "layer"}});
    EXPECT_EQ(layerOnly.exitCode, 0) << layerOnly.err;
    EXPECT_NE(layerOnly.err.find("OpenCL calls will not be recorded: the ICD loader " + loader), std::string::npos)
        << layerOnly.err;
    EXPECT_NE(layerOnly.err.find("GPAPROF_OPENCL_INJECTION=layer turns gpaprof's other route off (unset it)"),
              std::string::npos)
        << layerOnly.err;
    EXPECT_LT(layerOnly.err.find("will not be recorded"), layerOnly.err.find("the application exited"))
        << "said before the run: " << layerOnly.err;

    const std::filesystem::path preload =
        std::filesystem::path(GPAPROF_EXECUTABLE).parent_path().parent_path() / "lib" / "libgpaprof_opencl_preload.so";
    if (!std::filesystem::exists(preload)) GTEST_SKIP() << "the preload shim is not built here (" << preload << ")";
    const Outcome both = Profile({"-t", "-o", "both_routes"}, program, {{"LD_LIBRARY_PATH", GPAPROF_LOADER_WITHOUT_LAYERS_DIR}});
    EXPECT_EQ(both.exitCode, 0) << both.err;
    EXPECT_EQ(both.err.find("will not be recorded"), std::string::npos) << "the shim reaches this loader: " << both.err;
}

// A launcher that dispatches nothing itself (torchrun, mpirun) gets no files when other processes did the
// work; gpaprof says so. Traced, its calls are recorded, and it gets its files.
TEST_F(GpaprofEndToEnd, LauncherWithoutDispatchesGetsNoFiles) {
    const Outcome run = Profile({"-p", "-o", "launched_%p"}, {App("spawns_child"), "--launcher"});
    ASSERT_EQ(run.exitCode, 0) << run.err;
    std::vector<std::string> files;
    for (const auto& entry : std::filesystem::directory_iterator(directory_)) {
        if (entry.path().extension() == ".csv" || entry.path().extension() == ".atp") files.push_back(entry.path().filename().string());
    }
    ASSERT_EQ(files.size(), 1u) << run.err;
    EXPECT_EQ(MethodName::Parse(ReadCsv(files[0]).rows.at(0).method)->kernel, "child_kernel");
    EXPECT_NE(run.err.find("made no profiled API call: no files written for it"), std::string::npos) << run.err;

    const Outcome traced = Profile({"-t", "-o", "traced_%p"}, {App("spawns_child"), "--launcher"});
    ASSERT_EQ(traced.exitCode, 0) << traced.err;
    size_t atps = 0;
    for (const auto& entry : std::filesystem::directory_iterator(directory_)) {
        atps += entry.path().filename().string().rfind("traced_", 0) == 0 && entry.path().extension() == ".atp";
    }
    EXPECT_EQ(atps, 2u) << traced.err;
}

// Under -t -p -O the launcher's own calls are traced: it gets its .atp, but no empty .csv or .occupancy next to
// the files of the process that dispatched (gpaprof says so); that process gets all three.
TEST_F(GpaprofEndToEnd, LauncherThatDispatchedNothingGetsNoEmptyCounterFiles) {
    const Outcome run = Profile({"-t", "-p", "-O", "-o", "run_%p"}, {App("spawns_child"), "--launcher"});
    ASSERT_EQ(run.exitCode, 0) << run.err;
    std::smatch pids;
    ASSERT_TRUE(std::regex_search(run.out, pids, std::regex(R"(parent (\d+), child (\d+))"))) << run.out;
    const std::string launcher = "run_" + pids[1].str();
    const std::string child = "run_" + pids[2].str();
    std::set<std::string> files;
    for (const auto& entry : std::filesystem::directory_iterator(directory_)) {
        if (entry.path().filename().string().rfind("run_", 0) == 0) files.insert(entry.path().filename().string());
    }
    EXPECT_EQ(files, (std::set<std::string>{launcher + ".atp", child + ".atp", child + ".csv", child + ".occupancy"}))
        << run.err;
    ASSERT_EQ(ReadCsv(child + ".csv").rows.size(), 1u);
    EXPECT_EQ(MethodName::Parse(ReadCsv(child + ".csv").rows[0].method)->kernel, "child_kernel");
    EXPECT_EQ(ReadOccupancy(child + ".occupancy").rows.size(), 1u);
    const AtpFile atp = ReadAtp(launcher + ".atp");
    ASSERT_FALSE(atp.parts.empty());
    size_t calls = 0;
    for (const auto& thread : atp.parts[0].threads) calls += thread.entries.size();
    EXPECT_GE(calls, 1u) << "the launcher's clGetPlatformIDs is traced";
    EXPECT_NE(run.err.find("process " + pids[1].str() + " (spawns_child) profiled no dispatch: no .csv or .occupancy "
                           "written for it (its API calls are in its .atp)"),
              std::string::npos)
        << run.err;
    EXPECT_EQ(run.err.find("process " + pids[2].str() + " (spawns_child) profiled no dispatch"), std::string::npos) << run.err;

    // The only process keeps its files, empty ones too: a run that dispatched nothing says so in a .csv of 0 rows.
    const Outcome alone = Profile({"-t", "-p", "-O", "-o", "alone"}, {App("spawns_child"), "--probe"});
    ASSERT_EQ(alone.exitCode, 0) << alone.err;
    EXPECT_TRUE(std::filesystem::exists(Path("alone.csv"))) << alone.err;
    EXPECT_EQ(ReadCsv("alone.csv").rows.size(), 0u);
    EXPECT_TRUE(std::filesystem::exists(Path("alone.occupancy"))) << alone.err;
}

TEST_F(GpaprofEndToEnd, KernelFiltersAndLaunchWindow) {
    const Outcome filtered = Profile({"-p", "-O", "-k", "^(scale_in_place|count_items)$", "-o", "filtered"},
                                     {App("multi_kernel_threads"), "--threads", "1", "--iterations", "2"});
    ASSERT_EQ(filtered.exitCode, 0) << filtered.err;
    const CsvFile csv = ReadCsv("filtered.csv");
    ASSERT_EQ(csv.rows.size(), 4u);
    std::vector<uint64_t> orders;
    for (const DispatchRow& row : csv.rows) {
        const std::string kernel = MethodName::Parse(row.method)->kernel;
        EXPECT_TRUE(kernel == "scale_in_place" || kernel == "count_items") << kernel;
        orders.push_back(row.executionOrder);
    }
    // ExecutionOrder counts every dispatch of the program: the filtered-out ones leave gaps.
    EXPECT_EQ(orders, (std::vector<uint64_t>{2, 5, 7, 10}));
    EXPECT_EQ(ReadOccupancy("filtered.occupancy").rows.size(), 4u);

    const Outcome window = Profile({"-p", "--launch-skip", "2", "-x", "3", "-o", "window"},
                                   {App("multi_kernel_threads"), "--threads", "1", "--iterations", "2"});
    ASSERT_EQ(window.exitCode, 0) << window.err;
    const CsvFile windowed = ReadCsv("window.csv");
    ASSERT_EQ(windowed.rows.size(), 3u);
    EXPECT_EQ(windowed.rows[0].executionOrder, 3u);
    EXPECT_EQ(windowed.rows[2].executionOrder, 5u);
    ASSERT_TRUE(windowed.maxKernelsToProfile.has_value());
    EXPECT_EQ(*windowed.maxKernelsToProfile, 3u);

    std::ofstream(Path("kernels.txt")) << "# kernels to profile\nfill_2d\n";
    const Outcome listed = Profile({"-p", "-K", Path("kernels.txt"), "-o", "listed"},
                                   {App("multi_kernel_threads"), "--threads", "1", "--iterations", "1"});
    ASSERT_EQ(listed.exitCode, 0) << listed.err;
    const CsvFile only = ReadCsv("listed.csv");
    ASSERT_EQ(only.rows.size(), 1u);
    ASSERT_TRUE(only.kernelsProfiled.has_value());
    EXPECT_EQ(*only.kernelsProfiled, std::vector<std::string>{"fill_2d"});
}

TEST_F(GpaprofEndToEnd, TraceOptionsFilterLimitSeparatorEnvironmentAndSymbols) {
    std::ofstream(Path("filter.txt")) << "clSetKernelArg\nclGetPlatformIDs\n";
    const Outcome run = Profile({"-t", "-p", "-O", "-y", "-F", Path("filter.txt"), "-s", ";", "-e", "GPAPROF_TEST_VARIABLE=42",
                                 "-N", "named", "-o", "options_%q{GPAPROF_TEST_VARIABLE}"},
                                {App("multi_kernel_threads"), "--threads", "1", "--iterations", "1"});
    ASSERT_EQ(run.exitCode, 0) << run.err;
    const AtpFile atp = ReadAtp("options_42.atp");
    ExpectWellFormedTrace(atp, true);
    EXPECT_EQ(atp.parts[0].excludedApis, (std::vector<std::string>{"clSetKernelArg", "clGetPlatformIDs"}));
    EXPECT_EQ(atp.session.displayName, "named");
    ASSERT_TRUE(atp.session.fullEnvironment.has_value());
    EXPECT_FALSE(*atp.session.fullEnvironment);
    EXPECT_EQ(atp.session.environment, (std::vector<EnvironmentVariable>{{"GPAPROF_TEST_VARIABLE", "42"}}));
    size_t calls = 0;
    for (const auto& block : atp.parts[0].threads) {
        for (const ApiCall& call : block.entries) {
            EXPECT_NE(call.name, "clSetKernelArg");
            EXPECT_NE(call.name, "clGetPlatformIDs");
            ++calls;
        }
    }
    EXPECT_GT(calls, 10u);
    // --sym: one source line per API line, pointing into the test program (built with debug information).
    const ApiTracePart& ocl = atp.parts[0];
    ASSERT_EQ(ocl.sourceThreads.size(), ocl.threads.size());
    bool sawSourceFile = false;
    for (size_t t = 0; t < ocl.threads.size(); ++t) {
        ASSERT_EQ(ocl.sourceThreads[t].entries.size(), ocl.threads[t].entries.size());
        for (size_t i = 0; i < ocl.threads[t].entries.size(); ++i) {
            const SourceLocation& location = ocl.sourceThreads[t].entries[i];
            EXPECT_EQ(location.apiName, ocl.threads[t].entries[i].name);
            EXPECT_FALSE(location.symbol.empty());
            if (location.line && location.file.find("multi_kernel_threads.c") != std::string::npos) sawSourceFile = true;
        }
    }
    EXPECT_TRUE(sawSourceFile) << "no API call was located in multi_kernel_threads.c";

    const CsvFile csv = ReadCsv("options_42.csv");
    EXPECT_EQ(csv.session.listSeparator, ';');
    EXPECT_EQ(csv.rows.size(), 5u);
    EXPECT_NE(ReadAll(Path("options_42.csv")).find("Method; ExecutionOrder; ThreadID"), std::string::npos);
    const OccupancyFile occupancy = ReadOccupancy("options_42.occupancy");
    EXPECT_EQ(occupancy.session.listSeparator, ';');
    EXPECT_NE(ReadAll(Path("options_42.occupancy")).find("Thread ID;Kernel Name;Device Name"), std::string::npos);

    // gpaprof --check reads them strictly.
    const Outcome check = Execute({GPAPROF_EXECUTABLE, "--check", Path("options_42.csv"), Path("options_42.atp"),
                                   Path("options_42.occupancy")},
                                  directory_);
    EXPECT_EQ(check.exitCode, 0) << check.out << check.err;
    EXPECT_NE(check.out.find("options_42.atp: OK ("), std::string::npos) << check.out;
    std::ofstream(Path("broken.csv")) << "#ProfileFileVersion=3.0\nMethod, ExecutionOrder\nk, x\n";
    const Outcome broken = Execute({GPAPROF_EXECUTABLE, "--check", Path("broken.csv")}, directory_);
    EXPECT_EQ(broken.exitCode, 1);
    EXPECT_NE(broken.out.find("line 3"), std::string::npos) << broken.out;

    const Outcome limited = Profile({"-t", "-M", "5", "-o", "limited"},
                                    {App("multi_kernel_threads"), "--threads", "2", "--iterations", "1"});
    ASSERT_EQ(limited.exitCode, 0) << limited.err;
    const AtpFile few = ReadAtp("limited.atp");
    for (const auto& block : few.parts[0].threads) EXPECT_LE(block.entries.size(), 5u);
}

TEST_F(GpaprofEndToEnd, StartDisabledRecordsNothingUntilResumed) {
    const Outcome run = Profile({"-t", "-p", "--startdisabled", "-o", "disabled"}, {App("queue_without_profiling")});
    ASSERT_EQ(run.exitCode, 0) << run.err;
    EXPECT_TRUE(ReadCsv("disabled.csv").rows.empty());
    const AtpFile atp = ReadAtp("disabled.atp");
    for (const auto& part : atp.parts) EXPECT_TRUE(part.threads.empty());
}

TEST_F(GpaprofEndToEnd, ControlApiResumesWhatStartedDisabled) {
    const Outcome run = Profile({"-t", "-p", "--startdisabled", "-o", "resumed"},
                                {App("multi_kernel_threads"), "--threads", "2", "--iterations", "1", "--resume"});
    ASSERT_EQ(run.exitCode, 0) << run.err;
    EXPECT_NE(run.out.find("profiling after resume: 1"), std::string::npos) << run.out;
    EXPECT_EQ(ReadCsv("resumed.csv").rows.size(), 10u);  // every dispatch ran after the resume
    const AtpFile atp = ReadAtp("resumed.atp");
    ASSERT_EQ(atp.parts[0].threads.size(), 3u);
    // The main thread's setup (platform, context, program) was not recorded; what it did after was.
    const ThreadBlock<ApiCall>& main = atp.parts[0].threads.back();
    for (const ApiCall& call : main.entries) {
        EXPECT_TRUE(call.name == "clReleaseProgram" || call.name == "clReleaseContext") << call.name;
    }
    // Markers only while recording: the setup marker is gone, the workers' are there.
    for (const auto& block : atp.markerThreads) {
        for (const PerfMarker& marker : block.entries) EXPECT_NE(marker.name, "setup");
    }
}

TEST_F(GpaprofEndToEnd, ApplicationsRunUnchangedWithoutGpaprofAndCountersAreListed) {
    // The marker and control calls do nothing without gpaprof.
    const Outcome alone = Execute({App("multi_kernel_threads"), "--threads", "2", "--iterations", "1", "--resume"}, directory_);
    EXPECT_EQ(alone.exitCode, 0) << alone.err;
    EXPECT_NE(alone.out.find("profiling after resume: 0"), std::string::npos) << alone.out;

    const Outcome list = Execute({GPAPROF_EXECUTABLE, "-l"}, directory_);
    EXPECT_EQ(list.exitCode, 0) << list.err;
    EXPECT_NE(list.out.find("OpenCL device "), std::string::npos) << list.out;
    EXPECT_NE(list.out.find("GPUTime"), std::string::npos) << list.out;
}

TEST_F(GpaprofEndToEnd, ProfilingThatCannotStartStillRunsTheApplication) {
    const Outcome run = Profile({"-t", "-o", "nolayer"}, {App("queue_without_profiling")}, {{"GPAPROF_LIB_DIR", "/nonexistent"}});
    EXPECT_EQ(run.exitCode, 0) << run.err;
    EXPECT_NE(run.err.find("cannot profile"), std::string::npos) << run.err;
    EXPECT_NE(run.out.find("queue_without_profiling: OK"), std::string::npos);
    EXPECT_FALSE(std::filesystem::exists(Path("nolayer.atp")));

    const Outcome missing = Profile({"-t"}, {Path("no-such-program")});
    EXPECT_EQ(missing.exitCode, 127);
    EXPECT_NE(missing.err.find("does not exist"), std::string::npos) << missing.err;
}

TEST_F(GpaprofEndToEnd, SummaryAndPerfettoViewsComeFromTheTraceOfTheSameRun) {
    // -T and --perfetto turn the trace on by themselves and write <out>.html and <out>.json next to it.
    const Outcome run = Profile({"-T", "--perfetto", "-p", "-o", "views"},
                                {App("multi_kernel_threads"), "--threads", "2", "--iterations", "2"});
    ASSERT_EQ(run.exitCode, 0) << run.err;
    EXPECT_NE(run.err.find("tracing the API too"), std::string::npos) << run.err;
    const AtpFile atp = ReadAtp("views.atp");
    ASSERT_FALSE(atp.parts.empty());
    const std::string html = ReadAll(Path("views.html"));
    EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u) << html.substr(0, 80);
    // The report's kernel table names the kernels the trace dispatched.
    std::set<std::string> kernels;
    for (const auto& block : atp.parts[0].threads) {
        for (const ApiCall& call : block.entries) {
            if (call.kernel) kernels.insert(call.kernel->kernelName);
        }
    }
    ASSERT_FALSE(kernels.empty());
    for (const std::string& kernel : kernels) EXPECT_NE(html.find(kernel), std::string::npos) << kernel;
    const std::string json = ReadAll(Path("views.json"));
    EXPECT_NE(json.find("\"traceEvents\""), std::string::npos);
    for (const std::string& kernel : kernels) EXPECT_NE(json.find(kernel), std::string::npos) << kernel;
}

}  // namespace
}  // namespace gpaprof
