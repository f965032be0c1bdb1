// The drivers' own counters as GPA hardware counters: GL_AMD_performance_monitor's ("AMD_perfmon.<group>.<counter>")
// and GL_INTEL_performance_query's ("INTEL_perfquery.<query>.<counter>"), the group, query and counter names being
// the driver's strings. They are raw driver counters: listed only with GPA_OPENCONTEXT_ENABLE_HARDWARE_COUNTERS_BIT
// (no GPA public counter is computed from them), typed from the extension's counter types.
//
// A sample measures them with one AMD monitor (the pass's counters selected in it) or one instance of an INTEL query
// (all its counters come together) around the sample's draws. What may share a pass: AMD counters up to each group's
// maxActiveCounters; the counters of one INTEL query; never both extensions' counters (a driver offering both could
// count them with the same hardware; nothing says they can share).
//
// Everything here takes the function tables (gl_driver_functions.h), never GL itself, so that tests can script a
// driver. None of it has run on a driver that offers the extensions (see docs/opengl_backend.md).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "backends/gl/gl_driver_functions.h"
#include "counters/counter_definition.h"

namespace gpa::gl {

enum class DriverExtension { AmdPerfMonitor, IntelPerfQuery };

inline constexpr const char* kAmdPerfMonitorPrefix = "AMD_perfmon.";
inline constexpr const char* kIntelPerfQueryPrefix = "INTEL_perfquery.";

// How one driver counter is measured and decoded.
struct DriverCounter {
    DriverExtension extension = DriverExtension::AmdPerfMonitor;
    GLuint group = 0;         // AMD: the group's id; INTEL: the query's id
    GLuint counter = 0;       // the counter's id in its group or query
    GLuint dataType = 0;      // AMD: GL_UNSIGNED_INT, GL_UNSIGNED_INT64_AMD, GL_FLOAT, GL_PERCENTAGE_AMD;
                              // INTEL: GL_PERFQUERY_COUNTER_DATA_*_INTEL
    GLuint offset = 0;        // INTEL: where the value lies in its query's data block
    GLuint size = 0;          // INTEL: its size in bytes there
    GLuint groupLimit = 0;    // AMD: the group's maxActiveCounters; INTEL: the query's data block size
    std::string name;         // the full GPA name, for messages
};

struct DriverCounterList {
    std::vector<HardwareCounter> hardware;
    std::vector<DriverCounter> counters;  // counters[i] measures hardware[i]
    std::vector<std::string> skipped;     // what the driver lists that is not offered, and why
};

// Every counter of every group (AMD) or query (INTEL) the driver lists.
DriverCounterList EnumerateAmdPerfMonitor(const AmdPerfMonitorFunctions& amd);
DriverCounterList EnumerateIntelPerfQuery(const IntelPerfQueryFunctions& intel);

// Both extensions' counters, where their tables are loaded (AMD's first).
DriverCounterList EnumerateDriverCounters(const DriverCounterFunctions& driver);

// Whether these counters can be measured in one sample: per AMD group at most its maxActiveCounters, one INTEL
// query, not both extensions.
bool DriverCountersFitInOnePass(std::span<const DriverCounter* const> counters);

// One sample's driver measurement: an AMD monitor or an INTEL query instance, and, once read, a value or the reason
// there is none per counter.
struct DriverSampleRecording {
    std::vector<const DriverCounter*> counters;  // the pass's driver counters
    GLuint amdMonitor = 0;
    GLuint intelQuery = 0;                       // the instance's handle
    std::string beginFailure;                    // why nothing was begun (the driver refused the monitor or query)
    std::vector<uint8_t> intelBlock;             // INTEL: the instance's data, once the driver wrote it
    GLuint intelWritten = 0;                     // bytes of it written
    bool read = false;
    std::vector<std::optional<double>> values;   // per counter, once read
    std::vector<std::string> why;                // per counter without a value
};

// How long reading a session waits for an AMD monitor's result to become available.
inline constexpr uint32_t kDriverResultTimeoutMs = 10000;

// At GPA_BeginSample: creates and begins the monitor or query instance (nothing without driver counters).
void BeginDriverSample(const DriverCounterFunctions& driver, DriverSampleRecording* sample);
// At GPA_EndSample.
void EndDriverSample(const DriverCounterFunctions& driver, DriverSampleRecording* sample);
// Without blocking: whether the results can be read (true when there is nothing to read).
bool DriverSampleAvailable(const DriverCounterFunctions& driver, DriverSampleRecording* sample);
// Reads the results, waiting up to `timeoutMs` for them; a counter without a value gets the reason.
void ReadDriverSample(const DriverCounterFunctions& driver, DriverSampleRecording* sample, uint32_t timeoutMs);
// Deletes the monitor or query instance (in the context that made it).
void DeleteDriverSample(const DriverCounterFunctions& driver, DriverSampleRecording* sample);

// GL_PERFMON_RESULT_AMD's list of (group, counter, value) entries, `bytes` long: the value of each of `counters`, or
// nullopt with the reason where the list lacks it. The whole list is refused (every counter without a value, `why`
// set) when it names a counter not in `counters` (its value's size is unknown) or ends inside an entry.
void DecodeAmdResult(std::span<const GLuint> words, size_t bytes, std::span<const DriverCounter* const> counters,
                     std::vector<std::optional<double>>* values, std::vector<std::string>* why);
// One counter's value in an INTEL query's data block, `bytes` of it written; nullopt with the reason where the
// block does not hold it.
std::optional<double> DecodeIntelCounter(std::span<const uint8_t> block, size_t bytes, const DriverCounter& counter,
                                         std::string* why);

}  // namespace gpa::gl
