// gpaprof on a process that drives two GPUs (issue 12; cuda_apps/multi_gpu.cu): one thread per device, one thread
// taking turns, copies between the devices with a kernel reading the other device's memory, and kernels that wait
// for a kernel of the other device (named by GPAPROF_CUDA_WAITING_KERNELS, as NCCL's are by default). Every kernel
// of every device has its row and kernel line with that device's name and index; each device's counters are its
// own (warps launched = (ordinal + 1) * 2048 for `scale`: the sizes differ, so values taken from the wrong device
// show); copies between devices are transfers naming both; the waiting kernels run unprofiled, and nothing
// deadlocks (every run has a time limit). On a machine of two GPUs; skips, saying why, with fewer.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "gpaprof_cuda_fixture.h"

namespace gpaprof {
namespace {

struct Mode {
    std::string name;
    std::vector<std::string> options;
    std::map<std::string, std::string> environment;
};

// Rows per (kernel, 0-based device ordinal) a way launches, and the warps of one launch of each kernel.
struct Expected {
    std::map<std::pair<std::string, uint32_t>, size_t> launches;
    std::map<std::pair<std::string, uint32_t>, uint64_t> warps;
};

constexpr const char* kScale = "_Z5scalePfif";
constexpr const char* kReadPeer = "_Z9read_peerPKfPfi";
constexpr const char* kWaitFlag = "_Z9wait_flagPViiPi";
constexpr const char* kSetFlag = "_Z8set_flagPVii";

Expected ExpectedOf(const std::string& way, size_t launches) {
    Expected e;
    if (way == "threads" || way == "one-thread") {
        for (uint32_t device = 0; device < 2; ++device) {
            e.launches[{kScale, device}] = launches;
            e.warps[{kScale, device}] = (device + 1) * 2048;
        }
    } else if (way == "peer") {
        e.launches[{kReadPeer, 1}] = launches;
        e.warps[{kReadPeer, 1}] = (1 << 20) / 32;
    } else {  // wait
        e.launches[{kWaitFlag, 1}] = launches;
        e.launches[{kSetFlag, 0}] = launches;
        e.warps[{kSetFlag, 0}] = 1;  // wait_flag has none: it runs unprofiled
    }
    return e;
}

TEST_F(GpaprofCuda, EveryDeviceOfAProcessThatDrivesTwoGpus) {
    const Outcome probe = Execute({App("multi_gpu"), "--probe"}, directory_);
    if (probe.exitCode == 77) GTEST_SKIP() << probe.out;
    ASSERT_EQ(probe.exitCode, 0) << probe.out << probe.err;
    const std::vector<Mode> modes = {
        {"trace", {"-t"}, {}},
        {"counters", {"-p"}, {}},
        {"passes", {"-p", "--counters", kMultiPassCounters}, {}},
        {"passes_cupti", {"-p", "--counters", kMultiPassCounters}, {{"GPAPROF_CUDA_REPLAY", "cupti"}}},
        {"all", {"-t", "-p", "-O", "--counters", kMultiPassCounters}, {}},
    };
    for (const std::string way : {"threads", "one-thread", "peer", "wait"}) {
        const size_t launches = way == "wait" ? 3 : 5;
        const Expected expected = ExpectedOf(way, launches);
        for (const Mode& mode : modes) {
            const std::string name = way + "_" + mode.name;
            SCOPED_TRACE(name);
            std::map<std::string, std::string> environment = mode.environment;
            environment["GPAPROF_CRASH_BACKTRACE"] = "1";
            if (way == "wait") environment["GPAPROF_CUDA_WAITING_KERNELS"] = "wait_flag";
            // A deadlock ends at the limit and fails the test rather than hanging it.
            std::vector<std::string> command = {"timeout", "-k", "5", "120", GPAPROF_EXECUTABLE, "--no-progress"};
            command.insert(command.end(), mode.options.begin(), mode.options.end());
            command.insert(command.end(), {"-o", name, "--", App("multi_gpu"), "--way", way, "--launches",
                                           std::to_string(launches)});
            const Outcome run = Execute(command, directory_, environment);
            std::printf("---- gpaprof stderr:\n%s", run.err.c_str());
            ASSERT_EQ(run.exitCode, 0) << "exit status (124: it hung) " << run.out << run.err;
            EXPECT_NE(run.out.find("results correct"), std::string::npos) << run.out;
            size_t kernelLines = 0, peerCopies = 0, rows = 0, measuredRows = 0;
            if (mode.options[0] == "-t") {
                const AtpFile atp = ReadAtp(name + ".atp");
                const ApiTracePart* cuda = CudaPart(atp);
                ASSERT_NE(cuda, nullptr) << run.err;
                EXPECT_EQ(run.err.find("had no activity record"), std::string::npos) << run.err;
                std::map<std::pair<std::string, uint32_t>, size_t> lines;
                for (const KernelTimestamp& kernel : cuda->kernelTimestamps) {
                    ++lines[{kernel.kernelName, static_cast<uint32_t>(kernel.deviceIndex)}];
                    EXPECT_NE(kernel.agentName.find("NVIDIA"), std::string::npos) << kernel.agentName;
                }
                EXPECT_EQ(lines, expected.launches) << run.err;
                kernelLines = cuda->kernelTimestamps.size();
                for (const auto& thread : cuda->threads) {
                    for (const ApiCall& call : thread.entries) {
                        if (call.name != "cudaMemcpyPeerAsync" && call.name != "cudaMemcpyPeer") continue;
                        ++peerCopies;
                        ASSERT_TRUE(call.command.has_value()) << call.name << " has no transfer: " << run.err;
                        EXPECT_EQ(call.command->commandName, "CUDA_MEMCPY_PTOP");
                        EXPECT_NE(call.command->deviceName.find("(device_0)"), std::string::npos) << call.command->deviceName;
                        EXPECT_NE(call.command->deviceName.find("(device_1)"), std::string::npos) << call.command->deviceName;
                        EXPECT_GT(call.command->end, call.command->start);
                        EXPECT_EQ(call.transferSize.value_or(0), (uint64_t{1} << 20) * sizeof(float));
                    }
                }
                EXPECT_EQ(peerCopies, way == "peer" ? 2 * launches : 0);
            }
            if (mode.name != "trace") {
                const CsvFile csv = ReadCsv(name + ".csv");
                std::vector<std::string> deviceNames;
                for (const DeviceHeader& device : csv.session.devices) deviceNames.push_back(device.name);
                std::map<std::pair<std::string, uint32_t>, size_t> perDevice;
                const std::string warpsCounter = mode.name == "counters" ? "Wavefronts" : "smsp__warps_launched.sum";
                for (const DispatchRow& row : csv.rows) {
                    const std::optional<MethodName> method = MethodName::Parse(row.method, deviceNames);
                    ASSERT_TRUE(method && method->deviceIndex) << row.method;
                    const std::pair<std::string, uint32_t> key{method->kernel, *method->deviceIndex - 1};
                    ++perDevice[key];
                    const CounterValue* warps = Counter(row, warpsCounter);
                    ASSERT_NE(warps, nullptr) << warpsCounter;
                    auto want = expected.warps.find(key);
                    if (want == expected.warps.end()) {
                        EXPECT_EQ(warps->kind, CounterValue::Kind::NotAvailable) << row.method << " runs unprofiled";
                        continue;
                    }
                    EXPECT_NE(warps->kind, CounterValue::Kind::NotAvailable) << row.method << ": " << run.err;
                    if (warps->kind == CounterValue::Kind::NotAvailable) continue;
                    EXPECT_EQ(warps->AsDouble(), static_cast<double>(want->second)) << row.method;
                    ++measuredRows;
                }
                EXPECT_EQ(perDevice, expected.launches) << run.err;
                rows = csv.rows.size();
                if (way == "wait") {
                    EXPECT_NE(run.err.find("are not profiled"), std::string::npos) << run.err;
                }
            }
            std::printf("FIGURE multi_gpu way=%s mode=%s exit=%d kernel_lines=%zu peer_copies=%zu rows=%zu measured_rows=%zu\n",
                        way.c_str(), mode.name.c_str(), run.exitCode, kernelLines, peerCopies, rows, measuredRows);
        }
    }
}

}  // namespace
}  // namespace gpaprof
