#include "backends/cuda/kernel_replay_profiler.h"

#include "backends/cuda/cupti_host.h"

namespace gpa::cuda {

Outcome KernelReplayProfiler::Create(CUcontext context, std::unique_ptr<KernelReplayProfiler>* profiler) {
    const DriverApi* driver = nullptr;
    const CuptiApi* cupti = nullptr;
    if (Outcome o = LoadDriver(&driver); !o.ok()) return o;
    if (Outcome o = LoadCupti(&cupti); !o.ok()) return o;
    CUdevice device = 0;
    {
        ScopedContext current(*driver, context);
        if (!current.outcome().ok()) return current.outcome();
        if (CUresult r = driver->cuCtxGetDevice(&device); r != CUDA_SUCCESS) {
            return driver->Failure("cuCtxGetDevice", r, GPA_STATUS_ERROR_HARDWARE_NOT_SUPPORTED);
        }
    }
    std::unique_ptr<KernelReplayProfiler> result(new KernelReplayProfiler());
    if (Outcome o = CheckProfilingSupported(*cupti, device); !o.ok()) return o;
    if (Outcome o = QueryChipName(*cupti, device, &result->chip_); !o.ok()) return o;
    result->availability_ = QueryCounterAvailability(*cupti, *driver, context);
    if (Outcome o = RangeProfiler::Create(*cupti, *driver, context, &result->profiler_); !o.ok()) return o;
    *profiler = std::move(result);
    return Outcome::Ok();
}

Outcome KernelReplayProfiler::Plan(const std::vector<std::string>& metrics, MetricPlan* plan) const {
    return PlanMetrics(cupti(), chip_, availability_, metrics, plan);
}

Outcome KernelReplayProfiler::Profile(const MetricPlan& plan, const std::function<Outcome()>& launch,
                                      std::vector<std::map<std::string, double>>* values, size_t maxKernels) {
    values->clear();
    for (const ConfigGroup& group : plan.groups) {
        std::vector<uint8_t> counterData;
        Outcome decoded;
        {
            auto lock = profiler_->Lock();
            RangeProfiler::Pending pending;
            pending.owner = this;
            pending.decoded = [&decoded](const Outcome& outcome) { decoded = outcome; };
            if (Outcome o = profiler_->Configure(group.configImage, group.metrics, maxKernels, &counterData,
                                                 CUPTI_AutoRange, CUPTI_KernelReplay, std::move(pending));
                !o.ok()) {
                return o;
            }
            if (Outcome o = profiler_->Start(); !o.ok()) return o;
        }
        const Outcome launched = launch();
        {
            auto lock = profiler_->Lock();
            bool allSubmitted = false;
            const Outcome stopped = profiler_->Stop(&allSubmitted);
            profiler_->FinishPendingOf(this);
            if (!launched.ok()) return launched;
            if (!stopped.ok()) return stopped;
            if (!decoded.ok()) return decoded;
            if (!allSubmitted) {
                return Fail(GPA_STATUS_ERROR_FAILED, "CUPTI's kernel replay did not complete every pass of a configuration");
            }
        }
        std::vector<std::string> ranges;
        if (Outcome o = CounterDataRangeNames(cupti(), counterData, &ranges); !o.ok()) return o;
        std::unique_ptr<HostObject> host;
        if (Outcome o = HostObject::Create(cupti(), chip_, availability_, &host); !o.ok()) return o;
        if (const CUptiResult added = host->AddMetrics(group.metrics); added != CUPTI_SUCCESS) {
            return cupti().Failure("cuptiProfilerHostConfigAddMetrics", added);
        }
        if (values->size() < ranges.size()) values->resize(ranges.size());
        for (size_t range = 0; range < ranges.size(); ++range) {
            std::vector<double> evaluated;
            if (Outcome o = host->Evaluate(counterData, range, group.metrics, &evaluated); !o.ok()) return o;
            for (size_t m = 0; m < group.metrics.size(); ++m) (*values)[range][group.metrics[m]] = evaluated[m];
        }
    }
    return Outcome::Ok();
}

}  // namespace gpa::cuda
