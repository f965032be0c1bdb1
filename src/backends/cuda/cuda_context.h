// A GPA context on a CUcontext: the device's counters (ChipCounters), the CUPTI pass planner and the
// range profiler every session of the context records with.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "backends/cuda/chip_counters.h"
#include "backends/cuda/cupti_pass_planner.h"
#include "backends/cuda/range_profiler.h"
#include "core/backend.h"

namespace gpa::cuda {

class CudaContext : public BackendContext {
public:
    // Validates `context`, checks that CUPTI can profile its device and that counters are accessible, and
    // builds the device's counter lists. Failures are GPA_STATUS_ERROR_HARDWARE_NOT_SUPPORTED with the
    // reason and, where the user can fix it, how.
    static Outcome Open(const CuptiApi& cupti, const DriverApi& driver, CUcontext context,
                        std::unique_ptr<BackendContext>* opened);

    DeviceDescription Device() const override { return device_; }
    const std::vector<HardwareCounter>& HardwareCounters() const override { return counters_.hardware; }
    const std::vector<DerivedCounterDefinition>& DerivedCounters() const override { return counters_.derived; }
    PassPlanner& Planner() override { return *planner_; }
    Outcome CreateSession(const PassPlan& plan, std::unique_ptr<BackendSession>* session) override;
    // Any metric name ncu accepts for the chip (ChipCounters::AddMetric), planned by CUPTI like the others.
    Outcome AddHardwareCounter(const std::string& name, uint32_t* index) override;
    std::string HardwareCounterHint(const std::string& name) const override;

    const std::string& chip() const { return chip_; }

private:
    CudaContext() = default;

    std::string chip_;
    DeviceDescription device_;
    std::vector<uint8_t> availability_;
    ChipCounters counters_;
    std::unique_ptr<CuptiPassPlanner> planner_;
    std::shared_ptr<RangeProfiler> profiler_;
};

}  // namespace gpa::cuda
