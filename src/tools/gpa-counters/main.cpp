// gpa-counters: the counters OpenGPA's CUDA library offers on an NVIDIA chip, and the passes a set of them
// needs, planned by CUPTI's own scheduler. Works without a GPU when a chip is named.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "backends/cuda/chip_counters.h"
#include "backends/cuda/cupti_host.h"
#include "backends/cuda/device_identity.h"
#include "backends/cuda/gpa_compute_counters.h"
#include "backends/cuda/metric_names.h"
#include "backends/cuda/range_profiler.h"
#include "core/enum_strings.h"

namespace {

using gpa::Outcome;
namespace cuda = gpa::cuda;

constexpr const char* kHelp = R"(gpa-counters - the counters OpenGPA's CUDA library (libGPUPerfAPICUDA.so) offers on an
NVIDIA chip, and how many replay passes a set of them needs. Planning uses CUPTI's host API, so no GPU
is needed when a chip is named.

Usage: gpa-counters [--chip NAME | --device N] [what to show]

Which chip:
  --chip NAME        a chip CUPTI supports, e.g. GH100 (H100/H200), GA100 (A100), AD102; no GPU needed
  --device N         the chip of CUDA device N of this machine (needs the NVIDIA driver)
                     With neither, device 0 of this machine is used.

What to show (default: the GPA counters):
  (nothing)          the GPA counters: group, name, type, usage and the passes each needs alone
  --hardware         the raw NVIDIA metrics (what GPA_OPENCONTEXT_ENABLE_HARDWARE_COUNTERS_BIT exposes),
                     grouped by hardware unit, each under one name; every other name ncu accepts
                     (another submetric of the same base metric) is accepted too
  --groups           the counter groups and how many counters each holds
  --counters A,B,C   plan these counters (GPA names such as GPUTime, or NVIDIA metric names as ncu takes
                     them: dram__bytes_read.sum, sm__warps_active.avg.pct_of_peak_sustained_active,
                     lts__t_sector_hit_rate.pct): the NVIDIA metrics they read, the CUPTI configurations
                     and their passes; the last line is "passes: N", the value GPA_GetPassCount reports
  --all              plan every GPA counter together (like GPA_EnableAllCounters)
  --list-chips       the chips this CUPTI can plan for
  --verbose          also print descriptions and formulas
  --help             this text

Examples:
  gpa-counters --chip GH100
  gpa-counters --chip GH100 --counters GPUTime,FetchSize,L2CacheHit
  gpa-counters --chip GH100 --counters sm__warps_active.avg.pct_of_peak_sustained_active,lts__t_sector_hit_rate.pct
  gpa-counters --chip GA100 --hardware --verbose
)";

struct Options {
    std::string chip;
    int device = -1;
    bool hardware = false;
    bool groups = false;
    bool all = false;
    bool listChips = false;
    bool verbose = false;
    bool help = false;
    std::vector<std::string> counters;
};

int Usage(const std::string& problem) {
    std::fprintf(stderr, "gpa-counters: %s\nRun 'gpa-counters --help' for the options.\n", problem.c_str());
    return 2;
}

std::vector<std::string> SplitList(const std::string& text) {
    std::vector<std::string> items;
    std::stringstream stream(text);
    for (std::string item; std::getline(stream, item, ',');) {
        item.erase(0, item.find_first_not_of(" \t"));
        item.erase(item.find_last_not_of(" \t") + 1);
        if (!item.empty()) items.push_back(item);
    }
    return items;
}

int Failed(const Outcome& outcome) {
    std::fprintf(stderr, "gpa-counters: %s\n", outcome.reason().c_str());
    return 1;
}

