// What gpaprof does after the application ended, measured on the CPU alone: a spool of many kernel launches
// (synthetic, bench/spool_assembly_synthetic.h, or one kept with gpaprof --keep-temp) is read, assembled and
// written as <out>.atp/.csv/.occupancy, exactly as gpaprof does it for each profiled process
// (gpaprof::WriteProcessFiles). Prints the seconds of each phase (median of the repeats), records per
// second, and the size and FNV-1a hash of every file written, so that two builds can be compared for
// speed and for byte-identical output. docs/benchmarks.md, "gpaprof's own work after the application (CPU)".
//
// Usage: spool_assembly [--api cuda|opencl] [--launches N] [--threads N] [--modes tpO] [--sym] [--repeats N]
//                       [--out DIR] [--spool FILE] [--save-spool FILE]
#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <unistd.h>

#include "spool_assembly_synthetic.h"
#include "tools/gpaprof/files/file_io.h"
#include "tools/gpaprof/spool/process_files.h"

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
                 "usage: spool_assembly [--api cuda|opencl] [--launches N] [--threads N] [--modes tpO] [--sym] "
                 "[--repeats N] [--out DIR] [--spool FILE] [--save-spool FILE]\n");
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    SyntheticSpoolOptions synthetic;
    std::string modes = "t";
    int repeats = 5;
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
        } else if (arg == "--sym") {
            synthetic.symbols = true;
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
    assembly.trace = modes.find('t') != std::string::npos;
    assembly.counters = modes.find('p') != std::string::npos;
    assembly.occupancy = modes.find('O') != std::string::npos;
    synthetic.counters = assembly.counters;
    synthetic.occupancy = assembly.occupancy;
    assembly.profilerVersion = "0.1.0";
    assembly.osVersion = "Debian GNU/Linux 12 (bookworm) Build 6.1.0";
    assembly.displayName = "trace";
    if (synthetic.api == SyntheticSpoolOptions::Api::Cuda) assembly.defaultApi = "CUDA";

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

    std::vector<double> read, assemble, write, total;
    gpaprof::ProcessFiles files;
    const std::string base = outDirectory + "/trace";
    for (int r = 0; r < repeats; ++r) {
        gpaprof::ProcessFilesTimes times;
        const auto started = std::chrono::steady_clock::now();
        files = gpaprof::WriteProcessFiles(spoolPath, base, assembly, nullptr, &times);
        total.push_back(Seconds(started));
        read.push_back(times.readSeconds);
        assemble.push_back(times.assembleSeconds);
        write.push_back(times.writeSeconds);
        if (!files.problems.empty()) {
            for (const std::string& problem : files.problems) std::fprintf(stderr, "%s\n", problem.c_str());
            return 1;
        }
    }
    const double seconds = Median(total);
    std::printf("spool_assembly: %s, %zu records, %.1f MB, modes %s%s, median of %d: read %.4f s, assemble %.4f s, "
                "write %.4f s, total %.4f s = %.0f records/s\n",
                spoolPath.c_str(), records, static_cast<double>(spoolBytes) / 1e6, modes.c_str(),
                synthetic.symbols ? " --sym" : "", repeats, Median(read), Median(assemble), Median(write), seconds,
                static_cast<double>(records) / seconds);
    for (const std::string& path : files.written) {
        std::optional<std::string> content = gpaprof::ReadTextFile(path, &error);
        if (!content) continue;
        std::printf("  %s: %zu bytes, fnv1a %016" PRIx64 "\n", path.substr(path.rfind('/') + 1).c_str(), content->size(),
                    Fnv1a(*content));
    }
    if (temporarySpool && saveSpool.empty()) unlink(spoolPath.c_str());
    if (outDirectory == temporaryDirectory) {
        for (const std::string& path : files.written) unlink(path.c_str());
    }
    rmdir(temporaryDirectory);
    return 0;
}
