#include "core/session.h"

#include <cmath>
#include <algorithm>
#include <string>

namespace gpa {

namespace {
bool Contains(const std::vector<uint32_t>& ids, uint32_t id) { return std::find(ids.begin(), ids.end(), id) != ids.end(); }
}  // namespace

Session::Session(uint32_t id, std::vector<uint32_t> enabledCounters, PassPlan plan,
                 std::shared_ptr<const CounterCatalog> catalog, std::shared_ptr<BackendContext> backendContext,
                 std::unique_ptr<BackendSession> backend, size_t hardwareCounterCount)
    : id_(id),
      enabledCounters_(std::move(enabledCounters)),
      plan_(std::move(plan)),
      catalog_(std::move(catalog)),
      backendContext_(std::move(backendContext)),
      backend_(std::move(backend)),
      hardwareCounterCount_(hardwareCounterCount) {}

Outcome Session::BeginPass() {
    if (passOpen_) {
        return Fail(GPA_STATUS_ERROR_PASS_ALREADY_STARTED,
                    "pass " + std::to_string(passesBegun_) + " is still open; call GPA_EndPass first");
    }
    if (passesBegun_ >= plan_.passCount) {
        return Fail(GPA_STATUS_ERROR_FAILED, "session " + std::to_string(id_) + " needs " +
                                                 std::to_string(plan_.passCount) +
                                                 " passes and all of them were recorded; call GPA_EndSession");
    }
    Outcome outcome = backend_->BeginPass(passesBegun_);
    if (!outcome.ok()) return outcome;
    samplesPerPass_.emplace_back();
    if (samplesPerPass_.size() > 1) samplesPerPass_.back().reserve(samplesPerPass_.front().size());  // repeats pass 0
    ++passesBegun_;
    passOpen_ = true;
    return Outcome::Ok();
}

Outcome Session::EndPass() {
    if (!passOpen_) return Fail(GPA_STATUS_ERROR_PASS_NOT_STARTED, "no pass is open; call GPA_BeginPass first");
    if (sampleOpen_) {
        return Fail(GPA_STATUS_ERROR_SAMPLE_NOT_ENDED,
                    "sample " + std::to_string(openSampleId_) + " is still open; call GPA_EndSample first");
    }
    const uint32_t pass = passesBegun_ - 1;
    passOpen_ = false;  // the pass ends even when its sample count is wrong, so the caller can go on
    Outcome outcome = backend_->EndPass(pass);
    if (!outcome.ok()) return outcome;
    const size_t count = samplesPerPass_[pass].size();
    const size_t first = samplesPerPass_[0].size();
    if (pass > 0 && count != first) {
        return Fail(GPA_STATUS_ERROR_VARIABLE_NUMBER_OF_SAMPLES_IN_PASSES,
                    "pass " + std::to_string(pass) + " recorded " + std::to_string(count) +
                        " samples but pass 0 recorded " + std::to_string(first) +
                        "; every pass must repeat the same samples with the same ids");
    }
    return Outcome::Ok();
}

const Session::SampleRecord* Session::FindSample(uint32_t sampleId) const {
    if (sampleId < kDenseSampleIds) return sampleId < denseSamples_.size() ? &denseSamples_[sampleId] : nullptr;
    auto known = sparseSamples_.find(sampleId);
    return known == sparseSamples_.end() ? nullptr : &known->second;
}

Session::SampleRecord& Session::Sample(uint32_t sampleId) {
    if (sampleId >= kDenseSampleIds) return sparseSamples_[sampleId];
    if (sampleId >= denseSamples_.size()) {
        denseSamples_.resize(std::min<size_t>(kDenseSampleIds, std::max<size_t>(sampleId + 1, denseSamples_.size() * 2)));
    }
    return denseSamples_[sampleId];
}

Outcome Session::BeginSample(uint32_t sampleId) {
    if (!passOpen_) return Fail(GPA_STATUS_ERROR_PASS_NOT_STARTED, "no pass is open; call GPA_BeginPass first");
    if (sampleOpen_) {
        return Fail(GPA_STATUS_ERROR_SAMPLE_ALREADY_STARTED,
                    "sample " + std::to_string(openSampleId_) + " is still open; call GPA_EndSample first");
    }
    const uint32_t pass = passesBegun_ - 1;
    const SampleRecord* known = FindSample(sampleId);
    if (known && known->passes > 0 && known->lastPass == pass) {
        return Fail(GPA_STATUS_ERROR_FAILED, "sample id " + std::to_string(sampleId) +
                                                 " was already used in this pass; sample ids must be unique within a pass");
    }
    Outcome outcome = backend_->BeginSample(pass, sampleId);
    if (!outcome.ok()) {
        return Fail(GPA_STATUS_ERROR_FAILED, "sample could not be started: " + outcome.reason());
    }
    samplesPerPass_.back().push_back(sampleId);
    SampleRecord& record = Sample(sampleId);
    ++record.passes;
    record.lastPass = pass;
    sampleOpen_ = true;
    openSampleId_ = sampleId;
    return Outcome::Ok();
}

Outcome Session::EndSample() {
    if (!sampleOpen_) return Fail(GPA_STATUS_ERROR_SAMPLE_NOT_STARTED, "no sample is open; call GPA_BeginSample first");
    sampleOpen_ = false;
    Outcome outcome = backend_->EndSample(passesBegun_ - 1, openSampleId_);
    if (!outcome.ok()) return Fail(GPA_STATUS_ERROR_FAILED, "sample could not be ended: " + outcome.reason());
    return Outcome::Ok();
}

Outcome Session::End() {
    if (passOpen_) {
        return Fail(GPA_STATUS_ERROR_PASS_NOT_ENDED,
                    "pass " + std::to_string(passesBegun_ - 1) + " is still open; call GPA_EndPass first");
    }
    if (passesBegun_ < plan_.passCount) {
        return Fail(GPA_STATUS_ERROR_NOT_ENOUGH_PASSES,
                    "session " + std::to_string(id_) + " recorded " + std::to_string(passesBegun_) + " of the " +
                        std::to_string(plan_.passCount) +
                        " passes its counters need, so its results are discarded; repeat the operations "
                        "between GPA_BeginPass and GPA_EndPass as many times as GPA_GetPassCount says");
    }
    Outcome outcome = backend_->End();
    if (!outcome.ok()) return Fail(GPA_STATUS_ERROR_FAILED, "the session could not be ended: " + outcome.reason());
    return Outcome::Ok();
}

bool Session::IsCounterEnabled(uint32_t counterIndex) const { return Contains(enabledCounters_, counterIndex); }

uint32_t Session::SampleCount() const {
    return samplesPerPass_.empty() ? 0 : static_cast<uint32_t>(samplesPerPass_[0].size());
}

bool Session::IsReady() { return ready_.load() || backend_->IsReady(); }

Outcome Session::CheckSample(uint32_t sampleId) const {
    const SampleRecord* known = FindSample(sampleId);
    const size_t passesWithSample = known ? known->passes : 0;
    if (passesWithSample == 0) {
        return Fail(GPA_STATUS_ERROR_SAMPLE_NOT_FOUND,
                    "session " + std::to_string(id_) + " has no sample with id " + std::to_string(sampleId));
    }
    if (passesWithSample != samplesPerPass_.size()) {
        return Fail(GPA_STATUS_ERROR_SAMPLE_NOT_FOUND_IN_ALL_PASSES,
                    "sample " + std::to_string(sampleId) + " was recorded in " + std::to_string(passesWithSample) +
                        " of the " + std::to_string(samplesPerPass_.size()) +
                        " passes of session " + std::to_string(id_) + "; every pass must repeat it");
    }
    return Outcome::Ok();
}

Outcome Session::IsSampleReady(uint32_t sampleId, bool* ready) {
    Outcome check = CheckSample(sampleId);
    if (!check.ok()) return check;
    *ready = ready_.load() || backend_->IsSampleReady(sampleId);
    return Outcome::Ok();
}

Outcome Session::Read(uint32_t sampleId, uint32_t counterIndex, double* value) {
    Outcome check = CheckSample(sampleId);
    if (!check.ok()) return check;
    std::lock_guard<std::mutex> lock(waitMutex_);
    // A failed wait is tried again at the next read: what failed may since have been put right (the commands
    // submitted, the GL context made current on this thread).
    if (!waited_ || !waitOutcome_.ok()) {
        waitOutcome_ = backend_->WaitUntilReady();
        waited_ = true;
        ready_ = waitOutcome_.ok();
    }
    if (!waitOutcome_.ok()) {
        return Fail(GPA_STATUS_ERROR_READING_COUNTER_RESULT, "results of session " + std::to_string(id_) +
                                                                 " could not be collected: " + waitOutcome_.reason());
    }
    auto it = hardwareValues_.find(sampleId);
    if (it == hardwareValues_.end()) {
        std::vector<double> values(hardwareCounterCount_, 0.0);
        Outcome read = backend_->ReadSample(sampleId, &values);
        if (!read.ok()) {
            return Fail(GPA_STATUS_ERROR_READING_COUNTER_RESULT,
                        "sample " + std::to_string(sampleId) + " could not be read: " + read.reason());
        }
        it = hardwareValues_.emplace(sampleId, std::move(values)).first;
    }
    *value = catalog_->Evaluate(counterIndex, it->second);
    if (std::isnan(*value)) {
        const std::string why = backend_->MissingValueReason(sampleId);
        return Fail(GPA_STATUS_ERROR_READING_COUNTER_RESULT,
                    "counter " + std::to_string(counterIndex) + " has no value in sample " + std::to_string(sampleId) +
                        (why.empty() ? std::string(": a hardware counter it is computed from was not measured")
                                     : ": " + why) +
                        " (the sample's other counters read as usual)");
    }
    return Outcome::Ok();
}

}  // namespace gpa
