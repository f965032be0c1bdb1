// One GPA session: the recording state machine (passes, samples) and, once ended, its results.
//
// Recording calls run under the runtime's lock. Result calls (IsReady, Read...) lock only this session,
// so a thread blocked waiting for results does not stop other threads from using GPA.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <atomic>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "core/backend.h"
#include "core/outcome.h"
#include "counters/counter_catalog.h"
#include "counters/pass_plan.h"

namespace gpa {

class Session {
public:
    Session(uint32_t id, std::vector<uint32_t> enabledCounters, PassPlan plan,
            std::shared_ptr<const CounterCatalog> catalog, std::shared_ptr<BackendContext> backendContext,
            std::unique_ptr<BackendSession> backend, size_t hardwareCounterCount);

    uint32_t id() const { return id_; }
    uint32_t requiredPasses() const { return plan_.passCount; }
    const PassPlan& plan() const { return plan_; }

    // Recording.
    bool passOpen() const { return passOpen_; }
    bool sampleOpen() const { return sampleOpen_; }
    Outcome BeginPass();
    Outcome EndPass();
    Outcome BeginSample(uint32_t sampleId);
    Outcome EndSample();
    Outcome End();

    // Results (after End).
    bool IsCounterEnabled(uint32_t counterIndex) const;
    uint32_t SampleCount() const;
    bool IsReady();
    // GPA_STATUS_ERROR_SAMPLE_NOT_FOUND / ..._NOT_FOUND_IN_ALL_PASSES when the id is missing.
    Outcome CheckSample(uint32_t sampleId) const;
    Outcome IsSampleReady(uint32_t sampleId, bool* ready);
    // Blocks until the sample's results are available, then evaluates the counter.
    Outcome Read(uint32_t sampleId, uint32_t counterIndex, double* value);

private:
    const uint32_t id_;
    const std::vector<uint32_t> enabledCounters_;
    const PassPlan plan_;
    const std::shared_ptr<const CounterCatalog> catalog_;
    const std::shared_ptr<BackendContext> backendContext_;  // outlives backend_ (declared before it)
    std::unique_ptr<BackendSession> backend_;
    const size_t hardwareCounterCount_;

    // Recording state.
    uint32_t passesBegun_ = 0;
    bool passOpen_ = false;
    bool sampleOpen_ = false;
    uint32_t openSampleId_ = 0;
    std::vector<std::vector<uint32_t>> samplesPerPass_;  // sample ids in the order they were begun
    struct SampleRecord {
        uint32_t passes = 0;    // how many passes recorded this sample id (0: never)
        uint32_t lastPass = 0;  // the latest of them
    };
    // Constant-time checks however many samples. Ids are usually small and dense (a loop counter): those
    // live in a vector, so that beginning a sample allocates nothing; large ids go to a hash map.
    static constexpr uint32_t kDenseSampleIds = 1u << 16;
    std::vector<SampleRecord> denseSamples_;
    std::unordered_map<uint32_t, SampleRecord> sparseSamples_;
    const SampleRecord* FindSample(uint32_t sampleId) const;
    SampleRecord& Sample(uint32_t sampleId);

    // Results. waitMutex_ serialises waiting and reading; readiness checks never take it.
    std::mutex waitMutex_;
    std::atomic<bool> ready_{false};
    bool waited_ = false;
    Outcome waitOutcome_;
    std::map<uint32_t, std::vector<double>> hardwareValues_;  // per sample id, read once
};

}  // namespace gpa
