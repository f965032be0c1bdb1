// Per-kernel profiling with CUPTI's kernel replay and auto ranges, for tools such as gpaprof: each kernel
// launch is one range, and CUPTI saves and restores device memory and replays the kernel as often as a
// configuration needs. The caller launches its work once per configuration group of the plan.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "backends/cuda/cupti_pass_planner.h"
#include "backends/cuda/range_profiler.h"

namespace gpa::cuda {

class KernelReplayProfiler {
public:
    // Loads the driver and CUPTI, checks the device and enables range profiling on `context`.
    static Outcome Create(CUcontext context, std::unique_ptr<KernelReplayProfiler>* profiler);

    const CuptiApi& cupti() const { return profiler_->cupti(); }
    const std::string& chip() const { return chip_; }
    const std::vector<uint8_t>& availability() const { return availability_; }

    // Plans `metrics` for this device (see PlanMetrics).
    Outcome Plan(const std::vector<std::string>& metrics, MetricPlan* plan) const;

    // Calls `launch` once per configuration group; `launch` must issue the same kernels each time, at most
    // `maxKernels` of them. On return (*values)[k] holds every metric of the plan for the k-th kernel.
    // Launch kernels directly, not through CUDA graphs: auto ranges made no range of a graph launch under user
    // replay (its kernels unmeasured, or, with hardware counters, CUPTI's Stop failing: docs/benchmarks.md), so
    // a graph's kernels could have no values and later kernels' values move up to their places. What kernel
    // replay does with one is checked by tests/gpu/cuda/kernel_replay_test.cu (not yet run on a GPU).
    Outcome Profile(const MetricPlan& plan, const std::function<Outcome()>& launch,
                    std::vector<std::map<std::string, double>>* values, size_t maxKernels = 1);

private:
    KernelReplayProfiler() = default;
    std::unique_ptr<RangeProfiler> profiler_;
    std::string chip_;
    std::vector<uint8_t> availability_;
};

}  // namespace gpa::cuda
