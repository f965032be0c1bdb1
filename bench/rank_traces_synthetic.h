// Synthetic .atp files of a data-parallel training run, one per rank, for measuring and testing the cross-rank
// report (gpaprof-report over several processes' files, docs/gpaprof_report.md).
//
// The shape follows what gpaprof -t writes for PyTorch's ResNet-18 (docs/gpaprof.md, "PyTorch, run after run":
// 3 training steps of batch 32 gave 24,078 CUDA calls and 1,128 kernels, about 21 calls a kernel) under
// DistributedDataParallel over NCCL: per step a data-loading pause on the host, the batch copied to the device,
// the forward pass and the loss on the main thread, the backward pass on the autograd thread with one NCCL
// all-reduce per gradient bucket on NCCL's stream (launched with cuLaunchKernelEx, overlapping the rest of the
// backward pass), the optimizer once the last all-reduce is done, and loss.item() waiting for the device.
// Every launch has its line in the API trace, the timestamp section and the kernel timestamp section, as the
// CUDA part writes them.
//
// The ranks are simulated together: an all-reduce ends on every rank at the same moment, when the last rank
// has joined it, plus the transfer. A slow rank (compute slowed by `slowdown`, or data loading by
// `hostSlowdown`) so makes the others wait in their NCCL kernels, as a straggler does. Every time is a
// function of the rank, the step and the launch, so the files are reproducible. Ranks on one machine share
// its CLOCK_MONOTONIC; machines (ranks split evenly, in order) get clocks that differ by a large offset and
// the header lines HostName= and ClockId= that say so.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "tools/gpaprof/files/profile_model.h"

namespace gpaprof::bench {

struct SyntheticRanksOptions {
    uint32_t ranks = 64;
    uint32_t steps = 3;
    uint32_t machines = 1;
    std::set<uint32_t> slowRanks;        // compute slowed by `slowdown`
    double slowdown = 0.3;
    std::set<uint32_t> slowHostRanks;    // data loading slowed by `hostSlowdown`
    double hostSlowdown = 1.0;
    uint32_t buckets = 3;                // DDP gradient buckets: all-reduces a step
    uint32_t callsPerLaunch = 21;        // CUDA calls around each launch, the launch included
    bool rankHeader = true;              // write ProcessRank=RANK=<r> (else the rank is only in the file name)
    bool placeHeaders = true;            // write HostName= and ClockId=
};

struct SyntheticRankFacts {              // what a rank's file holds, for tests
    uint64_t kernels = 0;                // completed kernel launches, NCCL's included
    uint64_t ncclKernels = 0;
    uint64_t calls = 0;
    uint64_t kernelNs = 0;               // device time of every kernel
    uint64_t ncclNs = 0;                 // device time of the NCCL kernels
    int64_t clockOffsetNs = 0;           // this rank's machine clock minus machine 0's
};

class SyntheticRanks {
public:
    explicit SyntheticRanks(SyntheticRanksOptions options);
    // The trace of one rank (0 <= rank < options.ranks); `facts` (may be null) gets its totals.
    AtpFile Trace(uint32_t rank, SyntheticRankFacts* facts = nullptr) const;
    const SyntheticRanksOptions& options() const { return options_; }

private:
    SyntheticRanksOptions options_;
    std::vector<std::vector<uint64_t>> collectiveEnds_;  // [step][bucket], on machine 0's clock
};

// The kernel names the traces use: ResNet-18's (cuDNN's and PyTorch's, mangled as CUDA reports them) and
// NCCL's all-reduce.
extern const char* const kSyntheticNcclKernel;

}  // namespace gpaprof::bench
