#include "layers/opencl/cpu_sensors.h"

#include <fstream>
#include <sstream>

#include <sched.h>

namespace gpa::cl_layer {

namespace {

std::optional<unsigned long long> ReadNumber(const std::string& path) {
    std::ifstream in(path);
    unsigned long long value = 0;
    if (!(in >> value)) return std::nullopt;
    return value;
}

std::optional<std::string> ReadWord(const std::string& path) {
    std::ifstream in(path);
    std::string word;
    if (!(in >> word)) return std::nullopt;
    return word;
}

}  // namespace

std::unique_ptr<PackageEnergy> PackageEnergy::Open(const std::string& sysfsRoot, std::string* whyNot) {
    auto energy = std::unique_ptr<PackageEnergy>(new PackageEnergy());
    bool present = false;
    // Package zones are intel-rapl:0, intel-rapl:1, ...; their subzones (core, uncore, dram) are intel-rapl:N:M.
    for (int zone = 0; zone < 64; ++zone) {
        const std::string directory = sysfsRoot + "/class/powercap/intel-rapl:" + std::to_string(zone);
        const std::optional<std::string> name = ReadWord(directory + "/name");
        if (!name) break;
        present = true;
        if (name->rfind("package", 0) != 0) continue;
        const std::optional<unsigned long long> now = ReadNumber(directory + "/energy_uj");
        const std::optional<unsigned long long> range = ReadNumber(directory + "/max_energy_range_uj");
        if (!now || !range || *range == 0) {
            *whyNot = directory + "/energy_uj cannot be read (the kernel lets only root read it)";
            return nullptr;
        }
        energy->packages_.push_back({directory + "/energy_uj", static_cast<double>(*range) / 1e6});
    }
    if (energy->packages_.empty()) {
        *whyNot = present ? "powercap lists no package zone" : "no RAPL package energy counter (" + sysfsRoot +
                                                                   "/class/powercap/intel-rapl:N)";
        return nullptr;
    }
    return energy;
}

std::optional<PackageEnergy::Reading> PackageEnergy::Read() const {
    Reading reading;
    for (const Package& package : packages_) {
        const std::optional<unsigned long long> microjoules = ReadNumber(package.energyFile);
        if (!microjoules) return std::nullopt;
        reading.push_back(static_cast<double>(*microjoules) / 1e6);
    }
    return reading;
}

double PackageEnergy::Between(const Reading& earlier, const Reading& later) const {
    double joules = 0;
    for (size_t i = 0; i < packages_.size() && i < earlier.size() && i < later.size(); ++i) {
        joules += later[i] >= earlier[i] ? later[i] - earlier[i] : later[i] + packages_[i].rangeJoules - earlier[i];
    }
    return joules;
}

std::unique_ptr<CpuFrequency> CpuFrequency::Open(const std::string& sysfsRoot, std::string* whyNot) {
    auto frequency = std::unique_ptr<CpuFrequency>(new CpuFrequency());
    cpu_set_t allowed;
    CPU_ZERO(&allowed);
    const bool haveMask = sched_getaffinity(0, sizeof allowed, &allowed) == 0;
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
        if (haveMask && !CPU_ISSET(cpu, &allowed)) continue;
        const std::string file = sysfsRoot + "/devices/system/cpu/cpu" + std::to_string(cpu) + "/cpufreq/scaling_cur_freq";
        if (ReadNumber(file)) frequency->files_.push_back(file);
    }
    if (frequency->files_.empty()) {
        *whyNot = "no readable cpufreq scaling_cur_freq (" + sysfsRoot +
                  "/devices/system/cpu/cpuN/cpufreq; virtual machines often have no cpufreq driver)";
        return nullptr;
    }
    return frequency;
}

std::optional<double> CpuFrequency::ReadHertz() const {
    double sum = 0;
    int count = 0;
    for (const std::string& file : files_) {
        if (const std::optional<unsigned long long> kilohertz = ReadNumber(file)) {
            sum += static_cast<double>(*kilohertz) * 1e3;
            ++count;
        }
    }
    if (count == 0) return std::nullopt;
    return sum / count;
}

}  // namespace gpa::cl_layer
