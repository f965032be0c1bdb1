#include "tools/gpaprof/cuda/cuda_records.h"

#include <cctype>
#include <charconv>
#include <cstdio>
#include <cstring>

#include "tools/gpaprof/files/text_fields.h"
#include "tools/gpaprof/spool/spool_records.h"

namespace gpaprof::cuda {
namespace {

const char* const kCopyKindNames[] = {"UNKNOWN", "HTOD", "DTOH", "HTOA", "ATOH", "ATOA",
                                      "ATOD",    "DTOA", "DTOD", "HTOH", "PTOP"};
constexpr uint32_t kCopyKinds = sizeof kCopyKindNames / sizeof kCopyKindNames[0];

std::string Triple(const int32_t values[3]) {
    return "{" + std::to_string(values[0]) + "," + std::to_string(values[1]) + "," + std::to_string(values[2]) + "}";
}

std::string Triple(const uint32_t values[3]) {
    return "{" + std::to_string(values[0]) + "," + std::to_string(values[1]) + "," + std::to_string(values[2]) + "}";
}

uint64_t NonNegative(int32_t value) { return value < 0 ? 0 : static_cast<uint64_t>(value); }

// Appends to a character buffer that has room (the packet fields: at most 21 numbers).
class Chars {
public:
    Chars& operator<<(std::string_view text) {
        std::memcpy(p_, text.data(), text.size());
        p_ += text.size();
        return *this;
    }
    template <typename T>
    Chars& Put(T value) {
        p_ = std::to_chars(p_, p_ + 24, value).ptr;
        return *this;
    }
    template <typename T>
    Chars& Triple(const T (&values)[3]) {
        *this << "{";
        Put(values[0]) << ",";
        Put(values[1]) << ",";
        return Put(values[2]) << "}";
    }
    std::string_view View() const { return std::string_view(buffer_, static_cast<size_t>(p_ - buffer_)); }

private:
    char buffer_[640];
    char* p_ = buffer_;
};

std::string_view PacketType(const KernelActivity& kernel) {
    if (kernel.graphId != 0) return "CUDA_GRAPH_KERNEL";
    if (kernel.launchType == 1 || kernel.launchType == 2) return "CUDA_COOPERATIVE_KERNEL";
    return "CUDA_KERNEL";
}

}  // namespace

std::string CommandTypeName(uint32_t commandType) {
    if (commandType == kCommandKernel) return "CUDA_KERNEL";
    if (commandType == kCommandMemset) return "CUDA_MEMSET";
    if (commandType >= kCommandMemcpyBase && commandType < kCommandMemcpyBase + kCopyKinds) {
        return std::string("CUDA_MEMCPY_") + kCopyKindNames[commandType - kCommandMemcpyBase];
    }
    return "CUDA_COMMAND_" + std::to_string(commandType);
}

uint32_t MemcpyCommandType(uint32_t cuptiCopyKind) {
    return kCommandMemcpyBase + (cuptiCopyKind < kCopyKinds ? cuptiCopyKind : 0);
}

KernelTimestamp MakeKernelTimestamp(const KernelActivity& kernel, const std::string& deviceName,
                                    std::optional<uint64_t> kernelHandle) {
    KernelTimestamp entry;
    entry.kernelName = kernel.name;
    entry.kernelObject = kernelHandle ? HexHandle(*kernelHandle) : std::string("NA");
    entry.start = kernel.start;
    entry.end = kernel.end;
    entry.agentName = deviceName;
    entry.agentHandle = HexHandle(kernel.deviceId);
    entry.queueIndex = kernel.streamId;
    entry.deviceIndex = kernel.deviceId;
    entry.packetType = PacketType(kernel);
    entry.packetId = kernel.correlationId;
    std::string fields = "{grid=" + Triple(kernel.grid) + ",block=" + Triple(kernel.block);
    if (kernel.cluster[0] || kernel.cluster[1] || kernel.cluster[2]) fields += ",cluster=" + Triple(kernel.cluster);
    fields += ",registers=" + std::to_string(kernel.registersPerThread) +
              ",staticShared=" + std::to_string(kernel.staticSharedMemory) +
              ",dynamicShared=" + std::to_string(kernel.dynamicSharedMemory) +
              ",localPerThread=" + std::to_string(kernel.localMemoryPerThread) +
              ",context=" + std::to_string(kernel.contextId) + ",stream=" + std::to_string(kernel.streamId);
    if (kernel.graphId != 0) {
        fields += ",graph=" + std::to_string(kernel.graphId) + ",graphNode=" + std::to_string(kernel.graphNodeId);
    }
    entry.packetFields = fields + "}";
    return entry;
}

CommandTimes MakeKernelCommand(const KernelActivity& kernel, const EnqueueInfo& call, const std::string& deviceName) {
    CommandTimes command;
    command.commandType = kCommandKernel;
    command.commandName = CommandTypeName(kCommandKernel);
    command.queueId = kernel.streamId;
    command.queueHandle = HexHandle(call.streamHandle);
    command.contextId = kernel.contextId;
    command.contextHandle = HexHandle(call.contextHandle);
    command.deviceName = deviceName;
    return command;
}

std::string PeerDeviceName(const std::string& sourceName, uint32_t source, const std::string& destinationName,
                           uint32_t destination) {
    return sourceName + " (device " + std::to_string(source) + ") -> " + destinationName + " (device " +
           std::to_string(destination) + ")";
}

CommandTimes MakeTransferCommand(const TransferActivity& transfer, const EnqueueInfo& call, const std::string& deviceName) {
    CommandTimes command;
    command.commandType = transfer.isMemset ? kCommandMemset : MemcpyCommandType(transfer.copyKind);
    command.commandName = CommandTypeName(command.commandType);
    command.queueId = transfer.streamId;
    command.queueHandle = HexHandle(call.streamHandle);
    command.contextId = transfer.contextId;
    command.contextHandle = HexHandle(call.contextHandle);
    command.deviceName = deviceName;
    return command;
}

KernelLaunch MakeKernelLaunch(const KernelActivity& kernel, uint64_t kernelHandle) {
    KernelLaunch launch;
    launch.kernelHandle = HexHandle(kernelHandle);
    launch.kernelName = kernel.name;
    for (int i = 0; i < 3; ++i) launch.globalSize.push_back(NonNegative(kernel.grid[i]) * NonNegative(kernel.block[i]));
    for (int i = 0; i < 3; ++i) launch.localSize.push_back(NonNegative(kernel.block[i]));
    return launch;
}

void AppendKernelLines(const KernelActivity& kernel, std::optional<uint64_t> kernelHandle, const EnqueueInfo* launch,
                       std::string_view deviceName, std::string_view clockKey, std::string* out) {
    char hex[18];
    Chars fields;
    fields << "{grid=";
    fields.Triple(kernel.grid) << ",block=";
    fields.Triple(kernel.block);
    if (kernel.cluster[0] || kernel.cluster[1] || kernel.cluster[2]) {
        fields << ",cluster=";
        fields.Triple(kernel.cluster);
    }
    fields << ",registers=";
    fields.Put(kernel.registersPerThread) << ",staticShared=";
    fields.Put(kernel.staticSharedMemory) << ",dynamicShared=";
    fields.Put(kernel.dynamicSharedMemory) << ",localPerThread=";
    fields.Put(kernel.localMemoryPerThread) << ",context=";
    fields.Put(kernel.contextId) << ",stream=";
    fields.Put(kernel.streamId);
    if (kernel.graphId != 0) {
        fields << ",graph=";
        fields.Put(kernel.graphId) << ",graphNode=";
        fields.Put(kernel.graphNodeId);
    }
    fields << "}";
    spool::LineWriter q('Q', out);
    q.Text("cuda").Text(clockKey).Text(kernel.name);
    q.Text(kernelHandle ? HexHandleText(*kernelHandle, hex) : std::string_view("NA"));
    q.Number(kernel.start).Number(kernel.end).Text(deviceName).Text(HexHandleText(kernel.deviceId, hex)).Number(kernel.streamId)
        .Number(kernel.deviceId).Text(PacketType(kernel)).Number(kernel.correlationId).Text(fields.View()).Done();
    if (!launch) return;
    const EnqueueInfo* call = launch;
    spool::LineWriter e('E', out);
    e.Text("cuda").Number(call->threadId).Number(call->index).Text(clockKey).Number(kCommandKernel).Text("CUDA_KERNEL")
        .Number(kernel.streamId).Text(HexHandleText(call->streamHandle, hex)).Number(kernel.contextId)
        .Text(HexHandleText(call->contextHandle, hex)).Text(deviceName).Flag(true).Text(HexHandleText(call->kernelHandle, hex))
        .Text(kernel.name).Number(3);
    for (int i = 0; i < 3; ++i) e.Number(NonNegative(kernel.grid[i]) * NonNegative(kernel.block[i]));
    e.Number(3);
    for (int i = 0; i < 3; ++i) e.Number(NonNegative(kernel.block[i]));
    e.Optional(std::optional<uint64_t>()).Done();
    spool::LineWriter('T', out).Text("cuda").Number(call->threadId).Number(call->index).Text(clockKey).Number(0).Number(0)
        .Number(kernel.start).Number(kernel.end).Done();
}

std::string MethodFor(const std::string& kernelName, uint32_t kernelId, const std::string& deviceName,
                      uint32_t deviceOrdinal) {
    MethodName method;
    method.kernel = kernelName;
    method.kernelId = kernelId;
    method.device = deviceName;
    method.deviceIndex = deviceOrdinal + 1;
    return method.ToString();
}

std::string CudaVersionText(int version) {
    if (version <= 0) return "NA";
    return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

std::string KernelDriverVersion(const std::string& procText) {
    // "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.159.04  Thu ..."
    const size_t module = procText.find("Kernel Module");
    if (module == std::string::npos) return {};
    size_t i = module + 13;
    while (i < procText.size() && procText[i] == ' ') ++i;
    size_t end = i;
    while (end < procText.size() && (std::isdigit(static_cast<unsigned char>(procText[end])) || procText[end] == '.')) ++end;
    return procText.substr(i, end - i);
}

DeviceHeader MakeDeviceHeader(const DeviceFacts& device) {
    DeviceHeader header;
    header.name = device.name;
    header.platformVendor = "NVIDIA Corporation";
    header.platformName = "NVIDIA CUDA";
    header.platformVersion = "CUDA " + CudaVersionText(device.driverApiVersion);
    header.driverVersion = device.kernelDriverVersion.empty() ? std::string("NA") : device.kernelDriverVersion;
    // The CUDA runtime is often linked into the application statically; gpaprof does not ask it its version.
    header.runtimeVersion = "NA";
    header.appAddressBits = static_cast<uint32_t>(sizeof(void*) * 8);
    header.boardName = device.name;
    if (device.pciDeviceId) {
        char text[16];
        std::snprintf(text, sizeof text, "0x%04X", *device.pciDeviceId);
        header.pcieDeviceId = text;
    }
    return header;
}

}  // namespace gpaprof::cuda
