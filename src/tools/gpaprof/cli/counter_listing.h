// gpaprof -l: the counters gpaprof collects on each OpenCL device of this machine.
#pragma once

#include <string>
#include <vector>

namespace gpaprof::cli {

// Prints the list to stdout; returns the exit code.
int ListCounters();

// The names of the cl_codeplay_performance_counters counters the OpenCL devices of this machine offer (none
// without an ICD loader or a platform).
std::vector<std::string> OpenClDeviceCounterNames();

}  // namespace gpaprof::cli
