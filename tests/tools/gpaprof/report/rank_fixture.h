// Ranks' traces with known numbers for the cross-rank tests, and a scratch folder to write them in.
//
// RankFixture(offset, extra): one OpenCL thread; every time below is `offset` later (the rank's clock):
//   call                           host          device            what
//   clEnqueueNDRangeKernel          100 -   200   1000 -  3000      kernel "compute" (2000 ns)
//   clEnqueueNDRangeKernel          300 -   400   3500 -  9500      kernel kRankNcclKernel (6000 ns)
//   clEnqueueWriteBuffer            500 -   600  10000 - 10500      4096-byte transfer (500 ns)
//   clEnqueueNDRangeKernel          700 -   800  12000 - 13000+extra kernel "compute" (1000 + extra ns)
//   clFinish                        900 - 13100+extra
// So: 3 dispatches, kernel time 9000 + extra, communication 6000 (1 dispatch), compute 3000 + extra, host gaps
// 500 + 500 + 1500 = 2500, API time 5 calls 12600 + extra, own work 5500 + extra, first communication kernel
// ending at 9500.
#pragma once

#include <cstdint>
#include <string>

#include "tools/gpaprof/files/profile_model.h"

namespace gpaprof::report::testing {

// Mangled, as CUDA reports NCCL's kernels.
inline constexpr const char* kRankNcclKernel = "_Z39ncclDevKernel_AllReduce_Sum_f32_RING_LL24ncclDevKernelArgsStorageILm4096EE";

AtpFile RankFixture(uint64_t offset = 0, uint64_t extra = 0);

// A folder under /tmp removed with everything in it when the object goes.
class ScratchFolder {
public:
    ScratchFolder();
    ~ScratchFolder();
    ScratchFolder(const ScratchFolder&) = delete;
    ScratchFolder& operator=(const ScratchFolder&) = delete;
    const std::string& path() const { return path_; }
    std::string File(const std::string& name) const { return path_ + "/" + name; }
    // Writes `trace` as <folder>/<name>; the test fails when it cannot.
    std::string Write(const std::string& name, const AtpFile& trace) const;
    std::string WriteText(const std::string& name, const std::string& text) const;

private:
    std::string path_;
};

}  // namespace gpaprof::report::testing
