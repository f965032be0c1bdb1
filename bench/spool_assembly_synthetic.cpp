#include "spool_assembly_synthetic.h"

#include <vector>

#include "tools/gpaprof/files/text_fields.h"
#include "tools/gpaprof/spool/spool_records.h"
#ifdef GPAPROF_WITH_CUDA_PART
#include "tools/gpaprof/cuda/raw_kernel_line.h"
#endif

namespace gpaprof::bench {
namespace {

constexpr uint64_t kProcessId = 41235;
constexpr uint64_t kFirstThreadId = 41235;
constexpr uint64_t kStartNs = 68370488587;      // CPU clock (CLOCK_MONOTONIC) of the first launch
constexpr uint64_t kLaunchPeriodNs = 17531;     // one launch every ~17.5 us (the GPU-bound case)
constexpr uint64_t kDeviceClockOffset = 301234567;  // OpenCL: the device clock runs behind the CPU's

class Spool {
public:
    void Add(const spool::Record& record) {
        text_ += spool::Encode(record);
        ++records_;
    }
    std::string& Text() { return text_; }  // for lines made elsewhere
    void Count(size_t records) { records_ += records; }
    SyntheticSpool Take() { return {std::move(text_), records_}; }

private:
    std::string text_;
    size_t records_ = 0;
};

uint64_t ThreadOf(const SyntheticSpoolOptions& options, uint64_t launch) {
    return kFirstThreadId + (options.threads > 1 ? launch % options.threads : 0);
}

// Calls per launch and thread: the index of launch `launch`'s first call in its thread.
uint64_t IndexOf(const SyntheticSpoolOptions& options, uint64_t launch, uint64_t callsPerLaunch, uint64_t before) {
    const uint64_t threads = options.threads > 1 ? options.threads : 1;
    return before + (launch / threads) * callsPerLaunch;
}

spool::SourceRecord Caller(const char* part, uint64_t tid, uint64_t index, const char* api, uint64_t launch) {
    spool::SourceRecord source;
    source.part = part;
    source.threadId = tid;
    source.index = index;
    source.apiName = api;
    source.module = "/opt/bench/launch loop";
    source.moduleBase = 0x555555554000;
    source.address = source.moduleBase + 0x1200 + (launch % 7) * 0x10;
    source.symbol = launch % 3 ? "main" : "";
    source.symbolAddress = source.moduleBase + 0x1180;
    return source;
}

DispatchRow Row(uint64_t launch, uint64_t tid, uint64_t callIndex, bool cuda) {
    DispatchRow row;
    row.method = cuda ? "_Z5saxpyPfPKffi__k1_NVIDIA H2001" : "add_one__k1_CPU";
    row.executionOrder = launch + 1;
    row.threadId = tid;
    row.callIndex = callIndex;
    row.globalWorkSize = cuda ? WorkSize::Of({4194304, 1, 1}) : WorkSize::Of({64, 1, 1});
    row.workGroupSize = cuda ? WorkSize::Of({256, 1, 1}) : WorkSize::Of({64, 1, 1});
    row.timeMs = 0.0017 + static_cast<double>(launch % 97) * 1e-6;
    row.localMemSize = 0;
    if (cuda) {
        row.vgprs = 16;
        row.sgprs = std::nullopt;
    }
    row.kernelOccupancy = cuda ? 100.0 : 1.5625;
    row.counters = {CounterValue::Real("GPUTime", *row.timeMs)};
    if (cuda) {
        row.counters.push_back(CounterValue::Int("Wavefronts", 131072));
        row.counters.push_back(CounterValue::Real("L2CacheHit", 33.25 + static_cast<double>(launch % 11)));
    }
    return row;
}

OccupancyRow Occupancy(uint64_t tid, bool cuda) {
    OccupancyRow row;
    row.threadId = tid;
    row.kernelName = cuda ? "_Z5saxpyPfPKffi" : "add_one";
    row.deviceName = cuda ? "NVIDIA H200" : "pthread-haswell-AMD EPYC";
    row.computeUnits = cuda ? 132 : 2;
    row.maxWavesPerComputeUnit = cuda ? 64 : 512;
    row.maxWorkGroupsPerComputeUnit = cuda ? 32 : 1;
    row.maxLds = cuda ? 233472 : 524288;
    row.usedVgprs = cuda ? std::optional<uint64_t>(16) : std::nullopt;
    row.usedLds = 0;
    row.waveSize = cuda ? 32 : 8;
    row.workGroupSize = cuda ? 256 : 64;
    row.wavesPerWorkGroup = 8;
    row.maxWorkGroupSize = cuda ? 1024 : 4096;
    row.maxWavesPerWorkGroup = cuda ? 32 : 512;
    row.globalWorkSize = cuda ? 4194304 : 64;
    row.maxGlobalWorkSize = UINT64_MAX;
    row.ldsLimitedWaves = cuda ? 64 : 512;
    row.workGroupLimitedWaves = cuda ? 64 : 8;
    row.occupancyPercent = cuda ? 100.0 : 1.5625;
    if (cuda) row.graphicsIpVersion = "9.0";
    return row;
}

void Prologue(Spool* spool, const SyntheticSpoolOptions& options, bool cuda) {
    spool->Add(spool::ProcessRecord{static_cast<long>(kProcessId), 41230, "/opt/bench/launch_loop",
                                    "--launches " + std::to_string(options.launches), "/opt/bench", "/tmp/bench/trace",
                                    kStartNs - 250000000, {}});
    DeviceHeader device;
    if (cuda) {
        device = {"NVIDIA H200", "NVIDIA Corporation", "NVIDIA CUDA", "CUDA 13.0", "580.159.04", "NA", 64,
                  std::string("NVIDIA H200"), std::string("0x2335")};
        spool->Add(spool::DeviceRecord{"cuda:0", device});
    } else {
        device = {"pthread-haswell-AMD EPYC", "The pocl project", "Portable Computing Language",
                  "OpenCL 3.0 PoCL 3.1+debian  Linux, None+Asserts, RELOC, SPIR, LLVM 15.0.6, SLEEF, DISTRO, POCL_DEBUG",
                  "3.1+debian", "OpenCL 3.0 PoCL HSTR: pthread-x86_64-pc-linux-gnu-haswell", 64, std::nullopt,
                  std::nullopt};
        spool->Add(spool::DeviceRecord{"0x000056237CBF6DE0", device});
    }
    if (options.counters) {
        spool->Add(spool::CounterListRecord{cuda ? "CUDA" : "OpenCL",
                                            cuda ? std::vector<std::string>{"GPUTime", "Wavefronts", "L2CacheHit"}
                                                 : std::vector<std::string>{"GPUTime"}});
    }
}

void Markers(Spool* spool, const SyntheticSpoolOptions& options, uint64_t launch, uint64_t now) {
    // The first thread's perf marker ranges, one per 1000 launches.
    if (launch % 1000 == 0) {
        if (launch > 0) spool->Add(spool::MarkerRecord{kFirstThreadId, PerfMarker{PerfMarker::Kind::End, "", "", now}});
        spool->Add(spool::MarkerRecord{kFirstThreadId, PerfMarker{PerfMarker::Kind::Begin, "batch " + std::to_string(launch / 1000),
                                                                  "bench", now + 10}});
    }
    if (launch + 1 == options.launches) {
        spool->Add(spool::MarkerRecord{kFirstThreadId, PerfMarker{PerfMarker::Kind::EndEx, "batch", "bench", now + 900}});
    }
}

// The 'R' line of the kernel the 'Q' 'E' 'T' records of MakeCuda describe (the same files once expanded).
void RawKernel(Spool* spool, const std::string& name, uint64_t launch, uint64_t tid, uint64_t index, uint64_t start,
               uint64_t end) {
#ifdef GPAPROF_WITH_CUDA_PART
    cuda::KernelActivity kernel;
    kernel.start = start;
    kernel.end = end;
    kernel.streamId = 7;
    kernel.contextId = 1;
    kernel.correlationId = static_cast<uint32_t>(1000 + launch * 2);
    kernel.grid[0] = 16384, kernel.grid[1] = kernel.grid[2] = 1;
    kernel.block[0] = 256, kernel.block[1] = kernel.block[2] = 1;
    kernel.registersPerThread = 16;
    cuda::EnqueueInfo call;
    call.threadId = tid;
    call.index = index;
    call.contextHandle = 0x0000557E3D3FD470;
    call.kernelHandle = 0x0000557E3E6E2F80;
    cuda::AppendRawKernelLine(kernel, name, uint64_t{0x0000557E3E6E65B0}, &call, "NVIDIA H200", "", &spool->Text());
    spool->Count(3);  // it stands for three records
#else
    (void)spool, (void)name, (void)launch, (void)tid, (void)index, (void)start, (void)end;
#endif
}

SyntheticSpool MakeCuda(const SyntheticSpoolOptions& options) {
    Spool spool;
    Prologue(&spool, options, true);
    constexpr uint64_t kCallsBefore = 0;
    const std::string function = "0x0000557E3E6E65B0";
    const std::string kernelName = "_Z5saxpyPfPKffi";
    struct Pending {
        uint64_t launch, tid, index, start, end;
    };
    std::vector<Pending> batch;
    auto flush = [&] {
        for (const Pending& p : batch) {
            if (options.rawKernels) {
                RawKernel(&spool, kernelName, p.launch, p.tid, p.index, p.start, p.end);
                continue;
            }
            KernelTimestamp stamp{kernelName, function, p.start, p.end, "NVIDIA H200", "0x0000000000000000", 7, 0,
                                  "CUDA_KERNEL", 1000 + p.launch * 2,
                                  "{grid={16384,1,1},block={256,1,1},registers=16,staticShared=0,dynamicShared=0,"
                                  "localPerThread=0,context=1,stream=7}"};
            spool.Add(spool::KernelTimestampRecord{"cuda", "", stamp});
            CommandTimes command{1, "CUDA_KERNEL", 0, 0, 0, 0, 7, "0x0000000000000000", 1, "0x0000557E3D3FD470", "NVIDIA H200"};
            spool.Add(spool::CommandRecord{"cuda", p.tid, p.index, "", command,
                                           KernelLaunch{"0x0000557E3E6E2F80", kernelName, {4194304, 1, 1}, {256, 1, 1}},
                                           std::nullopt});
            spool.Add(spool::TimesRecord{"cuda", p.tid, p.index, "", 0, 0, p.start, p.end});
        }
        batch.clear();
    };
    for (uint64_t launch = 0; launch < options.launches; ++launch) {
        const uint64_t tid = ThreadOf(options, launch);
        const uint64_t index = IndexOf(options, launch, 2, kCallsBefore);
        const uint64_t start = kStartNs + launch * kLaunchPeriodNs;
        const uint64_t end = start + 2400 + launch % 300;
        Markers(&spool, options, launch, start - 100);
        ApiCall launchCall{211, "cudaLaunchKernel", std::string("cudaSuccess"),
                           {function, "{16384,1,1}", "{256,1,1}", "0x00007FFDEB1E4660", "0", "NULL"}, start, end,
                           std::nullopt, std::nullopt, std::nullopt};
        spool.Add(spool::CallRecord{"cuda", tid, index, launchCall});
        if (options.symbols) spool.Add(Caller("cuda", tid, index, "cudaLaunchKernel", launch));
        if (options.counters) spool.Add(spool::DispatchRecord{"CUDA", Row(launch, tid, index, true)});
        if (options.occupancy) spool.Add(spool::OccupancyRecord{launch + 1, Occupancy(tid, true)});
        ApiCall check{10, "cudaGetLastError", std::string("cudaSuccess"), {}, end + 150, end + 260, std::nullopt,
                      std::nullopt, std::nullopt};
        spool.Add(spool::CallRecord{"cuda", tid, index + 1, check});
        if (options.symbols) spool.Add(Caller("cuda", tid, index + 1, "cudaGetLastError", launch));
        const uint64_t kernelStart = start + 6000 + (launch % 13) * 10;
        batch.push_back({launch, tid, index, kernelStart, kernelStart + 16800 + launch % 500});
        if (batch.size() >= options.activityBatch) flush();
    }
    flush();
    spool.Add(spool::EventRecord{"exit", {}});
    return spool.Take();
}

SyntheticSpool MakeOpenCL(const SyntheticSpoolOptions& options) {
    Spool spool;
    Prologue(&spool, options, false);
    constexpr uint64_t kCallsBefore = 11;  // context, queue, program, kernel, buffer... before the loop
    const std::string deviceKey = "0x000056237CBF6DE0";
    const std::string queue = "0x000056237CC9CD60";
    const std::string kernel = "0x000056237CC9BC00";
    struct Pending {
        uint64_t tid, index, start, end;
    };
    std::vector<Pending> pending;
    size_t next = 0;
    auto complete = [&](const Pending& p) {
        const uint64_t queued = p.start + 800 - kDeviceClockOffset;
        spool.Add(spool::TimesRecord{"ocl", p.tid, p.index, deviceKey, queued, queued + 140, queued + 9000,
                                     queued + 11500});
    };
    for (uint64_t launch = 0; launch < options.launches; ++launch) {
        const uint64_t tid = ThreadOf(options, launch);
        const uint64_t index = IndexOf(options, launch, 1, kCallsBefore);
        const uint64_t start = kStartNs + launch * kLaunchPeriodNs;
        const uint64_t end = start + 21000 + launch % 700;
        Markers(&spool, options, launch, start - 100);
        if (options.occupancy) spool.Add(spool::OccupancyRecord{launch + 1, Occupancy(tid, false)});
        CommandTimes command{4592, "CL_COMMAND_NDRANGE_KERNEL", 0, 0, 0, 0, 1, queue, 1, "0x000056237CC99F70",
                             "pthread-haswell-AMD EPYC"};
        spool.Add(spool::CommandRecord{"ocl", tid, index, deviceKey, command, KernelLaunch{kernel, "add_one", {64}, {64}},
                                       std::nullopt});
        if (options.counters) spool.Add(spool::DispatchRecord{"OpenCL", Row(launch, tid, index, false)});
        ApiCall call{117, "clEnqueueNDRangeKernel", std::string("CL_SUCCESS"),
                     {queue, kernel, "1", "NULL", "{64}", "{64}", "0", "NULL", "NULL"}, start, end, std::nullopt,
                     std::nullopt, std::nullopt};
        spool.Add(spool::CallRecord{"ocl", tid, index, call});
        if (options.symbols) spool.Add(Caller("ocl", tid, index, "clEnqueueNDRangeKernel", launch));
        pending.push_back({tid, index, start, end});
        while (pending.size() - next > options.completionLag) complete(pending[next++]);
    }
    while (next < pending.size()) complete(pending[next++]);
    spool.Add(spool::EventRecord{"exit", {}});
    return spool.Take();
}

}  // namespace

SyntheticSpool MakeSyntheticSpool(const SyntheticSpoolOptions& options) {
    return options.api == SyntheticSpoolOptions::Api::Cuda ? MakeCuda(options) : MakeOpenCL(options);
}

bool SyntheticRawKernels() {
#ifdef GPAPROF_WITH_CUDA_PART
    return true;
#else
    return false;
#endif
}

}  // namespace gpaprof::bench
