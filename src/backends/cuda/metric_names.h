// How NVIDIA names a metric value, as ncu and CUPTI take it: a base metric ("sm__warps_active") followed by a
// submetric from the list CUPTI gives for the base metric's type:
//   counter     rollup .sum .avg .min .max, alone or followed by .peak_sustained, .per_second,
//               .per_cycle_active, .pct_of_peak_sustained_active, ... ("sm__warps_active.avg.per_cycle_active")
//   ratio       .ratio .pct .max_rate                               ("lts__t_sector_hit_rate.pct")
//   throughput  rollup followed by .pct_of_peak_sustained_active or _elapsed
//                                                       ("dram__throughput.avg.pct_of_peak_sustained_elapsed")
// The helpers here work on names and CUPTI's submetric lists only; MetricCatalog::Resolve asks CUPTI.
#pragma once

#include <string>
#include <vector>

#include "GPUPerfAPITypes.h"

namespace gpa::cuda {

// Up to `limit` candidates closest to `word` (case-insensitive edit distance), best first; only those close
// enough to be a likely misspelling.
std::vector<std::string> CloseMatches(const std::string& word, const std::vector<std::string>& candidates,
                                      size_t limit = 3);

// A submetric list in a few words: ".sum .avg .min .max, each alone or followed by one of .peak_sustained ...".
std::string SummarizeSubmetrics(const std::vector<std::string>& submetrics);

// What a submetric's value is, in a sentence ("Average over the sm units, in percent of the peak sustained
// rate over the units' active cycles."), for counter descriptions.
std::string ExplainSubmetric(const std::string& submetric, const std::string& hwUnit);

// The GPA usage of a count in CUPTI's dimension unit ("byte" -> bytes, "..._cycle" -> cycles).
GPA_Usage_Type CountUsage(const std::string& dimUnit);

// The GPA type and usage of a metric value named with `submetric` (".avg.pct_of_peak_sustained_active"),
// given the base metric's CUPTI type and the value's dimension unit.
void SubmetricTypeAndUsage(bool counterMetric, bool ratioMetric, const std::string& submetric,
                           const std::string& dimUnit, GPA_Type* type, GPA_Usage_Type* usage);

}  // namespace gpa::cuda
