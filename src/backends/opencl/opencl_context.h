// A GPA context on one OpenCL command queue: validates the queue, describes its device, declares the
// counters (the sample duration from device timestamps, GPUTime derived from it, and any codeplay counters
// the queue collects) and creates sessions.
#pragma once

#include <memory>
#include <vector>

#include "backends/opencl/queue_profile.h"
#include "core/backend.h"
#include "counters/consolidated_pass_planner.h"

namespace gpa::cl {

class OpenClContext : public BackendContext {
public:
    // GPA_STATUS_ERROR_HARDWARE_NOT_SUPPORTED with the reason when `apiContext` is not a command queue
    // that can be profiled.
    static Outcome Open(void* apiContext, std::unique_ptr<BackendContext>* context);
    ~OpenClContext() override;
    OpenClContext(const OpenClContext&) = delete;
    OpenClContext& operator=(const OpenClContext&) = delete;

    DeviceDescription Device() const override { return device_; }
    const std::vector<HardwareCounter>& HardwareCounters() const override { return hardware_; }
    const std::vector<DerivedCounterDefinition>& DerivedCounters() const override { return derived_; }
    PassPlanner& Planner() override { return planner_; }
    Outcome CreateSession(const PassPlan& plan, std::unique_ptr<BackendSession>* session) override;

private:
    OpenClContext();

    QueueProfile profile_;  // owns a reference to the queue and the fill target
    DeviceDescription device_;
    std::vector<HardwareCounter> hardware_;
    std::vector<DerivedCounterDefinition> derived_;
    ConsolidatedPassPlanner planner_;
};

// The name and the derived counter every OpenCL context declares (also used by the tests).
inline constexpr const char* kSampleDurationCounterName = "cl.sample_duration_ns";

}  // namespace gpa::cl
