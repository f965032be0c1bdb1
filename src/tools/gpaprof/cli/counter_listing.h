// gpaprof -l: the counters gpaprof collects on each OpenCL device of this machine.
#pragma once

namespace gpaprof::cli {

// Prints the list to stdout; returns the exit code.
int ListCounters();

}  // namespace gpaprof::cli
