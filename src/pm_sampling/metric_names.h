// The base metric of an NVIDIA metric name as ncu and CUPTI spell it: "<base>.<rollup>[.<submetric>]", where the
// base may carry a configuration prefix that PM sampling's catalogs use for their one-pass variants
// ("TriageCompute.sm__throughput", "FE_B.TriageCompute.gr__cycles_active"). The base ends at the first part that
// holds "__" (unit__counter); a name without such a part is its own first part.
#pragma once

#include <string>
#include <string_view>

namespace gpa::pm_sampling {

// "TriageCompute.sm__throughput.avg.pct_of_peak_sustained_elapsed" -> "TriageCompute.sm__throughput";
// "dram__bytes_read.sum" -> "dram__bytes_read"; "abc.def" -> "abc". Letter case is kept.
std::string BaseMetricOf(std::string_view name);

}  // namespace gpa::pm_sampling
