// A .pmsampling.csv in the Perfetto (trace-event JSON) export, on the trace's clock (the file's times are the
// .atp's CPU-clock nanoseconds):
//  - each sampled device goes into the process of the trace's device of that name (its kernel slices), else
//    into a process of its own after them ("<name> (<chip>) device <N>: PM sampling");
//  - one counter track ("ph":"C") per metric, named by the metric ("device <N>: <metric>" where several
//    sampled devices share a process): the sample's value from its start; a sample whose value is NA writes
//    no counter event;
//  - one slice track "PM sampling: device <N>" with what the counters cannot say: "gpaprof replay" over each
//    run of samples flagged replay (gpaprof -p replaying kernels: gpaprof's work, not the application's; their
//    values are in the counters, as measured), "samples lost" from the end of the sample before a
//    dropped-before sample to its start, and "not sampled" over any other gap longer than the interval;
//  - one slice track "PM sampling: device <N> NA: <metric>" per metric that has NA values, a slice "NA" over
//    each run of them (the counter keeps its last value there: the slice says it is not known).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "tools/gpaprof/files/pm_sampling_file.h"
#include "tools/gpaprof/report/trace_event_export.h"

namespace gpaprof::report {

inline constexpr uint64_t kPmSamplingTidBase = 4200000000ULL;  // the flag and NA tracks, apart from thread ids

// `deviceProcesses`: TimelineDeviceProcesses of the trace written into `out` (process 2 + i each).
void AppendPmSamplingTracks(const PmSamplingFile& file,
                            const std::vector<std::pair<std::string, std::string>>& deviceProcesses,
                            TraceEventWriter* out);

// The process each of the file's devices goes to (in the order of file.devices), as AppendPmSamplingTracks
// places them; shared with the tests.
std::vector<uint64_t> PmSamplingProcesses(const PmSamplingFile& file,
                                          const std::vector<std::pair<std::string, std::string>>& deviceProcesses);

}  // namespace gpaprof::report
