// What gpaprof does after the application ended, measured on the CPU alone: a spool of many kernel launches
// (synthetic, bench/spool_assembly_synthetic.h, or one kept with gpaprof --keep-temp) is read, assembled and
// written as <out>.atp/.csv/.occupancy, exactly as gpaprof does it for each profiled process
// (gpaprof::WriteProcessFiles). Prints the seconds of each phase (median of the repeats), records per
// second, and the size and FNV-1a hash of every file written, so that two builds can be compared for
// speed and for byte-identical output. docs/benchmarks.md, "gpaprof's own work after the application (CPU)".
//
// Usage: spool_assembly [--api cuda|opencl] [--launches N] [--threads N] [--modes tpO] [--sym] [--raw-kernels]
//                       [--repeats N] [--workers N] [--out DIR] [--spool FILE] [--save-spool FILE]
// --workers: threads reading the spool and writing the .atp (default: as gpaprof chooses, one per processor).
// --raw-kernels: the CUDA spool's kernels as the raw lines the CUDA part writes (gpaprof expands them while it
// reads the spool); the files are the same. Raw lines, also in a --spool, are expanded where this build has
// gpaprof's CUDA part.
#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

#include "spool_assembly_synthetic.h"
#include "tools/gpaprof/files/file_io.h"
#include "tools/gpaprof/spool/process_files.h"
#ifdef GPAPROF_WITH_CUDA_PART
#include "tools/gpaprof/cuda/raw_call_line.h"
#include "tools/gpaprof/cuda/raw_kernel_line.h"
#endif

namespace {

using gpaprof::bench::SyntheticSpoolOptions;

double Seconds(std::chrono::steady_clock::time_point since) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

double Median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    const size_t n = values.size();
    return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

uint64_t Fnv1a(const std::string& text) {
    uint64_t hash = 1469598103934665603ull;
    for (unsigned char c : text) {
        hash ^= c;
        hash *= 1099511628211ull;
    }
    return hash;
}

int Usage() {
    std::fprintf(stderr,
                 "usage: spool_assembly [--api cuda|opencl] [--launches N] [--threads N] [--modes tpO] [--sym] [--raw-kernels] "
                 "[--repeats N] [--workers N] [--out DIR] [--spool FILE] [--save-spool FILE]\n");
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    SyntheticSpoolOptions synthetic;
    std::string modes = "t";
    int repeats = 5;
    size_t workers = 0;  // threads reading the spool and writing the .atp (0: gpaprof's choice)
    std::string outDirectory;
    std::string spoolPath;
    std::string saveSpool;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "%s needs a value\n", arg.c_str());
                std::exit(Usage());
            }
            return argv[++i];
        };
        if (arg == "--api") {
            const std::string api = value();
            if (api != "cuda" && api != "opencl") return Usage();
            synthetic.api = api == "cuda" ? SyntheticSpoolOptions::Api::Cuda : SyntheticSpoolOptions::Api::OpenCL;
        } else if (arg == "--launches") {
            synthetic.launches = std::strtoull(value().c_str(), nullptr, 10);
        } else if (arg == "--threads") {
            synthetic.threads = static_cast<uint32_t>(std::max(1ul, std::strtoul(value().c_str(), nullptr, 10)));
        } else if (arg == "--modes") {
            modes = value();
        } else if (arg == "--raw-kernels") {
            if (!gpaprof::bench::SyntheticRawKernels()) {
                std::fprintf(stderr, "spool_assembly: --raw-kernels needs gpaprof's CUDA part, which this build does not have\n");
                return 2;
            }
            synthetic.rawKernels = true;
        } else if (arg == "--sym") {
            synthetic.symbols = true;
        } else if (arg == "--workers") {
            workers = static_cast<size_t>(std::atoi(value().c_str()));
        } else if (arg == "--repeats") {
            repeats = std::max(1, std::atoi(value().c_str()));
        } else if (arg == "--out") {
            outDirectory = value();
        } else if (arg == "--spool") {
            spoolPath = value();
        } else if (arg == "--save-spool") {
            saveSpool = value();
        } else {
            return Usage();
        }
    }
    gpaprof::AssemblyOptions assembly;
#ifdef GPAPROF_WITH_CUDA_PART
    assembly.expandRawCall = &gpaprof::cuda::ExpandRawCallLine;
    assembly.expandRawKernel = &gpaprof::cuda::ExpandRawKernelLine;
