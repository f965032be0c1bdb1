// Writes synthetic .atp files of a data-parallel ResNet-18 run, one per rank (bench/rank_traces_synthetic.h),
// for bench/report_ranks.sh and for trying gpaprof-report over ranks without a cluster.
//
// Usage: rank_traces --out DIR [--ranks N] [--steps N] [--machines N] [--slow-rank R]... [--slowdown F]
//                    [--slow-host-rank R]... [--host-slowdown F] [--no-rank-header] [--no-place-headers]
// Files: DIR/run_<rank>.atp. Prints one line per rank (calls, kernels, NCCL kernels, kernel and NCCL time).
#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "rank_traces_synthetic.h"
#include "tools/gpaprof/files/atp_file.h"

namespace {

int Usage() {
    std::fprintf(stderr,
                 "usage: rank_traces --out DIR [--ranks N] [--steps N] [--machines N] [--slow-rank R]... "
                 "[--slowdown F] [--slow-host-rank R]... [--host-slowdown F] [--no-rank-header] [--no-place-headers]\n");
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    gpaprof::bench::SyntheticRanksOptions options;
    std::string out;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        auto next = [&]() -> const char* { return i + 1 < argc ? argv[++i] : nullptr; };
        const char* value = nullptr;
        if (arg == "--no-rank-header") options.rankHeader = false;
        else if (arg == "--no-place-headers") options.placeHeaders = false;
        else if (!(value = next())) return Usage();
        else if (arg == "--out") out = value;
        else if (arg == "--ranks") options.ranks = static_cast<uint32_t>(std::strtoul(value, nullptr, 10));
        else if (arg == "--steps") options.steps = static_cast<uint32_t>(std::strtoul(value, nullptr, 10));
        else if (arg == "--machines") options.machines = static_cast<uint32_t>(std::strtoul(value, nullptr, 10));
        else if (arg == "--slow-rank") options.slowRanks.insert(static_cast<uint32_t>(std::strtoul(value, nullptr, 10)));
        else if (arg == "--slowdown") options.slowdown = std::strtod(value, nullptr);
        else if (arg == "--slow-host-rank") options.slowHostRanks.insert(static_cast<uint32_t>(std::strtoul(value, nullptr, 10)));
        else if (arg == "--host-slowdown") options.hostSlowdown = std::strtod(value, nullptr);
        else return Usage();
    }
    if (out.empty() || options.ranks == 0) return Usage();
    const gpaprof::bench::SyntheticRanks ranks(options);
    std::vector<gpaprof::bench::SyntheticRankFacts> facts(ranks.options().ranks);
    std::vector<std::string> errors(facts.size());
    // Ranks are independent once the all-reduces are known: write them on every processor.
    const size_t workers = std::max(1u, std::thread::hardware_concurrency());
    std::vector<std::thread> threads;
    for (size_t w = 0; w < workers; ++w) {
        threads.emplace_back([&, w] {
            for (size_t r = w; r < facts.size(); r += workers) {
                const gpaprof::AtpFile trace = ranks.Trace(static_cast<uint32_t>(r), &facts[r]);
                const std::string path = out + "/run_" + std::to_string(r) + ".atp";
                if (!gpaprof::WriteAtpFile(path, trace, &errors[r])) errors[r] = path + ": " + errors[r];
            }
        });
    }
    for (std::thread& thread : threads) thread.join();
    int status = 0;
    for (size_t r = 0; r < facts.size(); ++r) {
        if (!errors[r].empty()) {
            std::fprintf(stderr, "rank_traces: %s\n", errors[r].c_str());
            status = 1;
            continue;
        }
        std::printf("rank %zu: %" PRIu64 " calls, %" PRIu64 " kernels (%" PRIu64 " NCCL), kernel time %.3f ms, NCCL %.3f ms\n",
                    r, facts[r].calls, facts[r].kernels, facts[r].ncclKernels, static_cast<double>(facts[r].kernelNs) / 1e6,
                    static_cast<double>(facts[r].ncclNs) / 1e6);
    }
    return status;
}
