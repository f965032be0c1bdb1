// The NVIDIA metrics of one chip as CUPTI's host API lists them, and how OpenGPA names them as raw
// hardware counters.
//
// Raw counter naming (one raw counter per base metric, the submetric CUPTI itself treats as primary):
//   counter metrics     -> <metric>.sum                                 (total over all unit instances)
//   ratio metrics       -> <metric>.ratio                               (the ratio itself, 0..1 or more)
//   throughput metrics  -> <metric>.avg.pct_of_peak_sustained_elapsed   (% of peak over the elapsed time)
// Base metrics that CUPTI also lists under a configuration prefix ("FE_B.TriageCompute.gr__cycles_active")
// appear once, under the plain name; prefixed metrics with no plain twin keep their full name, when CUPTI
// accepts them in a configuration.
#pragma once

#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "backends/cuda/cupti_host.h"
#include "counters/counter_definition.h"

namespace gpa::cuda {

enum class MetricKind { Counter, Ratio, Throughput };

struct MetricInfo {
    std::string baseName;  // as CUPTI lists it
    std::string rawName;   // base name + canonical submetric: the raw counter's name
    MetricKind kind = MetricKind::Counter;
    std::string hwUnit;    // "dram", "lts", "sm", ...
    std::string dimUnit;   // "byte", "gpc_cycle", ...
    std::string description;
};

class MetricCatalog {
public:
    static Outcome Load(const CuptiApi& api, const std::string& chip, const std::vector<uint8_t>& availability,
                        std::unique_ptr<MetricCatalog>* catalog);

    const std::string& chip() const { return host_->chip(); }
    const std::vector<MetricInfo>& metrics() const { return metrics_; }
    const MetricInfo* Find(const std::string& rawName) const;

    // A hardware counter for any full metric name CUPTI knows (base name plus rollup/submetric, e.g.
    // "l1tex__cycles_active.max"); NOT_FOUND when CUPTI does not know the name.
    Outcome Describe(const std::string& fullName, HardwareCounter* counter) const;

    // Every base metric as a raw counter, followed by `extraNames` (other submetrics that derived counters
    // read) that are not raw counters already. Extra names CUPTI does not know are skipped and returned in
    // *unknown, so that the derived counters using them are omitted with a reason.
    std::vector<HardwareCounter> HardwareCounters(const std::vector<std::string>& extraNames,
                                                  std::vector<std::string>* unknown) const;

private:
    explicit MetricCatalog(std::unique_ptr<HostObject> host) : host_(std::move(host)) {}
    HardwareCounter ToCounter(const MetricInfo& metric) const;

    std::unique_ptr<HostObject> host_;  // kept for Describe
    std::vector<MetricInfo> metrics_;
    std::unordered_map<std::string, size_t> byRawName_;
};

// The raw counter name of a base metric of the given kind.
std::string RawCounterName(const std::string& baseName, MetricKind kind);

}  // namespace gpa::cuda
