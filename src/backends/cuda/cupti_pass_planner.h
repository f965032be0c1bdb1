// Pass planning through CUPTI's own scheduler.
//
// A set of NVIDIA metrics is collected in one or more *configurations* (CUPTI config images); each
// configuration takes as many replay passes as CUPTI says. Metrics of some domains cannot share a
// configuration (PCIe, NVLink and chip-to-chip interconnect counters against SM/L2/DRAM counters: CUPTI
// answers CUPTI_ERROR_NOT_SUPPORTED), so the planner splits the set into groups that CUPTI accepts.
// CUPTI packs the metrics of one configuration greedily, so the count depends on their order: the planner
// tries a few orderings per group and keeps the one with the fewest passes. The pass count reported is
// the sum of CUPTI's counts for the configuration images the session then uses, so it is exactly the
// number of passes that run.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "backends/cuda/cupti_host.h"
#include "backends/cuda/cupti_loader.h"
#include "counters/counter_definition.h"
#include "counters/pass_plan.h"

namespace gpa::cuda {

struct ConfigGroup {
    std::vector<std::string> metrics;  // in the order they were given to CUPTI
    std::vector<uint8_t> configImage;
    uint32_t passes = 0;               // cuptiProfilerHostGetNumOfPasses of configImage
    // The host object the image was made with (these metrics added in this order): it evaluates the data the
    // configuration collects. Kept in a ConfigurationCache, and in a plan with PlannerOptions::keepHosts.
    std::shared_ptr<HostObject> host;
};

struct MetricPlan {
    std::string chip;
    std::vector<ConfigGroup> groups;
    uint32_t passCount = 0;  // sum of the groups' passes

    // GPA pass -> (configuration group, CUPTI pass within it).
    std::pair<uint32_t, uint32_t> LocatePass(uint32_t pass) const;
};

// The configurations CUPTI made for exact metric orders, kept across PlanMetrics calls that share it (a tool
// that plans a set, the set with one counter more, then the one it chose, pays for each order once).
struct ConfigurationCache {
    std::map<std::vector<std::string>, std::optional<ConfigGroup>> byOrder;  // nullopt: CUPTI refused the order
};

struct PlannerOptions {
    // Orderings tried per configuration group (the given order first); large groups try fewer, since CUPTI
    // takes about a millisecond per metric to schedule.
    uint32_t orderings = 6;
    // When not 0, no configuration holds more metrics than this (OPENGPA_CUDA_MAX_METRICS_PER_CONFIG): smaller
    // configurations keep each counter data image small, at the cost of passes CUPTI could have shared.
    uint32_t maxMetricsPerConfiguration = 0;
    // Where configurations already made are found and kept (optional).
    ConfigurationCache* cache = nullptr;
    // Threads that make the orderings' configurations at once (each ordering is a CUPTI host object of its own;
    // CUPTI takes 0.05-0.15 s per ordering of the 45 metrics of the GPA compute set). The plan is the same
    // whatever the number: the orderings are compared in the same order.
    uint32_t threads = 1;
    // The plan's groups keep their host objects (ConfigGroup::host), so that the caller need not make one again
    // to evaluate them (CUPTI takes about 0.1 s to add the 46 metrics of the GPA compute set).
    bool keepHosts = false;
};

// Threads for planning: OPENGPA_CUDA_PLAN_THREADS, else the processor's cores, at most 8 (1 where neither is known).
uint32_t PlanningThreads();

// PlannerOptions with OPENGPA_CUDA_MAX_METRICS_PER_CONFIG and PlanningThreads applied.
PlannerOptions PlannerOptionsFromEnvironment();

// Plans `metrics` (full NVIDIA metric names, duplicates ignored) for `chip`. `availability` is the device's
// counter availability image, empty when planning offline.
Outcome PlanMetrics(const CuptiApi& api, const std::string& chip, const std::vector<uint8_t>& availability,
                    const std::vector<std::string>& metrics, MetricPlan* plan, PlannerOptions options = {});

// A metric set a caller will plan, and how many orderings it will try (PlannerOptions::orderings).
struct SetToPlan {
    std::vector<std::string> metrics;
    uint32_t orderings = 6;
};
// Makes, at once on options.threads threads, the configurations PlanMetrics would try for each set taken as one
// configuration, into options.cache (required): a tool that will plan several related sets pays about the time of
// the slowest configuration instead of their sum.
Outcome PrepareConfigurations(const CuptiApi& api, const std::string& chip, const std::vector<uint8_t>& availability,
                              const std::vector<SetToPlan>& sets, const PlannerOptions& options);

// The core's PassPlanner for a CUDA context: hardware counter indices -> CUPTI configuration groups.
class CuptiPassPlanner : public PassPlanner {
public:
    CuptiPassPlanner(const CuptiApi& api, std::string chip, std::vector<uint8_t> availability,
                     std::vector<std::string> hardwareNames, PlannerOptions options = {});

    Outcome Plan(const std::vector<std::vector<uint32_t>>& counterInputs, PassPlan* plan) override;

    // The CUPTI plan behind a PassPlan this planner made, with each group's metrics as hardware indices.
    struct Resolved {
        std::shared_ptr<const MetricPlan> metrics;
        std::vector<std::vector<uint32_t>> groupCounters;  // per group, hardware counter index of each metric
    };
    Outcome Resolve(const PassPlan& plan, Resolved* resolved);

    const std::string& chip() const { return chip_; }

    // A hardware counter the context appended after construction (a metric name resolved on demand).
    void AddHardwareName(const std::string& name);

private:
    Outcome PlanIndices(const std::vector<uint32_t>& counters, Resolved* resolved);

    const CuptiApi& api_;
    const std::string chip_;
    const std::vector<uint8_t> availability_;
    const PlannerOptions options_;
    std::mutex mutex_;  // guards what follows
    std::vector<std::string> hardwareNames_;
    std::unordered_map<std::string, uint32_t> indexOf_;
    std::map<std::vector<uint32_t>, Resolved> cache_;  // by PassPlan::hardwareCounters
};

}  // namespace gpa::cuda
