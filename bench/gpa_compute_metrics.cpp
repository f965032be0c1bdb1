// Prints the GPA compute counters OpenGPA exposes on a chip and the NVIDIA metrics behind them, for the
// benchmarks that collect "the GPA compute set" with gpaprof and the same metrics with ncu.
//
//   gpa_compute_metrics [--chip GH100]        (default: the chip of CUDA device 0)
//   prints:  chip=GH100
//            counters=GPUTime,GPUBusy,...      (comma-separated)
//            metrics=gpu__time_duration.sum,... (comma-separated, each once)
#include <cstdio>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "backends/cuda/chip_counters.h"
#include "backends/cuda/cuda_driver_loader.h"
#include "backends/cuda/cupti_loader.h"
#include "backends/cuda/range_profiler.h"

int main(int argc, char** argv) {
    std::string chip;
    for (int i = 1; i + 1 < argc; ++i) {
        if (!std::strcmp(argv[i], "--chip")) chip = argv[i + 1];
    }
    const gpa::cuda::CuptiApi* cupti = nullptr;
    if (gpa::Outcome o = gpa::cuda::LoadCupti(&cupti); !o.ok()) {
        std::fprintf(stderr, "gpa_compute_metrics: %s\n", o.reason().c_str());
        return 1;
    }
    if (chip.empty()) {
        const gpa::cuda::DriverApi* driver = nullptr;
        CUdevice device = 0;
        if (gpa::Outcome o = gpa::cuda::LoadDriver(&driver); !o.ok()) {
            std::fprintf(stderr, "gpa_compute_metrics: %s (or name the chip with --chip)\n", o.reason().c_str());
            return 1;
        }
        driver->cuDeviceGet(&device, 0);
        if (gpa::Outcome o = gpa::cuda::QueryChipName(*cupti, device, &chip); !o.ok()) {
            std::fprintf(stderr, "gpa_compute_metrics: %s\n", o.reason().c_str());
            return 1;
        }
    }
    gpa::cuda::ChipCounters counters;
    if (gpa::Outcome o = gpa::cuda::BuildChipCounters(*cupti, chip, {}, &counters); !o.ok()) {
        std::fprintf(stderr, "gpa_compute_metrics: %s\n", o.reason().c_str());
        return 1;
    }
    const gpa::CounterCatalog catalog = counters.Catalog(true, false);
    std::string names, metrics;
    std::set<std::string> seen;
    for (const gpa::ExposedCounter& counter : catalog.counters()) {
        names += (names.empty() ? "" : ",") + counter.name;
        for (uint32_t input : counter.hardware) {
            const std::string& metric = counters.hardware.at(input).name;
            if (seen.insert(metric).second) metrics += (metrics.empty() ? "" : ",") + metric;
        }
    }
    std::printf("chip=%s\ncounters=%s\nmetrics=%s\n", chip.c_str(), names.c_str(), metrics.c_str());
    return 0;
}
