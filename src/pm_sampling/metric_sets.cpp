#include "pm_sampling/metric_sets.h"

#include <utility>

namespace gpa::pm_sampling {
namespace {

using NamedSet = std::pair<const char*, const std::vector<std::string>& (*)()>;
const NamedSet kSets[] = {{"default", &DefaultMetrics}, {"sm-throughput", &SmThroughputMetrics}};

}  // namespace

const std::vector<std::string>& DefaultMetrics() {
    static const std::vector<std::string> metrics = {
        "gr__cycles_active.avg.pct_of_peak_sustained_elapsed",
        "sm__cycles_active.avg.pct_of_peak_sustained_elapsed",
        "sm__inst_executed_realtime.avg.per_cycle_elapsed",
        "sm__pipe_tensor_cycles_active_realtime.avg.pct_of_peak_sustained_elapsed",
        "dram__bytes_read.sum",
        "dram__bytes_write.sum",
        "dram__throughput.avg.pct_of_peak_sustained_elapsed",
        "lts__t_bytes.sum",
        "pcie__read_bytes.sum",
        "pcie__write_bytes.sum",
        "nvlrx__bytes.sum",
        "nvltx__bytes.sum",
    };
    return metrics;
}

const std::vector<std::string>& SmThroughputMetrics() {
    static const std::vector<std::string> metrics = {
        "TriageCompute.sm__throughput.avg.pct_of_peak_sustained_elapsed",
        "sm__mio_pq_read_cycles_active.avg.pct_of_peak_sustained_elapsed",
        "sm__mio_pq_write_cycles_active.avg.pct_of_peak_sustained_elapsed",
    };
    return metrics;
}

const std::vector<LargestOfParts>& WindowDerivedMetrics() {
    static const std::vector<LargestOfParts> derived = {{"sm__throughput (largest part)", SmThroughputMetrics()}};
    return derived;
}

const std::vector<std::string>* MetricSetNamed(std::string_view name) {
    for (const auto& [setName, set] : kSets) {
        if (name == setName) return &set();
    }
    return nullptr;
}

std::string MetricSetNames() {
    std::string names;
    for (const auto& [setName, set] : kSets) names += (names.empty() ? "" : ", ") + std::string(setName);
    return names;
}

}  // namespace gpa::pm_sampling
