// Turns one process's spool into the three files' contents: joins calls with their commands and device
// times, maps device times onto the CPU clock, orders rows, resolves source locations. Runs in gpaprof
// after the process has ended (or in a test); never inside the profiled application.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tools/gpaprof/files/atp_file.h"
#include "tools/gpaprof/files/pm_sampling_file.h"
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
    size_t threads = 0;                     // threads reading the spool (and writing the .atp); 0: as useful
    // Write no files for a process that recorded no API call, dispatch, kernel or marker (a launcher such as
    // torchrun, when other processes did the work), and no .csv or .occupancy for one that profiled no
    // dispatch (its .atp under -t still).
    bool skipIfNothingRecorded = false;
    // Turns a raw CUDA call line ('B', tools/gpaprof/cuda/raw_call_line.h: a call whose arguments are still
    // bytes) into its 'A' line, '\n' included; the command line sets it where it is built with the CUDA part.
    // Without it such a line counts as unreadable.
    bool (*expandRawCall)(std::string_view line, std::string* callLine, std::string* error) = nullptr;
    // Turns a raw CUDA kernel line ('R', tools/gpaprof/cuda/raw_kernel_line.h: a kernel's activity record still in
    // bytes) into its 'Q', 'E' and 'T' lines, each with its '\n'; set with expandRawCall. Without it such a line
    // counts as unreadable.
    bool (*expandRawKernel)(std::string_view line, std::string* lines, std::string* error) = nullptr;
};

struct AssembledProcess {
    spool::ProcessRecord process;
    bool hasProcessRecord = false;
    std::optional<AtpFile> atp;
    std::optional<CsvFile> csv;
    std::optional<OccupancyFile> occupancy;
    // --pm-sampling: the .pmsampling.csv of the 'G' and 'H' records, when the spool has any (rows may be empty).
    std::optional<PmSamplingFile> pmSampling;
    std::vector<std::string> pmSamplingProblems;  // samples left out (overlapping, of no known device, ...), counted
    std::vector<std::string> notes;          // NoteRecords (the process printed them as it ran)
    std::vector<std::string> spoolProblems;  // what assembly could not use (unreadable lines, rows of no .csv): gpaprof warns
    std::optional<spool::EventRecord> signal;  // the process died of a signal it recorded
    bool exitRecorded = false;                 // the process went through exit()
    size_t apiCalls = 0;
    size_t dispatches = 0;
    size_t unfinishedCommands = 0;             // enqueued, never completed (device times written as 0)
    size_t badRecords = 0;
};

AssembledProcess AssembleSpool(std::string_view spoolText, const AssemblyOptions& options, SymbolResolver* resolver);

// The same assembly for writing the files at once (what gpaprof does): the API calls and kernel timestamps
// of the trace are not copied out of the spool into ApiCall and KernelTimestamp records but written from the
// spool's lines straight into the .atp (traceLines()), so `spoolText` must outlive this. process() holds
// everything else: its `atp` has every part with its header, stack traces and markers, and no threads or
// kernel timestamps. WriteAtp(*process().atp, traceLines()) is WriteAtp(*AssembleSpool(...).atp), byte for
// byte (tests/tools/gpaprof/spool_assembly_test.cpp).
class AssembledSpool {
public:
    AssembledSpool(std::string_view spoolText, const AssemblyOptions& options, SymbolResolver* resolver);
    ~AssembledSpool();
    AssembledSpool(const AssembledSpool&) = delete;
    AssembledSpool& operator=(const AssembledSpool&) = delete;

    AssembledProcess& process() { return process_; }
    const AtpTraceLines& traceLines() const;
    size_t traceThreads() const;  // thread blocks of the API trace sections, every part
    // Copies the calls and kernel timestamps into process().atp (what AssembleSpool returns).
    void MaterializeTrace();

private:
    class Trace;
    std::unique_ptr<Trace> trace_;
    AssembledProcess process_;
};

}  // namespace gpaprof
