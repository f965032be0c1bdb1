// A GPA context on one GL rendering context: the EGLContext (or GLXContext) current on the calling thread at
// GPA_OpenContext. Reads the context's version and extensions, describes the device, declares the counters its
// queries can measure (gl_counters.h) and creates sessions, whose queries are made in that context.
#pragma once

#include <memory>
#include <vector>

#include "backends/gl/gl_counters.h"
#include "backends/gl/gl_driver_counters.h"
#include "backends/gl/gl_driver_functions.h"
#include "backends/gl/gl_functions.h"
#include "pm_sampling/device_sampling.h"
#include "core/backend.h"
#include "counters/consolidated_pass_planner.h"

namespace gpa::gl {

// What sessions need of the context; set when it opens, read-only afterwards.
struct ContextProfile {
    void* handle = nullptr;  // the EGLContext or GLXContext given to GPA_OpenContext
    GlFunctions gl;
    GlCapabilities capabilities;
    std::vector<GlQuery> queries;  // of every hardware counter
    // The driver's own counters (GL_AMD_performance_monitor, GL_INTEL_performance_query) where it offers them.
    DriverCounterFunctions driver;
    std::vector<DriverCounter> driverCounters;  // indexed by GlQuery::driver
    // The GPU's PM sampling where it is sampled (NVIDIA): the PM. hardware counters' values come from its windows.
    std::shared_ptr<pm_sampling::DeviceSampling> sampling;
    // Whether `handle` is the context current on the calling thread (EGL's, else GLX's): GL calls reach only that.
    bool IsCurrent() const;
};

class GlContext : public BackendContext {
public:
    // NULL is refused by the core. GPA_STATUS_ERROR_HARDWARE_NOT_SUPPORTED with the reason when `apiContext` is not
    // the GL context current on this thread, or is one whose queries cannot be used.
    static Outcome Open(void* apiContext, std::unique_ptr<BackendContext>* context);

    DeviceDescription Device() const override { return device_; }
    const std::vector<HardwareCounter>& HardwareCounters() const override { return hardware_; }
    const std::vector<DerivedCounterDefinition>& DerivedCounters() const override { return derived_; }
    PassPlanner& Planner() override { return planner_; }
    Outcome CreateSession(const PassPlan& plan, std::unique_ptr<BackendSession>* session) override;

private:
    GlContext();

    ContextProfile profile_;
    DeviceDescription device_;
    std::vector<HardwareCounter> hardware_;
    std::vector<DerivedCounterDefinition> derived_;
    ConsolidatedPassPlanner planner_;
};

// The context current on the calling thread: EGL's, else GLX's (looked up in a libGLX the process already loaded),
// else null.
void* CurrentGlContext();

}  // namespace gpa::gl
