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
//
// Every other name ncu accepts for the chip (the base metric with any submetric CUPTI lists for its type,
// metric_names.h) is resolved on demand by Resolve, checked by CUPTI, and becomes a hardware counter too.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
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

// How much of the chip's metrics Load describes up front.
enum class CatalogScope {
    Everything,  // every base metric described and offered (metrics(), HardwareCounters): listings, the library
    Named,       // only the metric names listed; each is described when named (Resolve, HardwareCounters' extra
                 // names). What a tool that collects a few metrics needs: Everything probes each metric of a
                 // named configuration in a CUPTI configuration of its own (about 0.3 s for GH100's 127, 0.5 s on
                 // the GPU machine), Named costs the listing alone (milliseconds)
};

class MetricCatalog {
public:
    static Outcome Load(const CuptiApi& api, const std::string& chip, const std::vector<uint8_t>& availability,
                        std::unique_ptr<MetricCatalog>* catalog, CatalogScope scope = CatalogScope::Everything);

    const std::string& chip() const { return host_->chip(); }
    const std::vector<MetricInfo>& metrics() const { return metrics_; }
    const MetricInfo* Find(const std::string& rawName) const;

    // A hardware counter for any metric name ncu accepts for the chip: a raw counter's name, or a base metric
    // with a submetric CUPTI lists for it ("sm__warps_active.avg.pct_of_peak_sustained_active",
    // "lts__t_sector_hit_rate.pct"), in any letter case (the counter gets CUPTI's spelling). The name must
    // also be one CUPTI accepts in a configuration (on a device: one the device can collect now).
    // GPA_STATUS_ERROR_NOT_FOUND with the reason otherwise: an unknown base metric (with close names), a base
    // metric without a submetric or with one its type lacks (with the submetrics it has), CUPTI's refusal.
    Outcome Resolve(const std::string& name, HardwareCounter* counter) const;

    // The submetrics CUPTI lists for a base metric (".sum", ".avg.per_second", ".pct", ...); empty when CUPTI
    // knows no such base metric.
    std::vector<std::string> Submetrics(const std::string& baseName) const;

    // Every base metric as a raw counter (CatalogScope::Everything; none with Named), followed by `extraNames`
    // (other submetrics that derived counters read, names users asked for) that are not raw counters already,
    // resolved as Resolve does. Names that do not resolve are skipped and returned in *unknown, so that the
    // derived counters using them are omitted with a reason. A name gets the same counter in either scope.
    std::vector<HardwareCounter> HardwareCounters(const std::vector<std::string>& extraNames,
                                                  std::vector<std::string>* unknown) const;

private:
    struct BaseMetric {
        std::string name;  // CUPTI's spelling
        CUpti_MetricType type = CUPTI_METRIC_TYPE_COUNTER;
    };
    MetricCatalog(std::unique_ptr<HostObject> host, std::vector<uint8_t> availability, CatalogScope scope)
        : host_(std::move(host)), availability_(std::move(availability)), scope_(scope) {}
    HardwareCounter ToCounter(const MetricInfo& metric) const;
    // The raw counter of a listed base metric as Load(Everything) offers it; nullopt where it offers none (a
    // prefixed metric with a plain twin, one CUPTI does not describe, or a prefixed one CUPTI refuses).
    std::optional<MetricInfo> DescribeListed(const std::string& baseName, MetricKind kind) const;
    const BaseMetric* FindBase(const std::string& name) const;
    // Resolve; `explain` adds close names to a refusal (it reads every base name: not for bulk look-ups).
    Outcome Resolve(const std::string& name, HardwareCounter* counter, bool explain) const;
    Outcome NotAMetric(const std::string& name, bool explain) const;
    Outcome Describe(const std::string& fullName, const BaseMetric& base, const std::string& submetric,
                     HardwareCounter* counter) const;

    std::unique_ptr<HostObject> host_;  // kept for Resolve
    const std::vector<uint8_t> availability_;
    const CatalogScope scope_;
    std::unordered_set<std::string> plainNames_;  // base metrics listed without a configuration prefix
    std::vector<MetricInfo> metrics_;
    std::unordered_map<std::string, size_t> byRawName_;
    std::unordered_map<std::string, BaseMetric> basesByLowerName_;  // every base metric CUPTI lists
};

// The raw counter name of a base metric of the given kind.
std::string RawCounterName(const std::string& baseName, MetricKind kind);

}  // namespace gpa::cuda
