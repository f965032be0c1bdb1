// gpaprof's CUDA part without a GPU: the records the part writes for kernels, copies and devices (kernel
// timestamp lines, commands, methods, device headers) and how the assembler turns them into the .atp and .csv.
#include <gtest/gtest.h>

#include <cupti_runtime_cbid.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tools/gpaprof/cuda/cuda_records.h"
#include "tools/gpaprof/files/atp_file.h"
#include "tools/gpaprof/files/csv_file.h"
#include "tools/gpaprof/spool/spool_assembler.h"
#include "tools/gpaprof/spool/spool_records.h"

namespace gpaprof::cuda {
namespace {

KernelActivity SaxpyActivity() {
    KernelActivity kernel;
    kernel.name = "_Z5saxpyPfPKffi";
    kernel.start = 1000500;
    kernel.end = 1002500;
    kernel.deviceId = 0;
    kernel.contextId = 1;
    kernel.streamId = 7;
    kernel.correlationId = 42;
    kernel.grid[0] = 4096, kernel.grid[1] = 1, kernel.grid[2] = 1;
    kernel.block[0] = 256, kernel.block[1] = 1, kernel.block[2] = 1;
    kernel.registersPerThread = 16;
    kernel.dynamicSharedMemory = 1024;
    return kernel;
}

TEST(CudaRecords, KernelTimestampLineFollowsTheHsaLayout) {
    const KernelTimestamp entry = MakeKernelTimestamp(SaxpyActivity(), "NVIDIA H200", 0xABC0);
    EXPECT_EQ(entry.kernelObject, "0x000000000000ABC0");
    EXPECT_EQ(entry.agentName, "NVIDIA H200");
    EXPECT_EQ(entry.queueIndex, 7u);
    EXPECT_EQ(entry.packetType, "CUDA_KERNEL");
    EXPECT_EQ(entry.packetId, 42u);
    EXPECT_EQ(entry.packetFields,
              "{grid={4096,1,1},block={256,1,1},registers=16,staticShared=0,dynamicShared=1024,localPerThread=0,context=1,"
              "stream=7}");
    const std::string line = FormatKernelTimestampLine(entry);
    EXPECT_EQ(line.substr(0, 50), "_Z5saxpyPfPKffi" + std::string(35, ' '));
    EXPECT_NE(line.find("NVIDIA_H200"), std::string::npos);  // spaces in the agent name become '_'
    KernelActivity graph = SaxpyActivity();
    graph.graphId = 3;
    graph.graphNodeId = 99;
    const KernelTimestamp fromGraph = MakeKernelTimestamp(graph, "NVIDIA H200", std::nullopt);
    EXPECT_EQ(fromGraph.packetType, "CUDA_GRAPH_KERNEL");
    EXPECT_EQ(fromGraph.kernelObject, "NA");
    EXPECT_NE(fromGraph.packetFields.find(",graph=3,graphNode=99}"), std::string::npos);
}

// The activity thread's lines are the records' lines, byte for byte, whatever the kernel: launched from a graph,
// cooperative, in a cluster, with large and negative numbers, with characters the spool escapes in its name.
TEST(CudaRecords, KernelLinesAreTheRecordsLines) {
    uint64_t seed = 12345;
    auto next = [&seed]() {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        return seed >> 17;
    };
    for (int round = 0; round < 400; ++round) {
        KernelActivity kernel = SaxpyActivity();
        // (One name in two literals, in parentheses so that Clang sees the joining is meant.)
        const char* const names[] = {"_Z5saxpyPfPKffi", "",
                                     ("void at::native::vectorized_elementwise_kernel<4, "
                                      "at::native::FillFunctor<float>, std::array<char*, 1ul> >(int, ...)"),
                                     "tab\there\\back\nslash\r"};
        kernel.name = names[round % 4];
        kernel.start = next() << 20, kernel.end = kernel.start + next() % 100000;
        kernel.deviceId = static_cast<uint32_t>(next() % 8);
        kernel.contextId = static_cast<uint32_t>(next());
        kernel.streamId = static_cast<uint32_t>(next());
        kernel.correlationId = static_cast<uint32_t>(next());
        for (int i = 0; i < 3; ++i) {
            // Negative now and then: the arithmetic in unsigned, which wraps (a signed overflow is undefined).
            kernel.grid[i] = static_cast<int32_t>(static_cast<uint32_t>(next()) - (round % 7 == 0 ? 1u << 30 : 0u));
            kernel.block[i] = static_cast<int32_t>(next() % 1025);
            kernel.cluster[i] = round % 3 == 0 ? static_cast<uint32_t>(next() % 9) : 0;
        }
        kernel.registersPerThread = static_cast<uint32_t>(next() % 256);
        kernel.staticSharedMemory = static_cast<int32_t>(next() % 65536);
        kernel.dynamicSharedMemory = static_cast<int32_t>(next() % 65536) - (round % 5 == 0 ? 70000 : 0);
        kernel.localMemoryPerThread = static_cast<uint32_t>(next());
        kernel.graphId = round % 4 == 1 ? static_cast<uint32_t>(next()) : 0;
        kernel.graphNodeId = kernel.graphId ? next() << 10 : 0;
        kernel.launchType = static_cast<uint8_t>(round % 3);
        EnqueueInfo info;
        info.threadId = next(), info.index = next(), info.streamHandle = round % 2 ? next() : 0;
        info.contextHandle = next(), info.kernelHandle = round % 5 ? next() : 0;
        const std::string device = round % 2 ? "NVIDIA H100 80GB HBM3" : "CUDA device 3";
        const std::string clock = round % 2 ? "cpu" : "cupti";
        const std::optional<uint64_t> handle = info.kernelHandle ? std::optional<uint64_t>(info.kernelHandle) : std::nullopt;
        const bool launch = round % 6 != 0;

        std::string expected = spool::Encode(spool::KernelTimestampRecord{"cuda", clock, MakeKernelTimestamp(kernel, device, handle)});
        if (launch) {
            spool::CommandRecord command;
            command.part = "cuda";
            command.threadId = info.threadId;
            command.index = info.index;
            command.deviceKey = clock;
            command.command = MakeKernelCommand(kernel, info, device);
            command.kernel = MakeKernelLaunch(kernel, info.kernelHandle);
            expected += spool::Encode(command);
            expected += spool::Encode(spool::TimesRecord{"cuda", info.threadId, info.index, clock, 0, 0, kernel.start, kernel.end});
        }
        std::string lines = "earlier\n";
        AppendKernelLines(kernel, handle, launch ? &info : nullptr, device, clock, &lines);
        ASSERT_EQ(lines, "earlier\n" + expected) << "round " << round;
    }
}

TEST(CudaRecords, CommandsNameTheirKind) {
    EXPECT_EQ(CommandTypeName(kCommandKernel), "CUDA_KERNEL");
    EXPECT_EQ(CommandTypeName(kCommandMemset), "CUDA_MEMSET");
    EXPECT_EQ(CommandTypeName(MemcpyCommandType(1)), "CUDA_MEMCPY_HTOD");
    EXPECT_EQ(CommandTypeName(MemcpyCommandType(10)), "CUDA_MEMCPY_PTOP");
    EXPECT_EQ(CommandTypeName(MemcpyCommandType(99)), "CUDA_MEMCPY_UNKNOWN");
    EnqueueInfo call;
    call.streamHandle = 0x5000;
    call.contextHandle = 0x6000;
    const CommandTimes kernel = MakeKernelCommand(SaxpyActivity(), call, "NVIDIA H200");
    EXPECT_EQ(kernel.queueId, 7u);
    EXPECT_EQ(kernel.queueHandle, "0x0000000000005000");
    EXPECT_EQ(kernel.contextId, 1u);
    EXPECT_EQ(kernel.contextHandle, "0x0000000000006000");
    const KernelLaunch launch = MakeKernelLaunch(SaxpyActivity(), 0xABC0);
    EXPECT_EQ(launch.globalSize, (std::vector<uint64_t>{1048576, 1, 1}));
    EXPECT_EQ(launch.localSize, (std::vector<uint64_t>{256, 1, 1}));
}

TEST(CudaRecords, ACopyBetweenDevicesNamesBoth) {
    EXPECT_EQ(PeerDeviceName("NVIDIA H100 80GB HBM3", 0, "NVIDIA H100 80GB HBM3", 1),
              "NVIDIA H100 80GB HBM3 (device 0) -> NVIDIA H100 80GB HBM3 (device 1)");
    TransferActivity copy;
    copy.copyKind = 10;  // CUPTI_ACTIVITY_MEMCPY_KIND_PTOP
    copy.streamId = 22;
    copy.contextId = 2;
    const CommandTimes command = MakeTransferCommand(copy, EnqueueInfo{}, PeerDeviceName("A", 1, "B", 0));
    EXPECT_EQ(command.commandName, "CUDA_MEMCPY_PTOP");
    EXPECT_EQ(command.deviceName, "A (device 1) -> B (device 0)");
    EXPECT_EQ(command.queueId, 22u);
}

TEST(CudaRecords, MethodAndDeviceHeader) {
    EXPECT_EQ(MethodFor("_Z5saxpyPfPKffi", 3, "NVIDIA H200", 0), "_Z5saxpyPfPKffi__k3_NVIDIA H2001");
    DeviceFacts facts;
    facts.name = "NVIDIA H200";
    facts.driverApiVersion = 13000;
    facts.kernelDriverVersion = KernelDriverVersion(
        "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.159.04  Thu Oct 30 2025\nGCC version: gcc 13\n");
    facts.pciDeviceId = 0x2335;
    const DeviceHeader header = MakeDeviceHeader(facts);
    EXPECT_EQ(header.platformVendor, "NVIDIA Corporation");
    EXPECT_EQ(header.platformVersion, "CUDA 13.0");
    EXPECT_EQ(header.driverVersion, "580.159.04");
    EXPECT_EQ(header.runtimeVersion, "NA");
    EXPECT_EQ(header.pcieDeviceId, "0x2335");
    EXPECT_EQ(CudaVersionText(12080), "12.8");
    EXPECT_EQ(KernelDriverVersion("nothing"), "");
}

// The records the CUDA part writes, as the assembler turns them into files: the cuda sections of the .atp
// (written and read back strictly) and a #API=CUDA .csv.
TEST(CudaRecords, AssembleIntoTheCudaPartOfTheFiles) {
    std::string spoolText;
    auto add = [&](const spool::Record& record) { spoolText += spool::Encode(record); };
    spool::ProcessRecord process;
    process.pid = 4321;
    process.application = "/opt/app/runtime_kernels";
    process.outputBase = "/tmp/session1";
    add(process);
    DeviceFacts facts;
    facts.name = "NVIDIA H200";
    facts.driverApiVersion = 13000;
    add(spool::DeviceRecord{"cuda:0", MakeDeviceHeader(facts)});
    add(spool::CounterListRecord{"CUDA", {"GPUTime", "Wavefronts"}});

    const uint64_t tid = 555;
    spool::CallRecord malloc;
    malloc.part = "cuda";
    malloc.threadId = tid;
    malloc.index = 0;
    malloc.call.apiType = 20;
    malloc.call.name = "cudaMalloc";
    malloc.call.returnValue = "cudaSuccess";
    malloc.call.args = {"[0x00007F0000000000]", "4194304"};
    malloc.call.start = 1000000;
    malloc.call.end = 1000100;
    add(malloc);
    spool::CallRecord launch;
    launch.part = "cuda";
    launch.threadId = tid;
    launch.index = 1;
    launch.call.apiType = CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000;
    launch.call.name = "cudaLaunchKernel";
    launch.call.returnValue = "cudaSuccess";
    launch.call.args = {"0x0000000000401000", "{4096,1,1}", "{256,1,1}", "0x00007FFD00000000", "0", "NULL"};
    launch.call.start = 1000200;
    launch.call.end = 1000300;
    add(launch);
    const KernelActivity kernel = SaxpyActivity();
    EnqueueInfo info;
    info.threadId = tid;
    info.index = 1;
    info.kernelHandle = 0xABC0;
    spool::CommandRecord command;
    command.part = "cuda";
    command.threadId = tid;
    command.index = 1;
    command.command = MakeKernelCommand(kernel, info, "NVIDIA H200");
    command.kernel = MakeKernelLaunch(kernel, info.kernelHandle);
    add(command);
    add(spool::TimesRecord{"cuda", tid, 1, "", 0, 0, kernel.start, kernel.end});
    add(spool::KernelTimestampRecord{"cuda", "", MakeKernelTimestamp(kernel, "NVIDIA H200", 0xABC0)});
    DispatchRow row;
    row.method = MethodFor(kernel.name, 1, "NVIDIA H200", 0);
    row.executionOrder = 1;
    row.threadId = tid;
    row.callIndex = 1;
    row.globalWorkSize = WorkSize::Of({1048576, 1, 1});
    row.workGroupSize = WorkSize::Of({256, 1, 1});
    row.timeMs = 0.002;
    row.localMemSize = 1024;
    row.vgprs = 16;
    row.scratchRegs = 0;
    row.kernelOccupancy = 100.0;
    row.counters = {CounterValue::Real("GPUTime", 0.002), CounterValue::Int("Wavefronts", 32768)};
    add(spool::DispatchRecord{"CUDA", row});
    add(spool::EventRecord{"exit", {}});

    AssemblyOptions options;
    options.trace = true;
    options.counters = true;
    options.profilerVersion = "0.1.0";
    options.displayName = "session1";
    const AssembledProcess assembled = AssembleSpool(spoolText, options, nullptr);
    ASSERT_TRUE(assembled.atp);
    ASSERT_TRUE(assembled.csv);
    EXPECT_EQ(assembled.badRecords, 0u);

    const std::string atpText = WriteAtp(*assembled.atp);
    EXPECT_NE(atpText.find("=====cuda API Trace Output=====\n555\n2\ncudaSuccess = cudaMalloc ( [0x00007F0000000000];4194304 )\n"),
              std::string::npos)
        << atpText;
    EXPECT_NE(atpText.find("=====cuda Timestamp Output====="), std::string::npos);
    EXPECT_NE(atpText.find("=====cuda Kernel Timestamp Output=====\n1\n_Z5saxpyPfPKffi"), std::string::npos);
    EXPECT_NE(atpText.find("CUDAExcludedAPIs="), std::string::npos);
    EXPECT_NE(atpText.find("CUDA_KERNEL"), std::string::npos);
    const Parsed<AtpFile> reread = ParseAtp(atpText, {true});
    ASSERT_TRUE(reread.ok()) << reread.Describe();
    const ApiTracePart* cuda = nullptr;
    for (const ApiTracePart& part : reread.file.parts) {
        if (part.api == "cuda") cuda = &part;
    }
    ASSERT_NE(cuda, nullptr);
    ASSERT_EQ(cuda->threads.size(), 1u);
    ASSERT_EQ(cuda->threads[0].entries.size(), 2u);
    const ApiCall& launched = cuda->threads[0].entries[1];
    ASSERT_TRUE(launched.command);
    EXPECT_EQ(launched.command->start, kernel.start);  // already on the CPU clock: mapped unchanged
    EXPECT_EQ(launched.command->end, kernel.end);
    EXPECT_EQ(launched.command->commandName, "CUDA_KERNEL");
    ASSERT_TRUE(launched.kernel);
    EXPECT_EQ(launched.kernel->kernelName, "_Z5saxpyPfPKffi");
    EXPECT_EQ(launched.kernel->globalSize, (std::vector<uint64_t>{1048576, 1, 1}));
    ASSERT_EQ(cuda->kernelTimestamps.size(), 1u);
    EXPECT_EQ(cuda->kernelTimestamps[0].packetId, 42u);

    EXPECT_EQ(assembled.csv->api, "CUDA");
    EXPECT_EQ(assembled.csv->counterNames, (std::vector<std::string>{"GPUTime", "Wavefronts"}));
    ASSERT_EQ(assembled.csv->rows.size(), 1u);
    const std::string csvText = WriteCsv(*assembled.csv);
    EXPECT_NE(csvText.find("#API=CUDA\n"), std::string::npos);
    EXPECT_NE(csvText.find("_Z5saxpyPfPKffi__k1_NVIDIA H2001, 1, 555, 1, {1048576       1       1}, {  256     1     1}"),
              std::string::npos)
        << csvText;
    const Parsed<CsvFile> csvBack = ParseCsv(csvText, {true});
    ASSERT_TRUE(csvBack.ok()) << csvBack.Describe();
    EXPECT_EQ(csvBack.file.rows[0].vgprs, 16u);
    EXPECT_FALSE(csvBack.file.rows[0].sgprs);
}

}  // namespace
}  // namespace gpaprof::cuda
