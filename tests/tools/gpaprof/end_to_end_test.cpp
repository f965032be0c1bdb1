// gpaprof end to end: runs `gpaprof <options> -- <program>` on the OpenCL programs in apps/, reads the files
// back with gpaprof's readers in strict mode (every line must be exactly what the layout writes) and checks
// them field by field: headers, columns, every row, every API line, timestamps, markers, occupancy.
// Skips with the reason when the machine has no OpenCL device.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <dlfcn.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "profiled_run.h"
#include "tools/gpaprof/files/atp_file.h"
#include "tools/gpaprof/files/csv_file.h"
#include "tools/gpaprof/files/occupancy_file.h"
#include "tools/gpaprof/files/opencl_api_types.h"

namespace gpaprof {
namespace {

using testing::Execute;
using testing::Outcome;
using testing::ReadAll;

// The probe's device is a CPU (PoCL): its profiling clock is the host's, and every command has device times.
// Other devices (NVIDIA's OpenCL) get the checks their drivers can meet, each exception said where it is.
bool g_cpuDevice = true;

std::string App(const std::string& name) { return std::string(GPAPROF_APP_DIR) + "/" + name; }

class GpaprofEndToEnd : public testing::ProfiledRunTest {
protected:
    void SetUp() override {
        static int probed = -1;
        if (probed < 0) {
            char scratch[] = "/tmp/gpaprof-probe-XXXXXX";
            ASSERT_NE(mkdtemp(scratch), nullptr);
            const Outcome probe = Execute({App("multi_kernel_threads"), "--probe"}, scratch);
            probed = probe.exitCode;
            g_cpuDevice = probe.out.find("device type: CPU") != std::string::npos;
            std::filesystem::remove_all(scratch);
        }
        if (probed == 77) GTEST_SKIP() << "no OpenCL device: the OpenCL ICD loader found no platform with a device";
        ASSERT_EQ(probed, 0) << "the probe program failed";
        MakeDirectory("gpaprof-e2e");
    }

    Outcome Profile(std::vector<std::string> options, const std::vector<std::string>& command,
                    const std::map<std::string, std::string>& environment = {}) {
        std::vector<std::string> full = {GPAPROF_EXECUTABLE};
        full.insert(full.end(), options.begin(), options.end());
        full.push_back("--");
        full.insert(full.end(), command.begin(), command.end());
        return Execute(full, directory_, environment);
    }
};

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

// Every call of the trace: names and types from the published enumeration, times in order, enqueue
// commands with their device times mapped inside their call (QUEUED happens during the enqueue call).
void ExpectWellFormedTrace(const AtpFile& atp, bool requireDeviceTimes) {
    ASSERT_FALSE(atp.parts.empty());
    const ApiTracePart& ocl = atp.parts[0];
    EXPECT_EQ(ocl.api, "ocl");
    for (const auto& block : ocl.threads) {
        uint64_t previousStart = 0;
        ASSERT_FALSE(block.entries.empty());
        for (const ApiCall& call : block.entries) {
            std::optional<ocl::Api> api = ocl::ApiFromName(call.name);
            ASSERT_TRUE(api.has_value()) << call.name;
            EXPECT_EQ(call.apiType, static_cast<uint32_t>(*api)) << call.name;
            EXPECT_LE(call.start, call.end) << call.name;
            EXPECT_GE(call.start, previousStart) << call.name << " starts before the call before it";
            previousStart = call.start;
            ASSERT_TRUE(call.returnValue.has_value() || call.name == "clSVMFree") << call.name;
            if (call.returnValue && call.returnValue->rfind("0x", 0) != 0 && *call.returnValue != "NULL") {
                EXPECT_EQ(call.returnValue->rfind("CL_", 0), 0u) << call.name << " returned " << *call.returnValue;
            }
            if (!call.command) {
                EXPECT_FALSE(call.kernel.has_value());
                continue;
            }
            EXPECT_TRUE(ocl::IsEnqueueApi(call.apiType)) << call.name;
            const CommandTimes& command = *call.command;
            EXPECT_EQ(command.commandName, ocl::CommandTypeName(command.commandType));
            EXPECT_GE(command.queueId, 1u);
            EXPECT_GE(command.contextId, 1u);
            EXPECT_EQ(command.queueHandle.rfind("0x", 0), 0u);
            EXPECT_FALSE(command.deviceName.empty());
            // NVIDIA's driver gives markers and barriers no profiling times (2026-11-21, 580.159.04): all 0.
            const bool timeless = !g_cpuDevice && command.queued == 0 && command.end == 0 &&
                                  (call.name == "clEnqueueMarkerWithWaitList" || call.name == "clEnqueueBarrierWithWaitList");
            if (requireDeviceTimes && !timeless) {
                EXPECT_GT(command.queued, 0u) << call.name;
                EXPECT_LE(command.queued, command.submit) << call.name;
                EXPECT_LE(command.submit, command.start) << call.name;
                EXPECT_LE(command.start, command.end) << call.name;
                // A CPU device's clock is the host's: QUEUED falls inside the enqueue call. A GPU's is mapped from
                // samples of QUEUED stamps, which NVIDIA's driver takes up to a few hundred microseconds away
                // from the call (the batch is submitted later): within 2 ms there.
                const uint64_t slack = g_cpuDevice ? 0 : 2000000;
                EXPECT_GE(command.queued + slack, call.start) << call.name << ": QUEUED mapped before its enqueue call";
                EXPECT_LE(command.queued, call.end + slack) << call.name << ": QUEUED mapped after its enqueue call";
            }
            if (ocl::IsKernelDispatchApi(call.apiType)) {
                ASSERT_TRUE(call.kernel.has_value()) << call.name;
                EXPECT_FALSE(call.kernel->kernelName.empty());
                EXPECT_FALSE(call.kernel->globalSize.empty());
                // The command type is what the driver's event says (PoCL runs clEnqueueTask as an NDRange).
                EXPECT_TRUE(command.commandName == "CL_COMMAND_NDRANGE_KERNEL" || command.commandName == "CL_COMMAND_TASK")
                    << command.commandName;
            }
            if (ocl::IsDataTransferApi(call.apiType)) {
                EXPECT_TRUE(call.transferSize.has_value()) << call.name;
            }
        }
    }
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
