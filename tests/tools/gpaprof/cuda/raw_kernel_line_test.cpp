// Raw kernel lines (src/tools/gpaprof/cuda/raw_kernel_line.h): a kernel's activity record written as bytes reads
// back, once gpaprof expands it, as the very 'Q', 'E' and 'T' lines the activity thread used to write, and a spool of
// such lines assembles into the same .atp; lines that are not raw kernel lines are refused with the reason.
#include <gtest/gtest.h>

#include <cupti_runtime_cbid.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "tools/gpaprof/cuda/cuda_api_table.h"
#include "tools/gpaprof/cuda/cuda_records.h"
#include "tools/gpaprof/cuda/raw_call_line.h"
#include "tools/gpaprof/cuda/raw_kernel_line.h"
#include "tools/gpaprof/files/atp_file.h"
#include "tools/gpaprof/spool/spool_assembler.h"
#include "tools/gpaprof/spool/spool_records.h"

namespace gpaprof::cuda {
namespace {

KernelActivity Saxpy(uint32_t correlationId, uint64_t start) {
    KernelActivity kernel;
    kernel.name = "_Z5saxpyPfPKffi";
    kernel.start = start;
    kernel.end = start + 2048;
    kernel.deviceId = 1;
    kernel.contextId = 3;
    kernel.streamId = 7;
    kernel.correlationId = correlationId;
    kernel.grid[0] = 4096, kernel.grid[1] = 2, kernel.grid[2] = 1;
    kernel.block[0] = 256, kernel.block[1] = kernel.block[2] = 1;
    kernel.registersPerThread = 16;
    kernel.staticSharedMemory = 1024;
    kernel.dynamicSharedMemory = 48;
    kernel.localMemoryPerThread = 8;
    return kernel;
}

EnqueueInfo Launch(uint64_t threadId, uint64_t index) {
    EnqueueInfo launch;
    launch.threadId = threadId;
    launch.index = index;
    launch.streamHandle = 0x5555AAAA0000;
    launch.contextHandle = 0x6000;
    launch.kernelHandle = 0xDEADBEEF0;
    return launch;
}

struct Case {
    const char* what;
    KernelActivity kernel;
    std::optional<uint64_t> handle;
    std::optional<EnqueueInfo> launch;
    std::string deviceName;
    std::string clockKey;
};

std::vector<Case> Cases() {
    std::vector<Case> cases;
    cases.push_back({"a traced launch", Saxpy(11, 1000000), 0xDEADBEEF0, Launch(77, 5), "NVIDIA H200", "cpu"});
    cases.push_back({"no launch, no handle (a kernel of an untraced call)", Saxpy(12, 2000000), std::nullopt, std::nullopt,
                     "NVIDIA H100 80GB HBM3", "cupti"});
    Case graph{"a graph kernel with a cluster", Saxpy(0, 3000000), std::nullopt, std::nullopt, "NVIDIA H200", "cpu"};
    graph.kernel.graphId = 9;
    graph.kernel.graphNodeId = 0x1234567890ABCDEFull;
    graph.kernel.cluster[0] = 2, graph.kernel.cluster[1] = 1, graph.kernel.cluster[2] = 1;
    cases.push_back(graph);
    Case cooperative{"a cooperative launch", Saxpy(13, 4000000), 0xBEEF, Launch(78, 1), "NVIDIA H200", "cpu"};
    cooperative.kernel.launchType = 1;
    cases.push_back(cooperative);
    Case odd{"text that needs escaping, negative sizes, large numbers", Saxpy(UINT32_MAX, UINT64_MAX - 5000), 0, Launch(UINT64_MAX, 0),
             "dev\\ice\tname\n", "cl\rock"};
    odd.kernel.name = "void k<\\t>(int)\tname\nwith\rescapes";
    odd.kernel.grid[0] = -1;
    odd.kernel.staticSharedMemory = -4;
    cases.push_back(odd);
    Case empty{"an empty name", Saxpy(14, 5), std::nullopt, Launch(1, 2), "", ""};
    empty.kernel.name.clear();
    cases.push_back(empty);
    return cases;
}

TEST(RawKernelLines, ExpandIntoTheLinesTheActivityThreadWrote) {
    for (const Case& c : Cases()) {
        SCOPED_TRACE(c.what);
        std::string expected;
        AppendKernelLines(c.kernel, c.handle, c.launch ? &*c.launch : nullptr, c.deviceName, c.clockKey, &expected);
        KernelActivity nameless = c.kernel;
        nameless.name = "not read";  // the name is the argument's
        std::string raw = "earlier text\n";
        AppendRawKernelLine(nameless, c.kernel.name, c.handle, c.launch ? &*c.launch : nullptr, c.deviceName, c.clockKey, &raw);
        ASSERT_EQ(raw.rfind("earlier text\n", 0), 0u) << "appended";
        const std::string line = raw.substr(13);
        ASSERT_EQ(line.back(), '\n');
        EXPECT_EQ(line.find('\n'), line.size() - 1) << "one line";
        EXPECT_EQ(line[0], 'R');
        std::string lines = "kept\n", error;
        ASSERT_TRUE(ExpandRawKernelLine(std::string_view(line).substr(0, line.size() - 1), &lines, &error)) << error;
        EXPECT_EQ(lines, "kept\n" + expected);
    }
}

TEST(RawKernelLines, OtherLinesAreRefusedWithTheReason) {
    std::string good;
    const EnqueueInfo launch = Launch(77, 5);
    AppendRawKernelLine(Saxpy(1, 100), "k", 0x10, &launch, "NVIDIA H200", "cpu", &good);
    good.pop_back();
    const size_t hexEnd = good.find('\t', 2);
    const std::string hex = good.substr(2, hexEnd - 2);
    const std::string tail = good.substr(hexEnd);  // the name, device and clock fields
    struct Bad {
        std::string line;
        std::string said;
    };
    std::string notHex = hex;
    notHex[10] = 'G';
    const Bad bad[] = {
        {"", "not a raw CUDA kernel line"},
        {"Q\tcuda", "not a raw CUDA kernel line"},
        {"R", "with 0 fields, where 4 were expected"},
        {"R\t" + hex + "\tk\tNVIDIA H200", "with 3 fields, where 4 were expected"},
        {good + "\textra", "with more than 4 fields"},
        {"R\t" + hex.substr(2) + tail, "whose header is not 304 hex digits"},
        {"R\t" + notHex + tail, "whose header is not 304 hex digits"},
        {"R" + hex + tail, "with 0 fields"},
    };
    for (const Bad& b : bad) {
        std::string lines, error;
        EXPECT_FALSE(ExpandRawKernelLine(b.line, &lines, &error)) << b.line;
        EXPECT_NE(error.find(b.said), std::string::npos) << error;
        EXPECT_TRUE(lines.empty());
    }
    std::string lines, error;
    EXPECT_TRUE(ExpandRawKernelLine(good, &lines, &error)) << error;
}

TEST(RawKernelLines, AssembleIntoTheSameTrace) {
    spool::ProcessRecord process;
    process.pid = 97;
    process.application = "/opt/app/launch_loop";
    process.outputBase = "/tmp/raw_kernels";
    const std::string head = spool::Encode(process);
    std::string formatted = head, raw = head;
    constexpr uint64_t kLaunches = 300;
    for (uint64_t i = 0; i < kLaunches; ++i) {
        const uint64_t start = 1000000 + i * 1000;
        constexpr uint32_t kGetLastError = CUPTI_RUNTIME_TRACE_CBID_cudaGetLastError_v3020;  // stands for any call
        RawCallFields call;
        call.threadId = 77;
        call.index = i;
        call.apiType = FindApi(CudaDomain::Runtime, kGetLastError)->apiType;
        call.start = start;
        call.end = start + 50;
        call.paramsSize = static_cast<size_t>(std::max(0, RawParamsSize(CudaDomain::Runtime, kGetLastError)));
        std::vector<unsigned char> params(call.paramsSize, 0);
        call.params = params.data();
        std::string callLine;
        EncodeRawCallLine(call, &callLine);
        KernelActivity kernel = Saxpy(static_cast<uint32_t>(i + 1), start + 200);
        const EnqueueInfo launch = Launch(77, i);
        const bool traced = i % 3 != 0;  // every third kernel without its launch
        std::string kernelLines, rawKernel;
        AppendKernelLines(kernel, 0xDEADBEEF0, traced ? &launch : nullptr, "NVIDIA H200", "cpu", &kernelLines);
        AppendRawKernelLine(kernel, kernel.name, 0xDEADBEEF0, traced ? &launch : nullptr, "NVIDIA H200", "cpu", &rawKernel);
        formatted += callLine + kernelLines;
        raw += callLine + rawKernel;
    }
    AssemblyOptions options;
    options.trace = true;
    options.expandRawCall = &ExpandRawCallLine;
    options.expandRawKernel = &ExpandRawKernelLine;
    const AssembledProcess reference = AssembleSpool(formatted, options, nullptr);
    ASSERT_TRUE(reference.atp);
    const std::string expected = WriteAtp(*reference.atp);
    EXPECT_NE(expected.find("CUDA_KERNEL"), std::string::npos);
    EXPECT_NE(expected.find("_Z5saxpyPfPKffi"), std::string::npos);
    for (size_t threads : {1u, 3u}) {
        options.threads = threads;
        const AssembledProcess assembled = AssembleSpool(raw, options, nullptr);
        ASSERT_TRUE(assembled.atp);
        EXPECT_EQ(assembled.badRecords, 0u);
        EXPECT_EQ(WriteAtp(*assembled.atp), expected);
        // gpaprof's way: the trace written from the spool's lines.
        AssembledSpool direct(raw, options, nullptr);
        ASSERT_TRUE(direct.process().atp);
        EXPECT_EQ(WriteAtp(*direct.process().atp, direct.traceLines(), threads), expected);
    }

    options.expandRawKernel = nullptr;
    const AssembledProcess unexpanded = AssembleSpool(raw, options, nullptr);
    EXPECT_EQ(unexpanded.badRecords, kLaunches);
    bool said = false;
    for (const std::string& problem : unexpanded.spoolProblems) {
        said = said || problem.find("a raw CUDA kernel line, and this gpaprof was built without the CUDA part") != std::string::npos;
    }
    EXPECT_TRUE(said);
}

}  // namespace
}  // namespace gpaprof::cuda
