// The data model of one profiled process: what gpaprof writes into <out>.csv, <out>.atp and
// <out>.occupancy, and what the readers give back. Writers and readers share these types, so that a
// file read back compares field by field with what was written.
//
// Conventions: times are CPU-clock nanoseconds (device times already mapped onto the CPU clock);
// an empty std::optional is written as "NA" where the layout allows it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace gpaprof {

// ---------------------------------------------------------------------------------------------
// File headers

struct EnvironmentVariable {
    std::string name;
    std::string value;
    bool operator==(const EnvironmentVariable&) const = default;
};

// One platform/device pair as the header groups describe it ("#Device <name> Platform Vendor=...").
struct DeviceHeader {
    std::string name;                 // CL_DEVICE_NAME / CUDA device name
    std::string platformVendor;
    std::string platformName;
    std::string platformVersion;
    std::string driverVersion;        // "CLDriver Version"
    std::string runtimeVersion;       // "CLRuntime Version"
    uint32_t appAddressBits = 64;     // "NumberAppAddressBits": pointer width of the profiled process
    std::optional<std::string> boardName;
    std::optional<std::string> pcieDeviceId;
    bool operator==(const DeviceHeader&) const = default;
};

// Everything the three file headers say about the run. Each writer uses the keys its layout has.
struct SessionInfo {
    std::string profilerVersion;      // major.minor.build
    std::string application;          // full path
    std::string applicationArgs;
    std::string workingDirectory;
    std::optional<bool> fullEnvironment;        // written only when the run changed the environment
    std::vector<EnvironmentVariable> environment;
    std::vector<DeviceHeader> devices;
    std::string osVersion;            // "<name> Build <x.y.z>"
    std::string displayName;          // session name
    // Where the process ran, written when known, so that several processes' files can be put side by side
    // (gpaprof-report over ranks): the machine's host name; its boot id (/proc/sys/kernel/random/boot_id),
    // which names the CLOCK_MONOTONIC all times are on: files with one clockId share one clock; and the rank
    // the process's launcher gave it, as NAME=VALUE of the variable it came from (RANK=3).
    std::optional<std::string> hostName;
    std::optional<std::string> clockId;
    std::optional<EnvironmentVariable> processRank;
    char listSeparator = ',';
    bool userTimer = false;           // .atp "UserTimer"
    bool operator==(const SessionInfo&) const = default;
};

// ---------------------------------------------------------------------------------------------
// <out>.csv: one row per kernel dispatch

// Global or work-group size of a dispatch; dims == 0 means "not specified" (written as NULL).
struct WorkSize {
    uint32_t dims = 0;
    uint64_t size[3] = {1, 1, 1};

    static WorkSize Unspecified() { return {}; }
    static WorkSize Of(std::initializer_list<uint64_t> values);
    bool specified() const { return dims != 0; }
    uint64_t product() const { return size[0] * size[1] * size[2]; }
    bool operator==(const WorkSize&) const = default;
};

struct CounterValue {
    enum class Kind { Integer, Float, NotAvailable };
    // Floating counters are written "%12.2f" as the original profiler wrote them; time counters (usage
    // milliseconds or nanoseconds) "%15.5f" like the Time column, so that a microsecond kernel reads as
    // 0.00812, not 0.01 (docs/profiler_files.md). A file read back keeps the decimals it had.
    static constexpr int kDecimals = 2;
    static constexpr int kTimeDecimals = 5;
    std::string name;
    Kind kind = Kind::Float;
    uint64_t integer = 0;
    double number = 0.0;
    int decimals = kDecimals;

    static CounterValue Int(std::string name, uint64_t value) { return {std::move(name), Kind::Integer, value, 0.0}; }
    static CounterValue Real(std::string name, double value, int decimals = kDecimals) {
        return {std::move(name), Kind::Float, 0, value, decimals};
    }
    static CounterValue Time(std::string name, double value) { return Real(std::move(name), value, kTimeDecimals); }
    static CounterValue NA(std::string name) { return {std::move(name), Kind::NotAvailable, 0, 0.0}; }
    double AsDouble() const { return kind == Kind::Integer ? static_cast<double>(integer) : number; }
    bool operator==(const CounterValue&) const = default;
};

// The "Method" column: <kernel>__k<kernelId>_<DeviceName><deviceIndex>, or <kernel>__k<kernelId>_CPU.
struct MethodName {
    std::string kernel;
    uint32_t kernelId = 1;            // 1-based, unique per kernel object
    std::string device;               // device name, or "CPU" for CPU devices
    std::optional<uint32_t> deviceIndex;  // 1-based; absent for CPU devices

