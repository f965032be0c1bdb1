#include "backends/gl/gl_pm_sampling.h"

#include <time.h>

#include <cstdio>
#include <mutex>
#include <vector>

namespace gpa::gl {

namespace {

constexpr GLenum kDeviceUuid = 0x9597;     // GL_DEVICE_UUID_EXT
constexpr GLenum kNumDeviceUuids = 0x9596; // GL_NUM_DEVICE_UUIDS_EXT

std::mutex& OpenerMutex() {
    static std::mutex mutex;
    return mutex;
}
DeviceSamplingOpener& Opener() {
    static DeviceSamplingOpener opener;
    return opener;
}

Outcome OpenDeviceSampling(const DeviceUuid& uuid, std::shared_ptr<pm_sampling::DeviceSampling>* sampling) {
    {
        std::lock_guard<std::mutex> lock(OpenerMutex());
        if (Opener()) return Opener()(uuid, sampling);
    }
#if OPENGPA_GL_PM_SAMPLING
    return pm_sampling::DeviceSampling::ForDevice(uuid, pm_sampling::DeviceSamplingOptions{}, sampling);
#else
    return Fail(GPA_STATUS_ERROR_HARDWARE_NOT_SUPPORTED,
                "this libGPUPerfAPIGL.so was built without CUPTI (the CUDA toolkit was not found at configure time), "
                "so NVIDIA's PM sampler cannot be used");
#endif
}

uint64_t MonotonicNs() {
    timespec now{};
    clock_gettime(CLOCK_MONOTONIC, &now);
    return static_cast<uint64_t>(now.tv_sec) * 1000000000ull + static_cast<uint64_t>(now.tv_nsec);
}

std::string Hex(const DeviceUuid& uuid) {
    std::string text;
    char byte[4];
    for (uint8_t b : uuid) {
        std::snprintf(byte, sizeof byte, "%02x", b);
        text += byte;
    }
    return text;
}

}  // namespace

void SetDeviceSamplingOpenerForTesting(DeviceSamplingOpener opener) {
    std::lock_guard<std::mutex> lock(OpenerMutex());
    Opener() = std::move(opener);
}

std::optional<DeviceUuid> FindDeviceUuid(const GlFunctions& gl, const std::set<std::string>& extensions, std::string* why) {
    if (extensions.count("GL_EXT_memory_object") == 0 || gl.GetUnsignedBytei_vEXT == nullptr) {
        *why = "the context lacks GL_EXT_memory_object, through which the GPU's UUID (GL_DEVICE_UUID_EXT) is asked";
        return std::nullopt;
    }
    GLint count = 0;
    gl.GetIntegerv(kNumDeviceUuids, &count);
    if (count < 1) {
        *why = "GL_NUM_DEVICE_UUIDS_EXT is 0: the driver names no device";
        return std::nullopt;
    }
    if (count > 1) {
        *why = "the context renders on " + std::to_string(count) + " devices (GL_NUM_DEVICE_UUIDS_EXT): which one a "
               "sample's work ran on is not known";
        return std::nullopt;
    }
    DeviceUuid uuid{};
    gl.GetUnsignedBytei_vEXT(kDeviceUuid, 0, uuid.data());
    bool zero = true;
    for (uint8_t b : uuid) zero = zero && b == 0;
    if (zero) {
        *why = "GL_DEVICE_UUID_EXT is all zeros";
        return std::nullopt;
    }
    return uuid;
}

GlPmSampling OpenPmSampling(const GlFunctions& gl, const GlCapabilities& capabilities,
                            const std::set<std::string>& extensions) {
    GlPmSampling result;
    if (!capabilities.timestamps || gl.GetInteger64v == nullptr || gl.QueryCounter == nullptr) {
        result.why = "the context has no GPU timestamps (GL_TIMESTAMP queries and glGetInteger64v(GL_TIMESTAMP)), "
                     "which place a sample's work in time";
        return result;
    }
    std::string why;
    const std::optional<DeviceUuid> uuid = FindDeviceUuid(gl, extensions, &why);
    if (!uuid) {
        result.why = why;
        return result;
    }
    std::shared_ptr<pm_sampling::DeviceSampling> sampling;
    const Outcome opened = OpenDeviceSampling(*uuid, &sampling);
    if (!opened.ok() || sampling == nullptr) {
        result.why = "the GPU of UUID " + Hex(*uuid) + " is not sampled: " +
                     (opened.ok() ? std::string("no sampling was given") : opened.reason());
        return result;
    }
    if (sampling->metrics().empty()) {
        result.why = "the GPU of UUID " + Hex(*uuid) + " (" + sampling->chip() + ") samples none of the graphics metrics";
        return result;
    }
    result.device = std::move(sampling);
    return result;
}

std::optional<ClockCalibration> CalibrateGpuClock(const GlFunctions& gl, int tries) {
    if (gl.GetInteger64v == nullptr) return std::nullopt;
    std::vector<ClockReading> readings;
    for (int i = 0; i < tries; ++i) {
        ClockReading reading;
        GLint64 gpu = 0;
        reading.cpuBeforeNs = MonotonicNs();
        gl.GetInteger64v(GL_TIMESTAMP, &gpu);
        reading.cpuAfterNs = MonotonicNs();
        if (gpu <= 0) continue;
        reading.gpuNs = static_cast<uint64_t>(gpu);
        readings.push_back(reading);
    }
    return BestCalibration(readings);
}

}  // namespace gpa::gl
