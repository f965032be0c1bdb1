// CPU readings from sysfs: the package energy counters of RAPL (powercap) and the current frequency of each
// CPU (cpufreq). The sysfs root is a parameter so that tests can use a tree of their own.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace gpa::cl_layer {

// The energy counters of every CPU package (/sys/class/powercap/intel-rapl:N/energy_uj; AMD processors
// appear under the same name). Reading energy_uj needs root on current kernels.
class PackageEnergy {
public:
    // Null with the reason when no package counter is present and readable.
    static std::unique_ptr<PackageEnergy> Open(const std::string& sysfsRoot, std::string* whyNot);
    // Each package's counter, in joules since an arbitrary origin; null when one cannot be read.
    using Reading = std::vector<double>;
    std::optional<Reading> Read() const;
    // Joules of all packages between two readings, allowing each counter to have wrapped around once.
    double Between(const Reading& earlier, const Reading& later) const;

private:
    struct Package {
        std::string energyFile;
        double rangeJoules = 0;  // max_energy_range_uj: where the counter wraps
    };
    std::vector<Package> packages_;
};

// The current frequency of the CPUs the process may run on (cpuN/cpufreq/scaling_cur_freq).
class CpuFrequency {
public:
    static std::unique_ptr<CpuFrequency> Open(const std::string& sysfsRoot, std::string* whyNot);
    // Mean over the CPUs, in hertz; null when none can be read.
    std::optional<double> ReadHertz() const;

private:
    std::vector<std::string> files_;
};

}  // namespace gpa::cl_layer
