// Whether a traced call failed, decided from what the trace shows: its return value, and for calls that
// return an object the error code written through their error out-parameter ("[CL_INVALID_VALUE]").
// Each API part has its conventions: ocl (CL_SUCCESS / CL_* errors / negative codes), cuda (cudaSuccess,
// CUDA_SUCCESS / cudaError*, CUDA_ERROR_*), hsa (HSA_STATUS_SUCCESS / HSA_STATUS_ERROR*).
#pragma once

#include <string>
#include <string_view>

#include "tools/gpaprof/files/profile_model.h"

namespace gpaprof::report {

struct CallOutcome {
    bool failed = false;
    std::string error;  // the error as the trace names it, when failed
};

CallOutcome ClassifyCall(std::string_view api, const ApiCall& call);

// "[x]" -> "x"; anything else unchanged.
std::string_view StripBrackets(std::string_view text);

}  // namespace gpaprof::report
