// gpaprof end to end: runs `gpaprof <options> -- <program>` on the OpenCL programs in apps/, reads the files
// back with gpaprof's readers in strict mode (every line must be exactly what the layout writes) and checks
// them field by field: headers, columns, every row, every API line, timestamps, markers, occupancy; both ways
// into a program, replay, crashes. Options, child processes, control: end_to_end_options_test.cpp.
// Skips with the reason when the machine has no OpenCL device.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include <dlfcn.h>

#include "gpaprof_end_to_end_fixture.h"
#include "tools/gpaprof/files/atp_file.h"
#include "tools/gpaprof/files/csv_file.h"
#include "tools/gpaprof/files/occupancy_file.h"
#include "tools/gpaprof/files/opencl_api_types.h"

namespace gpaprof {
namespace {

// ---- checks shared by the tests

// The file of the libOpenCL.so.1 this process (and the test programs) load.
std::string OpenClLoader() {
    void* library = dlopen("libOpenCL.so.1", RTLD_LAZY | RTLD_LOCAL);
    Dl_info info;
    if (!library || !dladdr(dlsym(library, "clGetPlatformIDs"), &info) || !info.dli_fname) return {};
    return info.dli_fname;
}

bool FileContains(const std::string& path, const std::string& text) {
    const std::string bytes = ReadAll(path);
    return bytes.find(text) != std::string::npos;
}

void ExpectSessionHeader(const SessionInfo& session, const std::string& application, const std::string& args,
                         const std::string& directory) {
    EXPECT_TRUE(std::regex_match(session.profilerVersion, std::regex(R"(\d+\.\d+\.\d+)"))) << session.profilerVersion;
    EXPECT_EQ(session.application.substr(session.application.rfind('/') + 1), application);
    EXPECT_EQ(session.applicationArgs, args);
    EXPECT_EQ(std::filesystem::canonical(session.workingDirectory), std::filesystem::canonical(directory));
    ASSERT_FALSE(session.devices.empty());
    for (const DeviceHeader& device : session.devices) {
        EXPECT_FALSE(device.name.empty());
        EXPECT_FALSE(device.platformVendor.empty());
        EXPECT_FALSE(device.platformName.empty());
        EXPECT_EQ(device.platformVersion.rfind("OpenCL ", 0), 0u) << device.platformVersion;
        EXPECT_FALSE(device.driverVersion.empty());
        EXPECT_EQ(device.runtimeVersion.rfind("OpenCL ", 0), 0u) << device.runtimeVersion;
        EXPECT_EQ(device.appAddressBits, sizeof(void*) * 8);
    }
    EXPECT_NE(session.osVersion.find(" Build "), std::string::npos) << session.osVersion;
}

const ThreadBlock<ApiCall>* ThreadCalls(const AtpFile& atp, uint64_t tid) {
    for (const auto& block : atp.parts.at(0).threads) {
        if (block.threadId == tid) return &block;
    }
    return nullptr;
}

// ---- tests

TEST_F(GpaprofEndToEnd, SeveralKernelsOnSeveralThreadsAllThreeFiles) {
    const Outcome run = Profile({"-t", "-p", "-O", "-o", "out"}, {App("multi_kernel_threads"), "--threads", "3", "--iterations", "2"});
    ASSERT_EQ(run.exitCode, 0) << run.err;
    EXPECT_NE(run.err.find("wrote " + Path("out.csv")), std::string::npos) << run.err;
    EXPECT_NE(run.out.find("3 threads x 2 iterations OK"), std::string::npos) << run.out;

    // .csv
    const CsvFile csv = ReadCsv("out.csv");
    ExpectSessionHeader(csv.session, "multi_kernel_threads", "--threads 3 --iterations 2", directory_);
    EXPECT_EQ(csv.profileFileVersion, "3.0");
    EXPECT_EQ(csv.api, "OpenCL");
    EXPECT_EQ(csv.session.displayName, "out");
    EXPECT_EQ(csv.session.listSeparator, ',');
    EXPECT_FALSE(csv.forceSinglePass);
    EXPECT_EQ(csv.flavor, CsvFlavor::OpenCL);
    EXPECT_TRUE(csv.hasKernelOccupancyColumn);
    EXPECT_EQ(csv.counterNames, std::vector<std::string>{"GPUTime"});
    ASSERT_EQ(csv.rows.size(), 30u);  // 3 threads x 2 iterations x 5 kernels

    const AtpFile atp = ReadAtp("out.atp");
    ExpectSessionHeader(atp.session, "multi_kernel_threads", "--threads 3 --iterations 2", directory_);
    EXPECT_EQ(atp.traceFileVersion, "3.2");
    ExpectWellFormedTrace(atp, true);
    ASSERT_EQ(atp.parts[0].threads.size(), 4u);  // main + 3 workers

    std::map<uint64_t, int> rowsPerThread;
    std::set<std::pair<uint64_t, uint32_t>> kernelIds;
    for (size_t i = 0; i < csv.rows.size(); ++i) {
        const DispatchRow& row = csv.rows[i];
        SCOPED_TRACE("row " + std::to_string(i + 1) + ": " + row.method);
        EXPECT_EQ(row.executionOrder, i + 1);
        rowsPerThread[row.threadId]++;
        std::optional<MethodName> method = MethodName::Parse(row.method);
        ASSERT_TRUE(method.has_value());
        if (g_cpuDevice) {
            EXPECT_EQ(method->device, "CPU");  // a CPU device: no device index
            EXPECT_FALSE(method->deviceIndex.has_value());
        } else {  // <device name><index>, e.g. "NVIDIA H2001" (whose digits the reader cannot split)
            EXPECT_TRUE(row.method.ends_with("_" + csv.session.devices.at(0).name + "1")) << row.method;
        }
        kernelIds.insert({row.threadId, method->kernelId});
        ASSERT_TRUE(row.timeMs.has_value());
        EXPECT_GT(*row.timeMs, 0.0);
        EXPECT_FALSE(row.vgprs.has_value());
        EXPECT_FALSE(row.sgprs.has_value());
        EXPECT_FALSE(row.scratchRegs.has_value());
        ASSERT_EQ(row.counters.size(), 1u);
        EXPECT_EQ(row.counters[0].kind, CounterValue::Kind::Float);
        EXPECT_NEAR(row.counters[0].number, *row.timeMs, 0.006);  // GPUTime %12.2f, Time %15.5f

        if (method->kernel == "vector_add") {
            EXPECT_EQ(FormatGlobalWorkSize(row.globalWorkSize), "{   1024       1       1}");
            EXPECT_FALSE(row.workGroupSize.specified());
        } else if (method->kernel == "scale_in_place") {
            EXPECT_EQ(FormatGlobalWorkSize(row.globalWorkSize), "{   1024       1       1}");
            EXPECT_EQ(FormatWorkGroupSize(row.workGroupSize), "{   64     1     1}");
        } else if (method->kernel == "block_sum") {
            EXPECT_EQ(FormatWorkGroupSize(row.workGroupSize), "{   64     1     1}");
            EXPECT_GE(row.localMemSize, 64u * sizeof(float));
        } else if (method->kernel == "fill_2d") {
            EXPECT_EQ(FormatGlobalWorkSize(row.globalWorkSize), "{     32      32       1}");
            EXPECT_EQ(FormatWorkGroupSize(row.workGroupSize), "{    8     8     1}");
        } else if (method->kernel == "count_items") {
            EXPECT_EQ(FormatGlobalWorkSize(row.globalWorkSize), "{    256       1       1}");
            EXPECT_EQ(FormatWorkGroupSize(row.workGroupSize), "{   32     1     1}");
        } else {
            ADD_FAILURE() << "unexpected kernel";
        }
        if (row.workGroupSize.specified()) {
            ASSERT_TRUE(row.kernelOccupancy.has_value());
            EXPECT_GT(*row.kernelOccupancy, 0.0);
            EXPECT_LE(*row.kernelOccupancy, 100.0);
        }
        // CallIndex points at this dispatch's line in the thread's API trace block.
        ASSERT_TRUE(row.callIndex.has_value());
        const ThreadBlock<ApiCall>* calls = ThreadCalls(atp, row.threadId);
        ASSERT_NE(calls, nullptr);
        ASSERT_LT(*row.callIndex, calls->entries.size());
        const ApiCall& call = calls->entries[*row.callIndex];
        EXPECT_EQ(call.name, "clEnqueueNDRangeKernel");
        ASSERT_TRUE(call.kernel.has_value());
        EXPECT_EQ(call.kernel->kernelName, method->kernel);
    }
    EXPECT_EQ(rowsPerThread.size(), 3u);
    for (const auto& [tid, rows] : rowsPerThread) EXPECT_EQ(rows, 10) << "thread " << tid;
    EXPECT_EQ(kernelIds.size(), 15u);  // each thread created its own 5 kernel objects

    // .atp: transfers with their sizes, markers per thread.
    std::map<std::string, std::set<uint64_t>> transferSizes;
    for (const auto& block : atp.parts[0].threads) {
        for (const ApiCall& call : block.entries) {
            if (call.transferSize) transferSizes[call.name].insert(*call.transferSize);
        }
    }
    EXPECT_EQ(transferSizes["clEnqueueWriteBuffer"], std::set<uint64_t>{4096});
    EXPECT_EQ(transferSizes["clEnqueueFillBuffer"], std::set<uint64_t>{4});
    EXPECT_EQ(transferSizes["clEnqueueCopyBuffer"], std::set<uint64_t>{4096});
    EXPECT_EQ(transferSizes["clEnqueueReadBuffer"], (std::set<uint64_t>{4, 64, 4096}));
    EXPECT_EQ(transferSizes["clEnqueueMapBuffer"], std::set<uint64_t>{4096});
    EXPECT_EQ(transferSizes["clEnqueueUnmapMemObject"], std::set<uint64_t>{4096});

    ASSERT_EQ(atp.markerThreads.size(), 4u);
    size_t workerBlocks = 0;
    for (const auto& block : atp.markerThreads) {
        uint64_t previous = 0;
        int depth = 0;
        for (const PerfMarker& marker : block.entries) {
            EXPECT_GE(marker.timestamp, previous);
            previous = marker.timestamp;
            if (marker.kind == PerfMarker::Kind::Begin) {
                ++depth;
                EXPECT_EQ(marker.group, "multi_kernel_threads");
                EXPECT_TRUE(marker.name == "iteration" || marker.name == "setup") << marker.name;
            } else {
                --depth;
            }
            EXPECT_GE(depth, 0);
        }
        EXPECT_EQ(depth, 0);
        if (block.entries.size() == 4) ++workerBlocks;
    }
    EXPECT_EQ(workerBlocks, 3u);

    // .occupancy: one row per dispatch, in dispatch order.
    const OccupancyFile occupancy = ReadOccupancy("out.occupancy");
    EXPECT_EQ(occupancy.session.profilerVersion, csv.session.profilerVersion);
    EXPECT_EQ(occupancy.session.applicationArgs, "--threads 3 --iterations 2");
    ASSERT_EQ(occupancy.rows.size(), csv.rows.size());
    for (size_t i = 0; i < occupancy.rows.size(); ++i) {
        const OccupancyRow& row = occupancy.rows[i];
        SCOPED_TRACE("occupancy row " + std::to_string(i + 1));
        EXPECT_EQ(row.threadId, csv.rows[i].threadId);
        EXPECT_EQ(MethodName::Parse(csv.rows[i].method)->kernel, row.kernelName);
        EXPECT_EQ(row.deviceName, csv.session.devices[0].name);
        ASSERT_TRUE(row.computeUnits.has_value());
        EXPECT_GE(*row.computeUnits, 1u);
        ASSERT_TRUE(row.waveSize.has_value());
        EXPECT_GE(*row.waveSize, 1u);
        EXPECT_EQ(row.globalWorkSize, csv.rows[i].globalWorkSize.product());
        if (g_cpuDevice) {
            EXPECT_FALSE(row.maxVgprs.has_value());  // a CPU has no register file notion in OpenCL
        } else if (row.maxVgprs) {
            EXPECT_GT(*row.maxVgprs, 0u);  // NVIDIA's registers per block (cl_nv_device_attribute_query)
        }
        EXPECT_FALSE(row.maxSgprs.has_value());
        if (csv.rows[i].workGroupSize.specified()) {
            EXPECT_EQ(row.workGroupSize, csv.rows[i].workGroupSize.product());
            ASSERT_TRUE(row.wavesPerWorkGroup.has_value());
            EXPECT_EQ(*row.wavesPerWorkGroup, (*row.workGroupSize + *row.waveSize - 1) / *row.waveSize);
            ASSERT_TRUE(row.occupancyPercent.has_value());
            EXPECT_NEAR(*row.occupancyPercent, *csv.rows[i].kernelOccupancy, 0.006);
            EXPECT_NE(LimitingResource(row), OccupancyLimiter::None);
        }
    }
}

// The two ways into an OpenCL application: the ICD loader's layers (OPENCL_LAYERS) and the preloaded shim
// for loaders without them (the CUDA toolkit's libOpenCL.so.1). Each alone, and both together (the first to
// initialise the layer traces), record the same calls and dispatches, none twice.
TEST_F(GpaprofEndToEnd, LayerAndPreloadRoutesEachRecordEveryCallOnce) {
    std::map<std::string, std::map<std::string, int>> callsPerRoute;
    const std::string loader = OpenClLoader();
    const bool loaderHasLayers = FileContains(loader, "OPENCL_LAYERS");
    if (!loaderHasLayers) {
        std::printf("the OpenCL loader %s has no layers: the layer route alone is not checked\n", loader.c_str());
    }
    for (const std::string route : {"layer", "preload", "both"}) {
        if (route == "layer" && !loaderHasLayers) continue;
        SCOPED_TRACE("GPAPROF_OPENCL_INJECTION=" + route);
        std::map<std::string, std::string> environment;
        if (route != "both") environment["GPAPROF_OPENCL_INJECTION"] = route;
        const Outcome run = Profile({"-t", "-p", "-o", route}, {App("multi_kernel_threads"), "--threads", "2", "--iterations", "2"},
                                    environment);
        ASSERT_EQ(run.exitCode, 0) << run.err;
        EXPECT_EQ(ReadCsv(route + ".csv").rows.size(), 20u);  // 2 threads x 2 iterations x 5 kernels
        const AtpFile atp = ReadAtp(route + ".atp");
        ASSERT_EQ(atp.parts.size(), 1u);
        EXPECT_EQ(atp.parts[0].threads.size(), 3u);
        for (const ThreadBlock<ApiCall>& thread : atp.parts[0].threads) {
            for (const ApiCall& call : thread.entries) ++callsPerRoute[route][call.name];
        }
        EXPECT_EQ(callsPerRoute[route]["clEnqueueNDRangeKernel"], 20);
    }
    if (loaderHasLayers) {
        EXPECT_EQ(callsPerRoute["layer"], callsPerRoute["preload"]);
    }
    EXPECT_EQ(callsPerRoute["both"], callsPerRoute["preload"]);
}

// gpaprof preloads its OpenCL shim into every process; the layer and agent come only with OpenCL's first
// call, so a process without OpenCL (a CUDA program, a shell) is not started on early (a CUDA program's exit
// handlers would otherwise run gpaprof's after the CUDA driver's).
TEST_F(GpaprofEndToEnd, ProcessesWithoutOpenClGetTheShimButNotTheAgent) {
    const Outcome run = Profile({"-t", "-o", "none"}, {"/bin/cat", "/proc/self/maps"});
    EXPECT_EQ(run.exitCode, 0) << run.err;
    EXPECT_NE(run.out.find("libgpaprof_opencl_preload.so"), std::string::npos) << run.out;
    EXPECT_EQ(run.out.find("libgpaprof_opencl_layer.so"), std::string::npos) << run.out;
    EXPECT_EQ(run.out.find("libgpaprof_agent.so"), std::string::npos) << run.out;
}

TEST_F(GpaprofEndToEnd, ReplayedDispatchesLeaveResultsAsOneExecution) {
    // In-place scaling and an atomic counter give wrong results if a replay pass ran on unrestored memory;
    // the program checks every result.
    // An SVM allocation incremented in place, through a pointer into its middle, too.
    const Outcome run = Profile({"-p", "--force-passes", "3", "-o", "replay"},
                                {App("multi_kernel_threads"), "--threads", "2", "--iterations", "2", "--svm"});
    ASSERT_EQ(run.exitCode, 0) << run.err << run.out;
    EXPECT_EQ(run.err.find("is not replayed"), std::string::npos) << run.err;
    const CsvFile csv = ReadCsv("replay.csv");
    const bool svm = run.out.find("the device has no SVM") == std::string::npos;
    ASSERT_EQ(csv.rows.size(), svm ? 22u : 20u);  // 2 threads x 2 iterations x 5 kernels, + 1 per thread with SVM
    for (const DispatchRow& row : csv.rows) {
        ASSERT_EQ(row.counters.size(), 1u);
        EXPECT_EQ(row.counters[0].kind, CounterValue::Kind::Float);
        EXPECT_TRUE(row.timeMs.has_value());
    }
    EXPECT_FALSE(std::filesystem::exists(Path("replay.atp")));
    EXPECT_FALSE(std::filesystem::exists(Path("replay.occupancy")));
}

TEST_F(GpaprofEndToEnd, OutOfOrderQueueUserEventsTaskImagesSubBuffersAndTwoContexts) {
    // Replayed too: the program checks that every in-place kernel ran exactly once.
    const Outcome run = Profile({"-t", "-p", "-O", "--force-passes", "2", "-o", "mixed"}, {App("mixed_features")});
    ASSERT_EQ(run.exitCode, 0) << run.err << run.out;
    const CsvFile csv = ReadCsv("mixed.csv");
    ASSERT_GE(csv.rows.size(), 3u);
    EXPECT_EQ(MethodName::Parse(csv.rows[0].method)->kernel, "add_one");  // waited for a user event
    EXPECT_EQ(MethodName::Parse(csv.rows[1].method)->kernel, "add_one");
    EXPECT_EQ(MethodName::Parse(csv.rows[0].method)->kernelId, MethodName::Parse(csv.rows[1].method)->kernelId);
    EXPECT_EQ(MethodName::Parse(csv.rows[2].method)->kernel, "single_task");
    EXPECT_EQ(FormatWorkGroupSize(csv.rows[2].workGroupSize), "{    1     1     1}");
    for (const DispatchRow& row : csv.rows) EXPECT_TRUE(row.timeMs.has_value()) << row.method;

    const AtpFile atp = ReadAtp("mixed.atp");
    ExpectWellFormedTrace(atp, true);
    std::set<uint64_t> contexts;
    bool sawTask = false;
    for (const ApiCall& call : atp.parts[0].threads.at(0).entries) {
        if (call.command) contexts.insert(call.command->contextId);
        if (call.name == "clEnqueueTask") {
            sawTask = true;
            ASSERT_TRUE(call.kernel.has_value());
            EXPECT_EQ(call.kernel->globalSize, std::vector<uint64_t>{1});
        }
        if (call.name == "clEnqueueFillBuffer") {
            EXPECT_EQ(call.transferSize, 4096u);
        }
        if (call.name == "clCreateSubBuffer") {
            EXPECT_EQ(call.args.at(3), "{512,512}");
        }
    }
    EXPECT_TRUE(sawTask);
    EXPECT_EQ(contexts, (std::set<uint64_t>{1, 2}));
    EXPECT_EQ(ReadOccupancy("mixed.occupancy").rows.size(), csv.rows.size());
}

TEST_F(GpaprofEndToEnd, SegmentationFaultMidRunLeavesCompleteFiles) {
    const Outcome run = Profile({"-t", "-p", "-O", "-o", "crash"}, {App("crash_mid_run"), "segv"});
    EXPECT_EQ(run.exitCode, 128 + 11) << run.err;
    EXPECT_NE(run.err.find("SIGSEGV"), std::string::npos) << run.err;
    const CsvFile csv = ReadCsv("crash.csv");
    ASSERT_EQ(csv.rows.size(), 2u);
    EXPECT_EQ(MethodName::Parse(csv.rows[0].method)->kernel, "first_kernel");
    EXPECT_EQ(MethodName::Parse(csv.rows[1].method)->kernel, "second_kernel");
    const AtpFile atp = ReadAtp("crash.atp");
    // On a GPU the read enqueued just before the crash may never complete (its times are 0).
    ExpectWellFormedTrace(atp, g_cpuDevice);
    for (const DispatchRow& row : csv.rows) EXPECT_TRUE(row.timeMs.has_value());
    ASSERT_EQ(atp.parts[0].threads.size(), 1u);
    EXPECT_EQ(atp.parts[0].threads[0].entries.back().name, "clEnqueueReadBuffer");
    EXPECT_EQ(ReadOccupancy("crash.occupancy").rows.size(), 2u);
}

TEST_F(GpaprofEndToEnd, AbortMidRunLeavesCompleteFiles) {
    const Outcome run = Profile({"-t", "-p", "-O", "-o", "abort"}, {App("crash_mid_run"), "abort"});
    EXPECT_EQ(run.exitCode, 128 + 6) << run.err;
    EXPECT_NE(run.err.find("SIGABRT"), std::string::npos) << run.err;
    EXPECT_EQ(ReadCsv("abort.csv").rows.size(), 2u);
    const AtpFile atp = ReadAtp("abort.atp");
    ExpectWellFormedTrace(atp, g_cpuDevice);  // as above
    EXPECT_EQ(atp.parts[0].threads[0].entries.back().name, "clEnqueueReadBuffer");
}

TEST_F(GpaprofEndToEnd, QueueCreatedWithoutProfilingIsProfiledAndLooksUnchanged) {
    const Outcome run = Profile({"-t", "-p", "-o", "noprof"}, {App("queue_without_profiling")});
    ASSERT_EQ(run.exitCode, 0) << run.err << run.out;  // the program checks CL_QUEUE_PROPERTIES itself
    const CsvFile csv = ReadCsv("noprof.csv");
    ASSERT_EQ(csv.rows.size(), 2u);
    for (const DispatchRow& row : csv.rows) {
        ASSERT_TRUE(row.timeMs.has_value());
        EXPECT_GT(*row.timeMs, 0.0);
    }
    ExpectWellFormedTrace(ReadAtp("noprof.atp"), true);
}

TEST_F(GpaprofEndToEnd, ApplicationThatNeverReleasesNorWaitsGetsDeviceTimesAndItsExitCode) {
    // It leaks on purpose: sanitizer builds are told not to report that.
    const Outcome run = Profile({"-t", "-o", "leak"}, {App("never_releases")}, {{"ASAN_OPTIONS", "detect_leaks=0"}});
    EXPECT_EQ(run.exitCode, 3) << run.err;
    const AtpFile atp = ReadAtp("leak.atp");
    ExpectWellFormedTrace(atp, true);
    int dispatches = 0;
    for (const ApiCall& call : atp.parts[0].threads.at(0).entries) {
        if (call.name != "clEnqueueNDRangeKernel") continue;
        ++dispatches;
        ASSERT_TRUE(call.command.has_value());
        EXPECT_GT(call.command->end, 0u) << "the unwaited dispatch has no device times";
    }
    EXPECT_EQ(dispatches, 2);
    EXPECT_FALSE(std::filesystem::exists(Path("leak.csv")));
}

}  // namespace
}  // namespace gpaprof
