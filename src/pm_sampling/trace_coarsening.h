// A trace sample's requested interval (VK_GPA_SAMPLE_TYPE_TRACE_AMD's streamingPerfTraceSampleInterval) on a GPU
// sampled at one interval for the whole process: consecutive PM samples joined into one of `samplesPerBin` times
// the sampler's interval. Counts add up; rates against elapsed time are the mean over the joined time; metrics that
// neither add nor average (maxima, ratios over active cycles) have no value in a joined sample (NaN). A joined
// sample never reaches across lost samples or a gap: one that follows lost samples starts a new one, flagged.
#pragma once

#include <cstdint>

#include "pm_sampling/trace_buffer.h"

namespace gpa::pm_sampling {

// How many of the sampler's samples make one of `requestedNs` (at least 1: a finer request gets the sampler's own).
uint32_t SamplesPerBin(uint64_t requestedNs, uint64_t samplerIntervalNs);

// `trace` with its samples joined `samplesPerBin` at a time (the last one may hold fewer); its intervalNs becomes
// samplesPerBin times the sampler's. samplesPerBin <= 1 returns `trace` as it is.
TraceData CoarsenTrace(const TraceData& trace, uint32_t samplesPerBin);

}  // namespace gpa::pm_sampling
