// Raw call lines (src/tools/gpaprof/cuda/raw_call_line.h): a call written as the bytes of its parameter struct
// reads back, once gpaprof expands it, as the very 'A' line the call would have had, and assembles into the same
// .atp; calls whose arguments need memory read at the call (strings, out-pointers) are never written raw.
#define __CUDA_API_VERSION_INTERNAL 1  // CUPTI's driver parameter structs need the driver's own types

#include <gtest/gtest.h>

#include <cuda.h>
#include <cupti_driver_cbid.h>
#include <cupti_runtime_cbid.h>
#include <generated_cuda_meta.h>
#include <generated_cuda_runtime_api_meta.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "tools/gpaprof/cuda/arg_format.h"
#include "tools/gpaprof/cuda/cuda_api_table.h"
#include "tools/gpaprof/cuda/cuda_records.h"
#include "tools/gpaprof/cuda/raw_call_line.h"
#include "tools/gpaprof/files/atp_file.h"
#include "tools/gpaprof/spool/spool_assembler.h"
#include "tools/gpaprof/spool/spool_records.h"

namespace gpaprof::cuda {
namespace {

struct Call {
    CudaDomain domain;
    uint32_t cbid;
    const void* params;
    int32_t returnCode;
};

// The 'A' line the CUDA part writes for a call when it formats the arguments itself.
std::string FormattedLine(const Call& call, uint64_t threadId, uint64_t index, uint64_t start, uint64_t end) {
    const CudaApiInfo* info = FindApi(call.domain, call.cbid);
    EXPECT_NE(info, nullptr);
    ArgContext context;
    context.succeeded = call.returnCode == 0;
    ArgList args;
    FormatArguments(call.domain, call.cbid, call.params, context, &args);
    std::vector<std::string_view> views;
    for (size_t i = 0; i < args.size(); ++i) views.push_back(args[i]);
    const std::string returnValue = StatusText(call.domain, call.returnCode);
    spool::CallLineFields fields;
    fields.part = "cuda";
    fields.threadId = threadId;
    fields.index = index;
    fields.apiType = info->apiType;
    fields.name = info->name;
    fields.returnValue = returnValue;
    fields.args = views.data();
    fields.argCount = views.size();
    fields.start = start;
    fields.end = end;
    std::string line;
    spool::EncodeCallLine(fields, &line);
    return line;
}

std::string RawLine(const Call& call, uint64_t threadId, uint64_t index, uint64_t start, uint64_t end) {
    const CudaApiInfo* info = FindApi(call.domain, call.cbid);
    EXPECT_NE(info, nullptr);
    const int size = RawParamsSize(call.domain, call.cbid);
    EXPECT_GE(size, 0) << info->name;
    RawCallFields raw;
    raw.threadId = threadId;
    raw.index = index;
    raw.apiType = info->apiType;
    raw.returnCode = call.returnCode;
    raw.start = start;
    raw.end = end;
    raw.params = call.params;
    raw.paramsSize = static_cast<size_t>(size);
    std::string line;
    EncodeRawCallLine(raw, &line);
    return line;
}

std::string Expanded(const std::string& rawLine) {
    std::string line, error;
    EXPECT_FALSE(rawLine.empty());
    EXPECT_EQ(rawLine.back(), '\n');
    EXPECT_TRUE(ExpandRawCallLine(std::string_view(rawLine).substr(0, rawLine.size() - 1), &line, &error)) << error;
    return line;
}

cudaLaunchKernel_v7000_params LaunchParams() {
    cudaLaunchKernel_v7000_params params;
    std::memset(static_cast<void*>(&params), 0, sizeof params);  // padding too
    params.func = reinterpret_cast<const void*>(uintptr_t{0x401000});
    params.gridDim = dim3(4096, 2, 1);
    params.blockDim = dim3(256, 1, 1);
    params.args = reinterpret_cast<void**>(uintptr_t{0x7FFD00001230});
    params.sharedMem = 48;
    params.stream = reinterpret_cast<cudaStream_t>(uintptr_t{0x5555AAAA0000});
    return params;
}

TEST(RawCallLines, ExpandIntoTheLineTheCallWouldHaveHad) {
    const cudaLaunchKernel_v7000_params launch = LaunchParams();
    cuLaunchKernel_params driverLaunch;
    std::memset(&driverLaunch, 0, sizeof driverLaunch);
    driverLaunch.f = reinterpret_cast<CUfunction>(uintptr_t{0xDEADBEEF0});
    driverLaunch.gridDimX = 7, driverLaunch.gridDimY = 1, driverLaunch.gridDimZ = 3;
    driverLaunch.blockDimX = 1024, driverLaunch.blockDimY = 1, driverLaunch.blockDimZ = 1;
    driverLaunch.sharedMemBytes = 65536;
    cudaMemcpyAsync_v3020_params copy;
    std::memset(&copy, 0, sizeof copy);
    copy.dst = reinterpret_cast<void*>(uintptr_t{0x7F0000000000});
    copy.src = reinterpret_cast<const void*>(uintptr_t{0x1000});
    copy.count = 1u << 20;
    copy.kind = cudaMemcpyHostToDevice;
    const Call calls[] = {
        {CudaDomain::Runtime, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, &launch, 0},
        {CudaDomain::Runtime, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, &launch, cudaErrorInvalidConfiguration},
        {CudaDomain::Runtime, CUPTI_RUNTIME_TRACE_CBID_cudaGetLastError_v3020, nullptr, 0},
        {CudaDomain::Runtime, CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_v3020, &copy, 0},
        {CudaDomain::Driver, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, &driverLaunch, 0},
        {CudaDomain::Driver, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, &driverLaunch, CUDA_ERROR_INVALID_VALUE},
    };
    uint64_t index = 0;
    for (const Call& call : calls) {
        const uint64_t start = 1764000000000000000ull + index * 1000, end = start + 999;
        const std::string formatted = FormattedLine(call, 4242, index, start, end);
        EXPECT_EQ(Expanded(RawLine(call, 4242, index, start, end)), formatted);
        ++index;
    }
    // What the lines say, once: the launch's grid, a status by name, the copy kind by name.
    EXPECT_NE(Expanded(RawLine(calls[0], 1, 0, 5, 6)).find("{4096,2,1}\t{256,1,1}"), std::string::npos);
    EXPECT_NE(Expanded(RawLine(calls[1], 1, 0, 5, 6)).find("cudaErrorInvalidConfiguration"), std::string::npos);
    EXPECT_NE(Expanded(RawLine(calls[3], 1, 0, 5, 6)).find("cudaMemcpyHostToDevice"), std::string::npos);
    EXPECT_NE(Expanded(RawLine(calls[5], 1, 0, 5, 6)).find("CUDA_ERROR_INVALID_VALUE"), std::string::npos);
}

TEST(RawCallLines, OnlyCallsFormattedFromTheirBytesAreWrittenRaw) {
    EXPECT_EQ(RawParamsSize(CudaDomain::Runtime, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000),
              static_cast<int>(sizeof(cudaLaunchKernel_v7000_params)));
    EXPECT_EQ(RawParamsSize(CudaDomain::Driver, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel),
              static_cast<int>(sizeof(cuLaunchKernel_params)));
    EXPECT_EQ(RawParamsSize(CudaDomain::Runtime, CUPTI_RUNTIME_TRACE_CBID_cudaGetLastError_v3020), 0);  // no arguments
    // An out-pointer (the allocation's address, read after the call) and strings are read at the call.
    EXPECT_EQ(RawParamsSize(CudaDomain::Runtime, CUPTI_RUNTIME_TRACE_CBID_cudaMalloc_v3020), -1);
    EXPECT_EQ(RawParamsSize(CudaDomain::Driver, CUPTI_DRIVER_TRACE_CBID_cuModuleGetFunction), -1);
    EXPECT_EQ(RawParamsSize(CudaDomain::Driver, CUPTI_DRIVER_TRACE_CBID_cuMemAlloc_v2), -1);
    EXPECT_EQ(RawParamsSize(CudaDomain::Runtime, 999999), -1);
    // Calls that return a string or a struct keep their 'A' line.
    EXPECT_FALSE(ReturnsStatusCode(CudaDomain::Runtime, "cudaGetErrorString"));
    EXPECT_FALSE(ReturnsStatusCode(CudaDomain::Runtime, "cudaGetErrorName"));
    EXPECT_FALSE(ReturnsStatusCode(CudaDomain::Runtime, "cudaCreateChannelDesc"));
    EXPECT_TRUE(ReturnsStatusCode(CudaDomain::Runtime, "cudaLaunchKernel"));
    EXPECT_TRUE(ReturnsStatusCode(CudaDomain::Driver, "cuLaunchKernel"));

    static_assert(FormatsWithoutReading<const void*>(ArgStyle::Plain));
    static_assert(FormatsWithoutReading<void**>(ArgStyle::Input));     // kernel arguments: an address
    static_assert(!FormatsWithoutReading<void**>(ArgStyle::Plain));    // an out-pointer: its value after the call
    static_assert(!FormatsWithoutReading<const char*>(ArgStyle::Plain));
    static_assert(!FormatsWithoutReading<int*>(ArgStyle::Plain));
    static_assert(FormatsWithoutReading<const int*>(ArgStyle::Plain));
    static_assert(FormatsWithoutReading<dim3>(ArgStyle::Plain));
    static_assert(FormatsWithoutReading<CUstream>(ArgStyle::Plain));   // a handle: a pointer to an opaque struct
    static_assert(FormatsWithoutReading<cudaMemcpyKind>(ArgStyle::Plain));
    // Every function the table calls raw formats the same from a copy of its struct as from the original.
    size_t raw = 0;
    for (const CudaApiInfo& info : AllApis()) {
        const int size = RawParamsSize(info.domain, info.cbid);
        if (size <= 0) continue;
        ++raw;
        ASSERT_LE(static_cast<size_t>(size), kMaxRawParamsBytes) << info.name;
    }
    EXPECT_GT(raw, 100u);
}

// A raw line's header in hex, as EncodeRawCallLine writes it (little-endian fields), for lines made by hand.
std::string HeaderHex(uint64_t threadId, uint64_t index, uint32_t apiType, int32_t returnCode, uint64_t start,
                      uint64_t duration) {
    unsigned char bytes[kRawCallHeaderBytes];
    std::memcpy(bytes, &threadId, 8);
    std::memcpy(bytes + 8, &index, 8);
    std::memcpy(bytes + 16, &apiType, 4);
    std::memcpy(bytes + 20, &returnCode, 4);
    std::memcpy(bytes + 24, &start, 8);
    std::memcpy(bytes + 32, &duration, 8);
    std::string hex;
    char pair[3];
    for (unsigned char byte : bytes) {
        std::snprintf(pair, sizeof pair, "%02x", byte);
        hex += pair;
    }
    return hex;
}

TEST(RawCallLines, HeaderIsHexOfLittleEndianFields) {
    RawCallFields raw;
    raw.threadId = 0x1234;
    raw.index = 7;
    raw.apiType = CUPTI_RUNTIME_TRACE_CBID_cudaGetLastError_v3020;
    raw.returnCode = -2;
    raw.start = 1000;
    raw.end = 1500;
    std::string line;
    EncodeRawCallLine(raw, &line);
    EXPECT_EQ(line, "B" + HeaderHex(0x1234, 7, raw.apiType, -2, 1000, 500) + "\n");
    // An end before the start (clocks read on two threads) is a duration of 0, not a wrapped one.
    raw.end = 900;
    line.clear();
    EncodeRawCallLine(raw, &line);
    EXPECT_EQ(line, "B" + HeaderHex(0x1234, 7, raw.apiType, -2, 1000, 0) + "\n");
}

// The parameter bytes as two lowercase digits each, for every byte value and for lengths that end inside and on the
// encoder's 16-byte blocks (header and parameters are encoded as one run).
TEST(RawCallLines, ParameterBytesAreHexForEveryValueAndLength) {
    std::vector<unsigned char> params(300);
    for (size_t i = 0; i < params.size(); ++i) params[i] = static_cast<unsigned char>((i * 37 + 11) % 256);
    for (size_t i = 0; i < 256; ++i) params[i] = static_cast<unsigned char>(255 - i);  // every value once
    for (size_t size : {size_t{0}, size_t{1}, size_t{7}, size_t{8}, size_t{15}, size_t{16}, size_t{24}, size_t{40},
                        size_t{48}, size_t{63}, size_t{256}, size_t{300}}) {
        SCOPED_TRACE("size " + std::to_string(size));
        RawCallFields raw;
        raw.threadId = 0xfedcba9876543210ull;
        raw.index = 42;
        raw.apiType = 9;
        raw.returnCode = 0;
        raw.start = 5;
        raw.end = 6;
        raw.params = params.data();
        raw.paramsSize = size;
        std::string expected = "B" + HeaderHex(0xfedcba9876543210ull, 42, 9, 0, 5, 1);
        char pair[3];
        for (size_t i = 0; i < size; ++i) {
            std::snprintf(pair, sizeof pair, "%02x", params[i]);
            expected += pair;
        }
        expected += "\n";
        std::string line;
        EncodeRawCallLine(raw, &line);
        EXPECT_EQ(line, expected);
    }
}

TEST(RawCallLines, LinesThatAreNotRawCallsSayWhy) {
    std::string line, error;
    EXPECT_FALSE(ExpandRawCallLine("A\tcuda\t1", &line, &error));
    EXPECT_NE(error.find("not a raw CUDA call line"), std::string::npos);
    EXPECT_FALSE(ExpandRawCallLine("B0011", &line, &error));
    EXPECT_NE(error.find("shorter than its header"), std::string::npos) << error;
    EXPECT_FALSE(ExpandRawCallLine("B" + HeaderHex(1, 2, 0, 0, 5, 6) + "0", &line, &error));
    EXPECT_NE(error.find("or odd"), std::string::npos) << error;
    std::string notHex = "B" + HeaderHex(1, 2, 0, 0, 5, 6);
    notHex[3] = 'x';
    EXPECT_FALSE(ExpandRawCallLine(notHex, &line, &error));
    EXPECT_NE(error.find("header is not hex digits"), std::string::npos) << error;
    EXPECT_FALSE(ExpandRawCallLine("B" + HeaderHex(1, 2, 9999, 0, 5, 6), &line, &error));
    EXPECT_NE(error.find("does not have"), std::string::npos) << error;
    const uint32_t launchType = CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000;
    EXPECT_FALSE(ExpandRawCallLine("B" + HeaderHex(1, 2, launchType, 0, 5, 6) + "00ff", &line, &error));
    EXPECT_NE(error.find("cudaLaunchKernel with 2 bytes of arguments"), std::string::npos) << error;
    const std::string zz(2 * sizeof(cudaLaunchKernel_v7000_params), 'z');
    EXPECT_FALSE(ExpandRawCallLine("B" + HeaderHex(1, 2, launchType, 0, 5, 6) + zz, &line, &error));
    EXPECT_NE(error.find("arguments are not hex digits"), std::string::npos) << error;
    const std::string tail(2 * sizeof(cudaLaunchKernel_v7000_params) + 2, '0');
    EXPECT_FALSE(ExpandRawCallLine("B" + HeaderHex(1, 2, launchType, 0, 5, 6) + tail, &line, &error));
    EXPECT_NE(error.find("bytes of arguments"), std::string::npos) << error;
    const uint32_t errorName = CUPTI_RUNTIME_TRACE_CBID_cudaGetErrorName_v6050;
    EXPECT_FALSE(ExpandRawCallLine("B" + HeaderHex(1, 2, errorName, 0, 5, 6) + "00000000", &line, &error));
    EXPECT_NE(error.find("returns no status code"), std::string::npos) << error;
    EXPECT_TRUE(line.empty());
}

// The same calls as raw lines and as 'A' lines assemble into the same .atp; without the expander, a raw line is
// counted as a bad record and the others still assemble.
// gpaprof's writer thread appends a thread's raw call lines up to about 5 ms after the calls (raw_call_rings.h),
// often after the kernel, command and device-time lines of the same calls: the trace is the same wherever the call
// lines stand in the spool.
TEST(RawCallLines, TheTraceIsTheSameWhereverTheCallLinesStand) {
    const cudaLaunchKernel_v7000_params launch = LaunchParams();
    const Call call = {CudaDomain::Runtime, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, &launch, 0};
    spool::ProcessRecord process;
    process.pid = 98;
    process.application = "/opt/app/launch_loop";
    process.outputBase = "/tmp/raw_order";
    const std::string head = spool::Encode(process);
    constexpr uint64_t kLaunches = 100;
    std::string interleaved = head, callLines, kernelLines;
    for (uint64_t i = 0; i < kLaunches; ++i) {
        const uint64_t start = 1000000 + i * 1000;
        const std::string line = RawLine(call, 77, i, start, start + 50);
        KernelActivity kernel;
        kernel.name = "_Z5saxpyPfPKffi";
        kernel.start = start + 200;
        kernel.end = start + 700;
        kernel.correlationId = static_cast<uint32_t>(i + 1);
        kernel.grid[0] = 4096, kernel.grid[1] = kernel.grid[2] = 1;
        kernel.block[0] = 256, kernel.block[1] = kernel.block[2] = 1;
        EnqueueInfo info;
        info.threadId = 77;
        info.index = i;
        info.contextHandle = 0x6000;
        info.kernelHandle = 0x4000;
        std::string kernelLine;
        AppendKernelLines(kernel, info.kernelHandle, &info, "NVIDIA H200", "", &kernelLine);
        interleaved += line + kernelLine;
        callLines += line;
        kernelLines += kernelLine;
    }
    AssemblyOptions options;
    options.trace = true;
    options.expandRawCall = &ExpandRawCallLine;
    const AssembledProcess reference = AssembleSpool(interleaved, options, nullptr);
    ASSERT_TRUE(reference.atp);
    EXPECT_EQ(reference.apiCalls, kLaunches);
    const std::string expected = WriteAtp(*reference.atp);
    EXPECT_NE(expected.find("CUDA_KERNEL"), std::string::npos) << "the calls carry their kernels' commands";
    for (const std::string& spool : {head + kernelLines + callLines, head + callLines + kernelLines}) {
        const AssembledProcess assembled = AssembleSpool(spool, options, nullptr);
        ASSERT_TRUE(assembled.atp);
        EXPECT_EQ(assembled.badRecords, 0u);
        EXPECT_EQ(WriteAtp(*assembled.atp), expected);
        AssembledSpool direct(spool, options, nullptr);
        ASSERT_TRUE(direct.process().atp);
        EXPECT_EQ(WriteAtp(*direct.process().atp, direct.traceLines(), 2), expected);
    }
}

TEST(RawCallLines, AssembleIntoTheSameTrace) {
    const cudaLaunchKernel_v7000_params launch = LaunchParams();
    const Call calls[] = {
        {CudaDomain::Runtime, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, &launch, 0},
        {CudaDomain::Runtime, CUPTI_RUNTIME_TRACE_CBID_cudaGetLastError_v3020, nullptr, 0},
    };
    spool::ProcessRecord process;
    process.pid = 99;
    process.application = "/opt/app/launch_loop";
    process.outputBase = "/tmp/raw";
    const std::string head = spool::Encode(process);
    std::string formatted = head, raw = head;
    for (uint64_t i = 0; i < 200; ++i) {
        const Call& call = calls[i % 2];
        const uint64_t start = 1000000 + i * 100;
        formatted += FormattedLine(call, 77, i, start, start + 50);
        raw += RawLine(call, 77, i, start, start + 50);
    }
    AssemblyOptions options;
    options.trace = true;
    options.expandRawCall = &ExpandRawCallLine;
    const AssembledProcess fromFormatted = AssembleSpool(formatted, options, nullptr);
    for (size_t threads : {1u, 3u}) {
        options.threads = threads;
        const AssembledProcess fromRaw = AssembleSpool(raw, options, nullptr);
        ASSERT_TRUE(fromRaw.atp);
        EXPECT_EQ(fromRaw.badRecords, 0u);
        EXPECT_EQ(fromRaw.apiCalls, 200u);
        EXPECT_EQ(WriteAtp(*fromRaw.atp), WriteAtp(*fromFormatted.atp));
        // gpaprof's way: the trace written from the spool's lines, raw lines expanded as they are written.
        AssembledSpool direct(raw, options, nullptr);
        ASSERT_TRUE(direct.process().atp);
        EXPECT_EQ(WriteAtp(*direct.process().atp, direct.traceLines(), threads), WriteAtp(*fromFormatted.atp));
    }
    const std::string atp = WriteAtp(*fromFormatted.atp);
    EXPECT_NE(atp.find("cudaSuccess = cudaLaunchKernel ( 0x0000000000401000;{4096,2,1};{256,1,1};"), std::string::npos) << atp;

    options.expandRawCall = nullptr;
    const AssembledProcess unexpanded = AssembleSpool(raw, options, nullptr);
    EXPECT_EQ(unexpanded.badRecords, 200u);
    bool said = false;
    for (const std::string& problem : unexpanded.spoolProblems) said = said || problem.find("built without the CUDA part") != std::string::npos;
    EXPECT_TRUE(said);
}

}  // namespace
}  // namespace gpaprof::cuda
