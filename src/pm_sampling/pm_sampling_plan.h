// What a PM-sampling run collects on a chip: NVIDIA metrics by ncu's names, checked against the chip's
// PM-sampling catalog and scheduled by CUPTI's host API into one configuration image. Works without a GPU when
// the chip is named (the tests plan for GH100, GA100, AD102).
//
// PM sampling (cupti_pmsampling.h) reads the device's performance monitors every interval, device-wide: it has
// one pass, so a set whose metrics CUPTI cannot schedule together is refused, saying how many passes it needs.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "backends/cuda/cupti_loader.h"
#include "core/outcome.h"
#include "pm_sampling/metric_sets.h"  // DefaultMetrics(), SmThroughputMetrics()

namespace gpa::pm_sampling {

struct Plan {
    std::string chip;
    std::vector<std::string> metrics;  // collected, in the order asked
    std::vector<std::string> leftOut;  // "name: why" for each metric asked for that the chip cannot sample
    std::vector<uint8_t> configImage;
};

// `availability`: the device's counter availability image (cuptiPmSamplingGetCounterAvailability), so that
// metrics the device cannot collect now are left out; empty when planning offline.
Outcome MakePlan(const cuda::CuptiApi& api, const std::string& chip, const std::vector<std::string>& wanted,
                 const std::vector<uint8_t>& availability, Plan* plan);

}  // namespace gpa::pm_sampling
