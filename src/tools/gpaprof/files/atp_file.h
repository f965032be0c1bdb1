// <out>.atp: the application trace (seed 001, "Application Trace Output"), in the layout of
// docs/profiler_files.md: "Key=Value" header, then per API part (ocl, hsa, cuda) its API trace,
// timestamp, kernel timestamp and stack trace sections, then the perf markers.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "tools/gpaprof/files/parse_result.h"
#include "tools/gpaprof/files/profile_model.h"

namespace gpaprof {

std::string WriteAtp(const AtpFile& file);
Parsed<AtpFile> ParseAtp(std::string_view text, ReadOptions options = {});

bool WriteAtpFile(const std::string& path, const AtpFile& file, std::string* error);
Parsed<AtpFile> ReadAtpFile(const std::string& path, ReadOptions options = {});

// One line of each section, as the writer produces them (exposed for tests and other writers).
std::string FormatApiLine(const ApiCall& call);
std::string FormatTimestampLine(const ApiCall& call);
std::string FormatKernelTimestampLine(const KernelTimestamp& entry);
std::string FormatSourceLine(const SourceLocation& location);
std::string FormatMarkerLine(const PerfMarker& marker);

// Splits an API line's parameter list at the ';' that are outside quotes, braces and brackets.
std::vector<std::string> SplitApiArguments(std::string_view list);

// Section marker lines: "=====<api> API Trace Output=====" etc.
std::string SectionMarker(const std::string& api, const char* section);
inline constexpr const char* kApiTraceSection = "API Trace Output";
inline constexpr const char* kTimestampSection = "Timestamp Output";
inline constexpr const char* kKernelTimestampSection = "Kernel Timestamp Output";
inline constexpr const char* kStackTraceSection = "Stack Trace Output";
inline constexpr const char* kPerfMarkerSectionLine = "=====Perfmarker Output=====";

}  // namespace gpaprof
