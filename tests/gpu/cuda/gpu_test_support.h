// Helpers of the GPU tests: the CUDA context to profile, a GPA session that runs a workload in every pass,
// figures printed for docs/cuda_backend.md, and recorded counter data fixtures for the host tests.
//
// Every test skips, with the reason, where there is no CUDA device. Output lines "FIGURE <name> <value>"
// are collected by tools/device/gpu_cuda_tests.sh.
#pragma once

#include <gtest/gtest.h>

#include <cuda.h>
#include <cuda_runtime.h>
#include <dlfcn.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "GPUPerfAPI.h"

namespace gpu_test {

#define CUDA_CHECK(call)                                                                           \
    do {                                                                                           \
        const cudaError_t status_ = (call);                                                        \
        ASSERT_EQ(status_, cudaSuccess) << #call << ": " << cudaGetErrorString(status_);           \
    } while (0)

#define GPA_CHECK(call)                                                                            \
    do {                                                                                           \
        const GPA_Status status_ = (call);                                                         \
        ASSERT_EQ(status_, GPA_STATUS_OK) << #call << ": " << GPA_GetStatusAsStr(status_) << ": "  \
                                          << OGPA_GetLastErrorMessage();                           \
    } while (0)

// Why there is no usable CUDA device, or empty when there is one.
inline std::string NoDeviceReason() {
    int count = 0;
    const cudaError_t status = cudaGetDeviceCount(&count);
    if (status != cudaSuccess) return std::string("no CUDA device: ") + cudaGetErrorString(status);
    if (count == 0) return "no CUDA device on this machine";
    return {};
}

#define REQUIRE_CUDA_DEVICE()                                                                      \
    if (const std::string why_ = ::gpu_test::NoDeviceReason(); !why_.empty()) GTEST_SKIP() << why_

// The driver API, opened at run time like the library does (the test must start without a driver).
struct Driver {
    decltype(&::cuCtxGetCurrent) ctxGetCurrent = nullptr;
    decltype(&::cuCtxSetCurrent) ctxSetCurrent = nullptr;
    decltype(&::cuCtxCreate) ctxCreate = nullptr;
    decltype(&::cuCtxDestroy) ctxDestroy = nullptr;
    decltype(&::cuDeviceGet) deviceGet = nullptr;

