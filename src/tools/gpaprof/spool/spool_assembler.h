// Turns one process's spool into the three files' contents: joins calls with their commands and device
// times, maps device times onto the CPU clock, orders rows, resolves source locations. Runs in gpaprof
// after the process has ended (or in a test); never inside the profiled application.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tools/gpaprof/files/profile_model.h"
#include "tools/gpaprof/spool/spool_records.h"
#include "tools/gpaprof/spool/symbol_resolver.h"

namespace gpaprof {

// What the command line knows and the spool does not.
struct AssemblyOptions {
    bool trace = false;
    bool counters = false;
    bool occupancy = false;
    std::string profilerVersion;
    std::string displayName;
    std::string osVersion;
    std::optional<bool> fullEnvironment;
    std::vector<EnvironmentVariable> environment;
    std::vector<std::string> excludedApis;  // of the OpenCL part (-F)
    char listSeparator = ',';
    bool forceSinglePass = false;
    std::optional<std::vector<std::string>> kernelsProfiled;
    std::optional<uint64_t> maxKernelsToProfile;
    std::string defaultApi = "OpenCL";      // #API of a .csv without rows
};

struct AssembledProcess {
    spool::ProcessRecord process;
    bool hasProcessRecord = false;
    std::optional<AtpFile> atp;
    std::optional<CsvFile> csv;
    std::optional<OccupancyFile> occupancy;
    std::vector<std::string> notes;          // NoteRecords, then assembly problems
    std::optional<spool::EventRecord> signal;  // the process died of a signal it recorded
    bool exitRecorded = false;                 // the process went through exit()
    size_t apiCalls = 0;
    size_t dispatches = 0;
    size_t unfinishedCommands = 0;             // enqueued, never completed (device times written as 0)
    size_t badRecords = 0;
};

AssembledProcess AssembleSpool(std::string_view spoolText, const AssemblyOptions& options, SymbolResolver* resolver);

}  // namespace gpaprof
