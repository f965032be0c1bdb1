#include "pm_sampling/pm_sampling_plan.h"

#include <set>

#include "backends/cuda/cupti_host.h"
#include "counters/counter_catalog.h"
#include "pm_sampling/metric_names.h"

namespace gpa::pm_sampling {
namespace {

// The base metrics a PM-sampling host object of this chip lists (metric_names.h), lower case, configuration-prefixed
// ones ("TriageCompute.sm__throughput") included.
Outcome BaseMetrics(const cuda::CuptiApi& api, const cuda::HostObject& host, std::set<std::string>* bases) {
    for (CUpti_MetricType type : {CUPTI_METRIC_TYPE_COUNTER, CUPTI_METRIC_TYPE_RATIO, CUPTI_METRIC_TYPE_THROUGHPUT}) {
        auto params = OPENGPA_CUPTI_PARAMS(CUpti_Profiler_Host_GetBaseMetrics_Params);
        params.pHostObject = host.get();
        params.metricType = type;
        const CUptiResult result = api.cuptiProfilerHostGetBaseMetrics(&params);
        if (result != CUPTI_SUCCESS) return api.Failure("cuptiProfilerHostGetBaseMetrics (PM sampling)", result);
        for (size_t i = 0; i < params.numMetrics; ++i) bases->insert(ToLower(params.ppMetricNames[i]));
    }
    return Outcome::Ok();
}

}  // namespace

Outcome MakePlan(const cuda::CuptiApi& api, const std::string& chip, const std::vector<std::string>& wanted,
                 const std::vector<uint8_t>& availability, Plan* plan) {
    *plan = Plan{};
    plan->chip = chip;
    std::unique_ptr<cuda::HostObject> host;
    if (Outcome o = cuda::HostObject::Create(api, chip, availability, &host, CUPTI_PROFILER_TYPE_PM_SAMPLING); !o.ok()) {
        return o;
    }
    std::set<std::string> bases;
    if (Outcome o = BaseMetrics(api, *host, &bases); !o.ok()) return o;
    for (const std::string& name : wanted) {
        const std::string base = BaseMetricOf(name);
        if (bases.count(ToLower(base)) == 0) {
            plan->leftOut.push_back(name + ": " + chip + " has no " + base + " that PM sampling can read");
            continue;
        }
        // Each metric alone first: a name CUPTI refuses (a submetric it does not have) is left out, not the set.
        std::unique_ptr<cuda::HostObject> probe;
        if (Outcome o = cuda::HostObject::Create(api, chip, availability, &probe, CUPTI_PROFILER_TYPE_PM_SAMPLING); !o.ok()) {
            return o;
        }
        if (const CUptiResult added = probe->AddMetrics({name}); added != CUPTI_SUCCESS) {
            plan->leftOut.push_back(name + ": CUPTI does not take it for PM sampling on " + chip + " (" +
                                    api.Describe(added) + ")");
            continue;
        }
        plan->metrics.push_back(name);
    }
    if (plan->metrics.empty()) {
        return Fail(GPA_STATUS_ERROR_NOT_FOUND, "none of the metrics asked for can be PM-sampled on " + chip);
    }
    if (const CUptiResult added = host->AddMetrics(plan->metrics); added != CUPTI_SUCCESS) {
        return api.Failure("cuptiProfilerHostConfigAddMetrics (PM sampling)", added);
    }
    if (Outcome o = host->ConfigImage(&plan->configImage); !o.ok()) return o;
    uint32_t passes = 0;
    if (Outcome o = cuda::ConfigPassCount(api, plan->configImage, &passes); !o.ok()) return o;
    if (passes != 1) {
        std::string names;
        for (const std::string& metric : plan->metrics) names += (names.empty() ? "" : ", ") + metric;
        return Fail(GPA_STATUS_ERROR_FAILED,
                    "PM sampling reads every metric in one pass, and CUPTI needs " + std::to_string(passes) +
                        " passes for these on " + chip + " (" + names + "); sample fewer metrics at once (throughput "
                        "metrics such as sm__throughput take many passes alone; GH100's and GB100's catalogs have a one-pass "
                        "TriageCompute.sm__throughput.avg.pct_of_peak_sustained_elapsed)");
    }
    return Outcome::Ok();
}

}  // namespace gpa::pm_sampling