    static const Driver& Get() {
        static Driver driver = [] {
            Driver d;
            void* library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
            if (library == nullptr) return d;
            d.ctxGetCurrent = reinterpret_cast<decltype(d.ctxGetCurrent)>(dlsym(library, "cuCtxGetCurrent"));
            d.ctxSetCurrent = reinterpret_cast<decltype(d.ctxSetCurrent)>(dlsym(library, "cuCtxSetCurrent"));
            d.ctxCreate = reinterpret_cast<decltype(d.ctxCreate)>(dlsym(library, "cuCtxCreate_v4"));
            d.ctxDestroy = reinterpret_cast<decltype(d.ctxDestroy)>(dlsym(library, "cuCtxDestroy_v2"));
            d.deviceGet = reinterpret_cast<decltype(d.deviceGet)>(dlsym(library, "cuDeviceGet"));
            return d;
        }();
        return driver;
    }
};

// The primary context of device 0, made current by the runtime.
inline CUcontext PrimaryContext() {
    cudaSetDevice(0);
    cudaFree(nullptr);
    CUcontext context = nullptr;
    if (Driver::Get().ctxGetCurrent != nullptr) Driver::Get().ctxGetCurrent(&context);
    return context;
}

inline void Figure(const std::string& name, double value) {
    std::printf("FIGURE %s %.6g\n", name.c_str(), value);
    std::fflush(stdout);
    ::testing::Test::RecordProperty(name, std::to_string(value));
}

// GPA initialised once per test process.
class GpaEnvironment : public ::testing::Environment {
public:
    void SetUp() override { ASSERT_EQ(GPA_Initialize(), GPA_STATUS_OK); }
    void TearDown() override { GPA_Destroy(); }
};

// Values of enabled counters for each sample of a session.
struct Results {
    std::map<std::string, std::vector<double>> values;  // counter -> per sample
    gpa_uint32 passes = 0;
    double At(const std::string& counter, size_t sample = 0) const {
        auto it = values.find(counter);
        return it == values.end() || sample >= it->second.size() ? -1.0 : it->second[sample];
    }
};

// Where this test's counter data fixture goes, when the run records fixtures (OPENGPA_TEST_FIXTURE_DIR).
inline std::string FixtureDirectory(const std::string& name) {
    const char* root = std::getenv("OPENGPA_TEST_FIXTURE_DIR");
    if (name.empty() || root == nullptr || *root == '\0') return {};
    return std::string(root) + "/" + name;
}

// One expectation line of a fixture: counter, sample, measured value, known answer and tolerance.
struct Known {
    std::string counter;
    size_t sample;
    double value;
    double tolerance;  // relative; absolute when value is 0
};

inline void WriteExpectations(const std::string& directory, const Results& results, const std::vector<Known>& known) {
    if (directory.empty()) return;
    std::ofstream out(directory + "/expected.txt");
    out << "# counter sample measured known tolerance  (recorded on the GPU by tests/gpu/cuda)\n";
    out.precision(17);
    for (const auto& [counter, values] : results.values) {
        for (size_t s = 0; s < values.size(); ++s) {
            out << counter << ' ' << s << ' ' << values[s];
            bool written = false;
            for (const Known& k : known) {
                if (k.counter == counter && k.sample == s) {
                    out << ' ' << k.value << ' ' << k.tolerance;
                    written = true;
                }
            }
            if (!written) out << " - -";
            out << '\n';
        }
    }
}

// Reads samples 0 .. samples-1 of every counter of an ended session into `results` (blocking until ready).
inline void ReadSamples(gpa_uint32 session, const std::vector<std::string>& counters, size_t samples, Results* results) {
    for (const std::string& counter : counters) {
        gpa_uint32 index = 0;
        GPA_CHECK(GPA_GetCounterIndex(counter.c_str(), &index));
        GPA_Type type = GPA_TYPE_FLOAT64;
        GPA_CHECK(GPA_GetCounterDataType(index, &type));
        std::vector<double>& values = results->values[counter];
        for (size_t s = 0; s < samples; ++s) {
            double value = 0;
            if (type == GPA_TYPE_UINT64) {
                gpa_uint64 v = 0;
                GPA_CHECK(GPA_GetSampleUInt64(session, static_cast<gpa_uint32>(s), index, &v));
                value = static_cast<double>(v);
            } else if (type == GPA_TYPE_FLOAT64) {
                GPA_CHECK(GPA_GetSampleFloat64(session, static_cast<gpa_uint32>(s), index, &value));
            } else {
                FAIL() << counter << " has an unexpected type " << type;
            }
            values.push_back(value);
        }
    }
}

// Enables `counters` on the current GPA context, runs `work(sample)` for each sample in every pass the
// counters need, and reads every value. `fixture` names a counter data fixture to record, if recording.
inline void Measure(const std::vector<std::string>& counters, size_t samples, const std::function<void(size_t)>& work,
                    Results* results, const std::string& fixture = {}) {
    GPA_CHECK(GPA_DisableAllCounters());
    for (const std::string& counter : counters) GPA_CHECK(GPA_EnableCounterStr(counter.c_str()));
    const std::string directory = FixtureDirectory(fixture);
    if (!directory.empty()) {
        std::filesystem::create_directories(directory);
        setenv("OPENGPA_CUDA_RECORD_COUNTER_DATA", directory.c_str(), 1);
        // Room for exactly these samples: images grow with the samples they can hold.
        setenv("OPENGPA_CUDA_MAX_SAMPLES", std::to_string(samples).c_str(), 1);
    }
    gpa_uint32 session = 0;
    GPA_CHECK(GPA_BeginSession(&session));
    unsetenv("OPENGPA_CUDA_RECORD_COUNTER_DATA");
    unsetenv("OPENGPA_CUDA_MAX_SAMPLES");
    GPA_CHECK(GPA_GetPassCount(&results->passes));
    for (gpa_uint32 pass = 0; pass < results->passes; ++pass) {
        GPA_CHECK(GPA_BeginPass());
        for (size_t s = 0; s < samples; ++s) {
            GPA_CHECK(GPA_BeginSample(static_cast<gpa_uint32>(s)));
            work(s);
            GPA_CHECK(GPA_EndSample());
        }
        GPA_CHECK(GPA_EndPass());
    }
    GPA_CHECK(GPA_EndSession());
    ReadSamples(session, counters, samples, results);
}

}  // namespace gpu_test
