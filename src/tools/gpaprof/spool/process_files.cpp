#include "tools/gpaprof/spool/process_files.h"

#include <algorithm>
#include <chrono>
#include <thread>
#include <filesystem>
#include <system_error>

#include "tools/gpaprof/files/atp_file.h"
#include "tools/gpaprof/files/csv_file.h"
#include "tools/gpaprof/files/file_io.h"
#include "tools/gpaprof/files/occupancy_file.h"
#include "tools/gpaprof/files/pm_sampling_file.h"

namespace gpaprof {
namespace {

using Clock = std::chrono::steady_clock;

double Since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

std::string DirectoryOf(const std::string& path) {
    const size_t slash = path.rfind('/');
    return slash == std::string::npos ? std::string(".") : (slash == 0 ? std::string("/") : path.substr(0, slash));
}

std::string BaseName(const std::string& path) {
    const size_t slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace

ProcessFiles WriteProcessFiles(const std::string& spoolPath, const std::string& base, const AssemblyOptions& options,
                               SymbolResolver* resolver, ProcessFilesTimes* times) {
    ProcessFiles files;
    ProcessFilesTimes ignored;
    if (!times) times = &ignored;
    std::string error;
    Clock::time_point start = Clock::now();
    MappedFile spool;
    const bool read = spool.Open(spoolPath, &error);
    times->readSeconds = Since(start);
    if (!read) {
        files.problems.push_back(error);
        return files;
    }
    files.spoolRead = true;
    start = Clock::now();
    AssembledSpool assembled(spool.text(), options, resolver);
    AssembledProcess& process = assembled.process();
    times->assembleSeconds = Since(start);

    size_t kernels = 0;
    if (process.atp) {
        for (size_t part = 0; part < process.atp->parts.size(); ++part) kernels += assembled.traceLines().KernelTimestampCount(part);
    }
    files.nothingRecorded = process.apiCalls == 0 && process.dispatches == 0 && kernels == 0 &&
                            (!process.atp || process.atp->markerThreads.empty()) &&
                            (!process.occupancy || process.occupancy->rows.empty()) &&
                            (!process.pmSampling || process.pmSampling->rows.empty());
    if (files.nothingRecorded && options.skipIfNothingRecorded) {
        files.assembled = std::move(assembled.process());
        return files;
    }
    // The same among several processes for the counter and occupancy files: a process that made API calls
    // (a launcher tracing its own few calls) but profiled no dispatch gets its .atp, not an empty .csv or
    // .occupancy next to the files of the processes that did the work.
    const std::string name = BaseName(process.process.application);
    const std::string who = (process.hasProcessRecord ? "process " + std::to_string(process.process.pid)
                                                      : "the process of " + BaseName(spoolPath)) +
                            (name.empty() ? "" : " (" + name + ")");
    if (options.skipIfNothingRecorded && (process.csv || process.occupancy) &&
        (!process.csv || process.csv->rows.empty()) && (!process.occupancy || process.occupancy->rows.empty())) {
        const char* which = process.csv && process.occupancy ? ".csv or .occupancy" : process.csv ? ".csv" : ".occupancy";
        files.notes.push_back(who + " profiled no dispatch: no " + which + " written for it" +
                              (process.atp ? " (its API calls are in its .atp)" : ""));
        files.leftOutEmpty = true;
        process.csv.reset();
        process.occupancy.reset();
    }
    // A sampler that took no sample leaves no file (as a launcher's empty .csv): a file of headers alone says less
    // than this line.
    for (const std::string& problem : process.pmSamplingProblems) files.problems.push_back(who + ": " + problem);
    for (const std::string& problem : process.spoolProblems) files.problems.push_back(who + ": " + problem);
    if (process.pmSampling && process.pmSampling->rows.empty()) {
        std::string devices;
        for (const PmSamplingDevice& device : process.pmSampling->devices) {
            devices += (devices.empty() ? "" : ", ") + std::to_string(device.index) + " (" + device.name + ")";
        }
        const char* of = process.pmSampling->devices.size() > 1 ? "of devices " : "of device ";
        files.notes.push_back(who + ": PM sampling " + (devices.empty() ? "" : of + devices + " ") +
                              "recorded no sample: no .pmsampling.csv written for it");
    }

    start = Clock::now();
    const std::string directory = DirectoryOf(base);
    std::error_code code;
    std::filesystem::create_directories(directory, code);
    if (code) {
        files.problems.push_back("cannot create " + directory + ": " + code.message());
    } else {
        if (process.atp) {
            const std::string path = base + ".atp";
            // The calls and kernel timestamps go from the spool into the file.
            const size_t threads =
                options.threads ? options.threads : std::min(8u, std::max(1u, std::thread::hardware_concurrency()));
            if (WriteAtpFile(path, *process.atp, assembled.traceLines(), &error, threads)) {
                files.written.push_back(path);
                files.summaries.push_back(path + " (" + std::to_string(process.apiCalls) + " API calls, " +
                                          std::to_string(assembled.traceThreads()) + " threads)");
            } else {
                files.problems.push_back(error);
            }
        }
        if (process.csv) {
            const std::string path = base + ".csv";
            if (WriteCsvFile(path, *process.csv, &error)) {
                files.written.push_back(path);
                files.summaries.push_back(path + " (" + std::to_string(process.csv->rows.size()) + " dispatches)");
            } else {
                files.problems.push_back(error);
            }
        }
        if (process.occupancy) {
            const std::string path = base + ".occupancy";
            if (WriteOccupancyFile(path, *process.occupancy, &error)) {
                files.written.push_back(path);
                files.summaries.push_back(path + " (" + std::to_string(process.occupancy->rows.size()) + " rows)");
            } else {
                files.problems.push_back(error);
            }
        }
        if (process.pmSampling && !process.pmSampling->rows.empty()) {
            const std::string path = base + kPmSamplingSuffix;
            if (WritePmSamplingFile(path, *process.pmSampling, &error)) {
                files.written.push_back(path);
                const size_t devices = process.pmSampling->devices.size();
                files.summaries.push_back(path + " (" + std::to_string(process.pmSampling->rows.size()) + " samples, " +
                                          std::to_string(devices) + (devices == 1 ? " device)" : " devices)"));
            } else {
                files.problems.push_back(error);
            }
        }
    }
    files.assembled = std::move(assembled.process());
    times->writeSeconds = Since(start);
    return files;
}

}  // namespace gpaprof
