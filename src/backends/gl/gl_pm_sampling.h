// The NVIDIA hardware counters of a GL context: its GPU's device-level PM sampling (pm_sampling/device_sampling.h),
// found by the GPU's UUID (GL_EXT_memory_object: glGetUnsignedBytei_vEXT(GL_DEVICE_UUID_EXT, 0)), and the GL clock
// calibration that puts GL's GPU timestamps on CLOCK_MONOTONIC, where the samples are. A context whose GPU cannot be
// sampled (no UUID, a driver without CUDA, a library built without CUPTI, another profiler holding the monitors)
// gets no sampled counters and the reason, which GPA_OpenContext logs.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>

#include "backends/gl/gl_counters.h"
#include "backends/gl/gl_functions.h"
#include "backends/gl/gpu_clock_calibration.h"
#include "core/outcome.h"
#include "pm_sampling/device_sampling.h"

namespace gpa::gl {

using DeviceUuid = std::array<uint8_t, 16>;

// The GPU's UUID where the context has GL_EXT_memory_object; nullopt with the reason otherwise.
std::optional<DeviceUuid> FindDeviceUuid(const GlFunctions& gl, const std::set<std::string>& extensions, std::string* why);

// Opens the sampling of a GPU: DeviceSampling::ForDevice where the library was built with CUPTI, else a failure
// that says so. Tests put a stand-in in its place (null restores the real one).
using DeviceSamplingOpener = std::function<Outcome(const DeviceUuid&, std::shared_ptr<pm_sampling::DeviceSampling>*)>;
void SetDeviceSamplingOpenerForTesting(DeviceSamplingOpener opener);

struct GlPmSampling {
    std::shared_ptr<pm_sampling::DeviceSampling> device;  // null: not sampled
    std::string why;                                      // why not
};
// The sampling of the context's GPU, where its capabilities allow (GPU timestamps and glGetInteger64v(GL_TIMESTAMP)).
GlPmSampling OpenPmSampling(const GlFunctions& gl, const GlCapabilities& capabilities,
                            const std::set<std::string>& extensions);

// The GPU clock against CLOCK_MONOTONIC now: the tightest of `tries` readings of glGetInteger64v(GL_TIMESTAMP).
std::optional<ClockCalibration> CalibrateGpuClock(const GlFunctions& gl, int tries = 7);

// How long reading a sample's sampled counters waits for the samples of its window to be decoded.
inline constexpr uint32_t kWindowTimeoutMs = 2000;

}  // namespace gpa::gl
