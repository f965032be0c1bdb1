#include "tools/gpaprof/spool/process_files.h"

#include <chrono>
#include <filesystem>
#include <system_error>

#include "tools/gpaprof/files/atp_file.h"
#include "tools/gpaprof/files/csv_file.h"
#include "tools/gpaprof/files/file_io.h"
#include "tools/gpaprof/files/occupancy_file.h"

namespace gpaprof {
namespace {

using Clock = std::chrono::steady_clock;

double Since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

std::string DirectoryOf(const std::string& path) {
    const size_t slash = path.rfind('/');
    return slash == std::string::npos ? std::string(".") : (slash == 0 ? std::string("/") : path.substr(0, slash));
}

}  // namespace

ProcessFiles WriteProcessFiles(const std::string& spoolPath, const std::string& base, const AssemblyOptions& options,
                               SymbolResolver* resolver, ProcessFilesTimes* times) {
    ProcessFiles files;
    ProcessFilesTimes ignored;
    if (!times) times = &ignored;
    std::string error;
    Clock::time_point start = Clock::now();
    {
        MappedFile spool;
        const bool read = spool.Open(spoolPath, &error);
        times->readSeconds = Since(start);
        if (!read) {
            files.problems.push_back(error);
            return files;
        }
        files.spoolRead = true;
        start = Clock::now();
        files.assembled = AssembleSpool(spool.text(), options, resolver);
        times->assembleSeconds = Since(start);
    }

    start = Clock::now();
    const std::string directory = DirectoryOf(base);
    std::error_code code;
    std::filesystem::create_directories(directory, code);
    if (code) {
        files.problems.push_back("cannot create " + directory + ": " + code.message());
        times->writeSeconds = Since(start);
        return files;
    }
    const AssembledProcess& assembled = files.assembled;
    if (assembled.atp) {
        const std::string path = base + ".atp";
        if (WriteAtpFile(path, *assembled.atp, &error)) {
            size_t threads = 0;
            for (const auto& part : assembled.atp->parts) threads += part.threads.size();
            files.written.push_back(path);
            files.summaries.push_back(path + " (" + std::to_string(assembled.apiCalls) + " API calls, " +
                                      std::to_string(threads) + " threads)");
        } else {
            files.problems.push_back(error);
        }
    }
    if (assembled.csv) {
        const std::string path = base + ".csv";
        if (WriteCsvFile(path, *assembled.csv, &error)) {
            files.written.push_back(path);
            files.summaries.push_back(path + " (" + std::to_string(assembled.csv->rows.size()) + " dispatches)");
        } else {
            files.problems.push_back(error);
        }
    }
    if (assembled.occupancy) {
        const std::string path = base + ".occupancy";
        if (WriteOccupancyFile(path, *assembled.occupancy, &error)) {
            files.written.push_back(path);
            files.summaries.push_back(path + " (" + std::to_string(assembled.occupancy->rows.size()) + " rows)");
        } else {
            files.problems.push_back(error);
        }
    }
    times->writeSeconds = Since(start);
    return files;
}

}  // namespace gpaprof
