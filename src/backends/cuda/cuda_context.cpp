#include "backends/cuda/cuda_context.h"

#include "backends/cuda/device_identity.h"
#include "backends/cuda/range_profiler_session.h"

namespace gpa::cuda {

Outcome CudaContext::Open(const CuptiApi& cupti, const DriverApi& driver, CUcontext context,
                          std::unique_ptr<BackendContext>* opened) {
    std::unique_ptr<CudaContext> result(new CudaContext());
    CUdevice device = 0;
    {
        ScopedContext current(driver, context);
        if (!current.outcome().ok()) {
            return Fail(GPA_STATUS_ERROR_HARDWARE_NOT_SUPPORTED,
                        "the context passed to GPA_OpenContext is not a usable CUcontext: " + current.outcome().reason());
        }
        if (CUresult r = driver.cuCtxGetDevice(&device); r != CUDA_SUCCESS) {
            return driver.Failure("cuCtxGetDevice on the context passed to GPA_OpenContext", r,
                                  GPA_STATUS_ERROR_HARDWARE_NOT_SUPPORTED);
        }
    }
    result->device_.name = DeviceName(driver, device);
    result->device_.deviceId = PciDeviceId(driver, device);
    if (Outcome o = CheckProfilingSupported(cupti, device); !o.ok()) return o;
    if (Outcome o = QueryChipName(cupti, device, &result->chip_); !o.ok()) return o;
    // Availability first: CUPTI cannot report it while a profiler is enabled on the device. (Another
    // context's profiler may be; then the image is empty and every metric of the chip is offered.)
    result->availability_ = QueryCounterAvailability(cupti, driver, context);
    std::unique_ptr<RangeProfiler> profiler;
    if (Outcome o = RangeProfiler::Create(cupti, driver, context, &profiler); !o.ok()) return o;
    result->profiler_ = std::move(profiler);
    if (Outcome o = BuildChipCounters(cupti, result->chip_, result->availability_, &result->counters_); !o.ok()) return o;
    result->planner_ = std::make_unique<CuptiPassPlanner>(cupti, result->chip_, result->availability_,
                                                          result->counters_.HardwareNames(),
                                                          PlannerOptionsFromEnvironment());
    *opened = std::move(result);
    return Outcome::Ok();
}

std::string CudaContext::HardwareCounterHint(const std::string& name) const {
    // NVIDIA's metric names have a unit and a counter joined by two underscores (sm__throughput...): a hint only, the
    // metric itself is checked when it is asked for with the flag.
    if (name.find("__") == std::string::npos) return "";
    return "'" + name + "' looks like an NVIDIA metric name (ncu's): those are hardware counters, which a context "
           "takes by name only when opened with GPA_OPENCONTEXT_ENABLE_HARDWARE_COUNTERS_BIT (0x80)";
}

Outcome CudaContext::AddHardwareCounter(const std::string& name, uint32_t* index) {
    bool added = false;
    if (Outcome o = counters_.AddMetric(name, index, &added); !o.ok()) return o;
    if (added) planner_->AddHardwareName(counters_.hardware[*index].name);
    return Outcome::Ok();
}

Outcome CudaContext::CreateSession(const PassPlan& plan, std::unique_ptr<BackendSession>* session) {
    CuptiPassPlanner::Resolved resolved;
    if (Outcome o = planner_->Resolve(plan, &resolved); !o.ok()) return o;
    SessionOptions options = SessionOptionsFromEnvironment();
    *session = std::make_unique<RangeProfilerSession>(profiler_, availability_, std::move(resolved), std::move(options));
    return Outcome::Ok();
}

}  // namespace gpa::cuda
