// The named sets of PM-sampling metrics (ncu's names): lists only, so built everywhere (opengpa_pm_windows), with or
// without CUPTI; gpaprof's --pm-metrics takes their names beside metric names.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace gpa::pm_sampling {

// "default", "what is the GPU doing": SM and graphics-engine activity, instructions per SM cycle, the tensor pipes,
// DRAM bytes and throughput, L2 bytes, PCIe and NVLink bytes each way; decoded in real time at 100 us on an H200's
// host (docs/pm_sampling.md). A chip that lacks some of them samples the rest (MakePlan's leftOut says why).
const std::vector<std::string>& DefaultMetrics();

// "sm-throughput": SM throughput as ncu defines it, in one pass. ncu's sm__throughput is the largest of its
// breakdown's parts, averaged over the kernel (19 passes on GH100). GH100's and GB100's PM-sampling catalogs have
// TriageCompute.sm__throughput, which covers the issue and pipe parts; the MIO queues' parts it lacks are sampled
// beside it. The largest of the three matched ncu's within 1% on compute-bound, memory-bound and cuBLAS kernels
// (docs/pm_sampling.md). Not in the default set: a sample of these costs about twice the default set's decoding.
const std::vector<std::string>& SmThroughputMetrics();

// A value made from sampled metrics over a window as ncu makes its throughputs: the largest of its parts' window
// values. The report shows it per kernel, beside its parts, where the file has every part.
struct LargestOfParts {
    std::string name;                // as the report heads its column
    std::vector<std::string> parts;  // metric names
};
// "sm__throughput (largest part)": SmThroughputMetrics()'s. Per kernel, this is ncu's definition of sm__throughput
// applied to the parts one pass samples.
const std::vector<LargestOfParts>& WindowDerivedMetrics();

// The set of that name, or nullptr. Metric names always hold "__", set names never.
const std::vector<std::string>* MetricSetNamed(std::string_view name);

// "default, sm-throughput": the names MetricSetNamed knows, for messages and --help.
std::string MetricSetNames();

}  // namespace gpa::pm_sampling