// The chip of a local device and its counter availability, as the CUDA library sees them (needs the
// driver); the reason says how to plan offline instead.
Outcome LocalChip(const cuda::CuptiApi& cupti, int device, std::string* chip, std::string* deviceName,
                  std::vector<uint8_t>* availability) {
    const cuda::DriverApi* driver = nullptr;
    if (Outcome o = cuda::LoadDriver(&driver); !o.ok()) {
        return gpa::Fail(o.status(), o.reason() + ". Name a chip to plan without a GPU, e.g. --chip GH100 "
                                                  "(--list-chips lists them)");
    }
    int count = 0;
    driver->cuDeviceGetCount(&count);
    if (device < 0 || device >= count) {
        return gpa::Fail(GPA_STATUS_ERROR_NOT_FOUND, "there is no CUDA device " + std::to_string(device) + " (this machine has " +
                                                         std::to_string(count) + ")");
    }
    CUdevice handle = 0;
    driver->cuDeviceGet(&handle, device);
    *deviceName = cuda::DeviceName(*driver, handle);
    CUcontext context = nullptr;
    if (CUresult r = driver->cuDevicePrimaryCtxRetain(&context, handle); r != CUDA_SUCCESS) {
        return driver->Failure("cuDevicePrimaryCtxRetain", r, GPA_STATUS_ERROR_HARDWARE_NOT_SUPPORTED);
    }
    Outcome outcome = cuda::CheckProfilingSupported(cupti, handle);
    if (outcome.ok()) outcome = cuda::QueryChipName(cupti, handle, chip);
    if (outcome.ok()) *availability = cuda::QueryCounterAvailability(cupti, *driver, context);
    driver->cuDevicePrimaryCtxRelease(handle);
    return outcome;
}

std::string Passes(uint32_t passes) { return std::to_string(passes) + (passes == 1 ? " pass" : " passes"); }

void PrintGpaCounters(const cuda::CuptiApi& cupti, const cuda::ChipCounters& chip, const gpa::CounterCatalog& catalog,
                      const std::vector<uint8_t>& availability, bool verbose) {
    std::printf("%-14s %-16s %-12s %-13s %s\n", "Group", "Counter", "Type", "Usage", "Passes alone");
    for (uint32_t i = 0; i < catalog.size(); ++i) {
        const gpa::ExposedCounter& counter = catalog.at(i);
        cuda::CounterPlan plan;
        const Outcome planned = cuda::PlanCounters(cupti, chip, catalog, {counter.name}, availability, &plan);
        std::printf("%-14s %-16s %-12s %-13s %s\n", counter.group.c_str(), counter.name.c_str(),
                    gpa::DataTypeName(counter.type), gpa::UsageTypeName(counter.usage),
                    planned.ok() ? std::to_string(plan.plan.passCount).c_str() : "?");
        if (verbose) {
            std::printf("    %s\n    = %s\n", counter.description.c_str(), counter.definition.c_str());
        }
    }
    for (const gpa::OmittedCounter& omitted : catalog.omitted()) {
        std::printf("not on %s: %s (%s)\n", chip.metrics->chip().c_str(), omitted.name.c_str(), omitted.reason.c_str());
    }
    for (const cuda::AbsentCounter& absent : cuda::AbsentGpaCounters()) {
        std::printf("absent on NVIDIA GPUs: %s%s%s\n", absent.name, verbose ? ": " : "", verbose ? absent.reason : "");
    }
}

// How the names of the listing extend to every name ncu takes, from CUPTI's submetric lists for one metric of
// each type on this chip.
void PrintSubmetricNames(const cuda::ChipCounters& chip) {
    std::printf("Each metric is listed under one name. Every name ncu accepts for %s is accepted too (--counters,\n"
                "GPA_EnableCounterStr with GPA_OPENCONTEXT_ENABLE_HARDWARE_COUNTERS_BIT, gpaprof --counters): the base\n"
                "metric (the name before its submetric) followed by any submetric of its type:\n",
                chip.metrics->chip().c_str());
    const std::pair<cuda::MetricKind, const char*> kinds[] = {
        {cuda::MetricKind::Counter, "counters   "}, {cuda::MetricKind::Ratio, "ratios     "},
        {cuda::MetricKind::Throughput, "throughputs"}};
    for (const auto& [kind, label] : kinds) {
        for (const cuda::MetricInfo& metric : chip.metrics->metrics()) {
            if (metric.kind != kind) continue;
            const std::vector<std::string> submetrics = chip.metrics->Submetrics(metric.baseName);
            if (submetrics.empty()) continue;
            std::printf("  %s (listed as %s): %s\n", label, cuda::RawCounterName("<metric>", kind).c_str(),
                        cuda::SummarizeSubmetrics(submetrics).c_str());
            break;
        }
    }
    std::printf("  e.g. sm__warps_active.avg.pct_of_peak_sustained_active, lts__t_sector_hit_rate.pct,\n"
                "  dram__throughput.avg.pct_of_peak_sustained_elapsed; names are checked by CUPTI when asked for.\n\n");
}

