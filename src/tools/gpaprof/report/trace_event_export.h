// The timeline as a Chrome trace-event JSON file (the "JSON trace format" that ui.perfetto.dev and
// chrome://tracing open):
//  - process "host": one track per host thread (tid = the OS thread id) with each API call as a complete
//    event ("ph":"X") and the perf markers as slices around the calls they enclose;
//  - one process per device, one track per queue or stream, with kernels, transfers and other commands;
//  - a flow arrow from each enqueue call to the device work it started.
// Times are microseconds since the earliest time in the trace (otherData.timeBaseNs says which CPU-clock
// nanosecond that is), written with three decimals so that nothing is lost. Intervals that would overlap
// on a track without nesting (out-of-order queues) go to an extra track named "... (overlap N)".
#pragma once

#include <string>

#include "tools/gpaprof/report/report.h"

namespace gpaprof::report {

std::string WriteTraceEvents(const Report& report);

}  // namespace gpaprof::report
