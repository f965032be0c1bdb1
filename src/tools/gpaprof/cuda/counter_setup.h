// What gpaprof -p needs to collect the requested counters on one chip: CUPTI's metrics of the chip (each
// described when named), the GPA counters over them, the .csv columns, CUPTI's pass plan and a host object that
// evaluates the decoded ranges. Made with CUPTI's host API alone, so it can be made without the device: ahead of
// the first profiled launch, on a thread of its own while the application starts (counter_setup_ahead.h), then
// bound to the device's counter availability at that launch (one CUPTI configuration made again).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "backends/cuda/cupti_host.h"
#include "backends/cuda/cupti_loader.h"
#include "backends/cuda/cupti_pass_planner.h"
#include "backends/cuda/metric_catalog.h"
#include "counters/counter_catalog.h"

namespace gpaprof::cuda {

// GPA counters of the default set (gpaprof -p without --counters/-c), in column order. Trimmed, from the end,
// to what CUPTI schedules into one pass on the chip.
const std::vector<std::string>& DefaultCudaCounters();
// The achieved-occupancy column added to -p rows (when it costs no extra pass).
inline constexpr const char* kAchievedOccupancyCounter = "AchievedOccupancy";
inline constexpr const char* kAchievedOccupancyMetric = "sm__warps_active.avg.pct_of_peak_sustained_active";
inline constexpr const char* kKernelDurationMetric = "gpu__time_duration.sum";

struct CounterRequest {
    std::vector<std::string> counters;                // as asked for (--counters, -c); empty: the default set
    std::optional<std::vector<std::string>> columns;  // the .csv columns, where an earlier chip chose them
    uint32_t planThreads = 1;                         // PlannerOptions::threads
    // --singlepass: no replay. The columns that fit one pass together with those before them are collected; the
    // others stay in the .csv, NA (the seed's ForceSinglePass), and a note names them.
    bool singlePass = false;
};

struct CounterSetup {
    std::string chip;
    std::vector<uint8_t> availability;  // what the plan's first configuration and `host` were made with (empty: offline)
    std::unique_ptr<gpa::cuda::MetricCatalog> metrics;
    std::vector<gpa::HardwareCounter> hardware;
    std::unordered_map<std::string, uint32_t> hardwareIndex;
    gpa::CounterCatalog catalog;
    std::vector<std::string> columns;                  // the .csv columns...
    bool columnsChosen = false;                        // ...once chosen (from the catalog, or the request's)
    std::vector<std::optional<uint32_t>> columnIndex;  // catalog index per column; empty: not on this chip
    gpa::cuda::MetricPlan plan;
    std::shared_ptr<gpa::cuda::HostObject> host;  // evaluates the plan's first configuration (the one that made it)
    std::vector<std::string> notes;               // for the user, in the order they arose
    bool usable = false;
    uint64_t catalogNs = 0, planNs = 0;  // what making it took: the catalog and counters, the plans
};

// Makes the setup of `chip` for the device whose counter availability image is `availability` (empty: offline).
// Not usable (`notes` say why) when CUPTI cannot plan or evaluate the counters, or when `cancel` became true.
std::unique_ptr<CounterSetup> MakeCounterSetup(const gpa::cuda::CuptiApi& cupti, const std::string& chip,
                                               const std::vector<uint8_t>& availability, const CounterRequest& request,
                                               const std::atomic<bool>* cancel = nullptr);

// Binds a usable setup made offline to a device's counter availability: its first configuration and host object
// made again with it, the same metrics in the same order. False, with the reason, where CUPTI then refuses the
// configuration or plans other passes for it (the caller makes a setup with the availability instead).
bool BindToAvailability(const gpa::cuda::CuptiApi& cupti, const std::vector<uint8_t>& availability,
                        CounterSetup* setup, std::string* why);

}  // namespace gpaprof::cuda
