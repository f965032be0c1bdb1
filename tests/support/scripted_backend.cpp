#include "scripted_backend.h"

#include <limits>
#include <chrono>
#include <map>
#include <memory>
#include <thread>

#include "counters/consolidated_pass_planner.h"
#include "counters/counter_catalog.h"

namespace gpa::testing {

namespace {

ScriptedBackendConfig gConfig;
std::atomic<int> gLiveSessions{0};

void DefaultCounters(ScriptedBackendConfig& c) {
    c.hardware = {
        {"hw.cycles", "cycles", "blockA", GPA_TYPE_UINT64, GPA_USAGE_TYPE_CYCLES},
        {"hw.busy", "busy cycles", "blockA", GPA_TYPE_UINT64, GPA_USAGE_TYPE_CYCLES},
        {"hw.bytes", "bytes", "blockB", GPA_TYPE_UINT64, GPA_USAGE_TYPE_BYTES},
        {"hw.waves", "waves", "blockB", GPA_TYPE_UINT64, GPA_USAGE_TYPE_ITEMS},
        {"hw.time_ns", "time", "blockC", GPA_TYPE_UINT64, GPA_USAGE_TYPE_NANOSECONDS},
    };
    c.blockOf = {0, 0, 1, 1, 2};
    c.maxPerBlock = {1, 2, 1};  // blockA counts one at a time: cycles and busy need two passes
    c.addable = {{"hw.stalls.pct", "stalled cycles in percent", "blockA", GPA_TYPE_FLOAT64, GPA_USAGE_TYPE_PERCENTAGE}};
    c.addableBlockOf = {0};     // shares blockA's one slot with hw.cycles and hw.busy
    c.addRefusal = "the scripted device measures no such counter";
    c.derived = {
        {"GPUTime", "Timing", "Time in milliseconds.", GPA_TYPE_FLOAT64, GPA_USAGE_TYPE_MILLISECONDS, "hw.time_ns / 1e6"},
        {"Busy", "Timing", "Percentage busy.", GPA_TYPE_FLOAT64, GPA_USAGE_TYPE_PERCENTAGE, "100 * hw.busy / hw.cycles"},
        {"FetchSize", "GlobalMemory", "Kilobytes fetched.", GPA_TYPE_FLOAT32, GPA_USAGE_TYPE_KILOBYTES, "hw.bytes / 1024"},
        {"Waves", "General", "Waves.", GPA_TYPE_UINT64, GPA_USAGE_TYPE_ITEMS, "hw.waves"},
        {"Waves32", "General", "Waves as 32-bit.", GPA_TYPE_UINT32, GPA_USAGE_TYPE_ITEMS, "hw.waves"},
        {"Missing", "General", "Needs a counter the device lacks.", GPA_TYPE_UINT64, GPA_USAGE_TYPE_ITEMS, "hw.absent"},
    };
    c.device = {0x2335u, "Scripted Test Device"};
    c.resultsReleased = true;
    c.failOpen = c.failInitialize = c.failDestroy = c.failCreateSession = false;
    c.openFailStatus = GPA_STATUS_ERROR_HARDWARE_NOT_SUPPORTED;
    c.failBeginSample = c.failEndSample = c.failEndSession = c.failRead = false;
    c.unmeasured.clear();
    c.unmeasuredReason.clear();
}

struct DefaultInit {
    DefaultInit() { DefaultCounters(gConfig); }
} gDefaultInit;

class ScriptedSession : public BackendSession {
public:
    explicit ScriptedSession(PassPlan plan) : plan_(std::move(plan)) { ++gLiveSessions; }
    ~ScriptedSession() override { --gLiveSessions; }

