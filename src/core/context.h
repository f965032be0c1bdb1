// A GPA context: one opened API object (command queue, CUcontext...), its counter catalog, the enabled
// counters, the session being recorded and the ring of finished sessions.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "core/backend.h"
#include "core/session.h"
#include "core/session_ring.h"
#include "counters/counter_catalog.h"

namespace gpa {

class Context {
public:
    Context(void* apiHandle, std::shared_ptr<BackendContext> backend, std::shared_ptr<const CounterCatalog> catalog,
            size_t sessionBufferSize);

    void* apiHandle() const { return apiHandle_; }
    const CounterCatalog& catalog() const { return *catalog_; }
    BackendContext& backend() { return *backend_; }
    const DeviceDescription& device() const { return device_; }

    // The index of the counter named `name` (any letter case). On a context that exposes hardware counters, a
    // name the catalog lacks may be one the backend adds (BackendContext::AddHardwareCounter); the catalog
    // then holds it from now on. NOT_FOUND with the backend's reason (empty when it had none) otherwise; on a
    // context that hides them, with the reason when the name is one of them (HiddenHardwareHint).
    Outcome FindCounter(std::string_view name, uint32_t* index);

    // Counter selection.
    const std::vector<uint32_t>& enabled() const { return enabled_; }
    bool IsEnabled(uint32_t index) const;
    void Enable(uint32_t index);
    void Disable(uint32_t index);
    void DisableAll();
    Outcome Plan(PassPlan* plan);  // cached until the selection changes

    // Sessions.
    Session* recording() { return recording_.get(); }
    Outcome BeginSession(uint32_t* sessionId);
    Outcome EndSession();
    std::shared_ptr<Session> FindFinished(uint32_t id) const { return ring_.Find(id); }
    bool IsRecording(uint32_t id) const { return recording_ != nullptr && recording_->id() == id; }

private:
    // Why a context without GPA_OPENCONTEXT_ENABLE_HARDWARE_COUNTERS_BIT lacks `name`, where it is a hardware counter
    // of the device (listed, or one the backend would add); empty otherwise.
    std::string HiddenHardwareHint(std::string_view name) const;

    void* const apiHandle_;
    std::shared_ptr<BackendContext> backend_;
    std::shared_ptr<const CounterCatalog> catalog_;
    const DeviceDescription device_;
    std::vector<uint32_t> enabled_;  // in the order they were enabled
    std::optional<PassPlan> plan_;
    std::shared_ptr<Session> recording_;
    SessionRing ring_;
    uint32_t nextSessionId_ = 1;  // ids start at 1 on every newly opened context
};

}  // namespace gpa
