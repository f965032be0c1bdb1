// What gpaprof does for each profiled process once it has ended: reads its spool, assembles it and writes
// <base>.atp, <base>.csv, <base>.occupancy and <base>.pmsampling.csv (the modes' files; the last only when the process
// recorded PM samples). The command line calls it once per spool;
// bench/spool_assembly measures it.
#pragma once

#include <string>
#include <vector>

#include "tools/gpaprof/spool/spool_assembler.h"

namespace gpaprof {

struct ProcessFiles {
    bool spoolRead = false;
    bool nothingRecorded = false;        // no API call, dispatch, kernel timestamp, marker or PM sample
    bool leftOutEmpty = false;           // options.skipIfNothingRecorded and no dispatch profiled: no .csv or
                                         // .occupancy written (notes says so), the .atp as usual
    AssembledProcess assembled;          // what was written: the .csv and .occupancy contents, the .atp's header,
                                         // stack traces and markers (its calls went from the spool to the file)
    std::vector<std::string> written;    // paths of the files written
    std::vector<std::string> summaries;  // per file written: "<path> (1234 API calls, 4 threads)"
    std::vector<std::string> problems;   // what could not be read or written, or was left out, one message each
    std::vector<std::string> notes;      // what was left out by rule (an empty file not written), one line each
};

// Where the time went, for the benchmark.
struct ProcessFilesTimes {
    double readSeconds = 0;
    double assembleSeconds = 0;
    double writeSeconds = 0;
};

ProcessFiles WriteProcessFiles(const std::string& spoolPath, const std::string& base, const AssemblyOptions& options,
                               SymbolResolver* resolver, ProcessFilesTimes* times = nullptr);

}  // namespace gpaprof
