#include "tools/gpaprof/cli/pm_metric_names.h"

#include <chrono>

#if GPAPROF_KNOWS_CUDA_COUNTERS
#include <algorithm>
#include <memory>
#include <set>
#include <unordered_map>

#include "backends/cuda/cupti_host.h"
#include "counters/counter_catalog.h"
#include "pm_sampling/metric_names.h"
#include "tools/gpaprof/cli/counter_names.h"
#endif

namespace gpaprof::cli {
namespace {

#if GPAPROF_KNOWS_CUDA_COUNTERS
using gpa::cuda::CuptiApi;
using gpa::cuda::HostObject;

// Tried first: the chips profiled most. Usually the first takes every name in one pass and the check ends there
// in a few milliseconds. Every chip's catalog is read only when a name is refused: 0.1 to 0.25 s for CUPTI 13's
// 30 chips on a 2-core machine without a GPU (2026-11-28), so the check is not restricted to a short list of chips.
const char* const kPreferredChips[] = {"GH100", "GB100", "GB202", "AD102", "GA102"};

struct BaseMetric {
    std::string name;  // CUPTI's spelling
    CUpti_MetricType type = CUPTI_METRIC_TYPE_COUNTER;
};

// A chip's PM-sampling catalog: base metrics by lower-case name (as MakePlan compares them).
struct ChipCatalog {
    std::string chip;
    std::unordered_map<std::string, BaseMetric> bases;
};

std::unique_ptr<HostObject> NewHost(const CuptiApi& api, const std::string& chip) {
    std::unique_ptr<HostObject> host;
    if (!HostObject::Create(api, chip, {}, &host, CUPTI_PROFILER_TYPE_PM_SAMPLING).ok()) return nullptr;
    return host;
}

// False for a chip CUPTI lists but cannot PM-sample (Volta).
bool ReadCatalog(const CuptiApi& api, const std::string& chip, ChipCatalog* catalog) {
    std::unique_ptr<HostObject> host = NewHost(api, chip);
    if (!host) return false;
    catalog->chip = chip;
    for (CUpti_MetricType type : {CUPTI_METRIC_TYPE_COUNTER, CUPTI_METRIC_TYPE_RATIO, CUPTI_METRIC_TYPE_THROUGHPUT}) {
        auto params = OPENGPA_CUPTI_PARAMS(CUpti_Profiler_Host_GetBaseMetrics_Params);
        params.pHostObject = host->get();
        params.metricType = type;
        if (api.cuptiProfilerHostGetBaseMetrics(&params) != CUPTI_SUCCESS) return false;
        for (size_t i = 0; i < params.numMetrics; ++i) {
            // Configuration-prefixed names ("TriageCompute.sm__throughput") too: BaseOf names them, as in MakePlan.
            const std::string name = params.ppMetricNames[i];
            catalog->bases.emplace(gpa::ToLower(name), BaseMetric{name, type});
        }
    }
    return true;
}

// The passes CUPTI needs for `names` on `chip` together; 0 when it does not take them together.
uint32_t PassesTogether(const CuptiApi& api, const std::string& chip, const std::vector<std::string>& names) {
    std::unique_ptr<HostObject> host = NewHost(api, chip);
    std::vector<uint8_t> image;
    uint32_t passes = 0;
    if (!host || host->AddMetrics(names) != CUPTI_SUCCESS || !host->ConfigImage(&image).ok() ||
        !gpa::cuda::ConfigPassCount(api, image, &passes).ok()) {
        return 0;
    }
    return passes;
}

bool Takes(const CuptiApi& api, const std::string& chip, const std::string& name) {
    std::unique_ptr<HostObject> probe = NewHost(api, chip);
    return probe && probe->AddMetrics({name}) == CUPTI_SUCCESS;
}

// "<base><submetric>" for every submetric CUPTI lists for the base metric on the chip.
std::vector<std::string> FullNames(const CuptiApi& api, const std::string& chip, const BaseMetric& base) {
    std::unique_ptr<HostObject> host = NewHost(api, chip);
    if (!host) return {};
    auto params = OPENGPA_CUPTI_PARAMS(CUpti_Profiler_Host_GetSubMetrics_Params);
    params.pHostObject = host->get();
    params.metricType = base.type;
    params.pMetricName = base.name.c_str();
    if (api.cuptiProfilerHostGetSubMetrics(&params) != CUPTI_SUCCESS) return {};
    std::vector<std::string> names;
    for (size_t i = 0; i < params.numOfSubmetrics; ++i) names.push_back(base.name + params.ppSubMetrics[i]);
    return names;
}

std::string Alternatives(const std::vector<std::string>& names) {
    std::string text;
    for (size_t i = 0; i < names.size(); ++i) text += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
    return text;
}

std::string BaseOf(const std::string& name) { return gpa::ToLower(gpa::pm_sampling::BaseMetricOf(name)); }

std::string Check(const CuptiApi& api, const std::vector<std::string>& names, PmMetricCheck* check) {
    std::vector<std::string> chips;
    if (gpa::Outcome listed = gpa::cuda::SupportedChips(api, &chips); !listed.ok()) {
        check->note = "--pm-metrics: names not checked before the run (" + listed.reason() + ")";
        return {};
    }
    auto rank = [](const std::string& chip) {
        return std::find(std::begin(kPreferredChips), std::end(kPreferredChips), chip) - std::begin(kPreferredChips);
    };
    std::stable_sort(chips.begin(), chips.end(), [&](const std::string& a, const std::string& b) { return rank(a) < rank(b); });
    std::vector<ChipCatalog> catalogs;
    std::set<std::string> taken;                       // names some chip takes
    std::vector<std::pair<std::string, uint32_t>> passes;  // per chip that takes any: the passes of what it takes
    bool onePass = false;
    for (const std::string& chip : chips) {
        ChipCatalog catalog;
        if (!ReadCatalog(api, chip, &catalog)) continue;
        std::vector<std::string> wanted;
        for (const std::string& name : names) {
            if (catalog.bases.count(BaseOf(name))) wanted.push_back(name);
        }
        catalogs.push_back(std::move(catalog));
        if (wanted.empty()) continue;
        uint32_t needed = PassesTogether(api, chip, wanted);
        if (needed == 0) {
            // Some name is refused on this chip: what it takes of them, one by one (MakePlan leaves the others out).
            std::erase_if(wanted, [&](const std::string& name) { return !Takes(api, chip, name); });
            if (wanted.empty()) continue;
            needed = PassesTogether(api, chip, wanted);
        }
        taken.insert(wanted.begin(), wanted.end());
        passes.emplace_back(chip, needed);
        onePass = onePass || needed == 1;
        if (onePass && taken.size() == names.size()) break;
    }
    check->chips = catalogs.size();
    if (catalogs.empty()) {
        check->note = "--pm-metrics: names not checked before the run (CUPTI " + api.path + " PM-samples none of its chips)";
        return {};
    }
    check->checked = true;

    std::vector<std::string> problems;
    for (const std::string& name : names) {
        if (taken.count(name)) continue;
        const std::string base = BaseOf(name);
        const std::string spelled = gpa::pm_sampling::BaseMetricOf(name);  // the base as the user wrote it
        const std::string suffix = name.substr(spelled.size());
        std::vector<const ChipCatalog*> having;
        for (const ChipCatalog& catalog : catalogs) {
            if (catalog.bases.count(base)) having.push_back(&catalog);
        }
        if (having.empty()) {
            std::set<std::string> bases;
            for (const ChipCatalog& catalog : catalogs) {
                for (const auto& [lower, metric] : catalog.bases) bases.insert(metric.name);
            }
            std::vector<std::string> nearest =
                NearestCounterNames(spelled, std::vector<std::string>(bases.begin(), bases.end()));
            for (std::string& candidate : nearest) candidate += suffix;
            problems.push_back("no chip's PM-sampling catalog has a metric " + spelled + " ('" + name +
                               "')" + (nearest.empty() ? "" : " (did you mean " + Alternatives(nearest) + "?)"));
            continue;
        }
        const BaseMetric& metric = having.front()->bases.at(base);
        const std::vector<std::string> full = FullNames(api, having.front()->chip, metric);
        std::vector<std::string> nearest = NearestCounterNames(name, full);
        std::string hint;
        if (!nearest.empty()) {
            hint = " (did you mean " + Alternatives(nearest) + "?)";
        } else if (!full.empty()) {
            hint = " (a rollup and submetric are needed, e.g. " +
                   Alternatives(std::vector<std::string>(full.begin(), full.begin() + std::min<size_t>(3, full.size()))) + ")";
        }
        problems.push_back("CUPTI takes no '" + name + "' for PM sampling on any of the " + std::to_string(having.size()) +
                           " chips that have " + metric.name + hint);
    }
    if (problems.empty() && !onePass) {
        std::string counts;
        for (size_t i = 0; i < passes.size() && i < 4; ++i) {
            counts += (i ? ", " : "") + std::to_string(passes[i].second) + " on " + passes[i].first;
        }
        problems.push_back("PM sampling reads every metric in one pass, and CUPTI needs more for these on every chip (" +
                           counts + (passes.size() > 4 ? ", ..." : "") +
                           "); sample fewer metrics at once (throughput metrics such as sm__throughput take many passes "
                           "alone; --pm-metrics sm-throughput samples SM throughput's parts in one pass on GH100 and "
                           "GB100, TriageCompute.sm__throughput.avg.pct_of_peak_sustained_elapsed among them)");
    }
    std::string refusal;
    for (const std::string& problem : problems) refusal += (refusal.empty() ? "" : "; ") + problem;
    return refusal.empty() ? refusal
                           : "--pm-metrics: " + refusal + ". Names are ncu's (unit__name.rollup, e.g. dram__bytes_read.sum; "
                                                          "the default set: docs/pm_sampling.md). The application was not "
                                                          "started";
}
#endif

}  // namespace

PmMetricCheck CheckPmMetricNames(const std::vector<std::string>& names) {
    const auto start = std::chrono::steady_clock::now();
    PmMetricCheck check;
    if (names.empty()) {
        check.checked = true;
        return check;
    }
#if GPAPROF_KNOWS_CUDA_COUNTERS
    const CuptiApi* api = nullptr;
    if (gpa::Outcome loaded = gpa::cuda::LoadCupti(&api); !loaded.ok()) {
        check.note = "--pm-metrics: names not checked before the run (" + loaded.reason() + ")";
    } else {
        check.refusal = Check(*api, names, &check);
    }
#else
    check.note = "--pm-metrics: names not checked before the run (this gpaprof was built without CUPTI)";
#endif
    if (!check.checked) {
        check.note += "; the CUDA part writes those its device cannot sample as LeftOut lines of the .pmsampling.csv";
    }
    check.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return check;
}

}  // namespace gpaprof::cli
