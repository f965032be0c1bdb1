#include "tools/gpaprof/cuda/raw_kernel_line.h"

#include <cstring>

#include "tools/gpaprof/spool/spool_records.h"

namespace gpaprof::cuda {
namespace {

// The header's fields in their order and sizes (no padding: checked below).
struct RawKernelHeader {
    uint64_t start;
    uint64_t end;
    uint64_t graphNodeId;
    uint64_t kernelHandle;        // with kHasHandle
    uint64_t launchThreadId;      // with kHasLaunch: the traced launch call's EnqueueInfo
    uint64_t launchIndex;
    uint64_t streamHandle;
    uint64_t contextHandle;
    uint64_t launchKernelHandle;
    uint32_t deviceId;
    uint32_t contextId;
    uint32_t streamId;
    uint32_t correlationId;
    int32_t grid[3];
    int32_t block[3];
    uint32_t cluster[3];
    uint32_t registersPerThread;
    int32_t staticSharedMemory;
    int32_t dynamicSharedMemory;
    uint32_t localMemoryPerThread;
    uint32_t graphId;
    uint8_t launchType;
    uint8_t flags;
    uint8_t unused[6];
};
static_assert(sizeof(RawKernelHeader) == 152, "no padding in the raw kernel header");
constexpr uint8_t kHasHandle = 1, kHasLaunch = 2;

// The tab-separated fields after the record letter.
constexpr size_t kFields = 4;

}  // namespace

void AppendRawKernelLine(const KernelActivity& kernel, std::string_view name, std::optional<uint64_t> kernelHandle,
                         const EnqueueInfo* launch, std::string_view deviceName, std::string_view clockKey,
                         std::string* out) {
    RawKernelHeader header{};
    header.start = kernel.start;
    header.end = kernel.end;
    header.graphNodeId = kernel.graphNodeId;
    if (kernelHandle) {
        header.kernelHandle = *kernelHandle;
        header.flags |= kHasHandle;
    }
    if (launch) {
        header.launchThreadId = launch->threadId;
        header.launchIndex = launch->index;
        header.streamHandle = launch->streamHandle;
        header.contextHandle = launch->contextHandle;
        header.launchKernelHandle = launch->kernelHandle;
        header.flags |= kHasLaunch;
    }
    header.deviceId = kernel.deviceId;
    header.contextId = kernel.contextId;
    header.streamId = kernel.streamId;
    header.correlationId = kernel.correlationId;
    std::memcpy(header.grid, kernel.grid, sizeof header.grid);
    std::memcpy(header.block, kernel.block, sizeof header.block);
    std::memcpy(header.cluster, kernel.cluster, sizeof header.cluster);
    header.registersPerThread = kernel.registersPerThread;
    header.staticSharedMemory = kernel.staticSharedMemory;
    header.dynamicSharedMemory = kernel.dynamicSharedMemory;
    header.localMemoryPerThread = kernel.localMemoryPerThread;
    header.graphId = kernel.graphId;
    header.launchType = kernel.launchType;
    spool::LineWriter('R', out).Hex(&header, sizeof header).Text(name).Text(deviceName).Text(clockKey).Done();
}

bool ExpandRawKernelLine(std::string_view line, std::string* lines, std::string* error) {
    if (line.empty() || line[0] != 'R') {
        *error = "not a raw CUDA kernel line";
        return false;
    }
    std::string_view fields[kFields];
    std::string_view rest = line.substr(1);
    for (size_t i = 0; i < kFields; ++i) {
        if (rest.empty() || rest[0] != '\t') {
            *error = "a raw CUDA kernel line with " + std::to_string(i) + " fields, where " + std::to_string(kFields) +
                     " were expected";
            return false;
        }
        rest.remove_prefix(1);
        const size_t tab = rest.find('\t');
        fields[i] = rest.substr(0, tab);
        rest = tab == std::string_view::npos ? std::string_view() : rest.substr(tab);
    }
    if (!rest.empty()) {
        *error = "a raw CUDA kernel line with more than " + std::to_string(kFields) + " fields";
        return false;
    }
    RawKernelHeader header{};
    if (fields[0].size() != 2 * sizeof header ||
        !spool::FromHex(fields[0], reinterpret_cast<unsigned char*>(&header))) {
        *error = "a raw CUDA kernel line whose header is not " + std::to_string(2 * sizeof header) + " hex digits";
        return false;
    }
    KernelActivity kernel;
    kernel.name = spool::UnescapeField(fields[1]);
    kernel.start = header.start;
    kernel.end = header.end;
    kernel.graphNodeId = header.graphNodeId;
    kernel.deviceId = header.deviceId;
    kernel.contextId = header.contextId;
    kernel.streamId = header.streamId;
    kernel.correlationId = header.correlationId;
    std::memcpy(kernel.grid, header.grid, sizeof kernel.grid);
    std::memcpy(kernel.block, header.block, sizeof kernel.block);
    std::memcpy(kernel.cluster, header.cluster, sizeof kernel.cluster);
    kernel.registersPerThread = header.registersPerThread;
    kernel.staticSharedMemory = header.staticSharedMemory;
    kernel.dynamicSharedMemory = header.dynamicSharedMemory;
    kernel.localMemoryPerThread = header.localMemoryPerThread;
    kernel.graphId = header.graphId;
    kernel.launchType = header.launchType;
    EnqueueInfo launch;
    launch.threadId = header.launchThreadId;
    launch.index = header.launchIndex;
    launch.streamHandle = header.streamHandle;
    launch.contextHandle = header.contextHandle;
    launch.kernelHandle = header.launchKernelHandle;
    const std::optional<uint64_t> handle = header.flags & kHasHandle ? std::optional<uint64_t>(header.kernelHandle) : std::nullopt;
    AppendKernelLines(kernel, handle, header.flags & kHasLaunch ? &launch : nullptr, spool::UnescapeField(fields[2]),
                      spool::UnescapeField(fields[3]), lines);
    return true;
}

}  // namespace gpaprof::cuda