    std::string ToString() const;
    // Splits a Method value; nullopt when it does not have the __k<id>_ form. A device name that ends in a digit
    // ("NVIDIA H100 80GB HBM3", index 2: "...HBM32") is split after the longest of `deviceNames` (the file's
    // #Device headers) it starts with; without them, after the last non-digit.
    static std::optional<MethodName> Parse(const std::string& text, const std::vector<std::string>& deviceNames = {});
    bool operator==(const MethodName&) const = default;
};

struct DispatchRow {
    std::string method;               // MethodName::ToString()
    uint64_t executionOrder = 0;      // 1-based, order of the dispatch in the process
    uint64_t threadId = 0;            // OS thread id of the enqueuing thread
    std::optional<uint64_t> callIndex;  // OpenCL/CUDA: 0-based index of the call in its thread's API trace
    WorkSize globalWorkSize;
    WorkSize workGroupSize;           // unspecified when the runtime chose it
    std::optional<double> timeMs;     // kernel execution time (OpenCL/CUDA only)
    uint64_t localMemSize = 0;        // bytes
    std::optional<uint64_t> vgprs;    // NA where the device has no such notion
    std::optional<uint64_t> sgprs;
    std::optional<uint64_t> scratchRegs;  // OpenCL/CUDA only
    std::optional<double> kernelOccupancy;  // percent; NA when it cannot be computed
    // CUDA graphs: the row came from the graphLaunch-th graph launch of the process (1-based) and, in node mode,
    // from the graph node CUPTI numbers graphNode (the .atp kernel line's graphNode=); whole-graph rows
    // (--graph-profiling graph) have no node. Both empty for a dispatch launched on its own.
    std::optional<uint64_t> graphLaunch;
    std::optional<uint64_t> graphNode;
    std::vector<CounterValue> counters;   // in the order of CsvFile::counterNames
    bool operator==(const DispatchRow&) const = default;
};

// Which dispatch-statistics columns a .csv has.
enum class CsvFlavor { OpenCL, HSA };

struct CsvFile {
    SessionInfo session;
    std::string profileFileVersion = "3.0";
    std::string api = "OpenCL";       // "#API="
    CsvFlavor flavor = CsvFlavor::OpenCL;
    bool forceSinglePass = false;
    std::optional<std::vector<std::string>> kernelsProfiled;
    std::optional<uint64_t> maxKernelsToProfile;
    bool hasKernelOccupancyColumn = true;  // the seed's column; readers of older files may lack it
    // GraphLaunch and GraphNode after KernelOccupancy: written when set (the assembler sets it when a row came from
    // a CUDA graph launch, AnyGraphRow), read from the column row.
    bool hasGraphColumns = false;
    std::vector<std::string> counterNames;
    std::vector<DispatchRow> rows;
    bool operator==(const CsvFile&) const = default;
};

// ---------------------------------------------------------------------------------------------
// <out>.atp: API trace, timestamps, kernel timestamps, source locations, perf markers

// What an enqueue call's timestamp line adds: the command and its device times.
struct CommandTimes {
    uint32_t commandType = 0;         // e.g. CL_COMMAND_NDRANGE_KERNEL (0x11F0)
    std::string commandName;          // e.g. CL_COMMAND_NDRANGE_KERNEL
    uint64_t queued = 0, submit = 0, start = 0, end = 0;  // CPU ns; all 0 when the command never completed
    uint64_t queueId = 0;
    std::string queueHandle;
    uint64_t contextId = 0;
    std::string contextHandle;
    std::string deviceName;           // written with spaces replaced by '_'
    bool operator==(const CommandTimes&) const = default;
};

struct KernelLaunch {
    std::string kernelHandle;
    std::string kernelName;
    std::vector<uint64_t> globalSize;  // one value per work dimension
    std::vector<uint64_t> localSize;   // empty: not specified (written {NULL})
    bool operator==(const KernelLaunch&) const = default;
};

struct ApiCall {
    uint32_t apiType = 0;             // index in the API's published enumeration
    std::string name;
    std::optional<std::string> returnValue;  // absent for void functions
    std::vector<std::string> args;
    uint64_t start = 0, end = 0;      // CPU ns
    std::optional<CommandTimes> command;
    std::optional<KernelLaunch> kernel;
    std::optional<uint64_t> transferSize;  // bytes, for data transfers
    bool operator==(const ApiCall&) const = default;
};

