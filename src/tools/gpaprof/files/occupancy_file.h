// <out>.occupancy: theoretical occupancy per kernel dispatch (seed 001, "Kernel Occupancy Output"), in the
// layout of docs/profiler_files.md: "# Key=Value" header lines, a 26-column row and one row per dispatch,
// all joined by the one list separator (the original mixed two separators; this file never does).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "tools/gpaprof/files/parse_result.h"
#include "tools/gpaprof/files/profile_model.h"

namespace gpaprof {

// The 26 column names, in file order.
const std::vector<std::string>& OccupancyColumns();

std::string WriteOccupancy(const OccupancyFile& file);
Parsed<OccupancyFile> ParseOccupancy(std::string_view text, ReadOptions options = {});

bool WriteOccupancyFile(const std::string& path, const OccupancyFile& file, std::string* error);
Parsed<OccupancyFile> ReadOccupancyFile(const std::string& path, ReadOptions options = {});

}  // namespace gpaprof
