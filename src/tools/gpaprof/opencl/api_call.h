// One intercepted OpenCL call: decides whether it is traced, times the call into the next layer, and
// writes its trace record (and with --sym the location of its caller).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "tools/gpaprof/agent/agent.h"
#include "tools/gpaprof/files/opencl_api_types.h"
#include "tools/gpaprof/opencl/arg_format.h"
#include "tools/gpaprof/opencl/layer_state.h"

namespace gpaprof::ocl {

class TracedCall {
public:
    explicit TracedCall(Api api);

    agent::Agent* agent() const { return agent_; }
    Api api() const { return api_; }
    // The call's CallIndex (absent when the call is not traced: paused, excluded, not profiled at all).
    std::optional<uint64_t> index() const { return slot_.index; }
    // Whether its API trace records are written.
    bool record() const { return record_; }
    uint64_t threadId() const { return threadId_; }
    uint64_t start() const { return start_; }
    uint64_t end() const { return end_; }

    // Runs the call into the next layer and takes the CPU times around it.
    template <typename Call>
    auto Run(Call&& call) {
        start_ = agent::Agent::Now();
        if constexpr (std::is_void_v<decltype(call())>) {
            call();
            end_ = agent::Agent::Now();
        } else {
            auto result = call();
            end_ = agent::Agent::Now();
            return result;
        }
    }

    // Writes the call's record; `returnValue` is absent for void functions.
    void Finish(std::optional<std::string> returnValue, Args& args);

private:
    Api api_;
    agent::Agent* agent_ = nullptr;
    agent::CallSlot slot_;
    bool record_ = false;
    uint64_t threadId_ = 0;
    uint64_t start_ = 0;
    uint64_t end_ = 0;
};

}  // namespace gpaprof::ocl