void PrintHardware(const cuda::ChipCounters& chip, bool verbose) {
    std::map<std::string, std::vector<const gpa::HardwareCounter*>> byUnit;
    for (const gpa::HardwareCounter& counter : chip.hardware) byUnit[counter.group].push_back(&counter);
    PrintSubmetricNames(chip);
    std::printf("%zu raw NVIDIA metrics on %s, by hardware unit\n", chip.hardware.size(), chip.metrics->chip().c_str());
    for (const auto& [unit, counters] : byUnit) {
        std::printf("\n[%s] %zu metrics\n", unit.c_str(), counters.size());
        for (const gpa::HardwareCounter* counter : counters) {
            std::printf("  %-70s %-12s %s\n", counter->name.c_str(), gpa::DataTypeName(counter->type),
                        gpa::UsageTypeName(counter->usage));
            if (verbose) std::printf("      %s\n", counter->description.c_str());
        }
    }
}

void PrintGroups(const gpa::CounterCatalog& derived, const cuda::ChipCounters& chip) {
    std::map<std::string, size_t> gpaGroups;
    for (const gpa::ExposedCounter& counter : derived.counters()) ++gpaGroups[counter.group];
    std::printf("GPA counter groups\n");
    for (const auto& [group, count] : gpaGroups) std::printf("  %-16s %zu counters\n", group.c_str(), count);
    std::map<std::string, size_t> units;
    for (const gpa::HardwareCounter& counter : chip.hardware) ++units[counter.group];
    std::printf("Hardware counter groups (NVIDIA hardware units, with --hardware / GPA_OPENCONTEXT_ENABLE_HARDWARE_COUNTERS_BIT)\n");
    for (const auto& [unit, count] : units) std::printf("  %-16s %zu metrics\n", unit.c_str(), count);
}

