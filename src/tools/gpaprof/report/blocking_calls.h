// Which traced calls block the host until their command completes: OpenCL reads, writes and maps with the
// blocking flag CL_TRUE, and synchronous CUDA copies. Shared by the blocking-transfer and the redundant
// synchronisation checks.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "tools/gpaprof/files/profile_model.h"

namespace gpaprof::report {

struct BlockingCall {
    std::string evidence;   // what shows it: "blocking CL_TRUE", "cudaMemcpy is synchronous"
    bool isWrite = false;   // host to device
    bool isRead = false;    // device to host
};

// nullopt when the call does not block (or is not a transfer this knows).
std::optional<BlockingCall> BlockingTransfer(std::string_view api, const ApiCall& call);

}  // namespace gpaprof::report
