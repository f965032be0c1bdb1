// OpenCL error codes as words, so that every reason the backend gives names the failing call and error.
#pragma once

#include <string>

#include "backends/opencl/cl_headers.h"

namespace gpa::cl {

// "CL_INVALID_COMMAND_QUEUE" for -36, ...; "unknown OpenCL error" for codes the headers do not define.
const char* ClErrorName(cl_int error);

// "clGetEventProfilingInfo failed with CL_PROFILING_INFO_NOT_AVAILABLE (-7)".
std::string ClFailure(const char* call, cl_int error);

}  // namespace gpa::cl
