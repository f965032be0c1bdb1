// One GPA context per CUDA device in one process (issue 12): libGPUPerfAPICUDA.so on the primary contexts of
// devices 0 and 1, sessions on both interleaved call by call, from one thread and from two threads at once,
// each device running a known-answer copy of a different size so that a value given to the wrong device shows.
// GPA 2.x has one selected context per process (GPA_OpenContext and GPA_SelectContext set it), so every GPA call
// here selects its context first, and threads hold one lock across the selection and the call. Every test skips
// where there are fewer than 2 CUDA devices. Run on a 2-GPU machine by tools/device/gpu_cuda_tests.sh.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "gpu_test_support.h"
#include "kernels.cuh"

namespace gpu_test {
namespace {

::testing::Environment* const gGpa = ::testing::AddGlobalTestEnvironment(new GpaEnvironment);

// Why this process cannot use two CUDA devices, or empty when it can.
std::string FewerThanTwoDevices() {
    int count = 0;
    const cudaError_t status = cudaGetDeviceCount(&count);
    if (status == cudaSuccess && count >= 2) return {};
    return "needs 2 CUDA devices, found " + std::to_string(status == cudaSuccess ? count : 0) +
           (status == cudaSuccess ? "" : std::string(" (") + cudaGetErrorString(status) + ")");
}

#define REQUIRE_TWO_CUDA_DEVICES() \
    if (const std::string why_ = FewerThanTwoDevices(); !why_.empty()) GTEST_SKIP() << why_

// Sample 0 copies `bytes` with a grid of `blocks` x `threads`; sample 1 launches Touch on `touchBlocks` x 64.
// Every number differs between the two devices.
struct Workload {
    size_t bytes;
    int blocks, threads, touchBlocks;
};
constexpr Workload kWorkloads[2] = {{size_t{2} << 30, 512, 256, 100}, {size_t{4} << 30, 2048, 128, 300}};
const std::vector<std::string> kCounters = {"GPUTime",    "Wavefronts", "CSThreadGroups", "CSThreads",
                                            "FetchSize", "WriteSize",  "VALUUtilization"};
constexpr size_t kSamples = 2;

// One device: its primary context, its GPA context on it, its buffers and what its session measured.
struct Device {
    int ordinal = 0;
    Workload work{};
    CUcontext context = nullptr;
    std::mutex* gpaLock = nullptr;  // held across GPA_SelectContext and the call it is for
    bool opened = false;
    float4* source = nullptr;
    float4* destination = nullptr;
    int* touched = nullptr;
    cudaEvent_t start = nullptr, stop = nullptr;
    std::vector<float> copyMs;  // the copy as CUDA events time it, per pass
    gpa_uint32 session = 0, passes = 0;
    Results results;