// A kernel timestamp line (hsa layout; the cuda section follows it).
struct KernelTimestamp {
    std::string kernelName;
    std::string kernelObject;         // hex
    uint64_t start = 0, end = 0;
    std::string agentName;            // written with spaces replaced by '_'
    std::string agentHandle;
    uint64_t queueIndex = 0;
    uint64_t deviceIndex = 0;
    std::string packetType;
    uint64_t packetId = 0;
    std::string packetFields;         // "{...}"
    bool operator==(const KernelTimestamp&) const = default;
};

// Where the application called an API from (--sym).
struct SourceLocation {
    std::string apiName;
    std::string symbol;               // function name, or hex address when unknown
    std::optional<uint64_t> line;     // with debug information
    std::string file;                 // with debug information
    uint64_t displacement = 0;        // without debug information: offset from symbol
    bool operator==(const SourceLocation&) const = default;
};

struct PerfMarker {
    enum class Kind { Begin, End, EndEx };
    Kind kind = Kind::Begin;
    std::string name;                 // Begin, EndEx (may be empty)
    std::string group;                // Begin, EndEx (may be empty)
    uint64_t timestamp = 0;
    bool operator==(const PerfMarker&) const = default;
};

template <typename Entry>
struct ThreadBlock {
    uint64_t threadId = 0;
    std::vector<Entry> entries;
    bool operator==(const ThreadBlock&) const = default;
};

// One API's part of the trace: its API and timestamp sections, kernel timestamps and source locations.
struct ApiTracePart {
    std::string api;                  // section name: "ocl", "hsa", "cuda"
    std::vector<std::string> excludedApis;
    std::vector<ThreadBlock<ApiCall>> threads;
    std::vector<KernelTimestamp> kernelTimestamps;
    std::vector<ThreadBlock<SourceLocation>> sourceThreads;
    bool operator==(const ApiTracePart&) const = default;
};

struct AtpFile {
    SessionInfo session;
    std::string traceFileVersion = "3.2";
    std::vector<ApiTracePart> parts;  // written in the order ocl, hsa, cuda
    std::vector<ThreadBlock<PerfMarker>> markerThreads;
    bool operator==(const AtpFile&) const = default;
};

// Section-name prefix of the excluded-API header key: "CL", "HSA", "CUDA".
std::string ExcludedApisKeyPrefix(const std::string& api);

// ---------------------------------------------------------------------------------------------
// <out>.occupancy

struct OccupancyRow {
    uint64_t threadId = 0;
    std::string kernelName;
    std::string deviceName;
    std::optional<uint64_t> computeUnits;
    std::optional<uint64_t> maxWavesPerComputeUnit;
    std::optional<uint64_t> maxWorkGroupsPerComputeUnit;
    std::optional<uint64_t> maxVgprs;
    std::optional<uint64_t> maxSgprs;
    std::optional<uint64_t> maxLds;
    std::optional<uint64_t> usedVgprs;
    std::optional<uint64_t> usedSgprs;
    std::optional<uint64_t> usedLds;
    std::optional<uint64_t> waveSize;
    std::optional<uint64_t> workGroupSize;
    std::optional<uint64_t> wavesPerWorkGroup;
    std::optional<uint64_t> maxWorkGroupSize;
    std::optional<uint64_t> maxWavesPerWorkGroup;
    std::optional<uint64_t> globalWorkSize;
    std::optional<uint64_t> maxGlobalWorkSize;
    std::optional<uint64_t> vgprLimitedWaves;
    std::optional<uint64_t> sgprLimitedWaves;
    std::optional<uint64_t> ldsLimitedWaves;
    std::optional<uint64_t> workGroupLimitedWaves;
    std::optional<double> occupancyPercent;
    std::optional<std::string> graphicsIpVersion;
    std::optional<uint64_t> simdsPerComputeUnit;
    bool operator==(const OccupancyRow&) const = default;
};

// The resource that limits the waves in flight, from the four "limited waves" columns.
enum class OccupancyLimiter { None, Vgpr, Sgpr, Lds, WorkGroup };
OccupancyLimiter LimitingResource(const OccupancyRow& row);
const char* OccupancyLimiterName(OccupancyLimiter limiter);

struct OccupancyFile {
    SessionInfo session;
    std::vector<OccupancyRow> rows;
    bool operator==(const OccupancyFile&) const = default;
};

}  // namespace gpaprof
