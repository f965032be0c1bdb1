// The layer's own messages: with OPENGPA_CL_LAYER_LOG=1 it says on stderr which counters each device lists,
// why the others are absent, and why a queue's counters were refused.
#pragma once

#include <string>

namespace gpa::cl_layer {

bool LogEnabled();
// Writes "opengpa-cl-layer: <message>" to stderr when logging is enabled.
void Log(const std::string& message);

}  // namespace gpa::cl_layer