#endif
    assembly.trace = modes.find('t') != std::string::npos;
    assembly.counters = modes.find('p') != std::string::npos;
    assembly.occupancy = modes.find('O') != std::string::npos;
    synthetic.counters = assembly.counters;
    synthetic.occupancy = assembly.occupancy;
    assembly.profilerVersion = "0.1.0";
    assembly.osVersion = "Debian GNU/Linux 12 (bookworm) Build 6.1.0";
    assembly.displayName = "trace";
    if (synthetic.api == SyntheticSpoolOptions::Api::Cuda) assembly.defaultApi = "CUDA";
    assembly.threads = workers;

    std::string error;
    size_t records = 0;
    const bool temporarySpool = spoolPath.empty();
    char temporaryDirectory[] = "/tmp/spool-assembly-XXXXXX";
    if (!mkdtemp(temporaryDirectory)) {
        std::perror("mkdtemp");
        return 1;
    }
    if (outDirectory.empty()) outDirectory = temporaryDirectory;
    if (temporarySpool) {
        const auto started = std::chrono::steady_clock::now();
        gpaprof::bench::SyntheticSpool spool = gpaprof::bench::MakeSyntheticSpool(synthetic);
        records = spool.records;
        spoolPath = saveSpool.empty() ? std::string(temporaryDirectory) + "/41235.spool" : saveSpool;
        if (!gpaprof::WriteTextFile(spoolPath, spool.text, &error)) {
            std::fprintf(stderr, "%s\n", error.c_str());
            return 1;
        }
        std::printf("spool_assembly: made a %s spool of %" PRIu64 " launches, %zu records, %.1f MB in %.3f s\n",
                    synthetic.api == SyntheticSpoolOptions::Api::Cuda ? "CUDA" : "OpenCL", synthetic.launches, records,
                    static_cast<double>(spool.text.size()) / 1e6, Seconds(started));
    }
    std::optional<std::string> text = gpaprof::ReadTextFile(spoolPath, &error);
    if (!text) {
        std::fprintf(stderr, "%s\n", error.c_str());
        return 1;
    }
    if (!temporarySpool) records = static_cast<size_t>(std::count(text->begin(), text->end(), '\n'));
    const size_t spoolBytes = text->size();
    text.reset();

    // Each repeat runs in a fresh process, as gpaprof assembles each spool once in a fresh process: no heap
    // memory left over from an earlier repeat, every page touched for the first time.
    std::vector<double> readTimes, assembleTimes, writeTimes, total;
    const std::string base = outDirectory + "/trace";
    for (int r = 0; r < repeats; ++r) {
        int report[2];
        if (pipe(report) != 0) {
            std::perror("pipe");
            return 1;
        }
        const pid_t child = fork();
        if (child == 0) {
            close(report[0]);
            gpaprof::ProcessFilesTimes times;
            const auto started = std::chrono::steady_clock::now();
            std::vector<std::string> problems;
            {
                gpaprof::ProcessFiles files = gpaprof::WriteProcessFiles(spoolPath, base, assembly, nullptr, &times);
                problems = files.problems;
            }  // freed, as gpaprof frees it before the next spool
            double result[4] = {times.readSeconds, times.assembleSeconds, times.writeSeconds, Seconds(started)};
            for (const std::string& problem : problems) std::fprintf(stderr, "%s\n", problem.c_str());
            const bool good = problems.empty() && write(report[1], result, sizeof result) == sizeof result;
            std::_Exit(good ? 0 : 1);
        }
        close(report[1]);
        double result[4] = {};
        const bool got = read(report[0], result, sizeof result) == sizeof result;
        close(report[0]);
        int status = 0;
        waitpid(child, &status, 0);
        if (!got || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
            std::fprintf(stderr, "spool_assembly: the measuring process failed\n");
            return 1;
        }
        readTimes.push_back(result[0]);
        assembleTimes.push_back(result[1]);
        writeTimes.push_back(result[2]);
        total.push_back(result[3]);
    }
    std::vector<std::string> written;
    for (const char* extension : {".atp", ".csv", ".occupancy"}) {
        if (access((base + extension).c_str(), F_OK) == 0) written.push_back(base + extension);
    }
    const double seconds = Median(total);
    std::printf("spool_assembly: %s, %zu records, %.1f MB, modes %s%s%s, %s, median of %d: read %.4f s, "
                "assemble %.4f s, write %.4f s, total %.4f s = %.0f records/s\n",
                spoolPath.c_str(), records, static_cast<double>(spoolBytes) / 1e6, modes.c_str(),
                synthetic.symbols ? " --sym" : "", synthetic.rawKernels ? " --raw-kernels" : "",
                workers ? (std::to_string(workers) + " workers").c_str() : "default workers", repeats, Median(readTimes), Median(assembleTimes), Median(writeTimes), seconds,
                static_cast<double>(records) / seconds);
    for (const std::string& path : written) {
        std::optional<std::string> content = gpaprof::ReadTextFile(path, &error);
        if (!content) continue;
        std::printf("  %s: %zu bytes, fnv1a %016" PRIx64 "\n", path.substr(path.rfind('/') + 1).c_str(), content->size(),
                    Fnv1a(*content));
    }
    if (temporarySpool && saveSpool.empty()) unlink(spoolPath.c_str());
    if (outDirectory == temporaryDirectory) {
        for (const std::string& path : written) unlink(path.c_str());
    }
    rmdir(temporaryDirectory);
    return 0;
}