    template <typename Call>
    GPA_Status Gpa(Call call) {
        std::lock_guard<std::mutex> lock(*gpaLock);
        const GPA_Status selected = GPA_SelectContext(context);
        return selected != GPA_STATUS_OK ? selected : call();
    }
    size_t Count() const { return work.bytes / sizeof(float4); }
    void Launch(size_t sample) {
        cudaSetDevice(ordinal);
        if (sample == 0) {
            cudaEventRecord(start);
            CopyKernel<<<work.blocks, work.threads>>>(source, destination, Count());
            cudaEventRecord(stop);
        } else {
            Touch<<<work.touchBlocks, 64>>>(touched);
        }
    }
};

// A GPA call on `device`'s context: selected first, under the lock the devices share.
#define GPA_ON(device, call) GPA_CHECK((device).Gpa([&] { return (call); }))

class MultiDevice : public ::testing::Test {
protected:
    // Both primary contexts with the workloads' buffers, GPA contexts opened on them and kCounters enabled.
    void OpenBoth() {
        for (int d = 0; d < 2; ++d) {
            Device& device = devices_[d];
            device.ordinal = d;
            device.work = kWorkloads[d];
            device.gpaLock = &gpaLock_;
            CUDA_CHECK(cudaSetDevice(d));
            CUDA_CHECK(cudaFree(nullptr));  // the runtime makes the device's primary context current
            ASSERT_NE(Driver::Get().ctxGetCurrent, nullptr);
            ASSERT_EQ(Driver::Get().ctxGetCurrent(&device.context), CUDA_SUCCESS);
            CUDA_CHECK(cudaMalloc(&device.source, device.work.bytes));
            CUDA_CHECK(cudaMalloc(&device.destination, device.work.bytes));
            CUDA_CHECK(cudaMalloc(&device.touched, 4096 * sizeof(int)));
            CUDA_CHECK(cudaMemset(device.source, 0x3c, device.work.bytes));
            CUDA_CHECK(cudaEventCreate(&device.start));
            CUDA_CHECK(cudaEventCreate(&device.stop));
            device.Launch(0);  // warm-up: module loaded, clocks up, the same cache state in every pass
            CUDA_CHECK(cudaDeviceSynchronize());
            {
                std::lock_guard<std::mutex> lock(gpaLock_);
                GPA_CHECK(GPA_OpenContext(device.context, GPA_OPENCONTEXT_DEFAULT_BIT));  // selects it too
            }
            device.opened = true;
            for (const std::string& counter : kCounters) GPA_ON(device, GPA_EnableCounterStr(counter.c_str()));
        }
    }
    void TearDown() override {
        for (Device& device : devices_) {
            if (device.opened) {
                std::lock_guard<std::mutex> lock(gpaLock_);
                GPA_SelectContext(device.context);
                GPA_EndSample();  // a test that failed half-way leaves its session open
                GPA_EndPass();
                GPA_EndSession();
                EXPECT_EQ(GPA_CloseContext(), GPA_STATUS_OK) << OGPA_GetLastErrorMessage();
            }
            if (device.context == nullptr) continue;
            cudaSetDevice(device.ordinal);
            cudaFree(device.source);
            cudaFree(device.destination);
            cudaFree(device.touched);
            if (device.start != nullptr) cudaEventDestroy(device.start);
            if (device.stop != nullptr) cudaEventDestroy(device.stop);
        }
        cudaSetDevice(0);
    }

    // Every value of `device`'s session, read on its context.
    static void Read(Device& device) {
        for (const std::string& counter : kCounters) {
            gpa_uint32 index = 0;
            GPA_Type type = GPA_TYPE_FLOAT64;
            GPA_ON(device, GPA_GetCounterIndex(counter.c_str(), &index));
            GPA_ON(device, GPA_GetCounterDataType(index, &type));
            for (gpa_uint32 s = 0; s < kSamples; ++s) {
                double value = 0;
                gpa_uint64 count = 0;
                if (type == GPA_TYPE_UINT64) {
                    GPA_ON(device, GPA_GetSampleUInt64(device.session, s, index, &count));
                    value = static_cast<double>(count);
                } else {
                    GPA_ON(device, GPA_GetSampleFloat64(device.session, s, index, &value));
                }
                device.results.values[counter].push_back(value);
            }
        }
    }

