// How the layer says what went wrong and what to do: a refused call's reason goes to the context's error
// callback (the pfn_notify the application gave clCreateContext[FromType]) and, with OPENGPA_CL_LAYER_LOG=1,
// to stderr, where the layer also says which counters each device lists and why the others are absent.
#pragma once

#include <string>

#include "layers/opencl/cl_headers.h"

namespace gpa::cl_layer {

bool LogEnabled();
// Writes "opengpa-cl-layer: <message>" to stderr when logging is enabled.
void Log(const std::string& message);

using ContextNotify = void(CL_CALLBACK*)(const char*, const void*, size_t, void*);
// A context was created with `notify` (null: none; a reused handle forgets the callback it had before).
void RememberContext(cl_context context, ContextNotify notify, void* userData);
void ForgetContext(cl_context context);
// Says why a call on `context` failed: to its error callback, and to the log.
void Report(cl_context context, const std::string& message);

}  // namespace gpa::cl_layer
