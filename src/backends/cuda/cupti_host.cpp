#include "backends/cuda/cupti_host.h"

#include <algorithm>

namespace gpa::cuda {

namespace {
std::vector<const char*> Pointers(const std::vector<std::string>& names) {
    std::vector<const char*> pointers;
    pointers.reserve(names.size());
    for (const std::string& name : names) pointers.push_back(name.c_str());
    return pointers;
}
}  // namespace

Outcome SupportedChips(const CuptiApi& api, std::vector<std::string>* chips) {
    auto params = OPENGPA_CUPTI_PARAMS(CUpti_Profiler_Host_GetSupportedChips_Params);
    const CUptiResult result = api.cuptiProfilerHostGetSupportedChips(&params);
    if (result != CUPTI_SUCCESS) return api.Failure("cuptiProfilerHostGetSupportedChips", result);
    chips->assign(params.ppChipNames, params.ppChipNames + params.numChips);
    return Outcome::Ok();
}

Outcome HostObject::Create(const CuptiApi& api, const std::string& chip, const std::vector<uint8_t>& availability,
                           std::unique_ptr<HostObject>* host, CUpti_ProfilerType type) {
    auto params = OPENGPA_CUPTI_PARAMS(CUpti_Profiler_Host_Initialize_Params);
    params.profilerType = type;
    params.pChipName = chip.c_str();
    params.pCounterAvailabilityImage = availability.empty() ? nullptr : availability.data();
    const CUptiResult result = api.cuptiProfilerHostInitialize(&params);
    if (result != CUPTI_SUCCESS) {
        std::vector<std::string> chips;
        std::string known;
        if (SupportedChips(api, &chips).ok()) {
            for (const std::string& name : chips) known += (known.empty() ? "" : " ") + name;
        }
        return Fail(GPA_STATUS_ERROR_HARDWARE_NOT_SUPPORTED,
                    "CUPTI cannot profile chip '" + chip + "' (cuptiProfilerHostInitialize: " + api.Describe(result) +
                        "); chips this CUPTI (" + api.path + ") supports: " + known);
    }
    host->reset(new HostObject(api, chip, params.pHostObject));
    return Outcome::Ok();
}

HostObject::~HostObject() {
    auto params = OPENGPA_CUPTI_PARAMS(CUpti_Profiler_Host_Deinitialize_Params);
    params.pHostObject = object_;
    api_.cuptiProfilerHostDeinitialize(&params);
}

CUptiResult HostObject::AddMetrics(const std::vector<std::string>& names) {
    std::vector<const char*> pointers = Pointers(names);
    auto params = OPENGPA_CUPTI_PARAMS(CUpti_Profiler_Host_ConfigAddMetrics_Params);
    params.pHostObject = object_;
    params.ppMetricNames = pointers.data();
    params.numMetrics = pointers.size();
    return api_.cuptiProfilerHostConfigAddMetrics(&params);
}

Outcome HostObject::ConfigImage(std::vector<uint8_t>* image) const {
    auto size = OPENGPA_CUPTI_PARAMS(CUpti_Profiler_Host_GetConfigImageSize_Params);
    size.pHostObject = object_;
    CUptiResult result = api_.cuptiProfilerHostGetConfigImageSize(&size);
    if (result != CUPTI_SUCCESS) return api_.Failure("cuptiProfilerHostGetConfigImageSize", result);
    image->assign(size.configImageSize, 0);
    auto params = OPENGPA_CUPTI_PARAMS(CUpti_Profiler_Host_GetConfigImage_Params);
    params.pHostObject = object_;
    params.configImageSize = image->size();
    params.pConfigImage = image->data();
    result = api_.cuptiProfilerHostGetConfigImage(&params);
    if (result != CUPTI_SUCCESS) return api_.Failure("cuptiProfilerHostGetConfigImage", result);
    return Outcome::Ok();
}

Outcome HostObject::Evaluate(const std::vector<uint8_t>& counterData, size_t rangeIndex,
                             const std::vector<std::string>& names, std::vector<double>* values) const {
    std::vector<const char*> pointers = Pointers(names);
    values->assign(names.size(), 0.0);
    auto params = OPENGPA_CUPTI_PARAMS(CUpti_Profiler_Host_EvaluateToGpuValues_Params);
    params.pHostObject = object_;
    params.pCounterDataImage = counterData.data();
    params.counterDataImageSize = counterData.size();
    params.rangeIndex = rangeIndex;
    params.ppMetricNames = pointers.data();
    params.numMetrics = pointers.size();
    params.pMetricValues = values->data();
    const CUptiResult result = api_.cuptiProfilerHostEvaluateToGpuValues(&params);
    if (result != CUPTI_SUCCESS) return api_.Failure("cuptiProfilerHostEvaluateToGpuValues", result);
    return Outcome::Ok();
}

Outcome ConfigPassCount(const CuptiApi& api, const std::vector<uint8_t>& image, uint32_t* passes) {
    std::vector<uint8_t> copy = image;  // the parameter is not const in CUPTI's header
    auto params = OPENGPA_CUPTI_PARAMS(CUpti_Profiler_Host_GetNumOfPasses_Params);
    params.configImageSize = copy.size();
    params.pConfigImage = copy.data();
    const CUptiResult result = api.cuptiProfilerHostGetNumOfPasses(&params);
    if (result != CUPTI_SUCCESS) return api.Failure("cuptiProfilerHostGetNumOfPasses", result);
    *passes = static_cast<uint32_t>(params.numOfPasses);
    return Outcome::Ok();
}

Outcome CounterDataRangeNames(const CuptiApi& api, const std::vector<uint8_t>& counterData,
                              std::vector<std::string>* names) {
    auto info = OPENGPA_CUPTI_PARAMS(CUpti_RangeProfiler_GetCounterDataInfo_Params);
    info.pCounterDataImage = counterData.data();
    info.counterDataImageSize = counterData.size();
    CUptiResult result = api.cuptiRangeProfilerGetCounterDataInfo(&info);
    if (result != CUPTI_SUCCESS) return api.Failure("cuptiRangeProfilerGetCounterDataInfo", result);
    names->clear();
    for (size_t i = 0; i < info.numTotalRanges; ++i) {
        auto range = OPENGPA_CUPTI_PARAMS(CUpti_RangeProfiler_CounterData_GetRangeInfo_Params);
        range.pCounterDataImage = counterData.data();
        range.counterDataImageSize = counterData.size();
        range.rangeIndex = i;
        range.rangeDelimiter = "/";
        result = api.cuptiRangeProfilerCounterDataGetRangeInfo(&range);
        if (result != CUPTI_SUCCESS) return api.Failure("cuptiRangeProfilerCounterDataGetRangeInfo", result);
        names->emplace_back(range.rangeName != nullptr ? range.rangeName : "");
    }
    return Outcome::Ok();
}

}  // namespace gpa::cuda