    // The known answers of `device`'s workload, and its figures under `name`. GPUTime is the GPU time from a
    // sample's beginning to its end, idle time included: `tight` when each sample ends right after its copy.
    static void Check(const Device& device, const std::string& name, bool tight) {
        const Results& r = device.results;
        const Workload& w = device.work;
        const std::string where = name + " device " + std::to_string(device.ordinal);
        const double kib = w.bytes / 1024.0;
        EXPECT_EQ(r.At("Wavefronts", 0), 1.0 * w.blocks * w.threads / 32) << where;
        EXPECT_EQ(r.At("CSThreadGroups", 0), 1.0 * w.blocks) << where;
        EXPECT_EQ(r.At("CSThreads", 0), 1.0 * w.blocks * w.threads) << where;
        EXPECT_NEAR(r.At("FetchSize", 0), kib, 0.02 * kib) << where;
        EXPECT_NEAR(r.At("WriteSize", 0), kib, 0.02 * kib) << where;
        EXPECT_NEAR(r.At("VALUUtilization", 0), 100.0, 0.5) << where;  // no lane idles: the grid divides the copy
        EXPECT_EQ(r.At("Wavefronts", 1), 2.0 * w.touchBlocks) << where;
        EXPECT_EQ(r.At("CSThreadGroups", 1), 1.0 * w.touchBlocks) << where;
        EXPECT_EQ(r.At("CSThreads", 1), 64.0 * w.touchBlocks) << where;
        EXPECT_LT(r.At("FetchSize", 1), 0.01 * kib) << where;  // Touch reads nothing
        double eventMs = 0;
        for (float ms : device.copyMs) eventMs += ms / device.copyMs.size();
        EXPECT_GT(eventMs, 0.5) << where;
        if (tight) EXPECT_NEAR(r.At("GPUTime", 0), eventMs, 0.10 * eventMs) << where;
        EXPECT_GT(r.At("GPUTime", 0), 0.9 * eventMs) << where;
        const std::string prefix = "multi_device." + name + ".device" + std::to_string(device.ordinal) + ".";
        Figure(prefix + "passes", device.passes);
        Figure(prefix + "copy_GiB", w.bytes / double(size_t{1} << 30));
        Figure(prefix + "event_ms", eventMs);
        Figure(prefix + "FetchSize_rel_error_pct", 100.0 * (r.At("FetchSize", 0) - kib) / kib);
        Figure(prefix + "WriteSize_rel_error_pct", 100.0 * (r.At("WriteSize", 0) - kib) / kib);
        for (size_t s = 0; s < kSamples; ++s) {
            for (const std::string& counter : kCounters) Figure(prefix + (s ? "touch." : "copy.") + counter, r.At(counter, s));
        }
    }

