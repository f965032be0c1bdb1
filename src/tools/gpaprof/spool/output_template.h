// Output names: "-o <out>" may hold %p (the profiled process's id), %q{NAME} (the value of environment
// variable NAME in the profiled process, e.g. %q{RANK} under torchrun or %q{OMPI_COMM_WORLD_RANK} under
// mpirun) and %% (a percent sign). A trailing .csv, .atp or .occupancy is dropped: the three files get
// <out>.csv, <out>.atp and <out>.occupancy.
#pragma once

#include <functional>
#include <optional>
#include <string>

namespace gpaprof {

using EnvironmentLookup = std::function<std::optional<std::string>(const std::string& name)>;

// Checks the placeholders without resolving them.
bool ValidateOutputTemplate(const std::string& pattern, std::string* error);

// Resolves the placeholders; an unset variable resolves to "unset-<NAME>" and is reported in *warning.
std::string ResolveOutputTemplate(const std::string& pattern, long pid, const EnvironmentLookup& lookup,
                                  std::string* warning);

// "<dir>/name.atp" (.csv, .occupancy, .pmsampling.csv) -> "<dir>/name"; other names are returned unchanged.
std::string StripProfilerExtension(const std::string& path);

}  // namespace gpaprof
