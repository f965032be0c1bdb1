// What the CUDA part writes into the profile files, built from plain data (what CUPTI's activity records and
// the launch parameters say), so that the layout is testable without a GPU. docs/profiler_files.md, section
// "CUDA", describes every field.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "tools/gpaprof/files/profile_model.h"

namespace gpaprof::cuda {

// Command types of the CUDA timestamp lines (the command type and command name columns).
inline constexpr uint32_t kCommandKernel = 1;
inline constexpr uint32_t kCommandMemset = 2;
inline constexpr uint32_t kCommandMemcpyBase = 16;  // + CUPTI's copy kind (CUpti_ActivityMemcpyKind, 0-10)
std::string CommandTypeName(uint32_t commandType);
uint32_t MemcpyCommandType(uint32_t cuptiCopyKind);

// A kernel as its CUPTI activity record describes it.
struct KernelActivity {
    std::string name;                 // mangled
    uint64_t start = 0, end = 0;      // CPU clock (or CUPTI's, see the deviceKey of the record)
    uint64_t queued = 0, submitted = 0;  // 0 unless latency timestamps are on
    uint32_t deviceId = 0;            // CUDA device ordinal
    uint32_t contextId = 0;
    uint32_t streamId = 0;
    uint32_t correlationId = 0;
    int32_t grid[3] = {0, 0, 0};
    int32_t block[3] = {0, 0, 0};
    uint32_t registersPerThread = 0;
    int32_t staticSharedMemory = 0;
    int32_t dynamicSharedMemory = 0;
    uint32_t localMemoryPerThread = 0;
    uint32_t graphId = 0;             // 0: not launched from a graph
    uint64_t graphNodeId = 0;
    uint8_t launchType = 0;           // CUpti_ActivityLaunchType
    uint32_t cluster[3] = {0, 0, 0};
};

// A copy or set as its CUPTI activity record describes it.
struct TransferActivity {
    bool isMemset = false;
    uint32_t copyKind = 0;            // CUpti_ActivityMemcpyKind (copies)
    uint64_t bytes = 0;
    uint64_t start = 0, end = 0;
    uint32_t deviceId = 0;
    uint32_t contextId = 0;
    uint32_t streamId = 0;
    uint32_t correlationId = 0;
    // A copy between devices (CUPTI's MEMCPY2 records): the devices it reads and writes.
    std::optional<uint32_t> srcDeviceId, dstDeviceId;
};

// The device column of a copy between devices: both devices, "<source> -> <destination>", each as
// "<name> (device <ordinal>)", e.g. "NVIDIA H100 (device 0) -> NVIDIA H100 (device 1)".
std::string PeerDeviceName(const std::string& sourceName, uint32_t source, const std::string& destinationName,
                           uint32_t destination);

// What the API call that enqueued the command knew.
struct EnqueueInfo {
    uint64_t threadId = 0;
    uint64_t index = 0;               // CallIndex of the traced call
    uint64_t streamHandle = 0;        // CUstream / cudaStream_t (0: the default stream)
    uint64_t contextHandle = 0;       // CUcontext
    uint64_t kernelHandle = 0;        // CUfunction, for kernel launches
};

// The "hsa-like" kernel timestamp line of the cuda section.
KernelTimestamp MakeKernelTimestamp(const KernelActivity& kernel, const std::string& deviceName,
                                    std::optional<uint64_t> kernelHandle);

// The command fields of the enqueue call's timestamp line (times are filled from the TimesRecord).
CommandTimes MakeKernelCommand(const KernelActivity& kernel, const EnqueueInfo& call, const std::string& deviceName);
CommandTimes MakeTransferCommand(const TransferActivity& transfer, const EnqueueInfo& call, const std::string& deviceName);
KernelLaunch MakeKernelLaunch(const KernelActivity& kernel, uint64_t kernelHandle);

// The spool lines of one kernel's activity record, as spool::EncodeTo writes the records that the functions above
// make: the kernel timestamp ('Q', MakeKernelTimestamp's), then, for the kernel of a traced launch (`launch` not
// null), its command ('E', MakeKernelCommand's and MakeKernelLaunch's) and its device times ('T'). Appended to
// `out` without building those records: the activity thread writes them for every kernel, and building them
// cost about 3.8 us a kernel.
void AppendKernelLines(const KernelActivity& kernel, std::optional<uint64_t> kernelHandle, const EnqueueInfo* launch,
                       std::string_view deviceName, std::string_view clockKey, std::string* out);

// "<kernel>__k<id>_<device name><index>" with the 1-based device index.
std::string MethodFor(const std::string& kernelName, uint32_t kernelId, const std::string& deviceName,
                      uint32_t deviceOrdinal);

// The device groups of the file headers.
struct DeviceFacts {
    uint32_t ordinal = 0;
    std::string name;
    int driverApiVersion = 0;         // cuDriverGetVersion, e.g. 13000
    std::string kernelDriverVersion;  // e.g. "580.159.04"; empty when unknown
    std::optional<uint32_t> pciDeviceId;
};
DeviceHeader MakeDeviceHeader(const DeviceFacts& device);
// "13.0" from 13000.
std::string CudaVersionText(int version);
// The NVIDIA kernel driver version from the text of /proc/driver/nvidia/version; empty when absent.
std::string KernelDriverVersion(const std::string& procText);

}  // namespace gpaprof::cuda
