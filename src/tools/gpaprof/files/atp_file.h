// <out>.atp: the application trace (seed 001, "Application Trace Output"), in the layout of
// docs/profiler_files.md: "Key=Value" header, then per API part (ocl, hsa, cuda) its API trace,
// timestamp, kernel timestamp and stack trace sections, then the perf markers.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
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

// ---------------------------------------------------------------------------------------------
// The lines of the API trace, timestamp and kernel timestamp sections from fields as views, so that a writer
// need not own them in an ApiCall (gpaprof's spool assembly writes them straight from the spool). The
// functions above format the model's lines through these; each appends one line without its '\n'.

struct CommandFields {
    uint32_t commandType = 0;
    std::string_view commandName;
    uint64_t queued = 0, submit = 0, start = 0, end = 0;
    uint64_t queueId = 0;
    std::string_view queueHandle;
    uint64_t contextId = 0;
    std::string_view contextHandle;
    std::string_view deviceName;
};

struct KernelFields {
    std::string_view kernelHandle;
    std::string_view kernelName;
    std::span<const uint64_t> globalSize;
    std::span<const uint64_t> localSize;
};

struct KernelTimestampFields {
    std::string_view kernelName;
    std::string_view kernelObject;
    uint64_t start = 0, end = 0;
    std::string_view agentName;
    std::string_view agentHandle;
    uint64_t queueIndex = 0;
    uint64_t deviceIndex = 0;
    std::string_view packetType;
    uint64_t packetId = 0;
    std::string_view packetFields;
};

// `returnValue` null for void functions; `command`, `kernel` and `transferSize` as in ApiCall.
void AppendApiLine(std::string* out, const std::string_view* returnValue, std::string_view name,
                   std::span<const std::string_view> args);
void AppendTimestampLine(std::string* out, uint32_t apiType, std::string_view name, uint64_t start, uint64_t end,
                         const CommandFields* command, const KernelFields* kernel,
                         const std::optional<uint64_t>& transferSize);
void AppendKernelTimestampLine(std::string* out, const KernelTimestampFields& entry);

// The API calls and kernel timestamps of a trace, line by line, in the file's order, for writing a trace
// whose calls are not in the AtpFile. The AtpFile then holds everything else (header, every part's api and
// excluded APIs, stack traces, markers); its parts' `threads` and `kernelTimestamps` are not read. Parts
// are numbered as in AtpFile::parts. The functions may be called from several threads at once.
class AtpTraceLines {
public:
    virtual ~AtpTraceLines() = default;
    virtual size_t ThreadCount(size_t part) const = 0;
    virtual uint64_t ThreadId(size_t part, size_t thread) const = 0;
    virtual size_t CallCount(size_t part, size_t thread) const = 0;
    virtual void AppendApiLine(size_t part, size_t thread, size_t call, std::string* out) const = 0;
    virtual void AppendTimestampLine(size_t part, size_t thread, size_t call, std::string* out) const = 0;
    virtual size_t KernelTimestampCount(size_t part) const = 0;
    virtual void AppendKernelTimestampLine(size_t part, size_t entry, std::string* out) const = 0;
};

// `threads`: how many threads may format lines at once.
std::string WriteAtp(const AtpFile& file, const AtpTraceLines& lines, size_t threads = 1);
bool WriteAtpFile(const std::string& path, const AtpFile& file, const AtpTraceLines& lines, std::string* error,
                  size_t threads = 1);

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