    std::mutex gpaLock_;
    Device devices_[2];
};

// Both sessions open at once; every call alternates between the two contexts: begin pass A, begin pass B,
// begin sample A, launch on A, begin sample B, launch on B, end sample A, end sample B, ... end session B.
TEST_F(MultiDevice, InterleavedSessionsOnTwoDevicesGiveEachItsOwnValues) {
    REQUIRE_TWO_CUDA_DEVICES();
    OpenBoth();
    ASSERT_FALSE(HasFatalFailure());
    for (Device& d : devices_) GPA_ON(d, GPA_BeginSession(&d.session));
    for (Device& d : devices_) GPA_ON(d, GPA_GetPassCount(&d.passes));
    EXPECT_EQ(devices_[0].session, 1u);  // session ids are per context
    EXPECT_EQ(devices_[1].session, 1u);
    const gpa_uint32 passes = std::max(devices_[0].passes, devices_[1].passes);
    for (gpa_uint32 p = 0; p < passes; ++p) {
        for (Device& d : devices_) if (p < d.passes) GPA_ON(d, GPA_BeginPass());
        for (gpa_uint32 s = 0; s < kSamples; ++s) {
            for (Device& d : devices_) {
                if (p >= d.passes) continue;
                GPA_ON(d, GPA_BeginSample(s));
                d.Launch(s);  // right away: GPUTime counts the GPU idling after a sample begins, too
            }
            for (Device& d : devices_) if (p < d.passes) GPA_ON(d, GPA_EndSample());
        }
        for (Device& d : devices_) if (p < d.passes) GPA_ON(d, GPA_EndPass());
        for (Device& d : devices_) {
            float ms = 0;
            cudaSetDevice(d.ordinal);
            if (p < d.passes && cudaEventSynchronize(d.stop) == cudaSuccess &&
                cudaEventElapsedTime(&ms, d.start, d.stop) == cudaSuccess) {
                d.copyMs.push_back(ms);
            }
        }
    }
    for (Device& d : devices_) GPA_ON(d, GPA_EndSession());
    for (Device& d : devices_) Read(d);
    ASSERT_FALSE(HasFatalFailure());
    for (const Device& d : devices_) Check(d, "interleaved", true);
}

// Waits until `left` threads arrived, for a minute at most (false then: a thread failed before it came).
struct Rendezvous {
    std::mutex mutex;
    std::condition_variable changed;
    int left;
    bool ArriveAndWait() {
        std::unique_lock<std::mutex> lock(mutex);
        if (--left <= 0) changed.notify_all();
        return changed.wait_for(lock, std::chrono::minutes(1), [&] { return left <= 0; });
    }
};

// One thread per device records its session, both at once: they meet once both sessions have begun and again
// before either ends, so the two sessions overlap from the first pass to the last.
TEST_F(MultiDevice, TwoThreadsRecordOneDeviceEachAtTheSameTime) {
    REQUIRE_TWO_CUDA_DEVICES();
    OpenBoth();
    ASSERT_FALSE(HasFatalFailure());
    Rendezvous begun{{}, {}, 2}, ending{{}, {}, 2};
    auto record = [&](Device& d) {
        cudaSetDevice(d.ordinal);
        auto begin = [&] {
            GPA_ON(d, GPA_BeginSession(&d.session));
            GPA_ON(d, GPA_GetPassCount(&d.passes));
        };
        auto passes = [&] {
            for (gpa_uint32 p = 0; p < d.passes; ++p) {
                GPA_ON(d, GPA_BeginPass());
                for (gpa_uint32 s = 0; s < kSamples; ++s) {
                    GPA_ON(d, GPA_BeginSample(s));
                    d.Launch(s);
                    GPA_ON(d, GPA_EndSample());
                }
                GPA_ON(d, GPA_EndPass());
                float ms = 0;
                if (cudaEventSynchronize(d.stop) == cudaSuccess && cudaEventElapsedTime(&ms, d.start, d.stop) == cudaSuccess) {
                    d.copyMs.push_back(ms);
                }
            }
        };
        auto end = [&] {
            GPA_ON(d, GPA_EndSession());
            Read(d);
        };
        begin();  // d.passes stays 0 when it failed
        const bool met = begun.ArriveAndWait();
        EXPECT_TRUE(met) << "device " << d.ordinal << ": the other thread never began its session";
        if (met && d.passes > 0) passes();
        EXPECT_TRUE(ending.ArriveAndWait()) << "device " << d.ordinal << ": the other thread never finished its passes";
        if (d.passes > 0) end();
    };
    std::thread first(record, std::ref(devices_[0]));
    std::thread second(record, std::ref(devices_[1]));
    first.join();
    second.join();
    ASSERT_FALSE(HasFatalFailure());
    // A sample of one thread may end late, waiting for the other thread's GPA call (the first pass of a CUPTI
    // configuration takes about half a second): its GPUTime then holds that wait.
    for (const Device& d : devices_) Check(d, "two_threads", false);
}

// GPA_GetDeviceID and GPA_GetDeviceDesc answer for the selected context's device.
TEST_F(MultiDevice, DeviceIdentityFollowsTheSelectedContext) {
    REQUIRE_TWO_CUDA_DEVICES();
    OpenBoth();
    ASSERT_FALSE(HasFatalFailure());
    gpa_uint32 ids[2] = {};
    for (Device& d : devices_) {
        cudaDeviceProp properties{};
        CUDA_CHECK(cudaGetDeviceProperties(&properties, d.ordinal));
        const char* description = nullptr;
        GPA_ON(d, GPA_GetDeviceDesc(&description));
        EXPECT_EQ(std::string(description), properties.name) << "device " << d.ordinal;
        GPA_ON(d, GPA_GetDeviceID(&ids[d.ordinal]));
        EXPECT_NE(ids[d.ordinal], 0u);
        char bus[32] = {};
        cudaDeviceGetPCIBusId(bus, sizeof bus, d.ordinal);
        std::printf("device %d: %s, PCI device id 0x%04x, bus %s\n", d.ordinal, description, ids[d.ordinal], bus);
        Figure("multi_device.device" + std::to_string(d.ordinal) + ".pci_device_id", ids[d.ordinal]);
    }
    // The same product on both (two H100s): the same id. Selecting back gives device 0's answers again.
    cudaDeviceProp zero{}, one{};
    CUDA_CHECK(cudaGetDeviceProperties(&zero, 0));
    CUDA_CHECK(cudaGetDeviceProperties(&one, 1));
    if (std::string(zero.name) == one.name) EXPECT_EQ(ids[0], ids[1]);
    gpa_uint32 again = 0;
    GPA_ON(devices_[0], GPA_GetDeviceID(&again));
    EXPECT_EQ(again, ids[0]);
}

}  // namespace
}  // namespace gpu_test
