#include "layers/opencl/sensor_sampler.h"

#include <ctime>

namespace gpa::cl_layer {

namespace {

CounterMask WithSource(Source source) {
    CounterMask mask;
    for (const CounterDefinition& counter : AllCounters()) {
        if (counter.source == source) mask.set(IndexOf(counter.id));
    }
    return mask;
}

constexpr std::pair<CounterId, ThreadCounters::Event> kThreadEvents[] = {
    {CounterId::kCpuThreadTime, ThreadCounters::kTaskClock},
    {CounterId::kCpuCycles, ThreadCounters::kCycles},
    {CounterId::kCpuInstructions, ThreadCounters::kInstructions},
    {CounterId::kCpuCacheMisses, ThreadCounters::kCacheMisses},
};

bool WantsThreads(const CounterMask& wanted) {
    for (const auto& [counter, event] : kThreadEvents) {
        if (wanted.test(IndexOf(counter))) return true;
    }
    return false;
}

}  // namespace

uint64_t HostNanoseconds() {
    timespec now{};
    clock_gettime(CLOCK_MONOTONIC, &now);
    return static_cast<uint64_t>(now.tv_sec) * 1000000000ull + static_cast<uint64_t>(now.tv_nsec);
}

CounterMask SpanCounters() { return WithSource(Source::kCpuWindow); }

CounterMask CompletionCounters() { return WithSource(Source::kGpuSensor) | WithSource(Source::kCpuSensor); }

SpanSnapshot SensorSampler::TakeSpan(const CounterMask& wanted) const {
    SpanSnapshot snapshot;
    if (threads && WantsThreads(wanted)) snapshot.threads = threads->Read();
    if (energy && wanted.test(IndexOf(CounterId::kCpuPackagePower))) snapshot.energy = energy->Read();
    snapshot.hostNanoseconds = HostNanoseconds();
    return snapshot;
}

void SensorSampler::Complete(const CounterMask& wanted, const SpanSnapshot& start, const SpanSnapshot& end,
                             const std::set<pid_t>& excluded, CommandSample* sample) const {
    for (CounterId counter : {CounterId::kGpuPower, CounterId::kGpuTemperature, CounterId::kGpuSmClock,
                              CounterId::kGpuMemoryClock}) {
        if (nvml && wanted.test(IndexOf(counter))) sample->readings[IndexOf(counter)] = nvml->Read(counter);
    }
    if (frequency && wanted.test(IndexOf(CounterId::kCpuFrequency))) {
        sample->readings[IndexOf(CounterId::kCpuFrequency)] = frequency->ReadHertz();
    }
    if (end.hostNanoseconds > start.hostNanoseconds) {
        sample->spanSeconds = static_cast<double>(end.hostNanoseconds - start.hostNanoseconds) / 1e9;
    }
    if (energy && start.energy && end.energy) sample->energyJoules = energy->Between(*start.energy, *end.energy);
    if (threads && WantsThreads(wanted)) {
        const ThreadCounters::Counts counts = ThreadCounters::Between(start.threads, end.threads, excluded);
        for (const auto& [counter, event] : kThreadEvents) sample->spanCounts[IndexOf(counter)] = counts[event];
    }
}

}  // namespace gpa::cl_layer
