// CUPTI's host object for one chip (cuptiProfilerHost*): metric enumeration, configuration images and
// evaluation of counter data. Works without a GPU; the chip is named ("GH100", "GA100", ...).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "backends/cuda/cupti_loader.h"
#include "core/outcome.h"

namespace gpa::cuda {

class HostObject {
public:
    // `availability` is the device's counter availability image (cuptiProfilerGetCounterAvailability) when a
    // device is at hand, so that metrics the device cannot collect right now are left out; empty offline.
    // `type`: the range profiler's metrics and images (the default), or PM sampling's (src/pm_sampling).
    static Outcome Create(const CuptiApi& api, const std::string& chip, const std::vector<uint8_t>& availability,
                          std::unique_ptr<HostObject>* host, CUpti_ProfilerType type = CUPTI_PROFILER_TYPE_RANGE_PROFILER);
    ~HostObject();
    HostObject(const HostObject&) = delete;
    HostObject& operator=(const HostObject&) = delete;

    const CuptiApi& api() const { return api_; }
    const std::string& chip() const { return chip_; }
    CUpti_Profiler_Host_Object* get() const { return object_; }

    // Adds metrics to the configuration in ONE call: CUPTI schedules the metrics of one call together and
    // the metrics of separate calls into separate passes. After a failed call the object is unusable.
    CUptiResult AddMetrics(const std::vector<std::string>& names);
    Outcome ConfigImage(std::vector<uint8_t>* image) const;

    // Values of `names` for one range of a decoded counter data image.
    Outcome Evaluate(const std::vector<uint8_t>& counterData, size_t rangeIndex, const std::vector<std::string>& names,
                     std::vector<double>* values) const;

private:
    HostObject(const CuptiApi& api, std::string chip, CUpti_Profiler_Host_Object* object)
        : api_(api), chip_(std::move(chip)), object_(object) {}

    const CuptiApi& api_;
    const std::string chip_;
    CUpti_Profiler_Host_Object* object_;
};

// The passes a configuration image needs (cuptiProfilerHostGetNumOfPasses).
Outcome ConfigPassCount(const CuptiApi& api, const std::vector<uint8_t>& image, uint32_t* passes);

// Chips this CUPTI can plan and evaluate for.
Outcome SupportedChips(const CuptiApi& api, std::vector<std::string>* chips);

// The ranges a decoded counter data image holds, by name, in image order.
Outcome CounterDataRangeNames(const CuptiApi& api, const std::vector<uint8_t>& counterData,
                              std::vector<std::string>* names);

}  // namespace gpa::cuda
