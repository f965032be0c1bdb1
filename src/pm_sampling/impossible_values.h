// Readings no device can give, withheld rather than passed on: a percentage of peak above 100 (101, for rounding).
// The H200's sampler gave such readings now and then: TriageCompute.sm__throughput at 1,534% and 505% in two of
// about 11,000 samples every 250 us, inside kernels that ncu puts at 97% and 87%; in the first, the tensor pipes read
// 45% beside a steady 2.9% (docs/pm_sampling.md). A withheld reading becomes NaN (NA in gpaprof's file); the sample's
// other values stay, and may be off too: nothing says which.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace gpa::pm_sampling {

// True for ncu's percentages of a peak ("...pct_of_peak_sustained_elapsed", "...pct_of_peak_burst_active").
bool IsPercentOfPeak(const std::string& metric);

// Sets to NaN each value of `values` (Plan::metrics' order) that no device can read; returns how many.
size_t WithholdImpossibleValues(const std::vector<std::string>& metrics, std::vector<double>* values);

}  // namespace gpa::pm_sampling
