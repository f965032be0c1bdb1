#include "backends/cuda/range_profiler_session.h"

#include <cstdlib>

#include "backends/cuda/counter_data_fixture.h"

namespace gpa::cuda {

SessionOptions SessionOptionsFromEnvironment() {
    SessionOptions options;
    if (const char* text = std::getenv("OPENGPA_CUDA_MAX_SAMPLES"); text != nullptr && *text) {
        char* end = nullptr;
        const unsigned long value = std::strtoul(text, &end, 10);
        if (end != text && *end == '\0' && value > 0) options.maxSamplesPerPass = value;
    }
    if (const char* directory = std::getenv("OPENGPA_CUDA_RECORD_COUNTER_DATA"); directory != nullptr) {
        options.recordDirectory = directory;
    }
    return options;
}

RangeProfilerSession::RangeProfilerSession(std::shared_ptr<RangeProfiler> profiler, std::vector<uint8_t> availability,
                                           CuptiPassPlanner::Resolved plan, SessionOptions options)
    : profiler_(std::move(profiler)),
      availability_(std::move(availability)),
      plan_(std::move(plan)),
      options_(std::move(options)),
      groups_(plan_.metrics->groups.size()) {}

RangeProfilerSession::~RangeProfilerSession() {
    {
        auto lock = profiler_->Lock();
        profiler_->Abandon(this);
    }
    if (done_ != nullptr) {
        ScopedContext current(profiler_->driver(), profiler_->context());
        profiler_->driver().cuEventDestroy(done_);
    }
}

Outcome RangeProfilerSession::BeginPass(uint32_t pass) {
    const auto [group, cuptiPass] = plan_.metrics->LocatePass(pass);
    if (group >= groups_.size()) return Fail(GPA_STATUS_ERROR_FAILED, "pass " + std::to_string(pass) + " is not planned");
    auto lock = profiler_->Lock();
    if (cuptiPass == 0) {
        const ConfigGroup& config = plan_.metrics->groups[group];
        RangeProfiler::Pending pending;
        pending.owner = this;
        pending.decoded = [this, group](const Outcome& outcome) {
            groups_[group].decoded = true;
            if (groups_[group].decodeOutcome.ok()) groups_[group].decodeOutcome = outcome;
        };
        if (Outcome o = profiler_->Configure(config.configImage, config.metrics, options_.maxSamplesPerPass,
                                             &groups_[group].counterData, CUPTI_UserRange, CUPTI_UserReplay,
                                             std::move(pending));
            !o.ok()) {
            return o;
        }
    }
    samplesInPass_ = 0;
    return profiler_->Start();
}

Outcome RangeProfilerSession::EndPass(uint32_t pass) {
    const auto [group, cuptiPass] = plan_.metrics->LocatePass(pass);
    auto lock = profiler_->Lock();
    bool allSubmitted = false;
    if (Outcome o = profiler_->Stop(&allSubmitted); !o.ok()) return o;
    const uint32_t passes = plan_.metrics->groups[group].passes;
    const bool lastOfGroup = cuptiPass + 1 == passes;
    if (allSubmitted != lastOfGroup) {
        const Outcome failure = Fail(
            GPA_STATUS_ERROR_FAILED,
            allSubmitted
                ? "CUPTI finished configuration " + std::to_string(group) + " after " + std::to_string(cuptiPass + 1) +
                      " passes, fewer than the " + std::to_string(passes) + " it planned; the session's results are discarded"
                : "CUPTI needs more passes for configuration " + std::to_string(group) + " than the " +
                      std::to_string(passes) +
                      " it planned. It does this when a sample holds no GPU work (every sample must launch work in "
                      "every pass) or when the passes do not repeat the same work; the session's results are discarded");
        groups_[group].decodeOutcome = failure;
        profiler_->Reset();  // the next configuration starts on a fresh CUPTI object
        return failure;
    }
    return Outcome::Ok();
}

Outcome RangeProfilerSession::BeginSample(uint32_t /*pass*/, uint32_t sampleId) {
    if (samplesInPass_ >= options_.maxSamplesPerPass) {
        return Fail(GPA_STATUS_ERROR_FAILED, "a pass holds at most " + std::to_string(options_.maxSamplesPerPass) +
                                                 " samples; set OPENGPA_CUDA_MAX_SAMPLES higher before "
                                                 "GPA_BeginSession for more");
    }
    auto lock = profiler_->Lock();
    if (Outcome o = profiler_->PushRange(std::to_string(sampleId)); !o.ok()) return o;
    ++samplesInPass_;
    return Outcome::Ok();
}

Outcome RangeProfilerSession::EndSample(uint32_t /*pass*/, uint32_t /*sampleId*/) {
    auto lock = profiler_->Lock();
    return profiler_->PopRange();
}

Outcome RangeProfilerSession::End() {
    const DriverApi& driver = profiler_->driver();
    ScopedContext current(driver, profiler_->context());
    if (!current.outcome().ok()) return current.outcome();
    if (CUresult r = driver.cuEventCreate(&done_, CU_EVENT_DISABLE_TIMING); r != CUDA_SUCCESS) {
        done_ = nullptr;
        return driver.Failure("cuEventCreate", r);
    }
    // On the legacy default stream, the event completes after the work of every blocking stream of the context.
    if (CUresult r = driver.cuEventRecord(done_, nullptr); r != CUDA_SUCCESS) return driver.Failure("cuEventRecord", r);
    return Outcome::Ok();
}

bool RangeProfilerSession::IsReady() {
    if (ready_.load()) return true;
    if (done_ == nullptr) return false;
    ScopedContext current(profiler_->driver(), profiler_->context());
    return current.outcome().ok() && profiler_->driver().cuEventQuery(done_) == CUDA_SUCCESS;
}

Outcome RangeProfilerSession::WaitUntilReady() {
    if (!prepared_) {
        prepareOutcome_ = PrepareResults();
        prepared_ = true;
        ready_ = true;
    }
    return prepareOutcome_;
}

Outcome RangeProfilerSession::PrepareResults() {
    const DriverApi& driver = profiler_->driver();
    if (done_ != nullptr) {
        ScopedContext current(driver, profiler_->context());
        if (!current.outcome().ok()) return current.outcome();
        if (CUresult r = driver.cuEventSynchronize(done_); r != CUDA_SUCCESS) return driver.Failure("cuEventSynchronize", r);
    }
    {
        auto lock = profiler_->Lock();
        profiler_->FinishPendingOf(this);
    }
    const CuptiApi& cupti = profiler_->cupti();
    for (size_t g = 0; g < groups_.size(); ++g) {
        Group& group = groups_[g];
        if (!group.decoded) return Fail(GPA_STATUS_ERROR_FAILED, "configuration " + std::to_string(g) + " never ran");
        if (!group.decodeOutcome.ok()) return group.decodeOutcome;
        std::vector<std::string> names;
        if (Outcome o = CounterDataRangeNames(cupti, group.counterData, &names); !o.ok()) return o;
        for (size_t range = 0; range < names.size(); ++range) {
            char* end = nullptr;
            const unsigned long id = std::strtoul(names[range].c_str(), &end, 10);
            if (end != names[range].c_str() && *end == '\0') group.rangeOfSample[static_cast<uint32_t>(id)] = range;
        }
        const ConfigGroup& config = plan_.metrics->groups[g];
        if (Outcome o = HostObject::Create(cupti, plan_.metrics->chip, availability_, &group.host); !o.ok()) return o;
        if (const CUptiResult added = group.host->AddMetrics(config.metrics); added != CUPTI_SUCCESS) {
            return cupti.Failure("cuptiProfilerHostConfigAddMetrics", added);
        }
    }
    if (!options_.recordDirectory.empty()) return Record();
    return Outcome::Ok();
}

Outcome RangeProfilerSession::Record() const {
    CounterDataFixture fixture;
    fixture.chip = plan_.metrics->chip;
    for (size_t g = 0; g < groups_.size(); ++g) {
        fixture.groups.push_back({plan_.metrics->groups[g].metrics, groups_[g].counterData});
    }
    return WriteCounterDataFixture(options_.recordDirectory, fixture);
}

Outcome RangeProfilerSession::ReadSample(uint32_t sampleId, std::vector<double>* values) {
    for (size_t g = 0; g < groups_.size(); ++g) {
        const Group& group = groups_[g];
        auto it = group.rangeOfSample.find(sampleId);
        if (it == group.rangeOfSample.end()) {
            return Fail(GPA_STATUS_ERROR_FAILED, "CUPTI recorded no data for sample " + std::to_string(sampleId) +
                                                     " in configuration " + std::to_string(g) +
                                                     " (no GPU work between its BeginSample and EndSample?)");
        }
        const ConfigGroup& config = plan_.metrics->groups[g];
        std::vector<double> evaluated;
        if (Outcome o = group.host->Evaluate(group.counterData, it->second, config.metrics, &evaluated); !o.ok()) return o;
        const std::vector<uint32_t>& indices = plan_.groupCounters[g];
        for (size_t m = 0; m < indices.size(); ++m) {
            if (indices[m] < values->size()) (*values)[indices[m]] = evaluated[m];
        }
    }
    return Outcome::Ok();
}

}  // namespace gpa::cuda
