// A synthetic spool with the records a real trace of many kernel launches has, for measuring (and testing)
// what gpaprof does after the application ended: reading the spool, assembling it, writing the files.
//
// CUDA (the GPU benchmark's bench/launch_loop under gpaprof -t): per launch the calls cudaLaunchKernel and
// cudaGetLastError ('A' 'A'), and from CUPTI's activity buffers, written in batches, the kernel timestamp,
// command and device times ('Q' 'E' 'T'): 5 records. OpenCL (bench/trace_overhead_opencl.sh's program):
// per clEnqueueNDRangeKernel the command ('E'), the call ('A') and, when the command completes a little
// later, its device times on the device's own clock ('T'): 3 records. With counters ('K') and occupancy ('O')
// one row each per launch; with symbols ('S') one caller per call. Field contents follow real spools
// (docs/profiler_files.md); every value is a function of the launch number, so the spool is reproducible.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace gpaprof::bench {

struct SyntheticSpoolOptions {
    enum class Api { Cuda, OpenCL };
    Api api = Api::Cuda;
    uint64_t launches = 50000;
    uint32_t threads = 1;             // launches are spread round-robin over this many threads
    bool counters = false;            // 'L' + one 'K' per launch
    bool occupancy = false;           // one 'O' per launch
    bool symbols = false;             // one 'S' per call (--sym)
    uint64_t activityBatch = 1000;    // CUDA: launches per activity buffer
    // CUDA: each kernel as the raw line the CUDA part writes since 2026-11-29 ('R', tools/gpaprof/cuda/raw_kernel_line.h)
    // instead of its 'Q' 'E' 'T' records; the same files once expanded. Only where gpaprof has its CUDA part
    // (SyntheticRawKernels()).
    bool rawKernels = false;
    uint64_t completionLag = 32;      // OpenCL: launches between a command's call and its device times
};

struct SyntheticSpool {
    std::string text;
    size_t records = 0;
};

SyntheticSpool MakeSyntheticSpool(const SyntheticSpoolOptions& options);

// Whether this build can write raw kernel lines (and expand them: gpaprof's CUDA part is built).
bool SyntheticRawKernels();

}  // namespace gpaprof::bench
