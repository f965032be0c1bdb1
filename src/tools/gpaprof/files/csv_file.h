// <out>.csv: the per-dispatch counter file (seed 001, "Performance Counter Output"), in the layout of
// docs/profiler_files.md: "#Key=Value" header lines, a column row, one row per dispatch, fields joined by
// the list separator and one space.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "tools/gpaprof/files/parse_result.h"
#include "tools/gpaprof/files/profile_model.h"

namespace gpaprof {

// The dispatch-statistics columns of a flavor, in file order (the counters follow them).
std::vector<std::string> CsvStatisticColumns(CsvFlavor flavor, bool withKernelOccupancy, bool withGraphColumns = false);
// Whether a column of that name is a dispatch statistic (never a counter), in any flavor.
bool IsCsvStatisticColumn(std::string_view name);
// Whether any row came from a CUDA graph launch: a file of such rows needs CsvFile::hasGraphColumns.
bool AnyGraphRow(const std::vector<DispatchRow>& rows);

std::string WriteCsv(const CsvFile& file);
Parsed<CsvFile> ParseCsv(std::string_view text, ReadOptions options = {});

// Files: write replaces the file; read reports a missing or unreadable file as a problem on line 0.
bool WriteCsvFile(const std::string& path, const CsvFile& file, std::string* error);
Parsed<CsvFile> ReadCsvFile(const std::string& path, ReadOptions options = {});

// Formats shared with tests: "{%7lu %7lu %7lu}" or NULL (a whole CUDA graph's row), "{%5lu %5lu %5lu}" or NULL,
// "%15.5lf", "%12.2f", "%lu".
std::string FormatGlobalWorkSize(const WorkSize& size);
std::string FormatWorkGroupSize(const WorkSize& size);
std::string FormatTimeMs(double milliseconds);
std::string FormatCounter(const CounterValue& value);

}  // namespace gpaprof
