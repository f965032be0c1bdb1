// gpaprof -p --counters: a name that no API gpaprof profiles offers stops gpaprof before the application starts
// (a typo must not cost a run of a long job), with the nearest names and where the lists are. A name one API
// offers and another lacks is no error: that API's part notes it and leaves it out, as before.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace gpaprof::cli {

// The counter names gpaprof's parts know before any device is seen: the OpenCL part's GPA counters, the
// counters OpenGPA's OpenCL layer can offer through cl_codeplay_performance_counters, and the CUDA part's GPA
// counters (those a chip lacks too: their reason is noted when the chip is known). Names compare ignoring case,
// as the parts compare them.
std::vector<std::string> KnownCounterNames();

// NVIDIA metric names (ncu's spelling, with "__") are checked by the CUDA part against the chip it finds.
bool LooksLikeNvidiaMetric(const std::string& name);

// Up to `most` of `known` nearest to `name`: the same name in another case first, then by edit distance (ignoring
// case) within a bound that grows with the name's length; none when nothing is near.
std::vector<std::string> NearestCounterNames(const std::string& name, const std::vector<std::string>& known,
                                             size_t most = 3);

// Why gpaprof must stop: every requested name that is neither known, nor an NVIDIA metric name, nor one of
// `deviceNames()` (the extension counters the machine's OpenCL devices offer; asked only when a name is
// otherwise unknown), with the nearest names; empty when every name may be collected.
std::string UnknownCounterNames(const std::vector<std::string>& requested, const std::vector<std::string>& known,
                                const std::function<std::vector<std::string>()>& deviceNames);

}  // namespace gpaprof::cli
