#include "tools/gpaprof/opencl/api_call.h"

#include <array>
#include <atomic>

namespace gpaprof::ocl {
namespace {

// Per API number: 0 unknown, 1 traced, 2 excluded by -F.
std::array<std::atomic<uint8_t>, 256> g_excluded{};

bool Excluded(agent::Agent* agent, Api api) {
    const uint32_t number = static_cast<uint32_t>(api);
    if (number >= g_excluded.size()) return false;
    uint8_t known = g_excluded[number].load(std::memory_order_relaxed);
    if (known == 0) {
        known = agent->IsExcludedApi(ApiName(api)) ? 2 : 1;
        g_excluded[number].store(known, std::memory_order_relaxed);
    }
    return known == 2;
}

}  // namespace

TracedCall::TracedCall(Api api) : api_(api) {
    LayerState& state = LayerState::Get();
    agent_ = state.agent();
    if (!agent_) return;
    state.OnApiEntry();
    slot_ = agent_->BeginCall(agent::Part::OpenCL, Excluded(agent_, api));
    record_ = slot_.record && slot_.index && agent_->config().trace;
    threadId_ = agent::Agent::ThreadId();
}

void TracedCall::Finish(std::optional<std::string> returnValue, Args& args) {
    if (!record_) return;
    spool::CallRecord record;
    record.part = "ocl";
    record.threadId = threadId_;
    record.index = *slot_.index;
    record.call.apiType = static_cast<uint32_t>(api_);
    record.call.name = ApiName(api_);
    record.call.returnValue = std::move(returnValue);
    record.call.args = args.Take();
    record.call.start = start_;
    record.call.end = end_;
    agent_->Write(record);
    if (agent_->config().sourceSymbols) agent_->RecordCaller(agent::Part::OpenCL, *slot_.index, ApiName(api_));
}

}  // namespace gpaprof::ocl
