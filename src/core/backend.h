// The interface every backend (OpenCL, CUDA, ...) implements. Each GPA shared library links the core
// with exactly one backend, which provides CreateBackend().
//
// Lifetime: Backend lives from GPA_Initialize to GPA_Destroy; a BackendContext from GPA_OpenContext to
// GPA_CloseContext; a BackendSession from GPA_BeginSession until its results leave the context's ring.
// The core serialises the recording calls of a context and its sessions. Result calls may come from other
// threads: WaitUntilReady and ReadSample are serialised per session, while IsReady and IsSampleReady may
// run concurrently with them and must never block.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "GPUPerfAPITypes.h"
#include "core/outcome.h"
#include "counters/counter_definition.h"
#include "counters/pass_plan.h"

namespace gpa {

struct DeviceDescription {
    std::optional<uint32_t> deviceId;  // PCI device id when the API exposes one
    std::string name;                  // empty when unavailable
};

// One GPA session as the backend records it. Sample ids are unique within a pass and repeat across passes.
class BackendSession {
public:
    virtual ~BackendSession() = default;

    virtual Outcome BeginPass(uint32_t pass) = 0;
    virtual Outcome EndPass(uint32_t pass) = 0;
    virtual Outcome BeginSample(uint32_t pass, uint32_t sampleId) = 0;
    virtual Outcome EndSample(uint32_t pass, uint32_t sampleId) = 0;
    // All passes were recorded; results may still be in flight on the device.
    virtual Outcome End() = 0;

    // Never blocks.
    virtual bool IsReady() = 0;
    virtual bool IsSampleReady(uint32_t /*sampleId*/) { return IsReady(); }
    // Blocks until every result is available (or failed).
    virtual Outcome WaitUntilReady() = 0;
    // After WaitUntilReady: the values of the hardware counters of one sample, written at their hardware
    // counter index into `values` (sized by the caller to the context's hardware counter count).
    // A hardware counter whose value is not known for a sample (its device-sampled window was refused) is written
    // as NaN: only the counters computed from it fail to read, with this reason; the sample's others read as usual.
    virtual Outcome ReadSample(uint32_t sampleId, std::vector<double>* values) = 0;
    virtual std::string MissingValueReason(uint32_t /*sampleId*/) { return ""; }
};

class BackendContext {
public:
    virtual ~BackendContext() = default;

    virtual DeviceDescription Device() const = 0;
    virtual const std::vector<HardwareCounter>& HardwareCounters() const = 0;
    virtual const std::vector<DerivedCounterDefinition>& DerivedCounters() const = 0;
    virtual PassPlanner& Planner() = 0;
    virtual Outcome CreateSession(const PassPlan& plan, std::unique_ptr<BackendSession>* session) = 0;
    // A counter name that a context exposing hardware counters lacks (GPA_EnableCounterStr,
    // GPA_DisableCounterStr, GPA_GetCounterIndex): a backend that can measure more than it lists (CUDA: every
    // metric name ncu accepts) appends the counter to HardwareCounters(), has its planner take it and gives
    // its index (or the index it already had). Otherwise GPA_STATUS_ERROR_NOT_FOUND with the reason, empty
    // when the backend has nothing to add, as by default.
    virtual Outcome AddHardwareCounter(const std::string& /*name*/, uint32_t* /*index*/) {
        return Fail(GPA_STATUS_ERROR_NOT_FOUND, "");
    }
    // A name a context opened without GPA_OPENCONTEXT_ENABLE_HARDWARE_COUNTERS_BIT lacks: what the backend would
    // have added with the flag (the reason a user sees, saying to open the context with it), or empty.
    virtual std::string HardwareCounterHint(const std::string& /*name*/) const { return ""; }
    // OGPA_SetCommandList: the command list (Vulkan: a VkCommandBuffer) that the next samples record into.
    // APIs whose samples go to the queue or context given to GPA_OpenContext keep this refusal.
    virtual Outcome SetCommandList(void* /*commandList*/) {
        return Fail(GPA_STATUS_ERROR_FAILED,
                    "this GPA library's API has no command lists: samples record into the queue or context given to "
                    "GPA_OpenContext; OGPA_SetCommandList is for command-buffer APIs (libGPUPerfAPIVK.so)");
    }
};

class Backend {
public:
    virtual ~Backend() = default;

    virtual const char* ApiName() const = 0;  // "OpenCL", "CUDA"
    virtual Outcome Initialize() { return Outcome::Ok(); }
    virtual Outcome Destroy() { return Outcome::Ok(); }
    // Validates the API object; answers GPA_STATUS_ERROR_HARDWARE_NOT_SUPPORTED with the reason when it
    // cannot be profiled.
    virtual Outcome OpenContext(void* apiContext, GPA_OpenContextFlags flags,
                                std::unique_ptr<BackendContext>* context) = 0;
};

// Defined once per shared library by its backend.
std::unique_ptr<Backend> CreateBackend();

}  // namespace gpa