int PrintPlan(const cuda::CuptiApi& cupti, const cuda::ChipCounters& chip, const gpa::CounterCatalog& catalog,
              const std::vector<std::string>& names, const std::vector<uint8_t>& availability, bool verbose) {
    cuda::CounterPlan plan;
    if (Outcome o = cuda::PlanCounters(cupti, chip, catalog, names, availability, &plan); !o.ok()) return Failed(o);
    std::printf("chip: %s\n", chip.metrics->chip().c_str());
    std::printf("counters (%zu):\n", plan.counters.size());
    for (uint32_t index : plan.counters) {
        const gpa::ExposedCounter& counter = catalog.at(index);
        std::printf("  %-16s = %s\n", counter.name.c_str(), counter.definition.c_str());
        if (verbose) std::printf("      %s\n", counter.description.c_str());
    }
    std::printf("metrics (%zu, without duplicates):\n", plan.metrics.size());
    for (const std::string& metric : plan.metrics) std::printf("  %s\n", metric.c_str());
    for (size_t g = 0; g < plan.plan.groups.size(); ++g) {
        const cuda::ConfigGroup& group = plan.plan.groups[g];
        std::printf("configuration %zu: %zu metrics, %s (CUPTI)\n", g + 1, group.metrics.size(), Passes(group.passes).c_str());
        if (verbose || plan.plan.groups.size() > 1) {
            for (const std::string& metric : group.metrics) std::printf("  %s\n", metric.c_str());
        }
    }
    std::printf("passes: %u\n", plan.plan.passCount);
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    Options options;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        auto value = [&](const char* flag) -> const char* {
            if (i + 1 >= argc) return nullptr;
            (void)flag;
            return argv[++i];
        };
        if (arg == "--help" || arg == "-h") options.help = true;
        else if (arg == "--hardware") options.hardware = true;
        else if (arg == "--groups") options.groups = true;
        else if (arg == "--all") options.all = true;
        else if (arg == "--list-chips") options.listChips = true;
        else if (arg == "--verbose" || arg == "-v") options.verbose = true;
        else if (arg == "--chip") {
            const char* v = value("--chip");
            if (v == nullptr) return Usage("--chip needs a chip name, e.g. --chip GH100");
            options.chip = v;
        } else if (arg == "--device") {
            const char* v = value("--device");
            char* end = nullptr;
            if (v == nullptr || (options.device = static_cast<int>(std::strtol(v, &end, 10)), *end != '\0')) {
                return Usage("--device needs a device number, e.g. --device 0");
            }
        } else if (arg == "--counters") {
            const char* v = value("--counters");
            if (v == nullptr) return Usage("--counters needs a comma-separated list, e.g. --counters GPUTime,FetchSize");
            options.counters = SplitList(v);
            if (options.counters.empty()) return Usage("--counters names no counter");
        } else {
            return Usage("unknown option '" + arg + "'");
        }
    }
    if (options.help) {
        std::fputs(kHelp, stdout);
        return 0;
    }
    if (!options.chip.empty() && options.device >= 0) return Usage("give --chip or --device, not both");

    const cuda::CuptiApi* cupti = nullptr;
    if (Outcome o = cuda::LoadCupti(&cupti); !o.ok()) return Failed(o);

    if (options.listChips) {
        std::vector<std::string> chips;
        if (Outcome o = cuda::SupportedChips(*cupti, &chips); !o.ok()) return Failed(o);
        for (const std::string& chip : chips) std::printf("%s\n", chip.c_str());
        return 0;
    }

    std::string chipName = options.chip;
    std::vector<uint8_t> availability;  // the local device's, so that plans match GPA_GetPassCount there
    if (chipName.empty()) {
        std::string deviceName;
        const int device = options.device < 0 ? 0 : options.device;
        if (Outcome o = LocalChip(*cupti, device, &chipName, &deviceName, &availability); !o.ok()) return Failed(o);
        std::printf("device %d: %s (%s)\n", device, deviceName.c_str(), chipName.c_str());
    }
    cuda::ChipCounters chip;
    if (Outcome o = cuda::BuildChipCounters(*cupti, chipName, availability, &chip); !o.ok()) return Failed(o);

    if (!options.counters.empty() || options.all) {
        // NVIDIA metric names beyond the listed ones become hardware counters first, as GPA_EnableCounterStr does.
        if (Outcome o = chip.AddMetrics(options.counters); !o.ok()) return Failed(o);
        const gpa::CounterCatalog catalog = chip.Catalog(true, true);
        std::vector<std::string> names = options.counters;
        if (options.all) {
            const gpa::CounterCatalog derived = chip.Catalog(true, false);
            for (const gpa::ExposedCounter& counter : derived.counters()) names.push_back(counter.name);
        }
        return PrintPlan(*cupti, chip, catalog, names, availability, options.verbose);
    }
    if (options.hardware) {
        PrintHardware(chip, options.verbose);
        return 0;
    }
    const gpa::CounterCatalog derived = chip.Catalog(true, false);
    if (options.groups) {
        PrintGroups(derived, chip);
        return 0;
    }
    std::printf("GPA counters on %s (%zu)\n", chipName.c_str(), derived.size());
    PrintGpaCounters(*cupti, chip, derived, availability, options.verbose);
    return 0;
}
