// The .atp file, field by field against the layout of docs/profiler_files.md: the writer's exact text for a
// known trace, the timestamp columns' widths, the reader giving the same trace back, older section names, and
// problems reported with their line numbers; the published OpenCL API enumeration the trace numbers calls by.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "files_test_session.h"
#include "tools/gpaprof/files/atp_file.h"
#include "tools/gpaprof/files/opencl_api_types.h"
#include "tools/gpaprof/files/text_fields.h"

namespace gpaprof {
namespace {

AtpFile Atp() {
    AtpFile file;
    file.session = Session();
    ApiTracePart ocl;
    ocl.api = "ocl";
    ocl.excludedApis = {"clGetEventInfo"};
    ThreadBlock<ApiCall> thread;
    thread.threadId = 4242;
    ApiCall info;
    info.apiType = 1;
    info.name = "clGetPlatformInfo";
    info.returnValue = "CL_SUCCESS";
    info.args = {"0x0B69F8C0", "CL_PLATFORM_ICD_SUFFIX_KHR", "0", "NULL", "[4]"};
    info.start = 1000;
    info.end = 1500;
    thread.entries.push_back(info);
    ApiCall write;
    write.apiType = 102;
    write.name = "clEnqueueWriteBuffer";
    write.returnValue = "CL_SUCCESS";
    write.args = {"0x01", "0x02", "CL_FALSE", "0", "4096", "0x03", "0", "NULL", "NULL"};
    write.start = 2000;
    write.end = 2600;
    write.command = CommandTimes{0x11F4, "CL_COMMAND_WRITE_BUFFER", 2100, 2200, 3000, 3900, 1, "0x0000000000000001",
                                 1, "0x0000000000000009", "pthread-haswell-AMD EPYC"};
    write.transferSize = 4096;
    thread.entries.push_back(write);
    ApiCall kernel;
    kernel.apiType = 117;
    kernel.name = "clEnqueueNDRangeKernel";
    kernel.returnValue = "CL_SUCCESS";
    kernel.args = {"0x01", "0x05", "2", "NULL", "{32,32}", "{8,8}", "0", "NULL", "[0x06]"};
    kernel.start = 4000;
    kernel.end = 4400;
    kernel.command = CommandTimes{0x11F0, "CL_COMMAND_NDRANGE_KERNEL", 4100, 4150, 5000, 9000, 1, "0x0000000000000001",
                                  1, "0x0000000000000009", "pthread-haswell-AMD EPYC"};
    kernel.kernel = KernelLaunch{"0x0000000000000005", "fill_2d", {32, 32}, {8, 8}};
    thread.entries.push_back(kernel);
    ApiCall freeCall;
    freeCall.apiType = 68;
    freeCall.name = "clSVMFree";
    freeCall.args = {"0x09", "0x0A"};
    freeCall.start = 9500;
    freeCall.end = 9600;
    thread.entries.push_back(freeCall);
    ocl.threads.push_back(thread);
    ThreadBlock<SourceLocation> sources;
    sources.threadId = 4242;
    sources.entries = {SourceLocation{"clGetPlatformInfo", "main", 12, "/src/my app.c", 0},
                       SourceLocation{"clEnqueueWriteBuffer", "upload(float*, int)", 40, "/src/app.c", 0},
                       SourceLocation{"clEnqueueNDRangeKernel", "libsolver.so", std::nullopt, "", 0x1f4},
                       SourceLocation{"clSVMFree", "0x0000000000401000", std::nullopt, "", 0}};
    ocl.sourceThreads.push_back(sources);
    file.parts.push_back(ocl);
    ThreadBlock<PerfMarker> markers;
    markers.threadId = 4242;
    markers.entries = {PerfMarker{PerfMarker::Kind::Begin, "solve step", "physics", 1900},
                       PerfMarker{PerfMarker::Kind::End, "", "", 9700},
                       PerfMarker{PerfMarker::Kind::Begin, "", "", 9800},
                       PerfMarker{PerfMarker::Kind::EndEx, "io", "", 9900}};
    file.markerThreads.push_back(markers);
    return file;
}

const char* kAtpText =
    "TraceFileVersion=3.2\n"
    "ProfilerVersion=0.1.0\n"
    "Application=/opt/app/bin/solver\n"
    "ApplicationArgs=--size 64 \"two words\"\n"
    "WorkingDirectory=/home/user/run\n"
    "UserTimer=False\n"
    "OS Version=Debian GNU/Linux 12 (bookworm) Build 6.1.0\n"
    "DisplayName=session1\n"
    "CLExcludedAPIs=clGetEventInfo\n"
    "Device pthread-haswell-AMD EPYC Platform Vendor = The pocl project\n"
    "Device pthread-haswell-AMD EPYC Platform Name = Portable Computing Language\n"
    "Device pthread-haswell-AMD EPYC Platform Version = OpenCL 3.0 PoCL 3.1\n"
    "Device pthread-haswell-AMD EPYC CLDriver Version = 3.1+debian\n"
    "Device pthread-haswell-AMD EPYC CLRuntime Version = OpenCL 3.0 PoCL HSTR\n"
    "Device pthread-haswell-AMD EPYC NumberAppAddressBits = 64\n"
    "=====ocl API Trace Output=====\n"
    "4242\n"
    "4\n"
    "CL_SUCCESS = clGetPlatformInfo ( 0x0B69F8C0;CL_PLATFORM_ICD_SUFFIX_KHR;0;NULL;[4] )\n"
    "CL_SUCCESS = clEnqueueWriteBuffer ( 0x01;0x02;CL_FALSE;0;4096;0x03;0;NULL;NULL )\n"
    "CL_SUCCESS = clEnqueueNDRangeKernel ( 0x01;0x05;2;NULL;{32,32};{8,8};0;NULL;[0x06] )\n"
    "clSVMFree ( 0x09;0x0A )\n"
    "=====ocl Timestamp Output=====\n"
    "4242\n"
    "4\n"
    "1    clGetPlatformInfo                            1000                 1500\n"
    "102  clEnqueueWriteBuffer                         2000                 2600                 4596    "
    "CL_COMMAND_WRITE_BUFFER                 2100                 2200                 3000                 3900"
    "                 1         0x0000000000000001       1         0x0000000000000009       pthread-haswell-AMD_EPYC      "
    "4096\n"
    "117  clEnqueueNDRangeKernel                       4000                 4400                 4592    "
    "CL_COMMAND_NDRANGE_KERNEL               4100                 4150                 5000                 9000"
    "                 1         0x0000000000000001       1         0x0000000000000009       pthread-haswell-AMD_EPYC      "
    "0x0000000000000005       fill_2d {32,32} {8,8}\n"
    "68   clSVMFree                                    9500                 9600\n"
    "=====ocl Stack Trace Output=====\n"
    "4242\n"
    "4\n"
    "clGetPlatformInfo\tmain\t12\t/src/my&nbsp;app.c\n"
    "clEnqueueWriteBuffer\tupload(float*,&nbsp;int)\t40\t/src/app.c\n"
    "clEnqueueNDRangeKernel\tlibsolver.so+0x1F4\n"
    "clSVMFree\t0x0000000000401000+0x0\n"
    "=====Perfmarker Output=====\n"
    "4242\n"
    "4\n"
    "clBeginPerfMarker solve&nbsp;step 1900 physics\n"
    "clEndPerfMarker 9700\n"
    "clBeginPerfMarker \"\" 9800 \"\"\n"
    "clEndPerfMarkerEx 9900 io \"\"\n";

TEST(AtpFile, WriterFollowsTheLayoutExactly) { EXPECT_EQ(WriteAtp(Atp()), kAtpText); }

TEST(AtpFile, TimestampColumnsHaveTheirWidths) {
    const AtpFile file = Atp();
    const std::string line = FormatTimestampLine(file.parts[0].threads[0].entries[2]);
    // api type w5, name w45, start w21, end w21, command type w8, command name w40, 4 times w21,
    // queue id w10, queue handle w25, context id w10, context handle w25, device w30, kernel handle w25.
    const size_t starts[] = {0, 5, 50, 71, 92, 100, 140, 161, 182, 203, 224, 234, 259, 269, 294, 324, 349};
    const char* values[] = {"117", "clEnqueueNDRangeKernel", "4000", "4400", "4592", "CL_COMMAND_NDRANGE_KERNEL",
                            "4100", "4150", "5000", "9000", "1", "0x0000000000000001", "1", "0x0000000000000009",
                            "pthread-haswell-AMD_EPYC", "0x0000000000000005", "fill_2d"};
    for (size_t i = 0; i < std::size(starts); ++i) {
        EXPECT_EQ(line.substr(starts[i], std::string(values[i]).size()), values[i]) << "field " << i;
        if (starts[i] > 0) {
            EXPECT_EQ(line[starts[i] - 1], ' ') << "field " << i;
        }
    }
    // A field as wide as its column is still followed by a space.
    ApiCall wide = file.parts[0].threads[0].entries[0];
    wide.name = std::string(45, 'x');
    EXPECT_EQ(FormatTimestampLine(wide), "1    " + std::string(45, 'x') + " 1000                 1500");
}

TEST(AtpFile, ReaderGivesEveryFieldBack) {
    Parsed<AtpFile> parsed = ParseAtp(kAtpText, {true});
    ASSERT_TRUE(parsed.ok()) << parsed.Describe();
    AtpFile expected = Atp();
    // Device names in timestamp lines have '_' for spaces.
    for (ApiCall& call : expected.parts[0].threads[0].entries) {
        if (call.command) call.command->deviceName = UnderscoreSpaces(call.command->deviceName);
    }
    EXPECT_EQ(parsed.file.session, expected.session);
    ASSERT_EQ(parsed.file.parts.size(), 1u);
    EXPECT_EQ(parsed.file.parts[0].excludedApis, expected.parts[0].excludedApis);
    ASSERT_EQ(parsed.file.parts[0].threads.size(), 1u);
    for (size_t i = 0; i < 4; ++i) {
        EXPECT_EQ(parsed.file.parts[0].threads[0].entries[i], expected.parts[0].threads[0].entries[i]) << "call " << i;
    }
    EXPECT_EQ(parsed.file.parts[0].sourceThreads, expected.parts[0].sourceThreads);
    EXPECT_EQ(parsed.file.markerThreads, expected.markerThreads);
    EXPECT_EQ(parsed.file, expected);
}

// Where the process ran (host, clock, launcher's rank) follows DisplayName, only when known, and reads back.
TEST(AtpFile, ProcessPlaceLinesFollowDisplayName) {
    AtpFile file = Atp();
    EXPECT_EQ(WriteAtp(file).find("HostName="), std::string::npos);
    file.session.hostName = "node07";
    file.session.clockId = "0f3e2a1c-6b1d-4c55-9a57-1d2e3f405060";
    file.session.processRank = EnvironmentVariable{"OMPI_COMM_WORLD_RANK", "12"};
    const std::string text = WriteAtp(file);
    const std::string lines = "\nHostName=node07\nClockId=0f3e2a1c-6b1d-4c55-9a57-1d2e3f405060\n"
                              "ProcessRank=OMPI_COMM_WORLD_RANK=12\n";
    const size_t displayName = text.find("\nDisplayName=");
    ASSERT_NE(displayName, std::string::npos);
    EXPECT_EQ(text.find(lines), text.find('\n', displayName + 1)) << text.substr(0, 600);
    Parsed<AtpFile> parsed = ParseAtp(text, {true});
    ASSERT_TRUE(parsed.ok()) << parsed.Describe();
    EXPECT_EQ(parsed.file.session.hostName, file.session.hostName);
    EXPECT_EQ(parsed.file.session.clockId, file.session.clockId);
    EXPECT_EQ(parsed.file.session.processRank, file.session.processRank);

    Parsed<AtpFile> bad = ParseAtp("TraceFileVersion=3.2\nProcessRank=12\n");
    ASSERT_EQ(bad.problems.size(), 1u);
    EXPECT_EQ(bad.problems[0].line, 2u);
    EXPECT_NE(bad.problems[0].message.find("ProcessRank must be NAME=VALUE"), std::string::npos);
}

TEST(AtpFile, PartsSectionsAndKernelTimestamps) {
    AtpFile file = Atp();
    ApiTracePart cuda;
    cuda.api = "cuda";
    ThreadBlock<ApiCall> thread;
    thread.threadId = 7;
    ApiCall launch;
    launch.apiType = 3;
    launch.name = "cuLaunchKernel";
    launch.returnValue = "CUDA_SUCCESS";
    launch.args = {"0x1"};
    launch.start = 10;
    launch.end = 20;
    thread.entries.push_back(launch);
    cuda.threads.push_back(thread);
    KernelTimestamp stamp;
    stamp.kernelName = "_Z6vecAddPfS_S_i";
    stamp.kernelObject = "0x00007F0000001000";
    stamp.start = 100;
    stamp.end = 200;
    stamp.agentName = "NVIDIA H100 80GB HBM3";
    stamp.agentHandle = "0x0000000000000001";
    stamp.queueIndex = 0;
    stamp.deviceIndex = 0;
    stamp.packetType = "KERNEL_DISPATCH";
    stamp.packetId = 1;
    stamp.packetFields = "{grid={4,1,1}, block={256,1,1}}";
    cuda.kernelTimestamps.push_back(stamp);
    file.parts.push_back(cuda);
    const std::string text = WriteAtp(file);
    EXPECT_NE(text.find("CLExcludedAPIs=clGetEventInfo\nCUDAExcludedAPIs=\n"), std::string::npos);
    const size_t cudaApi = text.find("=====cuda API Trace Output=====");
    const size_t cudaStamps = text.find("=====cuda Timestamp Output=====");
    const size_t kernels = text.find("=====cuda Kernel Timestamp Output=====\n1\n_Z6vecAddPfS_S_i");
    const size_t markers = text.find("=====Perfmarker Output=====");
    EXPECT_LT(text.find("=====ocl Stack Trace Output====="), cudaApi);
    EXPECT_LT(cudaApi, cudaStamps);
    EXPECT_LT(cudaStamps, kernels);
    EXPECT_LT(kernels, markers);
    EXPECT_NE(text.find("NVIDIA_H100_80GB_HBM3"), std::string::npos);
    Parsed<AtpFile> parsed = ParseAtp(text, {true});
    ASSERT_TRUE(parsed.ok()) << parsed.Describe();
    ASSERT_EQ(parsed.file.parts.size(), 2u);
    EXPECT_EQ(parsed.file.parts[1].api, "cuda");
    ASSERT_EQ(parsed.file.parts[1].kernelTimestamps.size(), 1u);
    EXPECT_EQ(parsed.file.parts[1].kernelTimestamps[0].packetFields, stamp.packetFields);
    EXPECT_EQ(parsed.file.parts[1].kernelTimestamps[0].agentName, "NVIDIA_H100_80GB_HBM3");
    EXPECT_EQ(parsed.file.parts[1].threads[0].entries[0].name, "cuLaunchKernel");
}

TEST(AtpFile, ACopyBetweenDevicesKeepsBothDevicesAndItsSize) {
    AtpFile file = Atp();
    ApiTracePart cuda;
    cuda.api = "cuda";
    ThreadBlock<ApiCall> thread;
    thread.threadId = 7;
    ApiCall copy;
    copy.apiType = 161;
    copy.name = "cudaMemcpyPeerAsync";
    copy.returnValue = "cudaSuccess";
    copy.args = {"0x2", "1", "0x1", "0", "4194304", "0x3"};
    copy.start = 10;
    copy.end = 20;
    CommandTimes command;
    command.commandType = 10;
    command.commandName = "CUDA_MEMCPY_PTOP";
    command.queued = command.submit = 30;
    command.start = 40;
    command.end = 50;
    command.queueId = 22;
    command.queueHandle = "0x0000000000000003";
    command.contextId = 2;
    command.contextHandle = "0x0000000000000004";
    command.deviceName = "NVIDIA H100 80GB HBM3 (device 0) -> NVIDIA H100 80GB HBM3 (device 1)";  // gpaprof's PeerDeviceName
    copy.command = command;
    copy.transferSize = 4194304;
    thread.entries.push_back(copy);
    cuda.threads.push_back(thread);
    file.parts.push_back(cuda);
    Parsed<AtpFile> parsed = ParseAtp(WriteAtp(file), {true});
    ASSERT_TRUE(parsed.ok()) << parsed.Describe();
    ASSERT_EQ(parsed.file.parts.size(), 2u);
    const ApiCall& read = parsed.file.parts[1].threads[0].entries[0];
    ASSERT_TRUE(read.command.has_value());
    EXPECT_EQ(read.command->commandName, "CUDA_MEMCPY_PTOP");
    EXPECT_EQ(read.command->deviceName, "NVIDIA_H100_80GB_HBM3_(device_0)_->_NVIDIA_H100_80GB_HBM3_(device_1)");
    EXPECT_EQ(read.command->start, 40u);
    EXPECT_EQ(read.command->end, 50u);
    EXPECT_EQ(read.transferSize, std::optional<uint64_t>(4194304));
}

TEST(AtpFile, OlderSectionNamesAreRead) {
    std::string text = kAtpText;
    text.replace(text.find("=====ocl API"), 12, "=====CodeXL ocl API");
    text.replace(text.find("=====Perfmarker"), 15, "=====OpenCL Perfmarker");
    Parsed<AtpFile> parsed = ParseAtp(text);
    ASSERT_TRUE(parsed.ok()) << parsed.Describe();
    EXPECT_EQ(parsed.file.markerThreads.size(), 1u);
}

TEST(AtpFile, ArgumentsSplitOutsideQuotesAndBrackets) {
    EXPECT_EQ(SplitApiArguments("a;{b;c};[d;e];\"f;g\";\"h\\\";i\""),
              (std::vector<std::string>{"a", "{b;c}", "[d;e]", "\"f;g\"", "\"h\\\";i\""}));
    EXPECT_TRUE(SplitApiArguments("").empty());
    EXPECT_EQ(SplitApiArguments("  ").size(), 0u);
}

TEST(AtpFile, ProblemsCarryTheirLine) {
    std::string text = kAtpText;
    text.replace(text.find("4242\n4\nCL_SUCCESS"), 7, "4242\n5\n");  // declares 5 API lines, has 4
    Parsed<AtpFile> parsed = ParseAtp(text);
    ASSERT_FALSE(parsed.ok());
    EXPECT_EQ(parsed.problems[0].line, 18u);
    EXPECT_NE(parsed.problems[0].message.find("declares 5 entries"), std::string::npos) << parsed.Describe();

    std::string badTimestamp = kAtpText;
    badTimestamp.replace(badTimestamp.find("1500\n"), 4, "15x0");
    parsed = ParseAtp(badTimestamp);
    ASSERT_FALSE(parsed.ok());
    EXPECT_EQ(parsed.problems[0].line, 26u);
    EXPECT_NE(parsed.problems[0].message.find("end time"), std::string::npos);

    std::string reversed = kAtpText;
    reversed.replace(reversed.find("1000                 1500"), 25, "2000                 1500");
    parsed = ParseAtp(reversed);
    EXPECT_NE(parsed.Describe().find("before start time"), std::string::npos);

    EXPECT_NE(ParseAtp("hello\n").Describe().find("TraceFileVersion"), std::string::npos);
    EXPECT_NE(ParseAtp("TraceFileVersion=3.2\n=====nonsense=====\n").Describe().find("line 2"), std::string::npos);
}

TEST(AtpFile, PublishedOpenClEnumeration) {
    size_t count = 0;
    const ocl::Api* apis = ocl::AllApis(&count);
    EXPECT_EQ(count, 114u);
    std::set<uint32_t> numbers;
    for (size_t i = 0; i < count; ++i) {
        const uint32_t number = static_cast<uint32_t>(apis[i]);
        EXPECT_TRUE(numbers.insert(number).second) << "number used twice: " << number;
        const std::string name = ocl::ApiName(apis[i]);
        EXPECT_EQ(ocl::ApiFromName(name), apis[i]);
        EXPECT_EQ(ocl::IsEnqueueApi(number), name.rfind("clEnqueue", 0) == 0) << name;
    }
    EXPECT_EQ(static_cast<uint32_t>(ocl::Api::clGetPlatformIDs), 0u);
    EXPECT_EQ(static_cast<uint32_t>(ocl::Api::clEnqueueNDRangeKernel), 117u);
    EXPECT_TRUE(ocl::IsKernelDispatchApi(117));
    EXPECT_TRUE(ocl::IsDataTransferApi(100));
    EXPECT_FALSE(ocl::IsDataTransferApi(117));
    EXPECT_STREQ(ocl::CommandTypeName(0x11F0), "CL_COMMAND_NDRANGE_KERNEL");
}

}  // namespace
}  // namespace gpaprof
