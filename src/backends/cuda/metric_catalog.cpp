#include "backends/cuda/metric_catalog.h"

#include <unordered_set>

namespace gpa::cuda {

namespace {

constexpr const char* kCounterSubmetric = ".sum";
constexpr const char* kRatioSubmetric = ".ratio";
constexpr const char* kThroughputSubmetric = ".avg.pct_of_peak_sustained_elapsed";

bool EndsWith(const std::string& text, const std::string& suffix) {
    return text.size() >= suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// "FE_B.TriageCompute.gr__cycles_active" -> "gr__cycles_active"; plain names are returned as they are.
std::string PlainName(const std::string& baseName) {
    const size_t dot = baseName.rfind('.');
    return dot == std::string::npos ? baseName : baseName.substr(dot + 1);
}

GPA_Usage_Type CountUsage(const std::string& dimUnit) {
    if (dimUnit == "byte") return GPA_USAGE_TYPE_BYTES;
    if (dimUnit == "nanosecond") return GPA_USAGE_TYPE_NANOSECONDS;
    if (dimUnit == "cycle" || EndsWith(dimUnit, "_cycle")) return GPA_USAGE_TYPE_CYCLES;
    return GPA_USAGE_TYPE_ITEMS;
}

const char* KindName(CUpti_MetricType type) {
    switch (type) {
        case CUPTI_METRIC_TYPE_COUNTER: return "counter";
        case CUPTI_METRIC_TYPE_RATIO: return "ratio";
        case CUPTI_METRIC_TYPE_THROUGHPUT: return "throughput";
        default: return "metric";
    }
}

}  // namespace

std::string RawCounterName(const std::string& baseName, MetricKind kind) {
    switch (kind) {
        case MetricKind::Counter: return baseName + kCounterSubmetric;
        case MetricKind::Ratio: return baseName + kRatioSubmetric;
        case MetricKind::Throughput: return baseName + kThroughputSubmetric;
    }
    return baseName;
}

Outcome MetricCatalog::Load(const CuptiApi& api, const std::string& chip, const std::vector<uint8_t>& availability,
                            std::unique_ptr<MetricCatalog>* catalog) {
    std::unique_ptr<HostObject> host;
    if (Outcome o = HostObject::Create(api, chip, availability, &host); !o.ok()) return o;
    std::unique_ptr<MetricCatalog> result(new MetricCatalog(std::move(host)));

    struct Listed {
        std::string name;
        MetricKind kind;
    };
    std::vector<Listed> listed;
    const std::pair<CUpti_MetricType, MetricKind> kinds[] = {{CUPTI_METRIC_TYPE_COUNTER, MetricKind::Counter},
                                                             {CUPTI_METRIC_TYPE_RATIO, MetricKind::Ratio},
                                                             {CUPTI_METRIC_TYPE_THROUGHPUT, MetricKind::Throughput}};
    for (const auto& [type, kind] : kinds) {
        auto params = OPENGPA_CUPTI_PARAMS(CUpti_Profiler_Host_GetBaseMetrics_Params);
        params.pHostObject = result->host_->get();
        params.metricType = type;
        const CUptiResult status = api.cuptiProfilerHostGetBaseMetrics(&params);
        if (status != CUPTI_SUCCESS) return api.Failure("cuptiProfilerHostGetBaseMetrics", status);
        for (size_t i = 0; i < params.numMetrics; ++i) listed.push_back({params.ppMetricNames[i], kind});
    }
    std::unordered_set<std::string> plainNames;
    for (const Listed& metric : listed) {
        if (metric.name.find('.') == std::string::npos) plainNames.insert(metric.name);
    }
    for (const Listed& metric : listed) {
        const bool prefixed = metric.name.find('.') != std::string::npos;
        if (prefixed && plainNames.count(PlainName(metric.name)) != 0) continue;  // listed under its plain name
        auto properties = OPENGPA_CUPTI_PARAMS(CUpti_Profiler_Host_GetMetricProperties_Params);
        properties.pHostObject = result->host_->get();
        properties.pMetricName = metric.name.c_str();
        const CUptiResult status = api.cuptiProfilerHostGetMetricProperties(&properties);
        if (status != CUPTI_SUCCESS) continue;  // not describable: not offered
        MetricInfo info;
        info.baseName = metric.name;
        info.rawName = RawCounterName(metric.name, metric.kind);
        info.kind = metric.kind;
        info.hwUnit = properties.pHwUnit != nullptr ? properties.pHwUnit : "";
        info.dimUnit = properties.pDimUnit != nullptr ? properties.pDimUnit : "";
        info.description = properties.pDescription != nullptr ? properties.pDescription : "";
        if (result->byRawName_.count(info.rawName) != 0) continue;
        if (prefixed) {
            // Metrics of a named configuration may not be collectable by the range profiler at all (GH100 lists
            // CTC.TriageCompute.ctc__throughput, which CUPTI then refuses): offered only if CUPTI takes them.
            std::unique_ptr<HostObject> probe;
            if (!HostObject::Create(api, chip, availability, &probe).ok()) continue;
            if (probe->AddMetrics({info.rawName}) != CUPTI_SUCCESS) continue;
        }
        result->byRawName_.emplace(info.rawName, result->metrics_.size());
        result->metrics_.push_back(std::move(info));
    }
    *catalog = std::move(result);
    return Outcome::Ok();
}

const MetricInfo* MetricCatalog::Find(const std::string& rawName) const {
    auto it = byRawName_.find(rawName);
    return it == byRawName_.end() ? nullptr : &metrics_[it->second];
}

HardwareCounter MetricCatalog::ToCounter(const MetricInfo& metric) const {
    HardwareCounter counter;
    counter.name = metric.rawName;
    counter.group = metric.hwUnit.empty() ? "other" : metric.hwUnit;
    std::string description = metric.description.empty()
                                  ? std::string("NVIDIA metric ") + metric.baseName + " (CUPTI gives no description)"
                                  : metric.description;
    switch (metric.kind) {
        case MetricKind::Counter:
            counter.type = GPA_TYPE_UINT64;
            counter.usage = CountUsage(metric.dimUnit);
            description += ". Total over all " + counter.group + " units" +
                           (metric.dimUnit.empty() ? std::string() : " (unit: " + metric.dimUnit + ")") + ".";
            break;
        case MetricKind::Ratio:
            counter.type = GPA_TYPE_FLOAT64;
            counter.usage = GPA_USAGE_TYPE_RATIO;
            description += ". Ratio" + (metric.dimUnit.empty() ? std::string() : " (" + metric.dimUnit + ")") +
                           "; multiply by 100 for a percentage.";
            break;
        case MetricKind::Throughput:
            counter.type = GPA_TYPE_FLOAT64;
            counter.usage = GPA_USAGE_TYPE_PERCENTAGE;
            description += ". Average over " + counter.group +
                           " units, in percent of the peak sustained rate over the elapsed cycles.";
            break;
    }
    counter.description = std::move(description);
    return counter;
}

Outcome MetricCatalog::Describe(const std::string& fullName, HardwareCounter* counter) const {
    if (const MetricInfo* raw = Find(fullName)) {
        *counter = ToCounter(*raw);
        return Outcome::Ok();
    }
    auto properties = OPENGPA_CUPTI_PARAMS(CUpti_Profiler_Host_GetMetricProperties_Params);
    properties.pHostObject = host_->get();
    properties.pMetricName = fullName.c_str();
    const CUptiResult status = host_->api().cuptiProfilerHostGetMetricProperties(&properties);
    if (status != CUPTI_SUCCESS) {
        return Fail(GPA_STATUS_ERROR_NOT_FOUND,
                    "CUPTI does not know metric '" + fullName + "' on " + chip() + ": " + host_->api().Describe(status));
    }
    counter->name = fullName;
    counter->group = properties.pHwUnit != nullptr && *properties.pHwUnit ? properties.pHwUnit : "other";
    const std::string dim = properties.pDimUnit != nullptr ? properties.pDimUnit : "";
    const std::string submetric = fullName.substr(fullName.find('.') == std::string::npos ? fullName.size()
                                                                                          : fullName.find('.'));
    std::string description = properties.pDescription != nullptr && *properties.pDescription
                                  ? properties.pDescription
                                  : std::string("NVIDIA metric ") + fullName;
    description += std::string(" (") + KindName(properties.metricType) + ", submetric '" + submetric + "'" +
                   (dim.empty() ? std::string() : ", unit " + dim) + ").";
    counter->description = std::move(description);
    const bool percent = submetric.find("pct") != std::string::npos || dim == "percent";
    if (percent) {
        counter->type = GPA_TYPE_FLOAT64;
        counter->usage = GPA_USAGE_TYPE_PERCENTAGE;
    } else if (properties.metricType == CUPTI_METRIC_TYPE_RATIO || submetric.find("ratio") != std::string::npos) {
        counter->type = GPA_TYPE_FLOAT64;
        counter->usage = GPA_USAGE_TYPE_RATIO;
    } else if (properties.metricType == CUPTI_METRIC_TYPE_COUNTER &&
               (submetric == ".sum" || submetric == ".max" || submetric == ".min")) {
        counter->type = GPA_TYPE_UINT64;
        counter->usage = CountUsage(dim);
    } else {
        counter->type = GPA_TYPE_FLOAT64;
        counter->usage = properties.metricType == CUPTI_METRIC_TYPE_COUNTER && submetric == ".avg" ? CountUsage(dim)
                                                                                                      : GPA_USAGE_TYPE_ITEMS;
    }
    return Outcome::Ok();
}

std::vector<HardwareCounter> MetricCatalog::HardwareCounters(const std::vector<std::string>& extraNames,
                                                             std::vector<std::string>* unknown) const {
    std::vector<HardwareCounter> counters;
    counters.reserve(metrics_.size() + extraNames.size());
    std::unordered_set<std::string> names;
    for (const MetricInfo& metric : metrics_) {
        counters.push_back(ToCounter(metric));
        names.insert(metric.rawName);
    }
    for (const std::string& name : extraNames) {
        if (!names.insert(name).second) continue;
        HardwareCounter counter;
        if (Describe(name, &counter).ok()) {
            counters.push_back(std::move(counter));
        } else if (unknown != nullptr) {
            unknown->push_back(name);
        }
    }
    return counters;
}

}  // namespace gpa::cuda
