// PM sampling kept running for a process's graphics work: the Vulkan layer's cumulative and trace samples and the
// GL backend's NVIDIA counters (issues 35, 36) take their hardware counters from here. One sampler per NVIDIA GPU
// and process, started at the first ForDevice of that GPU and never stopped before the process ends; a thread
// drains it every few milliseconds into a SampleHistory on CLOCK_MONOTONIC.
//
// Device-wide, as PM sampling is: other work on the GPU (other processes, other contexts) is in the samples. A
// GPU is named by its UUID (VkPhysicalDeviceIDProperties::deviceUUID, GL_EXT_memory_object's GL_DEVICE_UUID_EXT),
// which equals CUDA's cuDeviceGetUuid for the same board; the CUDA driver and CUPTI are loaded at run time
// (libcuda.so.1, libcupti.so), so a process without them gets a failure that says so, not a crash.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/outcome.h"
#include "pm_sampling/sample_history.h"
#include "pm_sampling/sample_window.h"

namespace gpa::pm_sampling {

// The metrics sampled for graphics work, in this order everywhere (the Vulkan layer's PM block lists them as its
// events in this order; the graphics backends' hardware counter names are "PM." + the metric). Counts (.sum) and
// rates over elapsed time, so that each integrates over a window (sample_window.h): GPU, SM and tensor-pipe
// activity, DRAM bytes read and written, L2 bytes, PCIe bytes each way. Chip metrics it cannot sample are left
// out of a device's list (DeviceSampling::metrics()).
const std::vector<std::string>& GraphicsMetrics();

struct DeviceSamplingOptions {
    uint64_t intervalNs = 100000;          // OPENGPA_PM_INTERVAL_NS overrides it for the whole process
    uint64_t retentionNs = 10000000000ull;  // samples kept 10 s behind the newest
};

// How a refusal of Window (and Samples' incompleteness) begins when the samples of the window's end did not come
// within the timeout: the caller may ask again later (the Vulkan layer answers VK_NOT_READY then).
inline constexpr const char* kSamplesLate = "the PM samples of the window's end did not arrive";

class DeviceSampling {
public:
    // The sampling of the GPU whose UUID is `uuid`, started on the first call for it (with `options`; later calls
    // share it as it is). Fails, saying why, where there is no CUDA driver or CUPTI, no CUDA device of that UUID,
    // the chip has no PM sampling, or another profiler holds the device's monitors (CUPTI_ERROR_HARDWARE_BUSY).
    // A failure is remembered: later calls for that GPU get the same answer at once.
    static Outcome ForDevice(const std::array<uint8_t, 16>& uuid, const DeviceSamplingOptions& options,
                             std::shared_ptr<DeviceSampling>* sampling);

    virtual ~DeviceSampling() = default;
    virtual const std::vector<std::string>& metrics() const = 0;  // sampled, a subset of GraphicsMetrics() in order
    virtual uint64_t intervalNs() const = 0;
    virtual std::string chip() const = 0;  // "GH100"
    virtual int cudaOrdinal() const = 0;
    // The GPU's rated graphics clock (CUDA's CU_DEVICE_ATTRIBUTE_CLOCK_RATE), to turn a request in cycles into time;
    // 0 where not known.
    virtual uint32_t gpuClockKHz() const { return 0; }

    // [beginNs, endNs) on CLOCK_MONOTONIC, integrated once samples reaching past endNs have been decoded (drains
    // at once instead of waiting for the thread; waits at most `timeout` for the device to get there). Refused
    // with the reason when they do not come in time, or as SampleHistory::Window refuses.
    virtual WindowResult Window(uint64_t beginNs, uint64_t endNs, std::chrono::milliseconds timeout,
                                const WindowRules& rules = {}) = 0;
    // The samples meeting [beginNs, endNs), after the same wait; *complete is false when the window's end was not
    // reached in time or samples are missing inside it.
    virtual std::vector<WindowSample> Samples(uint64_t beginNs, uint64_t endNs, std::chrono::milliseconds timeout,
                                              bool* complete) = 0;
};

}  // namespace gpa::pm_sampling