    Outcome BeginPass(uint32_t) override { return Outcome::Ok(); }
    Outcome EndPass(uint32_t) override { return Outcome::Ok(); }
    Outcome BeginSample(uint32_t pass, uint32_t sampleId) override {
        if (gConfig.failBeginSample) return Fail(GPA_STATUS_ERROR_FAILED, "scripted failure");
        seen_[sampleId] |= 1u << pass;
        return Outcome::Ok();
    }
    Outcome EndSample(uint32_t, uint32_t) override {
        if (gConfig.failEndSample) return Fail(GPA_STATUS_ERROR_FAILED, "scripted end-sample failure");
        return Outcome::Ok();
    }
    Outcome End() override {
        if (gConfig.failEndSession) return Fail(GPA_STATUS_ERROR_FAILED, "scripted end-session failure");
        return Outcome::Ok();
    }
    bool IsReady() override { return gConfig.resultsReleased.load(); }
    Outcome WaitUntilReady() override {
        while (!gConfig.resultsReleased.load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
        return Outcome::Ok();
    }
    Outcome ReadSample(uint32_t sampleId, std::vector<double>* values) override {
        if (gConfig.failRead) return Fail(GPA_STATUS_ERROR_FAILED, "scripted read failure");
        // Each hardware counter comes from the pass the plan put it in, like a real multi-pass backend.
        for (uint32_t hw : plan_.hardwareCounters) {
            const auto location = plan_.Locate(hw);
            if (!location || (seen_[sampleId] & (1u << location->first)) == 0) {
                return Fail(GPA_STATUS_ERROR_FAILED, "sample missing from the pass that collects its counter");
            }
            (*values)[hw] = ScriptedValue(hw, sampleId);
            for (uint32_t missing : gConfig.unmeasured) {
                if (missing == hw) (*values)[hw] = std::numeric_limits<double>::quiet_NaN();
            }
        }
        return Outcome::Ok();
    }
    std::string MissingValueReason(uint32_t /*sampleId*/) override { return gConfig.unmeasuredReason; }

private:
    PassPlan plan_;
    std::map<uint32_t, uint32_t> seen_;  // sample id -> bit mask of passes it was recorded in
};

class ScriptedContext : public BackendContext {
public:
    ScriptedContext()
        : hardware_(gConfig.hardware),
          derived_(gConfig.derived),
          device_(gConfig.device),
          blockOf_(gConfig.blockOf),
          planner_([this](std::span<const uint32_t> counters) {
              return BlockLimits(blockOf_, gConfig.maxPerBlock)(counters);  // blockOf_ grows with added counters
          }) {}
    DeviceDescription Device() const override { return device_; }
    const std::vector<HardwareCounter>& HardwareCounters() const override { return hardware_; }
    const std::vector<DerivedCounterDefinition>& DerivedCounters() const override { return derived_; }
    PassPlanner& Planner() override { return planner_; }
    Outcome CreateSession(const PassPlan& plan, std::unique_ptr<BackendSession>* session) override {
        if (gConfig.failCreateSession) return Fail(GPA_STATUS_ERROR_FAILED, "scripted session creation failure");
        *session = std::make_unique<ScriptedSession>(plan);
        return Outcome::Ok();
    }
    std::string HardwareCounterHint(const std::string& name) const override {
        for (const HardwareCounter& counter : gConfig.addable) {
            if (ToLower(counter.name) == ToLower(name)) return "a counter the device adds with the hardware flag";
        }
        return "";
    }
    Outcome AddHardwareCounter(const std::string& name, uint32_t* index) override {
        for (size_t a = 0; a < gConfig.addable.size(); ++a) {
            if (ToLower(gConfig.addable[a].name) != ToLower(name)) continue;
            for (uint32_t i = 0; i < hardware_.size(); ++i) {
                if (hardware_[i].name == gConfig.addable[a].name) {
                    *index = i;
                    return Outcome::Ok();
                }
            }
            hardware_.push_back(gConfig.addable[a]);
            blockOf_.push_back(gConfig.addableBlockOf.at(a));
            *index = static_cast<uint32_t>(hardware_.size() - 1);
            return Outcome::Ok();
        }
        return Fail(GPA_STATUS_ERROR_NOT_FOUND, gConfig.addRefusal);
    }

private:
    std::vector<HardwareCounter> hardware_;
    std::vector<DerivedCounterDefinition> derived_;
    DeviceDescription device_;
    std::vector<uint32_t> blockOf_;
    ConsolidatedPassPlanner planner_;
};

class ScriptedBackend : public Backend {
public:
    const char* ApiName() const override { return "Scripted"; }
    Outcome Initialize() override {
        if (gConfig.failInitialize) return Fail(GPA_STATUS_ERROR_FAILED, "scripted initialization failure");
        return Outcome::Ok();
    }
    Outcome Destroy() override {
        if (gConfig.failDestroy) return Fail(GPA_STATUS_ERROR_FAILED, "scripted shutdown failure");
        return Outcome::Ok();
    }
    Outcome OpenContext(void*, GPA_OpenContextFlags, std::unique_ptr<BackendContext>* context) override {
        if (gConfig.failOpen) {
            return Fail(gConfig.openFailStatus, gConfig.openFailStatus == GPA_STATUS_ERROR_HARDWARE_NOT_SUPPORTED
                                                    ? "scripted device is not supported"
                                                    : "scripted internal error while opening");
        }
        *context = std::make_unique<ScriptedContext>();
        return Outcome::Ok();
    }
};

}  // namespace

ScriptedBackendConfig& Config() { return gConfig; }
void ResetConfig() { DefaultCounters(gConfig); }
double ScriptedValue(uint32_t hw, uint32_t sampleId) { return 1000.0 * (hw + 1) + sampleId; }
int LiveSessions() { return gLiveSessions.load(); }

}  // namespace gpa::testing

namespace gpa {
std::unique_ptr<Backend> CreateBackend() { return std::make_unique<testing::ScriptedBackend>(); }
}  // namespace gpa
