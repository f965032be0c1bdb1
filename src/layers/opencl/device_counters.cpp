#include "layers/opencl/device_counters.h"

#include <algorithm>
#include <cstdio>
#include <mutex>

#include "layers/opencl/layer_messages.h"

namespace gpa::cl_layer {

namespace {

constexpr cl_uint kNvidiaVendorId = 0x10DE;

void Offer(DeviceCounters* counters, CounterId id) { counters->offered.push_back(id); }
void Absent(DeviceCounters* counters, CounterId id, const std::string& why) {
    counters->absent.push_back(std::string(Definition(id).name) + ": " + why);
}

void AddGpuSensors(const DeviceFacts& facts, const SensorPaths& paths, DeviceCounters* counters) {
    const CounterId gpu[] = {CounterId::kGpuPower, CounterId::kGpuTemperature, CounterId::kGpuSmClock,
                             CounterId::kGpuMemoryClock};
    std::string why;
    if ((facts.type & CL_DEVICE_TYPE_GPU) == 0 || facts.vendorId != kNvidiaVendorId) {
        why = "not an NVIDIA GPU (the GPU sensors are read through NVML)";
    } else if (!facts.pciAddress) {
        why = "the driver does not tell the GPU's PCI address, which names it to NVML";
    } else {
        counters->sampler.nvml = NvmlSensors::Open(*facts.pciAddress, &why, paths.nvmlLibrary.c_str());
    }
    for (CounterId id : gpu) {
        std::string whyNot = why;
        if (counters->sampler.nvml && counters->sampler.nvml->Offers(id, &whyNot)) {
            Offer(counters, id);
        } else {
            Absent(counters, id, whyNot);
        }
    }
}

std::shared_ptr<ThreadCounters> ProcessThreadCounters(std::array<std::string, ThreadCounters::kEventCount>* whyNot) {
    static std::mutex mutex;
    static std::shared_ptr<ThreadCounters> counters;
    static std::array<std::string, ThreadCounters::kEventCount> reasons;
    static bool probed = false;
    std::lock_guard<std::mutex> lock(mutex);
    if (!probed) {
        counters = ThreadCounters::Open(&reasons);
        probed = true;
    }
    *whyNot = reasons;
    return counters;
}

void AddCpuSensors(const DeviceFacts& facts, const SensorPaths& paths, DeviceCounters* counters) {
    const CounterId cpu[] = {CounterId::kCpuPackagePower, CounterId::kCpuFrequency, CounterId::kCpuThreadTime,
                             CounterId::kCpuCycles, CounterId::kCpuInstructions, CounterId::kCpuCacheMisses};
    if ((facts.type & CL_DEVICE_TYPE_CPU) == 0) {
        for (CounterId id : cpu) {
            Absent(counters, id, "not a CPU device (these count the host's CPUs and threads, which run only a CPU "
                                 "device's commands)");
        }
        return;
    }
    SensorSampler& sampler = counters->sampler;
    std::string why;
    sampler.energy = PackageEnergy::Open(paths.sysfsRoot, &why);
    sampler.energy ? Offer(counters, CounterId::kCpuPackagePower) : Absent(counters, CounterId::kCpuPackagePower, why);
    sampler.frequency = CpuFrequency::Open(paths.sysfsRoot, &why);
    sampler.frequency ? Offer(counters, CounterId::kCpuFrequency) : Absent(counters, CounterId::kCpuFrequency, why);
    std::array<std::string, ThreadCounters::kEventCount> reasons;
    sampler.threads = ProcessThreadCounters(&reasons);
    const std::pair<CounterId, ThreadCounters::Event> events[] = {
        {CounterId::kCpuThreadTime, ThreadCounters::kTaskClock},
        {CounterId::kCpuCycles, ThreadCounters::kCycles},
        {CounterId::kCpuInstructions, ThreadCounters::kInstructions},
        {CounterId::kCpuCacheMisses, ThreadCounters::kCacheMisses},
    };
    for (const auto& [id, event] : events) {
        if (sampler.threads && sampler.threads->Offers(event)) {
            Offer(counters, id);
        } else {
            Absent(counters, id, reasons[event]);
        }
    }
}

}  // namespace

bool DeviceCounters::Offers(cl_uint uuid) const {
    const std::optional<CounterId> id = CounterFromUuid(uuid);
    return id && std::find(offered.begin(), offered.end(), *id) != offered.end();
}

std::vector<cl_performance_counter_codeplay> DeviceCounters::Descriptions() const {
    std::vector<cl_performance_counter_codeplay> list;
    for (CounterId id : offered) list.push_back(Describe(Definition(id)));
    return list;
}

std::unique_ptr<DeviceCounters> BuildDeviceCounters(const DeviceFacts& facts, const SensorPaths& paths) {
    auto counters = std::make_unique<DeviceCounters>();
    for (const CounterDefinition& counter : AllCounters()) {
        if (counter.source == Source::kCommand) Offer(counters.get(), counter.id);
    }
    AddGpuSensors(facts, paths, counters.get());
    AddCpuSensors(facts, paths, counters.get());
    std::sort(counters->offered.begin(), counters->offered.end());
    return counters;
}

void LogDeviceCounters(const DeviceFacts& facts, const DeviceCounters& counters) {
    if (!LogEnabled()) return;
    std::string offered;
    for (CounterId id : counters.offered) offered += (offered.empty() ? "" : ", ") + std::string(Definition(id).name);
    Log("device '" + facts.name + "'" + (facts.pciAddress ? " at " + *facts.pciAddress : std::string()) + " lists " +
        std::to_string(counters.offered.size()) + " counters: " + offered);
    for (const std::string& absent : counters.absent) Log("  not listed: " + absent);
}

}  // namespace gpa::cl_layer
