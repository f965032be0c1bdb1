// Decoded CUPTI counter data images saved to disk, so that evaluation can be tested without a GPU.
//
// A fixture is a directory: manifest.txt names the chip and, per configuration group, its image file and
// metrics; group<N>.counterdata holds the image exactly as cuptiRangeProfilerDecodeData left it. The CUDA
// backend writes one for every session when OPENGPA_CUDA_RECORD_COUNTER_DATA names a directory.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "backends/cuda/cupti_loader.h"

namespace gpa::cuda {

struct CounterDataFixture {
    struct Group {
        std::vector<std::string> metrics;
        std::vector<uint8_t> counterData;
    };
    std::string chip;
    std::vector<Group> groups;
};

Outcome WriteCounterDataFixture(const std::string& directory, const CounterDataFixture& fixture);
Outcome ReadCounterDataFixture(const std::string& directory, CounterDataFixture* fixture);

// The range (sample) names recorded in every group, in the first group's order.
Outcome FixtureRangeNames(const CuptiApi& api, const CounterDataFixture& fixture, std::vector<std::string>* names);

// Every metric of the fixture evaluated for one range, as the backend evaluates a sample.
Outcome EvaluateFixtureRange(const CuptiApi& api, const CounterDataFixture& fixture, const std::string& rangeName,
                             std::map<std::string, double>* values);

}  // namespace gpa::cuda
