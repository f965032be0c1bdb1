// Which counters a device lists: every device its commands'; an NVIDIA GPU NVML's sensors (a stand-in NVML
// here); a CPU device the host's (a sysfs tree of the test's own) and the perf events the machine allows.
// What is not listed has a reason.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include <pthread.h>
#include <time.h>

#include "layers/opencl/device_counters.h"

namespace {

using namespace gpa::cl_layer;
namespace fs = std::filesystem;

bool Lists(const DeviceCounters& counters, CounterId id) {
    return std::find(counters.offered.begin(), counters.offered.end(), id) != counters.offered.end();
}

std::string AbsentReason(const DeviceCounters& counters, const char* name) {
    for (const std::string& absent : counters.absent) {
        if (absent.rfind(std::string(name) + ": ", 0) == 0) return absent;
    }
    return {};
}

class SysfsTree : public ::testing::Test {
protected:
    void SetUp() override {
        root_ = fs::temp_directory_path() / ("opengpa-sysfs-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
                                             "-" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(root_);
    }
    void TearDown() override { fs::remove_all(root_); }
    void Write(const std::string& path, const std::string& text) {
        fs::create_directories((root_ / path).parent_path());
        std::ofstream(root_ / path) << text << "\n";
    }
    fs::path root_;
};

TEST_F(SysfsTree, EveryDeviceListsItsCommandsCounters) {
    DeviceFacts facts;
    facts.type = CL_DEVICE_TYPE_ACCELERATOR;
    const std::unique_ptr<DeviceCounters> counters = BuildDeviceCounters(facts, {root_.string(), "/nonexistent/nvml.so"});
    for (CounterId id : {CounterId::kCommandDuration, CounterId::kQueuedToStart, CounterId::kSubmitToStart,
                         CounterId::kKernelWorkItems, CounterId::kKernelWorkGroups, CounterId::kKernelDuration,
                         CounterId::kTransferBytes, CounterId::kTransferDuration}) {
        EXPECT_TRUE(Lists(*counters, id)) << Definition(id).name;
    }
    EXPECT_EQ(counters->offered.size(), 8u);
    EXPECT_EQ(counters->absent.size(), kCounterCount - 8);
    EXPECT_NE(AbsentReason(*counters, "GPUPower").find("not an NVIDIA GPU"), std::string::npos);
    EXPECT_NE(AbsentReason(*counters, "CPUCycles").find("not a CPU device"), std::string::npos);
    // The list is in uuid order and describes each counter.
    EXPECT_TRUE(std::is_sorted(counters->offered.begin(), counters->offered.end()));
    const auto descriptions = counters->Descriptions();
    ASSERT_EQ(descriptions.size(), 8u);
    EXPECT_STREQ(descriptions[0].name, "CommandDuration");
    EXPECT_TRUE(counters->Offers(static_cast<cl_uint>(CounterId::kTransferBytes)));
    EXPECT_FALSE(counters->Offers(static_cast<cl_uint>(CounterId::kGpuPower)));
    EXPECT_FALSE(counters->Offers(0));
}

TEST_F(SysfsTree, NvidiaGpuListsTheSensorsNvmlAnswers) {
    DeviceFacts facts;
    facts.type = CL_DEVICE_TYPE_GPU;
    facts.vendorId = 0x10DE;
    facts.pciAddress = "0000:3b:00.0";
    const std::unique_ptr<DeviceCounters> counters = BuildDeviceCounters(facts, {root_.string(), FAKE_NVML});
    EXPECT_TRUE(Lists(*counters, CounterId::kGpuPower));
    EXPECT_TRUE(Lists(*counters, CounterId::kGpuTemperature));
    EXPECT_TRUE(Lists(*counters, CounterId::kGpuSmClock));
    EXPECT_FALSE(Lists(*counters, CounterId::kGpuMemoryClock));
    EXPECT_NE(AbsentReason(*counters, "GPUMemoryClock").find("Not Supported"), std::string::npos)
        << AbsentReason(*counters, "GPUMemoryClock");
    const NvmlSensors& nvml = *counters->sampler.nvml;
    EXPECT_DOUBLE_EQ(*nvml.Read(CounterId::kGpuPower), 123.456);
    EXPECT_DOUBLE_EQ(*nvml.Read(CounterId::kGpuTemperature), 55 + 273.15);
    EXPECT_DOUBLE_EQ(*nvml.Read(CounterId::kGpuSmClock), 1980e6);
    EXPECT_EQ(nvml.Read(CounterId::kGpuMemoryClock), std::nullopt);

    // The completion readings go into the command's sample in the counters' units.
    CounterMask wanted;
    wanted.set(IndexOf(CounterId::kGpuPower));
    CommandSample sample;
    counters->sampler.Complete(wanted, {}, {}, {}, &sample);
    EXPECT_DOUBLE_EQ(*sample.readings[IndexOf(CounterId::kGpuPower)], 123.456);
    EXPECT_FALSE(sample.readings[IndexOf(CounterId::kGpuTemperature)].has_value());  // not wanted
}

TEST_F(SysfsTree, GpuWithoutNvmlOrAddressListsNoSensors) {
    DeviceFacts facts;
    facts.type = CL_DEVICE_TYPE_GPU;
    facts.vendorId = 0x10DE;
    const std::unique_ptr<DeviceCounters> noAddress = BuildDeviceCounters(facts, {root_.string(), FAKE_NVML});
    EXPECT_NE(AbsentReason(*noAddress, "GPUPower").find("PCI address"), std::string::npos);
    facts.pciAddress = "0000:99:00.0";
    const std::unique_ptr<DeviceCounters> unknownGpu = BuildDeviceCounters(facts, {root_.string(), FAKE_NVML});
    EXPECT_NE(AbsentReason(*unknownGpu, "GPUPower").find("no GPU at PCI address 0000:99:00.0"), std::string::npos);
    const std::unique_ptr<DeviceCounters> noNvml = BuildDeviceCounters(facts, {root_.string(), "/nonexistent/nvml.so"});
    EXPECT_NE(AbsentReason(*noNvml, "GPUTemperature").find("cannot be loaded"), std::string::npos);
    EXPECT_EQ(noNvml->offered.size(), 8u);
}

TEST_F(SysfsTree, CpuDeviceReadsPackageEnergyAndFrequencyFromSysfs) {
    Write("class/powercap/intel-rapl:0/name", "package-0");
    Write("class/powercap/intel-rapl:0/energy_uj", "1000000");
    Write("class/powercap/intel-rapl:0/max_energy_range_uj", "262143328850");
    Write("class/powercap/intel-rapl:0:0/name", "core");
    Write("class/powercap/intel-rapl:1/name", "package-1");
    Write("class/powercap/intel-rapl:1/energy_uj", "262143000000");
    Write("class/powercap/intel-rapl:1/max_energy_range_uj", "262143328850");
    Write("devices/system/cpu/cpu0/cpufreq/scaling_cur_freq", "2000000");
    Write("devices/system/cpu/cpu1/cpufreq/scaling_cur_freq", "3000000");
    DeviceFacts facts;
    facts.type = CL_DEVICE_TYPE_CPU;
    const std::unique_ptr<DeviceCounters> counters = BuildDeviceCounters(facts, {root_.string(), FAKE_NVML});
    EXPECT_TRUE(Lists(*counters, CounterId::kCpuPackagePower));
    EXPECT_FALSE(Lists(*counters, CounterId::kGpuPower));
    const SensorSampler& sampler = counters->sampler;
    ASSERT_TRUE(sampler.energy);
    const auto before = sampler.energy->Read();
    ASSERT_TRUE(before);
    // 0.5 J on package 0; package 1 wraps around its range and goes on by 1 J.
    Write("class/powercap/intel-rapl:0/energy_uj", "1500000");
    Write("class/powercap/intel-rapl:1/energy_uj", "671150");
    const auto after = sampler.energy->Read();
    ASSERT_TRUE(after);
    EXPECT_NEAR(sampler.energy->Between(*before, *after), 0.5 + 1.0, 1e-6);
    if (sampler.frequency) {  // both CPUs are readable unless the affinity mask leaves one out
        EXPECT_TRUE(Lists(*counters, CounterId::kCpuFrequency));
        const double hertz = *sampler.frequency->ReadHertz();
        EXPECT_TRUE(hertz == 2.5e9 || hertz == 2e9 || hertz == 3e9) << hertz;
    }
    // Package power over a span: 1.5 J in 0.5 s.
    CounterMask wanted;
    wanted.set(IndexOf(CounterId::kCpuPackagePower));
    SpanSnapshot start, end;
    start.energy = before;
    end.energy = after;
    start.hostNanoseconds = 1000000000;
    end.hostNanoseconds = 1500000000;
    CommandSample sample;
    sampler.Complete(wanted, start, end, {}, &sample);
    EXPECT_NEAR(ResultOf(Measure(sample), CounterId::kCpuPackagePower).float64, 3.0, 1e-6);
}

TEST_F(SysfsTree, CpuDeviceWithoutSysfsSaysWhy) {
    Write("class/powercap/intel-rapl:0/name", "package-0");  // energy_uj unreadable (root only on real kernels)
    DeviceFacts facts;
    facts.type = CL_DEVICE_TYPE_CPU;
    const std::unique_ptr<DeviceCounters> counters = BuildDeviceCounters(facts, {root_.string(), FAKE_NVML});
    EXPECT_FALSE(Lists(*counters, CounterId::kCpuPackagePower));
    EXPECT_NE(AbsentReason(*counters, "CPUPackagePower").find("energy_uj cannot be read"), std::string::npos);
    EXPECT_NE(AbsentReason(*counters, "CPUFrequency").find("cpufreq"), std::string::npos);
    // perf events: listed where perf_event_open works, else absent with the error.
    for (const char* name : {"CPUThreadTime", "CPUCycles", "CPUInstructions", "CPUCacheMisses"}) {
        const std::string reason = AbsentReason(*counters, name);
        const bool listed = reason.empty();
        if (!listed) {
            EXPECT_NE(reason.find("perf_event_open"), std::string::npos) << reason;
        }
        std::printf("%s: %s\n", name, listed ? "listed" : reason.c_str());
    }
}

// The perf counters of this process's threads advance over a span in which a thread works: by at least the
// CPU time the kernel reports for that thread, and the thread is left out when excluded.
TEST(ThreadCounters, CountOtherThreadsAndLeaveOutExcludedOnes) {
    std::array<std::string, ThreadCounters::kEventCount> whyNot;
    std::unique_ptr<ThreadCounters> counters = ThreadCounters::Open(&whyNot);
    if (!counters || !counters->Offers(ThreadCounters::kTaskClock)) {
        GTEST_SKIP() << "perf_event_open cannot count here: " << whyNot[ThreadCounters::kTaskClock];
    }
    std::atomic<bool> started{false}, stop{false};
    std::atomic<pid_t> worker{0};
    std::thread thread([&] {
        worker = CurrentThreadId();
        started = true;
        volatile double x = 1;
        while (!stop) x = x * 1.0000001 + 1e-9;
    });
    while (!started) std::this_thread::yield();
    clockid_t workerClock;
    ASSERT_EQ(pthread_getcpuclockid(thread.native_handle(), &workerClock), 0);
    auto cpuNs = [&] {
        timespec now{};
        clock_gettime(workerClock, &now);
        return static_cast<uint64_t>(now.tv_sec) * 1000000000ull + static_cast<uint64_t>(now.tv_nsec);
    };
    const ThreadCounters::Reading before = counters->Read();
    const uint64_t workerBefore = cpuNs();
    // However loaded the machine, the worker gets 30 ms of CPU between the two readings.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (cpuNs() - workerBefore < 30000000ull && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    const uint64_t workerAfter = cpuNs();
    const ThreadCounters::Reading after = counters->Read();
    stop = true;
    thread.join();
    ASSERT_GE(workerAfter - workerBefore, 30000000ull) << "the worker got no CPU time in 20 s";
    const ThreadCounters::Counts all = ThreadCounters::Between(before, after, {});
    EXPECT_GE(all[ThreadCounters::kTaskClock], (workerAfter - workerBefore) * 9 / 10);
    const ThreadCounters::Counts withoutWorker = ThreadCounters::Between(before, after, {worker.load()});
    EXPECT_LT(withoutWorker[ThreadCounters::kTaskClock], all[ThreadCounters::kTaskClock] / 2);
}

}  // namespace
