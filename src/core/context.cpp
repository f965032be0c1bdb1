#include "core/context.h"

#include <algorithm>
#include <cctype>
#include <string>

namespace gpa {

Context::Context(void* apiHandle, std::shared_ptr<BackendContext> backend,
                 std::shared_ptr<const CounterCatalog> catalog, size_t sessionBufferSize)
    : apiHandle_(apiHandle),
      backend_(std::move(backend)),
      catalog_(std::move(catalog)),
      device_(backend_->Device()),
      ring_(sessionBufferSize) {}

Outcome Context::FindCounter(std::string_view name, uint32_t* index) {
    if (const std::optional<uint32_t> found = catalog_->Find(name)) {
        *index = *found;
        return Outcome::Ok();
    }
    if (!catalog_->options().exposeHardware) return Fail(GPA_STATUS_ERROR_NOT_FOUND, HiddenHardwareHint(name));
    uint32_t hardware = 0;
    if (Outcome added = backend_->AddHardwareCounter(std::string(name), &hardware); !added.ok()) {
        return Fail(GPA_STATUS_ERROR_NOT_FOUND, added.reason());
    }
    const std::vector<HardwareCounter>& counters = backend_->HardwareCounters();
    if (hardware >= counters.size()) {
        return Fail(GPA_STATUS_ERROR_NOT_FOUND, "the backend added counter '" + std::string(name) +
                                                    "' at a hardware index it does not have (an OpenGPA bug)");
    }
    if (const std::optional<uint32_t> found = catalog_->Find(counters[hardware].name)) {
        *index = *found;  // the backend knew the name in another spelling
        return Outcome::Ok();
    }
    // Sessions keep the catalog they began with (they read it without the runtime's lock): the context goes on
    // with a grown copy, which shares the counters (and so the names already handed out) with it.
    auto grown = std::make_shared<CounterCatalog>(*catalog_);
    const std::optional<uint32_t> added = grown->AddHardware(counters[hardware], hardware);
    if (!added) return Fail(GPA_STATUS_ERROR_NOT_FOUND, "counter '" + counters[hardware].name + "' could not be added");
    catalog_ = std::move(grown);
    *index = *added;
    return Outcome::Ok();
}

std::string Context::HiddenHardwareHint(std::string_view name) const {
    auto lower = [](std::string_view text) {
        std::string out(text);
        std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        return out;
    };
    const std::string wanted = lower(name);
    for (const HardwareCounter& counter : backend_->HardwareCounters()) {
        if (lower(counter.name) == wanted) {
            return "it is a hardware counter of this device, which a context lists and enables by name only when "
                   "opened with GPA_OPENCONTEXT_ENABLE_HARDWARE_COUNTERS_BIT (0x80)";
        }
    }
    return backend_->HardwareCounterHint(std::string(name));
}

bool Context::IsEnabled(uint32_t index) const {
    return std::find(enabled_.begin(), enabled_.end(), index) != enabled_.end();
}

void Context::Enable(uint32_t index) {
    if (IsEnabled(index)) return;
    enabled_.push_back(index);
    plan_.reset();
}

void Context::Disable(uint32_t index) {
    enabled_.erase(std::remove(enabled_.begin(), enabled_.end(), index), enabled_.end());
    plan_.reset();
}

void Context::DisableAll() {
    enabled_.clear();
    plan_.reset();
}

Outcome Context::Plan(PassPlan* plan) {
    if (!plan_) {
        std::vector<std::vector<uint32_t>> inputs;
        inputs.reserve(enabled_.size());
        for (uint32_t index : enabled_) inputs.push_back(catalog_->at(index).hardware);
        PassPlan fresh;
        Outcome outcome = backend_->Planner().Plan(inputs, &fresh);
        if (!outcome.ok()) {
            return Fail(GPA_STATUS_ERROR_FAILED, "the enabled counters could not be planned into passes: " + outcome.reason());
        }
        plan_ = std::move(fresh);
    }
    *plan = *plan_;
    return Outcome::Ok();
}

Outcome Context::BeginSession(uint32_t* sessionId) {
    PassPlan plan;
    Outcome outcome = Plan(&plan);
    if (!outcome.ok()) return outcome;
    std::unique_ptr<BackendSession> backendSession;
    outcome = backend_->CreateSession(plan, &backendSession);
    if (!outcome.ok()) return Fail(GPA_STATUS_ERROR_FAILED, "the session could not be started: " + outcome.reason());
    const uint32_t id = nextSessionId_++;
    recording_ = std::make_shared<Session>(id, enabled_, std::move(plan), catalog_, backend_, std::move(backendSession),
                                           backend_->HardwareCounters().size());
    *sessionId = id;
    return Outcome::Ok();
}

Outcome Context::EndSession() {
    Outcome outcome = recording_->End();
    if (outcome.status() == GPA_STATUS_ERROR_PASS_NOT_ENDED) return outcome;  // still recording
    if (outcome.ok()) ring_.Push(std::move(recording_));
    recording_.reset();  // a session that failed to end is discarded; the reason says why
    return outcome;
}

}  // namespace gpa
