// The raw-CUPTI half of sample_overhead (host C++20: the backend's headers): a user-range, user-replay
// session set up with CUPTI's own calls, timing only cuptiRangeProfilerPushRange + PopRange.
#include "sample_overhead_cupti.h"

#include <ctime>
#include <vector>

#include "backends/cuda/cuda_driver_loader.h"
#include "backends/cuda/cupti_loader.h"
#include "backends/cuda/cupti_pass_planner.h"
#include "backends/cuda/range_profiler.h"

namespace {

uint64_t Now() {
    timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return static_cast<uint64_t>(now.tv_sec) * 1000000000ull + static_cast<uint64_t>(now.tv_nsec);
}

}  // namespace

// Nanoseconds per range spent in cuptiRangeProfilerPushRange + cuptiRangeProfilerPopRange.
double CuptiRangeRound(CUcontext context, const std::function<void()>& launch, int samples, std::string* problem) {
    using namespace gpa::cuda;
    const CuptiApi* cupti = nullptr;
    const DriverApi* driver = nullptr;
    if (gpa::Outcome o = LoadCupti(&cupti); !o.ok()) { *problem = std::string("LoadCupti") + ": " + (o.reason()); return -1; }
    if (gpa::Outcome o = LoadDriver(&driver); !o.ok()) { *problem = std::string("LoadDriver") + ": " + (o.reason()); return -1; }
    if (gpa::Outcome o = InitializeCuptiProfiler(*cupti); !o.ok()) { *problem = std::string("cuptiProfilerInitialize") + ": " + (o.reason()); return -1; }
    CUdevice device = 0;
    driver->cuCtxGetDevice(&device);
    std::string chip;
    if (gpa::Outcome o = QueryChipName(*cupti, device, &chip); !o.ok()) { *problem = std::string("chip") + ": " + (o.reason()); return -1; }
    const std::vector<std::string> metrics = {"gpu__time_duration.sum"};
    MetricPlan plan;
    if (gpa::Outcome o = PlanMetrics(*cupti, chip, QueryCounterAvailability(*cupti, *driver, context), metrics, &plan);
        !o.ok() || plan.groups.size() != 1) {
        { *problem = std::string("PlanMetrics") + ": " + (o.reason()); return -1; }
    }
    auto enable = OPENGPA_CUPTI_PARAMS(CUpti_RangeProfiler_Enable_Params);
    enable.ctx = context;
    if (CUptiResult r = cupti->cuptiRangeProfilerEnable(&enable); r != CUPTI_SUCCESS) { *problem = std::string("enable") + ": " + (cupti->Describe(r)); return -1; }
    CUpti_RangeProfiler_Object* object = enable.pRangeProfilerObject;
    std::vector<const char*> names = {metrics[0].c_str()};
    auto size = OPENGPA_CUPTI_PARAMS(CUpti_RangeProfiler_GetCounterDataSize_Params);
    size.pRangeProfilerObject = object;
    size.pMetricNames = names.data();
    size.numMetrics = names.size();
    size.maxNumOfRanges = static_cast<size_t>(samples);
    size.maxNumRangeTreeNodes = static_cast<uint32_t>(samples);
    if (CUptiResult r = cupti->cuptiRangeProfilerGetCounterDataSize(&size); r != CUPTI_SUCCESS) { *problem = std::string("size") + ": " + (cupti->Describe(r)); return -1; }
    std::vector<uint8_t> counterData(size.counterDataSize);
    auto init = OPENGPA_CUPTI_PARAMS(CUpti_RangeProfiler_CounterDataImage_Initialize_Params);
    init.pRangeProfilerObject = object;
    init.counterDataSize = counterData.size();
    init.pCounterData = counterData.data();
    if (CUptiResult r = cupti->cuptiRangeProfilerCounterDataImageInitialize(&init); r != CUPTI_SUCCESS) { *problem = std::string("init") + ": " + (cupti->Describe(r)); return -1; }
    auto config = OPENGPA_CUPTI_PARAMS(CUpti_RangeProfiler_SetConfig_Params);
    config.pRangeProfilerObject = object;
    config.configSize = plan.groups[0].configImage.size();
    config.pConfig = plan.groups[0].configImage.data();
    config.counterDataImageSize = counterData.size();
    config.pCounterDataImage = counterData.data();
    config.range = CUPTI_UserRange;
    config.replayMode = CUPTI_UserReplay;
    config.maxRangesPerPass = static_cast<size_t>(samples);
    config.numNestingLevels = 1;
    config.minNestingLevel = 1;
    config.passIndex = 0;
    config.targetNestingLevel = 1;
    if (CUptiResult r = cupti->cuptiRangeProfilerSetConfig(&config); r != CUPTI_SUCCESS) { *problem = std::string("config") + ": " + (cupti->Describe(r)); return -1; }
    auto start = OPENGPA_CUPTI_PARAMS(CUpti_RangeProfiler_Start_Params);
    start.pRangeProfilerObject = object;
    if (CUptiResult r = cupti->cuptiRangeProfilerStart(&start); r != CUPTI_SUCCESS) { *problem = std::string("start") + ": " + (cupti->Describe(r)); return -1; }
    std::vector<std::string> rangeNames;
    for (int s = 0; s < samples; ++s) rangeNames.push_back(std::to_string(s));
    uint64_t spent = 0;
    for (int s = 0; s < samples; ++s) {
        auto push = OPENGPA_CUPTI_PARAMS(CUpti_RangeProfiler_PushRange_Params);
        push.pRangeProfilerObject = object;
        push.pRangeName = rangeNames[s].c_str();
        auto pop = OPENGPA_CUPTI_PARAMS(CUpti_RangeProfiler_PopRange_Params);
        pop.pRangeProfilerObject = object;
        const uint64_t t0 = Now();
        const CUptiResult pushed = cupti->cuptiRangeProfilerPushRange(&push);
        const uint64_t t1 = Now();
        launch();
        const uint64_t t2 = Now();
        const CUptiResult popped = cupti->cuptiRangeProfilerPopRange(&pop);
        const uint64_t t3 = Now();
        if (pushed != CUPTI_SUCCESS || popped != CUPTI_SUCCESS) { *problem = std::string("push/pop") + ": " + (cupti->Describe(pushed != CUPTI_SUCCESS ? pushed : popped)); return -1; }
        spent += (t1 - t0) + (t3 - t2);
    }
    auto stop = OPENGPA_CUPTI_PARAMS(CUpti_RangeProfiler_Stop_Params);
    stop.pRangeProfilerObject = object;
    cupti->cuptiRangeProfilerStop(&stop);
    auto decode = OPENGPA_CUPTI_PARAMS(CUpti_RangeProfiler_DecodeData_Params);
    decode.pRangeProfilerObject = object;
    cupti->cuptiRangeProfilerDecodeData(&decode);
    auto disable = OPENGPA_CUPTI_PARAMS(CUpti_RangeProfiler_Disable_Params);
    disable.pRangeProfilerObject = object;
    cupti->cuptiRangeProfilerDisable(&disable);
    return static_cast<double>(spent) / samples;
}

