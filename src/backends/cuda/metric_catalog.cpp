#include "backends/cuda/metric_catalog.h"

#include <unordered_set>

#include "backends/cuda/metric_names.h"
#include "counters/counter_catalog.h"

namespace gpa::cuda {

namespace {

constexpr const char* kCounterSubmetric = ".sum";
constexpr const char* kRatioSubmetric = ".ratio";
constexpr const char* kThroughputSubmetric = ".avg.pct_of_peak_sustained_elapsed";

// "FE_B.TriageCompute.gr__cycles_active" -> "gr__cycles_active"; plain names are returned as they are.
std::string PlainName(const std::string& baseName) {
    const size_t dot = baseName.rfind('.');
    return dot == std::string::npos ? baseName : baseName.substr(dot + 1);
}

const char* KindName(CUpti_MetricType type) {
    switch (type) {
        case CUPTI_METRIC_TYPE_COUNTER: return "counter";
        case CUPTI_METRIC_TYPE_RATIO: return "ratio";
        case CUPTI_METRIC_TYPE_THROUGHPUT: return "throughput";
        default: return "metric";
    }
}

MetricKind KindOf(CUpti_MetricType type) {
    return type == CUPTI_METRIC_TYPE_RATIO        ? MetricKind::Ratio
           : type == CUPTI_METRIC_TYPE_THROUGHPUT ? MetricKind::Throughput
                                                  : MetricKind::Counter;
}

std::string JoinAlternatives(const std::vector<std::string>& names, const std::string& prefix) {
    std::string text;
    for (size_t i = 0; i < names.size(); ++i) {
        text += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + prefix + names[i];
    }
    return text;
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
                            std::unique_ptr<MetricCatalog>* catalog, CatalogScope scope) {
    std::unique_ptr<HostObject> host;
    if (Outcome o = HostObject::Create(api, chip, availability, &host); !o.ok()) return o;
    std::unique_ptr<MetricCatalog> result(new MetricCatalog(std::move(host), availability, scope));

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
        for (size_t i = 0; i < params.numMetrics; ++i) {
            listed.push_back({params.ppMetricNames[i], kind});
            result->basesByLowerName_.emplace(ToLower(params.ppMetricNames[i]), BaseMetric{params.ppMetricNames[i], type});
        }
    }
    for (const Listed& metric : listed) {
        if (metric.name.find('.') == std::string::npos) result->plainNames_.insert(metric.name);
    }
    if (scope == CatalogScope::Everything) {
        for (const Listed& metric : listed) {
            std::optional<MetricInfo> info = result->DescribeListed(metric.name, metric.kind);
            if (!info || result->byRawName_.count(info->rawName) != 0) continue;
            result->byRawName_.emplace(info->rawName, result->metrics_.size());
            result->metrics_.push_back(std::move(*info));
        }
    }
    *catalog = std::move(result);
    return Outcome::Ok();
}

std::optional<MetricInfo> MetricCatalog::DescribeListed(const std::string& baseName, MetricKind kind) const {
    const bool prefixed = baseName.find('.') != std::string::npos;
    if (prefixed && plainNames_.count(PlainName(baseName)) != 0) return std::nullopt;  // listed under its plain name
    auto properties = OPENGPA_CUPTI_PARAMS(CUpti_Profiler_Host_GetMetricProperties_Params);
    properties.pHostObject = host_->get();
    properties.pMetricName = baseName.c_str();
    if (host_->api().cuptiProfilerHostGetMetricProperties(&properties) != CUPTI_SUCCESS) return std::nullopt;  // not offered
    MetricInfo info;
    info.baseName = baseName;
    info.rawName = RawCounterName(baseName, kind);
    info.kind = kind;
    info.hwUnit = properties.pHwUnit != nullptr ? properties.pHwUnit : "";
    info.dimUnit = properties.pDimUnit != nullptr ? properties.pDimUnit : "";
    info.description = properties.pDescription != nullptr ? properties.pDescription : "";
    if (prefixed) {
        // Metrics of a named configuration may not be collectable by the range profiler at all (GH100 lists
        // CTC.TriageCompute.ctc__throughput, which CUPTI then refuses): offered only if CUPTI takes them.
        std::unique_ptr<HostObject> probe;
        if (!HostObject::Create(host_->api(), chip(), availability_, &probe).ok()) return std::nullopt;
        if (probe->AddMetrics({info.rawName}) != CUPTI_SUCCESS) return std::nullopt;
    }
    return info;
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

const MetricCatalog::BaseMetric* MetricCatalog::FindBase(const std::string& name) const {
    auto it = basesByLowerName_.find(ToLower(name));
    return it == basesByLowerName_.end() ? nullptr : &it->second;
}

std::vector<std::string> MetricCatalog::Submetrics(const std::string& baseName) const {
    const BaseMetric* base = FindBase(baseName);
    if (base == nullptr) return {};
    auto params = OPENGPA_CUPTI_PARAMS(CUpti_Profiler_Host_GetSubMetrics_Params);
    params.pHostObject = host_->get();
    params.metricType = base->type;
    params.pMetricName = base->name.c_str();
    if (host_->api().cuptiProfilerHostGetSubMetrics(&params) != CUPTI_SUCCESS) return {};
    return std::vector<std::string>(params.ppSubMetrics, params.ppSubMetrics + params.numOfSubmetrics);
}

Outcome MetricCatalog::NotAMetric(const std::string& name, bool explain) const {
    const std::string given = name.substr(0, name.find('.'));
    if (!explain) return Fail(GPA_STATUS_ERROR_NOT_FOUND, "CUPTI lists no NVIDIA metric named '" + given + "' on " + chip());
    std::vector<std::string> names;
    names.reserve(basesByLowerName_.size());
    for (const auto& [lower, base] : basesByLowerName_) names.push_back(base.name);
    const std::vector<std::string> close = CloseMatches(given, names);
    std::string reason = "CUPTI lists no NVIDIA metric named '" + given + "' on " + chip();
    if (!close.empty()) {
        reason += "; did you mean " + JoinAlternatives(close, "") + "?";
    } else {
        reason += " (NVIDIA metrics are named unit__name.submetric, e.g. sm__warps_active.avg.pct_of_peak_sustained_active; "
                  "gpa-counters --chip " + chip() + " --hardware lists them)";
    }
    return Fail(GPA_STATUS_ERROR_NOT_FOUND, reason);
}

Outcome MetricCatalog::Resolve(const std::string& name, HardwareCounter* counter) const {
    return Resolve(name, counter, true);
}

Outcome MetricCatalog::Resolve(const std::string& name, HardwareCounter* counter, bool explain) const {
    if (const MetricInfo* raw = Find(name)) {
        *counter = ToCounter(*raw);
        return Outcome::Ok();
    }
    // The base metric: the longest part before a '.' (or the whole name) that CUPTI lists; configuration-prefixed
    // base names ("FE_B.TriageCompute.gr__cycles_active") hold dots themselves.
    const BaseMetric* base = nullptr;
    size_t baseLength = 0;
    for (size_t end = name.find('.');; end = name.find('.', end + 1)) {
        const size_t length = end == std::string::npos ? name.size() : end;
        if (const BaseMetric* candidate = FindBase(name.substr(0, length))) {
            base = candidate;
            baseLength = length;
        }
        if (end == std::string::npos) break;
    }
    if (base == nullptr) return NotAMetric(name, explain);
    const std::string given = name.substr(baseLength);
    const std::vector<std::string> submetrics = Submetrics(base->name);
    const std::string kind = KindName(base->type);
    if (submetrics.empty()) {
        return Fail(GPA_STATUS_ERROR_NOT_FOUND, "CUPTI lists no submetrics of " + base->name + " on " + chip() +
                                                    ", so no value of it can be collected");
    }
    const std::string listing = " Its submetrics: " + SummarizeSubmetrics(submetrics) + ".";
    if (given.empty()) {
        return Fail(GPA_STATUS_ERROR_NOT_FOUND,
                    "'" + name + "' is a base metric (a " + kind + ") and names no value: add a submetric, as ncu needs too, e.g. " +
                        RawCounterName(base->name, KindOf(base->type)) + "." + listing);
    }
    const std::string* submetric = nullptr;
    for (const std::string& candidate : submetrics) {
        if (ToLower(candidate) == ToLower(given)) submetric = &candidate;
    }
    if (submetric == nullptr) {
        std::string reason = "'" + given + "' is not a submetric of " + base->name + " (a " + kind + " metric) on " + chip();
        const std::vector<std::string> close = explain ? CloseMatches(given, submetrics) : std::vector<std::string>();
        if (!close.empty()) reason += "; did you mean " + JoinAlternatives(close, base->name) + "?";
        return Fail(GPA_STATUS_ERROR_NOT_FOUND, reason + (close.empty() ? "." : "") + listing);
    }
    const std::string fullName = base->name + *submetric;
    if (const MetricInfo* raw = Find(fullName)) {
        *counter = ToCounter(*raw);
        return Outcome::Ok();
    }
    if (scope_ == CatalogScope::Named && fullName == RawCounterName(base->name, KindOf(base->type))) {
        // The raw counter Load(Everything) would have offered, described now.
        if (const std::optional<MetricInfo> raw = DescribeListed(base->name, KindOf(base->type))) {
            *counter = ToCounter(*raw);
            return Outcome::Ok();
        }
    }
    // Listed is not enough: CUPTI must take the metric in a configuration (and a device must be able to collect it).
    std::unique_ptr<HostObject> probe;
    if (Outcome o = HostObject::Create(host_->api(), chip(), availability_, &probe); !o.ok()) return o;
    if (const CUptiResult status = probe->AddMetrics({fullName}); status != CUPTI_SUCCESS) {
        return Fail(GPA_STATUS_ERROR_NOT_FOUND,
                    "CUPTI does not accept metric " + fullName + " in a configuration on " + chip() +
                        (availability_.empty() ? std::string() : " with this device's counter availability") + ": " +
                        host_->api().Describe(status));
    }
    return Describe(fullName, *base, *submetric, counter);
}

Outcome MetricCatalog::Describe(const std::string& fullName, const BaseMetric& base, const std::string& submetric,
                                HardwareCounter* counter) const {
    auto properties = OPENGPA_CUPTI_PARAMS(CUpti_Profiler_Host_GetMetricProperties_Params);
    properties.pHostObject = host_->get();
    properties.pMetricName = fullName.c_str();
    const CUptiResult status = host_->api().cuptiProfilerHostGetMetricProperties(&properties);
    if (status != CUPTI_SUCCESS) {
        return Fail(GPA_STATUS_ERROR_NOT_FOUND, "CUPTI does not describe metric '" + fullName + "' on " + chip() + ": " +
                                                    host_->api().Describe(status));
    }
    counter->name = fullName;
    counter->group = properties.pHwUnit != nullptr && *properties.pHwUnit ? properties.pHwUnit : "other";
    const std::string dim = properties.pDimUnit != nullptr ? properties.pDimUnit : "";
    std::string description = properties.pDescription != nullptr && *properties.pDescription
                                  ? properties.pDescription
                                  : std::string("NVIDIA metric ") + base.name + " (CUPTI gives no description)";
    description += ". " + ExplainSubmetric(submetric, counter->group) + " NVIDIA " + KindName(base.type) + " " + fullName +
                   (dim.empty() ? std::string() : ", unit " + dim) + ".";
    counter->description = std::move(description);
    SubmetricTypeAndUsage(base.type == CUPTI_METRIC_TYPE_COUNTER, base.type == CUPTI_METRIC_TYPE_RATIO, submetric, dim,
                          &counter->type, &counter->usage);
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
        if (names.count(name) != 0) continue;
        HardwareCounter counter;
        if (Resolve(name, &counter, false).ok()) {
            if (names.insert(counter.name).second) counters.push_back(std::move(counter));
        } else if (unknown != nullptr) {
            unknown->push_back(name);
        }
    }
    return counters;
}

}  // namespace gpa::cuda
